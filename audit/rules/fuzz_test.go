package rules

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// FuzzAudit runs the whole audit — reading, tagging, replay and every
// rule — on arbitrary transcripts, seeded from the labeled cases:
// go test ./audit/rules -run XXX -fuzz FuzzAudit. It must never panic, and
// every finding must name its rule and a place. Read from a file, whose
// quoted texts are let go and read back by offset, the findings must quote
// what they quote from standard input, where the texts are kept.
func FuzzAudit(f *testing.F) {
	root := filepath.Join("..", "..", "testdata", "transcripts")
	for name, data := range parsetest.Files(root, filepath.Join(root, "audit")) {
		if filepath.Ext(name) == ".jsonl" {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := parse.Transcript{Path: "-", Files: []parse.File{{Path: "-"}}}
		res, err := audit.Audit(tr, parse.Options{Stdin: bytes.NewReader(data)}, audit.Options{Rules: All()})
		if err != nil {
			t.Fatalf("audit error: %v", err)
		}
		for _, fd := range res.Findings {
			if fd.Rule == "" || fd.Fingerprint == "" || fd.Severity == 0 {
				t.Fatalf("finding without rule, severity or fingerprint: %+v", fd)
			}
		}
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fromFile, err := audit.Audit(parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}, parse.Options{}, audit.Options{Rules: All()})
		if err != nil {
			t.Fatalf("audit error: %v", err)
		}
		if len(fromFile.Findings) != len(res.Findings) {
			t.Fatalf("%d findings from a file, %d from standard input", len(fromFile.Findings), len(res.Findings))
		}
		for i, fd := range fromFile.Findings {
			want := res.Findings[i].Evidence
			if fd.Evidence.Arguments != want.Arguments {
				t.Fatalf("finding %d: arguments read back as %q, kept as %q", i, fd.Evidence.Arguments, want.Arguments)
			}
			for j, st := range fd.Evidence.Chain {
				if st.Text != want.Chain[j].Text {
					t.Fatalf("finding %d step %d: read back as %q, kept as %q", i, j, st.Text, want.Chain[j].Text)
				}
			}
		}
		for _, fr := range fromFile.Files {
			for _, d := range fr.Diagnostics {
				if strings.Contains(d.Message, "excerpt") {
					t.Fatalf("reading back: %v", d)
				}
			}
		}
		res.Trim()
	})
}
