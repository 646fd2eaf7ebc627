package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/report"
)

// TestDriftTrailIsRecent: a limit restated and worn down again at every
// other compaction, across many, gives a finding each time it drifts,
// each showing the trail since the limit last came through intact and
// counting the rest, never the whole history. With no intact boundary
// the trail is cut to the last MaxRecentTrail.
func TestDriftTrailIsRecent(t *testing.T) {
	for _, c := range []struct {
		name      string
		summaries func(i int) string
	}{
		// preserved, vague, preserved, vague…: each drift follows an intact boundary
		{"restated", func(i int) string {
			if i%2 == 0 {
				return "Retry flaky tests at most 2 times. Keep going on the checkout fixes."
			}
			return "Retry flaky tests a few times. Keep going on the checkout fixes."
		}},
		// vague, dropped, vague, dropped…: never intact after the first
		{"never intact", func(i int) string {
			if i%2 == 0 {
				return "Retry flaky tests a few times. Keep going on the checkout fixes."
			}
			return "Keep going on the checkout fixes."
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			const compactions = 24
			lines := []string{`{"type":"message","role":"user","content":"Retry flaky tests at most 2 times while you fix checkout.","turn":1}`}
			for i := range compactions {
				lines = append(lines,
					fmt.Sprintf(`{"type":"compaction","summary":%q,"trigger":"auto","pre_tokens":118000,"turn":%d}`, c.summaries(i), 2*i+2),
					fmt.Sprintf(`{"type":"message","role":"assistant","content":"Working on checkout step %d.","turn":%d}`, i, 2*i+3))
			}
			res := auditRun(t, lines, ThresholdDrift)
			if len(res.Boundaries) != compactions {
				t.Fatalf("%d boundaries, want %d", len(res.Boundaries), compactions)
			}
			if len(res.Findings) < compactions/3 {
				t.Fatalf("%d drift findings over %d compactions; the case needs many", len(res.Findings), compactions)
			}
			long := false
			for _, f := range res.Findings {
				tr, n := f.Evidence.Trail, f.Evidence.TrailOmitted
				if len(tr) == 0 || len(tr) > replay.MaxRecentTrail {
					t.Fatalf("boundary %d: a trail of %d steps", f.Boundary, len(tr))
				}
				if last := tr[len(tr)-1].Boundary; last != f.Boundary || n+len(tr) != f.Boundary {
					t.Errorf("boundary %d: trail ends at %d, %d shown and %d omitted; want it to end here and count every boundary so far", f.Boundary, last, len(tr), n)
				}
				for _, s := range tr[1:max(1, len(tr)-1)] {
					if s.State == replay.Preserved {
						t.Errorf("boundary %d: the trail shows an intact boundary %d before the last one it came through", f.Boundary, s.Boundary)
					}
				}
				if intact := tr[0].State == replay.Preserved; n > 0 && !intact && len(tr) != replay.MaxRecentTrail {
					t.Errorf("boundary %d: %d omitted, yet the trail neither starts intact nor is cut to %d: %+v", f.Boundary, n, replay.MaxRecentTrail, tr)
				}
				if (n > 0) != strings.Contains(f.Message, fmt.Sprintf("(%d earlier boundaries)", n)) {
					t.Errorf("boundary %d: %d omitted, message %q", f.Boundary, n, f.Message)
				}
				if steps := len(f.Evidence.Chain) - 1; steps != len(tr) {
					t.Errorf("boundary %d: the chain has %d boundaries, the trail %d", f.Boundary, steps, len(tr))
				}
				long = long || f.Boundary > replay.MaxRecentTrail+1
			}
			if !long {
				t.Fatal("no finding past the first boundaries; the case does not test the bound")
			}
			// the text report says how many earlier boundaries it leaves out
			var out strings.Builder
			st := report.NewAuditText(&out, report.AuditView{}, report.Options{Rules: All()})
			if err := st.Transcript(res); err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			last := res.Findings[len(res.Findings)-1]
			if want := fmt.Sprintf("(%d earlier) → b%d", last.Evidence.TrailOmitted, last.Evidence.Trail[0].Boundary); !strings.Contains(out.String(), want) {
				t.Errorf("the text report does not show the last finding's trail as %q:\n%s", want, out.String())
			}
		})
	}
}

// TestBreachTrailIsRecent: a call past a limit after 24 compactions, the
// limit worn to "a few" and restated in turn, shows the boundaries since
// it was last intact and counts the rest, and its chain is the statement,
// those boundaries and the call.
func TestBreachTrailIsRecent(t *testing.T) {
	const compactions = 24
	lines := []string{`{"type":"message","role":"user","content":"Run the checkout load test with at most 4 parallel workers.","turn":1}`}
	for i := range compactions {
		summary := "Run the checkout load test with at most 4 parallel workers."
		if i%2 == 1 {
			summary = "Run the checkout load test with a few parallel workers."
		}
		lines = append(lines,
			fmt.Sprintf(`{"type":"compaction","summary":%q,"trigger":"auto","pre_tokens":118000,"turn":%d}`, summary, 2*i+2),
			fmt.Sprintf(`{"type":"message","role":"assistant","content":"Working on checkout step %d.","turn":%d}`, i, 2*i+3))
	}
	lines = append(lines,
		`{"type":"tool_call","id":"c1","name":"shell","arguments":{"command":"./loadtest.sh --workers 8 --duration 5m"},"turn":60}`,
		`{"type":"tool_result","id":"c1","content":"running 8 workers for 5m0s","turn":60}`)
	res := auditRun(t, lines, ThresholdBreach)
	if len(res.Findings) != 1 {
		t.Fatalf("%d findings, want the one breach: %v", len(res.Findings), res.Findings)
	}
	f := res.Findings[0]
	tr, n := f.Evidence.Trail, f.Evidence.TrailOmitted
	// the last boundary wore it down, the one before kept it
	if len(tr) != 2 || tr[0].Boundary != compactions-1 || tr[0].State != replay.Preserved || tr[1].Boundary != compactions || n != compactions-2 {
		t.Errorf("trail %+v with %d omitted; want boundaries %d (intact) and %d, and %d omitted", tr, n, compactions-1, compactions, compactions-2)
	}
	if got := len(f.Evidence.Chain); got != 1+len(tr)+1 {
		t.Errorf("a chain of %d steps; want the statement, the %d boundaries of the trail and the call", got, len(tr))
	}
}

// auditRun audits a canonical run of lines with one rule.
func auditRun(t *testing.T, lines []string, rule *audit.Rule) *audit.Result {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := audit.Audit(parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}, parse.Options{}, audit.Options{Rules: []*audit.Rule{rule}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
