package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// TestPastedListOfLiterals: a user pastes 5,000 bucket names into one
// line with no full stop, and the agent repeats them. Every literal is
// held to, each with a stretch of its "sentence" around it. When each kept
// the whole 200 KB line, this test's audit held 1 GB, and one of 30,000
// names (a 2.5 MB file) went past 24 GB.
func TestPastedListOfLiterals(t *testing.T) {
	const n = 5000
	var list strings.Builder
	for i := range n {
		fmt.Fprintf(&list, "then deploy to s3://acme-bucket-%d/ and ", i)
	}
	lines := []string{
		`{"type":"message","agent":"main","role":"user","content":"Deploy the site; never touch prod.","turn":1}`,
		fmt.Sprintf(`{"type":"message","agent":"main","role":"user","content":%q,"turn":2}`, "Use these buckets: "+list.String()),
		fmt.Sprintf(`{"type":"message","agent":"main","role":"assistant","content":%q,"turn":3}`, "I will "+list.String()),
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list = strings.Builder{}
	before := liveHeap()
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}
	res, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	held := int64(liveHeap()) - int64(before)
	buckets := 0
	for _, o := range res.Ledgers["main"].Obligations {
		if o.Kind != tag.KindLiteral || !strings.HasPrefix(o.Literal, "s3://acme-bucket-") {
			continue
		}
		buckets++
		if !strings.Contains(o.Sentence, o.Literal) || len(o.Sentence) > 1100 {
			t.Fatalf("%s keeps a sentence of %d bytes that does not hold it, or is past the bound", o.Literal, len(o.Sentence))
		}
	}
	if buckets != n {
		t.Errorf("%d buckets held to, want %d", buckets, n)
	}
	t.Logf("the audit holds %d MB for %d obligations", held>>20, len(res.Ledgers["main"].Obligations))
	if held > 64<<20 {
		t.Errorf("the audit holds %d MB for a 400 KB file", held>>20)
	}
	runtime.KeepAlive(res)
}

// TestNearMissPastIndex: a window that has tested many tokens against many
// literals looks near misses up through an index, and still finds them.
// The user binds 40 buckets, the summary drops them, the agent runs 30
// calls whose new tokens are near nothing (1,200 tests), then deploys to
// a near variant of the first bucket.
func TestNearMissPastIndex(t *testing.T) {
	var buckets []string
	for i := range 40 {
		buckets = append(buckets, fmt.Sprintf("s3://acme-stage-%02d/", i))
	}
	lines := []string{
		fmt.Sprintf(`{"type":"message","agent":"main","role":"user","content":%q,"turn":1}`, "Deploy only to these buckets: "+strings.Join(buckets, ", ")+"."),
		`{"type":"compaction","agent":"main","summary":"The user gave a list of staging buckets.","trigger":"auto","pre_tokens":118000,"turn":2}`,
	}
	for i := range 30 {
		lines = append(lines, fmt.Sprintf(`{"type":"tool_call","agent":"main","id":"c%d","name":"shell","arguments":{"command":"kubectl apply -f svc-%d.yaml"},"turn":%d}`, i, i, 3+i))
	}
	lines = append(lines, `{"type":"tool_call","agent":"main","id":"deploy","name":"shell","arguments":{"command":"aws s3 sync out/ s3://acme-staging/"},"turn":40}`)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := audit.Audit(parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}, parse.Options{}, audit.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	deploy := len(lines)
	for _, f := range res.Findings {
		if f.Rule == "paraphrase-reference" && f.Line == deploy {
			if !strings.Contains(f.Message, "s3://acme-staging/") || !strings.Contains(f.Message, "s3://acme-stage-00/") {
				t.Errorf("the near miss names the wrong literals: %s", f.Message)
			}
			return
		}
	}
	t.Fatalf("no paraphrase-reference for the deploy to s3://acme-staging/ at line %d", deploy)
}

// denseSentences are sentences with no full stop that repeat one cue
// thousands of times, as a pasted list does: every cue reads the words
// around it, and reading the whole sentence instead made each quadratic.
// With 20,000 repeats the previous code took 54 s for "never", 95 s for
// "at most 3", about 80 s for "all tests pass" and 28 s for "must not".
func denseSentences(repeats int) map[string]string {
	out := map[string]string{}
	for _, cue := range []string{"never ", "at most 3 ", "all tests pass ", "must not deploy "} {
		out[strings.TrimSpace(cue)] = strings.Repeat(cue, repeats)
	}
	return out
}

// writeDenseRun writes a run in which the user, the agent and a summary
// each say text.
func writeDenseRun(tb testing.TB, text string) parse.Transcript {
	lines := []string{
		fmt.Sprintf(`{"type":"message","agent":"main","role":"user","content":%q,"turn":1}`, text),
		fmt.Sprintf(`{"type":"message","agent":"main","role":"assistant","content":%q,"turn":2}`, text),
		fmt.Sprintf(`{"type":"compaction","agent":"main","summary":%q,"trigger":"auto","pre_tokens":118000,"turn":3}`, text),
		`{"type":"message","agent":"main","role":"assistant","content":"Continuing.","turn":4}`,
	}
	path := filepath.Join(tb.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}
}

// TestDenseSentencesFinish: the audit of such sentences is linear in their
// length. BenchmarkDenseSentence measures it; this only says it ends.
func TestDenseSentencesFinish(t *testing.T) {
	for cue, text := range denseSentences(20000) {
		tr := writeDenseRun(t, text)
		done := make(chan error)
		go func() {
			_, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: rules.All()})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%q: %v", cue, err)
			}
		case <-time.After(90 * time.Second):
			t.Fatalf("%q: the audit of %d KB has not finished in 90 s", cue, len(text)>>10)
		}
	}
}

// BenchmarkDenseSentence audits one dense sentence of each cue at two
// lengths: linear work makes the longer four times the shorter.
func BenchmarkDenseSentence(b *testing.B) {
	for _, repeats := range []int{5000, 20000} {
		for cue, text := range denseSentences(repeats) {
			tr := writeDenseRun(b, text)
			b.Run(fmt.Sprintf("%s/%d", strings.ReplaceAll(cue, " ", "_"), repeats), func(b *testing.B) {
				b.SetBytes(int64(3 * len(text)))
				for b.Loop() {
					if _, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: rules.All()}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestPastedDocumentIsBounded: a message that states more obligations
// than any instructions do (a pasted log of limits, each with its own
// number) adds MaxMessageObligations of them and no more, the file's
// diagnostics say where tagging stopped, and obligations stated in later
// messages are tagged as usual.
func TestPastedDocumentIsBounded(t *testing.T) {
	var doc strings.Builder
	for i := range ledger.MaxMessageObligations + 500 {
		fmt.Fprintf(&doc, "Job %d must retry at most %d times. ", i, i+3)
	}
	lines := []string{
		fmt.Sprintf(`{"type":"message","agent":"main","role":"user","content":%q,"turn":1}`, doc.String()),
		`{"type":"message","agent":"main","role":"user","content":"Never touch prod.","turn":2}`,
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}
	res, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	first, prod := 0, false
	for _, o := range res.Ledgers["main"].Obligations {
		switch {
		case o.Origin.Turn == 1:
			first++
		case o.Kind == tag.KindProhibition && strings.Contains(o.Text, "prod"):
			prod = true
		}
	}
	if first != ledger.MaxMessageObligations {
		t.Errorf("the pasted message added %d obligations, want %d", first, ledger.MaxMessageObligations)
	}
	if !prod {
		t.Error("the next message's prohibition was not tagged")
	}
	var warned []string
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			warned = append(warned, d.String())
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], path+":1:") || !strings.Contains(warned[0], "nothing more of it is tagged") {
		t.Errorf("diagnostics %q, want one warning at %s:1", warned, path)
	}
}
