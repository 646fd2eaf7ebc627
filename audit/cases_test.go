package audit

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata cases")

// caseArchive is a txtar case: its files are written to a temporary folder
// and the first is the input.
type caseArchive struct {
	path  string
	ar    *txtar.Archive
	input string
	dir   string
}

func loadCase(t *testing.T, path string) *caseArchive {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &caseArchive{path: path, ar: ar, dir: t.TempDir()}
	for _, f := range ar.Files {
		if f.Name == "want" {
			continue
		}
		p := filepath.Join(c.dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if c.input == "" {
			c.input = p
		}
	}
	return c
}

func (c *caseArchive) section(name string) (string, int) {
	for i, f := range c.ar.Files {
		if f.Name == name {
			return string(f.Data), i
		}
	}
	return "", -1
}

// check compares got with a section, or rewrites the section with -update.
func (c *caseArchive) check(t *testing.T, name, got string) {
	t.Helper()
	want, i := c.section(name)
	if *update {
		if i < 0 {
			c.ar.Files = append(c.ar.Files, txtar.File{Name: name})
			i = len(c.ar.Files) - 1
		}
		c.ar.Files[i].Data = []byte(got)
		if err := os.WriteFile(c.path, txtar.Format(c.ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != want {
		t.Errorf("%s differs (go test ./audit -update rewrites it)\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// TestLedgerCases tags each case in testdata/transcripts/ledger and compares
// the ledger with its want section: every obligation it must tag, and by
// their absence, the sentences it must not.
func TestLedgerCases(t *testing.T) {
	files, _ := filepath.Glob("../testdata/transcripts/ledger/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			c := loadCase(t, path)
			ts, diags := parse.Discover([]string{c.input})
			if len(diags) > 0 || len(ts) != 1 {
				t.Fatalf("discover: %v", diags)
			}
			tl, err := BuildLedgers(ts[0], parse.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tl.Files {
				if f.Err != nil || len(f.Diagnostics) > 0 {
					t.Fatalf("%s: %v %v", f.Path, f.Err, f.Diagnostics)
				}
			}
			var b strings.Builder
			for _, a := range tl.Agents {
				for _, o := range a.Obligations {
					b.WriteString(renderObligation(o))
					b.WriteString("\n")
				}
			}
			c.check(t, "want", b.String())
		})
	}
}

// renderObligation is one line per obligation, everything a reviewer needs
// to judge the tag.
func renderObligation(o *Obligation) string {
	s := fmt.Sprintf("t%d %s %s/%s %s", o.Origin.Turn, o.Origin.Agent, o.Origin.Source, o.Kind, strconv.Quote(o.Text))
	if o.Polarity != PolarityNone && o.Kind != KindThreshold {
		s += " " + o.Polarity.String()
	}
	switch o.Kind {
	case KindLiteral:
		s += " " + o.LiteralKind
		if o.Label != "" {
			s += "(" + o.Label + ")"
		}
	case KindProhibition, KindRequirement, KindCommitment:
		if o.Object.Verb != "" {
			s += " verb=" + o.Object.Verb
		}
		s += " terms=" + strings.Join(o.Object.Terms, ",")
		if len(o.Object.Literals) > 0 {
			s += " literals=" + strings.Join(o.Object.Literals, ",")
		}
	case KindThreshold:
		th := o.Threshold
		s += fmt.Sprintf(" %s %s %g", th.Subject, th.Comparator, th.Value)
		if th.Unit != "" {
			s += " " + th.Unit
		}
	case KindState:
		s += " " + o.Status.Subject + "=" + o.Status.Value
	case KindRetraction:
		s += " retracts=" + strconv.Quote(o.Retracts)
		if o.Replacement != "" {
			s += " replacement=" + strconv.Quote(o.Replacement)
		}
	}
	if o.Standing {
		s += " standing"
	}
	if len(o.Restated) > 0 {
		s += fmt.Sprintf(" restated=%v", o.Restated)
	}
	if o.RetiredAt > 0 {
		how := "retracted"
		if o.Superseded {
			how = "superseded"
		}
		s += fmt.Sprintf(" %s@t%d", how, o.RetiredAt)
	}
	return s
}
