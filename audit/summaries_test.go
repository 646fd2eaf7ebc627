package audit_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// codexLongRollout writes a Codex rollout that compacts compactions
// times. As Codex does, each compacted record carries the user's recent
// messages (asks of them, about 70 bytes each) and the summary as the
// replacement history, so every boundary's post-compaction text is tens of
// kilobytes, most of it the last boundary's again.
func codexLongRollout(t *testing.T, compactions, asks int) string {
	t.Helper()
	var b strings.Builder
	rec := func(ts int, typ string, payload any) {
		line, err := json.Marshal(map[string]any{"timestamp": fmt.Sprintf("2026-03-04T10:%02d:%02d.000Z", ts/60%60, ts%60), "type": typ, "payload": payload})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	user := func(text string) map[string]any {
		return map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}}
	}
	rec(0, "session_meta", map[string]any{"id": "2e853573-6253-3d19-d7a6-a96792ba84fe", "cwd": "/home/dev/ledgerd",
		"originator": "codex_cli_rs", "cli_version": "0.104.0", "source": "cli", "model_provider": "openai"})
	rec(1, "turn_context", map[string]any{"cwd": "/home/dev/ledgerd", "model": "gpt-5.3-codex"})
	rec(2, "response_item", user("Export the ledger to s3://acme-ledger-exports-07/ and never run the migration against prod."))
	var asked []string
	ts := 3
	for c := range compactions {
		for range asks {
			ask := fmt.Sprintf("Step %d.%d: rerun the export for shard %d and tell me the row count.", c, len(asked), len(asked)%97)
			asked = append(asked, ask)
			rec(ts, "response_item", user(ask))
			ts++
		}
		summary := fmt.Sprintf("Compaction %d: the export to s3://acme-ledger-exports-07/ is running shard by shard; the migration must never run against prod.", c+1)
		var history []any
		for _, a := range asked[max(0, len(asked)-asks):] {
			history = append(history, user(a))
		}
		history = append(history, user("Another language model started to solve this problem and produced a summary of its thinking process. Here is the summary produced by the other language model:\n"+summary))
		rec(ts, "compacted", map[string]any{"message": summary, "replacement_history": history})
		rec(ts+1, "event_msg", map[string]any{"type": "context_compacted"})
		rec(ts+2, "turn_context", map[string]any{"cwd": "/home/dev/ledgerd", "model": "gpt-5.3-codex"})
		ts += 3
	}
	path := filepath.Join(t.TempDir(), "rollout-2026-03-04T10-00-00-0199.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func auditFile(t *testing.T, path string, keep bool) *audit.Result {
	t.Helper()
	ts, diags := parse.Discover([]string{path})
	if len(diags) > 0 || len(ts) != 1 {
		t.Fatalf("%s: %v", path, diags)
	}
	res, err := audit.Audit(ts[0], parse.Options{}, audit.Options{Rules: rules.All(), KeepSummaries: keep})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// findingLines is what a report says of each finding, in order.
func findingLines(res *audit.Result) []string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, fmt.Sprintf("%s %s %s:%d %s", f.Fingerprint, f.Rule, f.File, f.Line, f.Message))
	}
	return out
}

// TestSummariesLetGo: a long Codex rollout's boundaries each carry tens of
// kilobytes of the user's messages. Once the next boundary's rules have
// looked back at a boundary's text, the audit lets it go — with the copy
// the boundary itself held — unless the summaries are kept for the replay
// view. Before, a 1 GB rollout's audit peaked at 210 MB.
func TestSummariesLetGo(t *testing.T) {
	const compactions, asks = 40, 600
	path := codexLongRollout(t, compactions, asks)
	before := liveHeap()
	res := auditFile(t, path, false)
	held := int64(liveHeap()) - int64(before)
	if len(res.Boundaries) != compactions {
		t.Fatalf("%d boundaries, want %d", len(res.Boundaries), compactions)
	}
	for i, b := range res.Boundaries {
		// the last one's rules have run too: no rule looks back at it
		if kept := b.Summary() != ""; kept != (i == compactions-1) {
			t.Errorf("boundary %d of %d: summary kept %v", b.Index, compactions, kept)
		}
		if b.Boundary.Summary != "" || b.Boundary.Kept != nil {
			t.Errorf("boundary %d still holds its record's texts", b.Index)
		}
	}
	// each boundary's text is about 45 KB, 1.8 MB in all; the audit held
	// it three times over (the record's texts, the joined text, its
	// sentences)
	t.Logf("the audit holds %d KB after %d compactions", held>>10, compactions)
	if held > 1<<20 {
		t.Errorf("the audit holds %d KB of boundaries whose texts it has let go", held>>10)
	}
	runtime.KeepAlive(res)

	kept := auditFile(t, path, true)
	for _, b := range kept.Boundaries {
		if !strings.Contains(b.Summary(), fmt.Sprintf("Compaction %d:", b.Index)) || !strings.Contains(b.Summary(), "Step ") {
			t.Errorf("boundary %d: kept summary %.80q lacks the summary or the kept messages", b.Index, b.Summary())
		}
	}
	if got, want := findingLines(res), findingLines(kept); !slices.Equal(got, want) {
		t.Errorf("letting summaries go changed the findings:\n%s\nkept:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSummariesLetGoSameFindings: no rule reads a boundary's text once the
// next boundary's rules have run, so letting it go changes no finding of
// any labelled case or corpus session.
func TestSummariesLetGoSameFindings(t *testing.T) {
	var inputs []string
	archives, _ := filepath.Glob("../testdata/transcripts/audit/*.txtar")
	for _, a := range archives {
		inputs = append(inputs, parsetest.Load(t, a, "want").Input)
	}
	plain, _ := filepath.Glob("../testdata/transcripts/*.jsonl")
	inputs = append(inputs, plain...)
	corpus, _ := filepath.Glob("../../shared/corpus/*/*.jsonl")
	inputs = append(inputs, corpus...)
	if len(inputs) < 50 {
		t.Fatalf("only %d transcripts", len(inputs))
	}
	boundaries := 0
	for _, in := range inputs {
		got, want := auditFile(t, in, false), auditFile(t, in, true)
		boundaries += len(got.Boundaries)
		if g, w := findingLines(got), findingLines(want); !slices.Equal(g, w) {
			t.Errorf("%s: letting summaries go changed the findings:\n%s\nkept:\n%s", in, strings.Join(g, "\n"), strings.Join(w, "\n"))
		}
	}
	t.Logf("%d transcripts, %d boundaries", len(inputs), boundaries)
}
