package claude

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// A memory file of the working folder or one above it is read at start and
// sent with every request; one below it is loaded when the agent works
// there, a message a compaction can lose.
func TestLoadedAtStart(t *testing.T) {
	for _, c := range []struct {
		file, cwd string
		want      bool
	}{
		{"/home/dev/acme/CLAUDE.md", "/home/dev/acme", true},
		{"/home/dev/CLAUDE.md", "/home/dev/acme", true},
		{"/CLAUDE.md", "/home/dev/acme", true},
		{"/home/dev/acme/CLAUDE.md", "/home/dev/acme/", true},
		{`C:\code\CLAUDE.md`, `C:\code`, true},
		{"/home/dev/acme/infra/CLAUDE.md", "/home/dev/acme", false},
		{"/home/dev/acme/.claude/rules/go.md", "/home/dev/acme", false},
		{"/home/dev/acme-old/CLAUDE.md", "/home/dev/acme", false},
		{`C:\code\web\CLAUDE.md`, `C:\code`, false},
		{"CLAUDE.md", "/home/dev/acme", false},
		{"", "/home/dev/acme", false},
		{"/home/dev/acme/CLAUDE.md", "", false},
	} {
		if got := loadedAtStart(c.file, c.cwd); got != c.want {
			t.Errorf("loadedAtStart(%q, %q) = %v, want %v", c.file, c.cwd, got, c.want)
		}
	}
}

// TestAssistantRepeatedMembers: of a member an assistant message repeats,
// the first counts, as member and gjson read one; the reader stops at the
// content once it has the id, so the usage after them is never walked.
func TestAssistantRepeatedMembers(t *testing.T) {
	line := func(uuid, message string) string {
		return `{"parentUuid":null,"type":"assistant","message":` + message + `,"uuid":"` + uuid +
			`","timestamp":"2026-03-02T09:14:05.000Z","sessionId":"s1"}` + "\n"
	}
	in := line("u1", `{"id":"msg_1","id":"msg_2","role":"assistant","content":[{"type":"text","text":"first"}],"content":[{"type":"text","text":"second"}],"usage":{"input_tokens":3}}`) +
		line("u2", `{"role":"assistant","content":[{"type":"text","text":"same message"}],"id":"msg_1","usage":{"cache":{"a":[1,{"b":"}"}]}}}`) +
		line("u3", `{"id":"msg_3","content":"plain"}`)
	evs, res := parsetest.ReadString(t, in, parse.Options{})
	if got := parsetest.EventTexts(evs); got != "first,same message,plain" {
		t.Fatalf("texts %q, diagnostics %q", got, parsetest.DiagLines(res))
	}
	if evs[0].Turn != evs[1].Turn || evs[1].Turn == evs[2].Turn {
		t.Fatalf("turns %d %d %d: the first two records are one message (msg_1), the third another", evs[0].Turn, evs[1].Turn, evs[2].Turn)
	}
}

// TestRecordFieldsApartFromLine: the fields a record's events carry past
// the record (its id, time, agent and folder) are copies, not pieces of
// the line, which they would keep; and one folder is kept once.
func TestRecordFieldsApartFromLine(t *testing.T) {
	d := newClaudeDecoder(&parse.Sink{})
	var cwds []string
	for i, line := range []string{
		`{"type":"user","cwd":"/repo","uuid":"u1","timestamp":"2026-03-02T09:14:05.000Z","agentId":"a7","message":{"role":"user","content":"deploy to acme-stage-07"}}`,
		`{"type":"user","cwd":"/repo","uuid":"u2","timestamp":"2026-03-02T09:14:06.000Z","message":{"role":"user","content":"never to prod"}}`,
		`{"type":"user","cwd":"/repo/infra","uuid":"u3","message":{"role":"user","content":"go"}}`,
	} {
		rec, ok := parse.ReadRecord(line, jsontext.RecordIndex{})
		if !ok {
			t.Fatalf("line %d is no record", i+1)
		}
		r := d.Prepare(rec, nil).(*claudeRecord)
		for name, s := range map[string]string{"uuid": r.uuid, "timestamp": r.timestamp, "agentId": r.agentID, "cwd": r.cwd} {
			if parse.Within(s, rec.Raw) {
				t.Errorf("line %d: %s %q is a piece of the line", i+1, name, s)
			}
			if s != "" && !strings.Contains(line, `"`+name+`":"`+s+`"`) {
				t.Errorf("line %d: %s read as %q", i+1, name, s)
			}
		}
		cwds = append(cwds, r.cwd)
	}
	if unsafe.StringData(cwds[0]) != unsafe.StringData(cwds[1]) || cwds[2] != "/repo/infra" {
		t.Errorf("folders %q: the second record's should be the first's copy", cwds)
	}
	// a message written a block per record: its id is kept once, and a
	// call's name and id are copies too
	var ids []string
	for i, line := range []string{
		`{"type":"assistant","uuid":"u4","message":{"id":"msg_01","role":"assistant","content":[{"type":"text","text":"Deploying."}]}}`,
		`{"type":"assistant","uuid":"u5","message":{"id":"msg_01","role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"Bash","input":{"command":"ls"}}]}}`,
	} {
		rec, _ := parse.ReadRecord(line, jsontext.RecordIndex{})
		r := d.Prepare(rec, nil).(*claudeRecord)
		ids = append(ids, r.msgID)
		for _, dr := range r.drafts {
			for _, s := range []string{r.msgID, dr.ev.ToolName, dr.ev.ToolID} {
				if parse.Within(s, rec.Raw) {
					t.Errorf("line %d: %q is a piece of the line", i+4, s)
				}
			}
		}
		if i == 1 && (len(r.drafts) != 1 || r.drafts[0].ev.ToolName != "Bash" || r.drafts[0].ev.ToolID != "toolu_01") {
			t.Errorf("line %d: drafts %+v", i+4, r.drafts)
		}
	}
	if ids[0] != "msg_01" || unsafe.StringData(ids[0]) != unsafe.StringData(ids[1]) {
		t.Errorf("message ids %q: the second record's should be the first's copy", ids)
	}
}

// BenchmarkReadContent times the reader's walk to a record's content
// blocks and their members, by the validator's spans and over the bytes,
// side by side: the walk passes over the output in a block, and over the
// file again under toolUseResult, to find the members after them.
func BenchmarkReadContent(b *testing.B) {
	lines := parsetest.ReadOutputRecords(b)
	var size int64
	recs := make([]parse.Record, len(lines))
	for i, l := range lines {
		rec, ok := parse.ReadRecord(l, jsontext.RecordIndex{})
		if !ok {
			b.Fatalf("line %d is no record", i)
		}
		recs[i], size = rec, size+int64(len(l))
	}
	for _, by := range []string{"spans", "bytes"} {
		b.Run(by, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, rec := range recs {
					j := rec.Text()
					if by == "bytes" {
						j = jsontext.Text{}
					}
					n := 0
					j.Elements(j.Member(rec.Get("message"), "content"), func(raw string) bool {
						n += len(readBlock(j, raw).content)
						return true
					})
					if n == 0 {
						b.Fatal("no output read")
					}
				}
			}
		})
	}
}
