package audit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
	"github.com/compaudit/compaudit/report"
)

// The reader hands the audit each tool output as a view of memory it
// reuses once the output's batch is applied (TransientToolOutput). An
// audit that kept a piece of one — in an obligation, a finding, a
// judgement, a window — would show another record's text, or the NULs
// released memory is cleared to here. So each shipped transcript and
// labelled case, and the corpus where it is present, is audited on one
// goroutine, where every text is the audit's own, and again by two
// workers in 4 KB chunks, and every view of the two must be the same.
func TestToolOutputNotKept(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", "*.jsonl"))
	cases, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", "audit", "*.txtar"))
	for _, c := range cases {
		files = append(files, parsetest.Load(t, c, "want").Input)
	}
	if len(files) < 40 {
		t.Fatalf("only %d shipped transcripts", len(files))
	}
	corpus, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "*", "*.jsonl"))
	files = append(files, corpus...)
	for _, path := range files {
		samePieces(t, path, 4<<10)
	}
}

// samePieces audits path on one goroutine and by two workers in chunks of
// each size, holds the JSON, ledger and replay views equal, and returns
// them.
func samePieces(t *testing.T, path string, chunks ...int) []byte {
	t.Helper()
	render := func(workers int) []byte {
		t.Helper()
		tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}
		res, err := audit.Audit(tr, parse.Options{Workers: workers}, audit.Options{Rules: rules.All()})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var b bytes.Buffer
		for _, s := range []report.Stream{
			report.NewAuditJSON(&b, report.AuditView{}, report.Options{}),
			report.NewLedgerJSON(&b, report.LedgerView{}, report.Options{}),
			report.NewReplayJSON(&b, report.ReplayView{}, report.Options{}),
		} {
			if err := s.Transcript(res); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
		return b.Bytes()
	}
	own := render(1)
	for _, n := range chunks {
		restore := parse.ReadInSmallPieces(n)
		pieces := render(2)
		restore()
		if !bytes.Equal(own, pieces) {
			i := 0
			for i < min(len(own), len(pieces)) && own[i] == pieces[i] {
				i++
			}
			t.Errorf("%s: read in pieces of %d bytes, the audit differs from byte %d:\n%q\nnot\n%q", path, n, i,
				pieces[max(i-80, 0):min(i+80, len(pieces))], own[max(i-80, 0):min(i+80, len(own))])
		}
	}
	return own
}

// TestHostileToolOutputNotKept holds the audit read in pieces to the audit
// read whole on tool output the shipped cases have little of, many to a
// batch so the arena's blocks fill: a deploy to a near miss that fails, as
// in the incident, whose error line a window keeps; test runs whose
// outcome the ledger reads; colour codes, text past ASCII and escaped
// quotes; a reminder riding on a result; bytes that are not UTF-8; and
// outputs too long for the arena.
func TestHostileToolOutputNotKept(t *testing.T) {
	var b strings.Builder
	n, parent := 0, ""
	record := func(m map[string]any) {
		n++
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
		m["uuid"], m["parentUuid"], m["sessionId"], m["cwd"], m["version"] = id, parent, "5d1f0c2e", "/home/dev/acme-site", "2.1.87"
		if parent == "" {
			m["parentUuid"] = nil
		}
		m["timestamp"] = fmt.Sprintf("2026-03-09T%02d:%02d:%02d.000Z", 10+n/3600, n/60%60, n%60)
		parent = id
		line, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	call := func(id, command string) {
		record(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_" + id, "role": "assistant",
			"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": command}}}}})
	}
	result := func(id, out string, failed bool) {
		record(map[string]any{"type": "user", "toolUseResult": out, "message": map[string]any{"role": "user",
			"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": failed}}}})
	}
	record(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": "Deploy to the staging bucket s3://acme-stage-07/ only; never touch s3://acme-prod/. Run the tests first, and retry a deploy at most 3 times."}})
	for i := range 600 {
		id := fmt.Sprintf("toolu_%06d", i)
		switch i % 6 {
		case 0:
			call(id, "go test ./...")
			out := strings.Repeat(fmt.Sprintf("ok  \tgithub.com/acme/site/pkg%d\t0.%ds\n", i, i%9), 20)
			if i%12 == 0 {
				out += fmt.Sprintf("--- FAIL: TestPrice%d (0.01s)\nFAIL\tgithub.com/acme/site/price\t0.2s\nFAIL\n", i)
			}
			result(id, out, i%12 == 0)
		case 1:
			if i < 100 {
				call(id, "aws s3 sync out/ s3://acme-stage-07/")
				result(id, fmt.Sprintf("upload: out/app-%d.js to s3://acme-stage-07/app.js\n", i), false)
				break
			}
			// after the first compaction, to the summary's paraphrase
			call(id, "aws s3 sync out/ s3://acme-staging/")
			result(id, fmt.Sprintf("upload: out/app-%d.js to s3://acme-staging/app.js\nfatal error: An error occurred (NoSuchBucket) when calling the PutObject operation: The specified bucket does not exist\n", i), true)
		case 2:
			call(id, "cat docs/NOTES.md")
			result(id, strings.Repeat("Ω≈ç√ café \"quoted\" \\ back\n", 16)+
				fmt.Sprintf("<system-reminder>Note %d: the build cache lives in /tmp/cache-%d.</system-reminder>", i, i), false)
		case 3:
			call(id, "make build")
			result(id, strings.Repeat("cc -O2 -c src/very/long/path/to/unit.c -o build/unit.o\n", 1300)+"make: *** [all] Error 2", true)
		case 4:
			call(id, "ls build/")
			result(id, "\x1b[1;34mbuild/\x1b[0m\nbad \xff\xfe bytes in a file name: build/\xe9t\xe9.o\n", false)
		case 5:
			call(id, "true")
			result(id, "", false)
		}
		if i%100 == 99 {
			record(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
				"compactMetadata": map[string]any{"trigger": "auto", "preTokens": 150000}})
			record(map[string]any{"type": "user", "isCompactSummary": true, "message": map[string]any{"role": "user",
				"content": "Summary: deploying the site to the staging bucket; prefer staging over prod. The tests pass. Pending: finish the deploy."}})
		}
	}
	// the encoder writes bytes that are not UTF-8 as U+FFFD; a tool's output
	// in a transcript holds them raw
	data := strings.ReplaceAll(b.String(), `bad \ufffd\ufffd bytes`, "bad \xff\xfe bytes")
	if data == b.String() {
		t.Fatal("no raw bytes were written")
	}
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	views := samePieces(t, path, 4<<10, 64<<10, 1<<20)
	// what the audit read of the outputs reaches the report: the deploy's
	// error line through the window, the failed test run through the ledger
	for _, want := range []string{"NoSuchBucket", "paraphrase-reference", "status-inflation", "github.com/acme/site/pkg"} {
		if !bytes.Contains(views, []byte(want)) {
			t.Errorf("the views hold no %q", want)
		}
	}
}
