package audit_test

import (
	"bytes"
	"path/filepath"
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
	render := func(path string, workers int) []byte {
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
	for _, path := range files {
		own := render(path, 1)
		restore := parse.ReadInSmallPieces(4 << 10)
		pieces := render(path, 2)
		restore()
		if !bytes.Equal(own, pieces) {
			i := 0
			for i < min(len(own), len(pieces)) && own[i] == pieces[i] {
				i++
			}
			t.Errorf("%s: read in pieces, the audit differs from byte %d:\n%q\nnot\n%q", path, i,
				pieces[max(i-80, 0):min(i+80, len(pieces))], own[max(i-80, 0):min(i+80, len(own))])
		}
	}
}
