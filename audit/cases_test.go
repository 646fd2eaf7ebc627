package audit

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata cases")

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
			c := parsetest.Load(t, path, "want")
			ts, diags := parse.Discover([]string{c.Input})
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
			c.Check(t, "want", b.String(), *update)
		})
	}
}

// renderObligation is one line per obligation, everything a reviewer needs
// to judge the tag.
func renderObligation(o *ledger.Obligation) string {
	s := fmt.Sprintf("t%d %s %s/%s %s", o.Origin.Turn, o.Origin.Agent, o.Origin.Source, o.Kind, strconv.Quote(o.Text))
	if o.Polarity != tag.PolarityNone && o.Kind != tag.KindThreshold {
		s += " " + o.Polarity.String()
	}
	switch o.Kind {
	case tag.KindLiteral:
		s += " " + o.LiteralKind
		if o.Label != "" {
			s += "(" + o.Label + ")"
		}
	case tag.KindProhibition, tag.KindRequirement, tag.KindCommitment:
		if o.Object.Verb != "" {
			s += " verb=" + o.Object.Verb
		}
		s += " terms=" + strings.Join(o.Object.Terms, ",")
		if len(o.Object.Literals) > 0 {
			s += " literals=" + strings.Join(o.Object.Literals, ",")
		}
	case tag.KindThreshold:
		th := o.Threshold
		s += fmt.Sprintf(" %s %s %g", th.Subject, th.Comparator, th.Value)
		if th.Unit != "" {
			s += " " + th.Unit
		}
	case tag.KindState:
		s += " " + o.Status.Subject + "=" + o.Status.Value
	case tag.KindRetraction:
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
