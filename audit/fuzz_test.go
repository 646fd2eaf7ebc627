package audit

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/compaudit/compaudit/parse"
)

// FuzzTagging feeds arbitrary text to obligation tagging as a user's
// message, a system rule, the agent's words and a tool's output:
// go test ./audit -run XXX -fuzz FuzzTagging. It checks that tagging never
// panics and that every span it records is the text it points at.
func FuzzTagging(f *testing.F) {
	for _, s := range []string{
		"Deploy only to s3://acme-stage-07/ and never touch prod.",
		"Retry ≤ 3 times; keep p95 under 250ms. Use 9090 instead of 8080.",
		"Do not modify files under vendor/. Tests are failing: 1 failed, 47 passed.",
		"Task B failed; retry pending. I'll convert the JPEGs to WebP at quality 78.",
		"actually, allow up to 5 retries — scratch that, no limit on retries",
	} {
		f.Add(s)
	}
	dir := filepath.Join("..", "testdata", "transcripts", "ledger")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			f.Add(string(txtar.Parse(data).Comment))
		}
	}
	h := newTokenHasher()
	f.Fuzz(func(t *testing.T, text string) {
		l := NewLedger(parse.MainAgent)
		l.tagging = Tagging{}
		turn := 0
		for _, ev := range []parse.Event{
			{Kind: parse.KindMessage, Role: parse.RoleUser, Text: text},
			{Kind: parse.KindMessage, Role: parse.RoleSystem, Origin: parse.OriginRules, Text: text},
			{Kind: parse.KindMessage, Role: parse.RoleAssistant, Text: text},
			{Kind: parse.KindToolCall, Role: parse.RoleAssistant, ToolName: "Bash", ToolID: "t1", Args: []byte(`{"command":` + quoteJSON(text) + `}`)},
			{Kind: parse.KindToolResult, Role: parse.RoleTool, ToolID: "t1", Text: text},
		} {
			turn++
			ev.Agent, ev.Turn, ev.Index, ev.Line = parse.MainAgent, turn, turn, turn
			e := ev
			for _, o := range l.observe(&e, h.prepare(&e)) {
				sp := o.Span
				if sp.Start < 0 || sp.End < sp.Start {
					t.Fatalf("span %+v out of order", sp)
				}
				if o.Kind == KindLiteral && o.Literal == "" {
					t.Fatalf("empty literal from %q", text)
				}
			}
		}
		for _, o := range l.Obligations {
			if o.ID == "" {
				t.Fatalf("obligation without an id: %+v", o)
			}
		}
	})
}
