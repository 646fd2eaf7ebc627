package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/sharedstate"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
	"golang.org/x/tools/txtar"
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
	h := reading.NewTokenHasher()
	f.Fuzz(func(t *testing.T, text string) {
		l := ledger.NewLedger(parse.MainAgent)
		l.Tagging = ledger.Tagging{}
		turn := 0
		for _, ev := range []parse.Event{
			{Kind: parse.KindMessage, Role: parse.RoleUser, Text: text},
			{Kind: parse.KindMessage, Role: parse.RoleSystem, Origin: parse.OriginRules, Text: text},
			{Kind: parse.KindMessage, Role: parse.RoleAssistant, Text: text},
			{Kind: parse.KindToolCall, Role: parse.RoleAssistant, ToolName: "Bash", ToolID: "t1", Args: []byte(`{"command":` + sharedstate.QuoteJSON(text) + `}`)},
			{Kind: parse.KindToolResult, Role: parse.RoleTool, ToolID: "t1", Text: text},
		} {
			turn++
			ev.Agent, ev.Turn, ev.Index, ev.Line = parse.MainAgent, turn, turn, turn
			e := ev
			for _, o := range l.ObserveRead(&e, h.Prepare(&e)) {
				sp := o.Span
				if sp.Start < 0 || sp.End < sp.Start {
					t.Fatalf("span %+v out of order", sp)
				}
				if o.Kind == tag.KindLiteral && o.Literal == "" {
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

// FuzzJudgeIndexed: a boundary judges every obligation the same whether
// its summary is walked sentence by sentence or read through the indexes
// built for long summaries, and whether its sentences are read afresh or
// carried from a previous boundary that held some of them (as a Codex
// compaction carries the user's messages). The obligations come from a
// user's message and the agent's, the summary from the third input.
func FuzzJudgeIndexed(f *testing.F) {
	f.Add("Deploy only to s3://acme-stage-07/ and never touch prod. Keep retries under 3. Keep the timeout under 30s.",
		"I'll convert the hero JPEGs to WebP at quality 78.",
		"The agent deployed to s3://acme-stage-07/. Retries stay under 5. Never touch prod. Keep it quick. It will convert the JPEGs to WebP.")
	f.Add("Never commit secrets to the repo; keep p95 under 250ms.", "I will run the tests after each change.",
		"Secrets must never be committed. Latency should be low. Tests were run after the change.")
	f.Add("Use s3://acme-bucket-7/ and s3://acme-bucket-8/. Keep retries for job7 under 3.", "I will deploy to s3://acme-bucket-7/.",
		"Builds went to s3://acme-bucket-7-old/. Retries for job7 are under 4. Deploys continue.")
	f.Add("Keep the timeout under 30s. Never touch s3://acme-prod/. Keep retries under 3.", "I will keep it short.",
		"Keep it under 45s. Do not touch s3://acme-prod; avoid s3://acme-prod-old/. At most 5 retries.")
	f.Add("Run the backfill as tasks A and B.", "Task A: done. Task B failed (timeout), retry pending.",
		"The backfill ran. Task A is done. Task B is complete and all tests pass.")
	f.Fuzz(func(t *testing.T, user, assistant, summary string) {
		l := ledger.NewLedger(parse.MainAgent)
		l.ObserveRead(&parse.Event{Kind: parse.KindMessage, Role: parse.RoleUser, Agent: parse.MainAgent, Text: user, Turn: 1}, nil)
		l.ObserveRead(&parse.Event{Kind: parse.KindMessage, Role: parse.RoleAssistant, Agent: parse.MainAgent, Text: assistant, Turn: 2}, nil)
		ev := &parse.Event{Kind: parse.KindBoundary, Turn: 3, Boundary: &parse.Boundary{Readable: true, Summary: summary}}
		walked, indexed := replay.NewPostContext(ev, "", nil), replay.NewPostContext(ev, "", nil)
		walked.Folded.Indexed, indexed.Folded.Indexed = false, true
		// the previous boundary kept the user's message and the summary
		// after its first sentence; it judged everything, so its readings
		// hold statuses
		_, rest, _ := strings.Cut(summary, ". ")
		prev := replay.NewPostContext(&parse.Event{Kind: parse.KindBoundary, Turn: 3, Boundary: &parse.Boundary{Readable: true,
			Summary: rest, Kept: []parse.KeptItem{{Role: parse.RoleUser, Text: user}}}}, "", nil)
		for _, o := range l.Obligations {
			prev.Judge(o)
		}
		carried := replay.NewPostContext(ev, "", prev.Folded.Readings)
		carried.Folded.Indexed = true
		for _, o := range l.Obligations {
			a, b, c := walked.Judge(o), indexed.Judge(o), carried.Judge(o)
			if a.State != b.State || *a.Judgement != *b.Judgement {
				t.Fatalf("%s %q: walked %+v, indexed %+v", o.Kind, o.Text, *a.Judgement, *b.Judgement)
			}
			if c.State != b.State || *c.Judgement != *b.Judgement {
				t.Fatalf("%s %q: carried readings %+v, fresh %+v", o.Kind, o.Text, *c.Judgement, *b.Judgement)
			}
		}
	})
}
