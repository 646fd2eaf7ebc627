package audit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
	"github.com/compaudit/compaudit/report"
)

// The reader reads a large file in chunks it reuses once their batch is
// applied, and a decoder that kept a piece of a line there would hand the
// audit a view of reused memory. An audit that kept a piece of one — in an obligation, a finding, a
// judgement, a window — would show another record's text, or the NULs
// released memory is cleared to here. So each shipped transcript and
// labelled case, and the corpus where it is present, is audited on one
// goroutine, where every text is the audit's own, and again by two
// workers in 4 KB chunks, and every view of the two must be the same.
func TestToolOutputNotKept(t *testing.T) {
	files := parsetest.Transcripts(t)
	cases, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", "audit", "*.txtar"))
	for _, c := range cases {
		files = append(files, parsetest.Load(t, c, "want").Input)
	}
	if len(files) < 40 {
		t.Fatalf("only %d transcripts", len(files))
	}
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
// chunk: a deploy to a near miss that fails, as
// in the incident, whose error line a window keeps; test runs whose
// outcome the ledger reads; colour codes, text past ASCII and escaped
// quotes; a reminder riding on a result; bytes that are not UTF-8; and
// outputs longer than a chunk. The same steps are written as a Claude
// Code session and as a Codex rollout, once more when a result is JSON
// inside a string.
func TestHostileToolOutputNotKept(t *testing.T) {
	for _, format := range []string{"claude", "codex"} {
		t.Run(format, func(t *testing.T) {
			var b strings.Builder
			w := hostileWriters[format](&b)
			w.prompt("Deploy to the staging bucket s3://acme-stage-07/ only; never touch s3://acme-prod/. Run the tests first, and retry a deploy at most 3 times.")
			for i := range 600 {
				id := fmt.Sprintf("call_%06d", i)
				switch i % 6 {
				case 0:
					out := strings.Repeat(fmt.Sprintf("ok  \tgithub.com/acme/site/pkg%d\t0.%ds\n", i, i%9), 20)
					if i%12 == 0 {
						out += fmt.Sprintf("--- FAIL: TestPrice%d (0.01s)\nFAIL\tgithub.com/acme/site/price\t0.2s\nFAIL\n", i)
					}
					w.step(id, "go test ./...", out, i%12 == 0)
				case 1:
					if i < 100 {
						w.step(id, "aws s3 sync out/ s3://acme-stage-07/", fmt.Sprintf("upload: out/app-%d.js to s3://acme-stage-07/app.js\n", i), false)
						break
					}
					// after the first compaction, to the summary's paraphrase
					w.step(id, "aws s3 sync out/ s3://acme-staging/", fmt.Sprintf("upload: out/app-%d.js to s3://acme-staging/app.js\nfatal error: An error occurred (NoSuchBucket) when calling the PutObject operation: The specified bucket does not exist\n", i), true)
				case 2:
					w.step(id, "cat docs/NOTES.md", strings.Repeat("Ω≈ç√ café \"quoted\" \\ back\n", 16)+
						fmt.Sprintf("<system-reminder>Note %d: the build cache lives in /tmp/cache-%d.</system-reminder>", i, i), false)
				case 3:
					w.step(id, "make build", strings.Repeat("cc -O2 -c src/very/long/path/to/unit.c -o build/unit.o\n", 1300)+"make: *** [all] Error 2", true)
				case 4:
					w.step(id, "ls build/", "\x1b[1;34mbuild/\x1b[0m\nbad \xff\xfe bytes in a file name: build/\xe9t\xe9.o\n", false)
				case 5:
					w.step(id, "true", "", false)
				}
				if i%100 == 99 {
					w.compaction("Summary: deploying the site to the staging bucket; prefer staging over prod. The tests pass. Pending: finish the deploy.")
				}
			}
			// the encoder writes bytes that are not UTF-8 as U+FFFD; a tool's
			// output in a transcript holds them raw
			data := strings.ReplaceAll(b.String(), `bad \ufffd\ufffd bytes`, "bad \xff\xfe bytes")
			if data == b.String() {
				t.Fatal("no raw bytes were written")
			}
			path := filepath.Join(t.TempDir(), "session.jsonl")
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			views := samePieces(t, path, 4<<10, 64<<10, 1<<20)
			// what the audit read of the outputs reaches the report: the
			// deploy's error line through the window, the failed test run
			// through the ledger
			for _, want := range []string{"NoSuchBucket", "paraphrase-reference", "status-inflation", "github.com/acme/site/pkg"} {
				if !bytes.Contains(views, []byte(want)) {
					t.Errorf("the views hold no %q", want)
				}
			}
		})
	}
}

// hostileWriter writes the steps of TestHostileToolOutputNotKept in one
// agent's record shapes.
type hostileWriter struct {
	prompt     func(text string)
	step       func(id, command, output string, failed bool)
	compaction func(summary string)
}

var hostileWriters = map[string]func(*strings.Builder) hostileWriter{
	"claude": func(b *strings.Builder) hostileWriter {
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
			writeRecord(b, m)
		}
		return hostileWriter{
			prompt: func(text string) {
				record(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
			},
			step: func(id, command, out string, failed bool) {
				record(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_" + id, "role": "assistant",
					"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": command}}}}})
				record(map[string]any{"type": "user", "toolUseResult": out, "message": map[string]any{"role": "user",
					"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": failed}}}})
			},
			compaction: func(summary string) {
				record(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
					"compactMetadata": map[string]any{"trigger": "auto", "preTokens": 150000}})
				record(map[string]any{"type": "user", "isCompactSummary": true, "message": map[string]any{"role": "user", "content": summary}})
			},
		}
	},
	"codex": func(b *strings.Builder) hostileWriter {
		n, steps := 0, 0
		record := func(typ string, payload map[string]any) {
			n++
			writeRecord(b, map[string]any{"timestamp": fmt.Sprintf("2026-03-09T%02d:%02d:%02d.000Z", 10+n/3600, n/60%60, n%60),
				"type": typ, "payload": payload})
		}
		record("session_meta", map[string]any{"id": "c393fd0e", "cwd": "/home/dev/acme-site", "originator": "codex_cli_rs", "cli_version": "0.104.0"})
		record("turn_context", map[string]any{"cwd": "/home/dev/acme-site", "model": "gpt-5.3-codex"})
		return hostileWriter{
			prompt: func(text string) {
				record("response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}})
			},
			step: func(id, command, out string, failed bool) {
				args, _ := json.Marshal(map[string]any{"cmd": command, "workdir": "/home/dev/acme-site"})
				record("response_item", map[string]any{"type": "function_call", "name": "exec_command", "arguments": string(args), "call_id": id})
				code := 0
				if failed {
					code = 1
				}
				output := fmt.Sprintf("Chunk ID: 115b\nWall time: 0.4 seconds\nProcess exited with code %d\nOutput:\n%s", code, out)
				if steps++; steps%5 == 0 {
					// JSON inside a string, as apply_patch and older shells write it
					inner, _ := json.Marshal(map[string]any{"output": out, "metadata": map[string]any{"exit_code": code}})
					output = string(inner)
				}
				record("response_item", map[string]any{"type": "function_call_output", "call_id": id, "output": output})
			},
			compaction: func(summary string) {
				record("compacted", map[string]any{"message": "Another language model started to solve this problem and produced a summary of its thinking process. " +
					"You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. " +
					"Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\n" + summary})
				record("turn_context", map[string]any{"cwd": "/home/dev/acme-site", "model": "gpt-5.3-codex"})
			},
		}
	},
}

func writeRecord(b *strings.Builder, m map[string]any) {
	line, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	b.Write(line)
	b.WriteByte('\n')
}

// TestAuditReadsNoReasoningText: the audit asks the reader for reasoning
// without its text (parse.Options.NoReasoningText), which no rule reads.
// The transcripts hold thinking, as a plain read shows.
func TestAuditReadsNoReasoningText(t *testing.T) {
	var thought, reasoning, withText atomic.Int64
	for _, name := range []string{"incident-claude.jsonl", "incident-drift-claude.jsonl"} {
		path := filepath.Join("..", "testdata", "transcripts", name)
		if _, err := parse.ReadFile(parse.File{Path: path}, parse.Options{}, 0, func(ev *parse.Event) error {
			if ev.Kind == parse.KindReasoning && ev.Text != "" {
				thought.Add(1)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		see := func(ev *parse.Event) {
			if ev.Kind == parse.KindReasoning {
				reasoning.Add(1)
				if ev.Text != "" {
					withText.Add(1)
				}
			}
		}
		if _, err := audit.Audit(parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}, parse.Options{Workers: 2, Prepare: see},
			audit.Options{Rules: rules.All()}); err != nil {
			t.Fatal(err)
		}
	}
	if thought.Load() == 0 || reasoning.Load() == 0 {
		t.Fatalf("%d reasoning events with text read, %d audited: the test holds nothing", thought.Load(), reasoning.Load())
	}
	if withText.Load() != 0 {
		t.Errorf("the audit read %d of %d reasoning events with their text", withText.Load(), reasoning.Load())
	}
}
