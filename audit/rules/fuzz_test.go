package rules

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/parse"
)

// FuzzAudit runs the whole audit — reading, tagging, replay and every
// rule — on arbitrary transcripts, seeded from the labeled cases:
// go test ./audit/rules -run XXX -fuzz FuzzAudit. It must never panic, and
// every finding must name its rule and a place.
func FuzzAudit(f *testing.F) {
	root := filepath.Join("..", "..", "testdata", "transcripts")
	add := func(data []byte) {
		f.Add(data)
	}
	for _, dir := range []string{root, filepath.Join(root, "audit")} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				continue
			}
			switch filepath.Ext(e.Name()) {
			case ".txtar":
				for _, file := range txtar.Parse(data).Files {
					if filepath.Ext(file.Name) == ".jsonl" {
						add(file.Data)
					}
				}
			case ".jsonl":
				add(data)
			}
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
		res.Trim()
	})
}
