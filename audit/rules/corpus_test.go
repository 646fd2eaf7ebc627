package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/sharedstate"
	"github.com/compaudit/compaudit/cmd/config"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
)

var update = flag.Bool("update", false, "rewrite docs/precision-recall.md from this run")

const tablePath = "../../docs/precision-recall.md"

// label is one expected finding: rule, severity, turn, and a key that must
// appear in the finding's message or the arguments of its call.
type label struct {
	rule     string
	severity string
	turn     int
	key      string
	line     int
}

// labeledCase is a transcript with its expected findings.
type labeledCase struct {
	name   string
	input  string // the transcript to audit
	config string // a .compaudit.yaml beside it, if any
	labels []label
	// scope is the lowest severity the labels cover; findings below it are
	// not labeled in this case and not counted.
	scope audit.Severity
}

func parseLabels(t *testing.T, name, want string) ([]label, audit.Severity) {
	t.Helper()
	scope := audit.SeverityNote
	var out []label
	sc := bufio.NewScanner(strings.NewReader(want))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if s, ok := strings.CutPrefix(line, "# scope:"); ok {
				sev, err := audit.ParseSeverity(strings.TrimSpace(s))
				if err != nil {
					t.Fatalf("%s: want line %d: %v", name, n, err)
				}
				scope = sev
			}
			continue
		}
		f := strings.SplitN(line, " ", 4)
		if len(f) < 4 || !strings.HasPrefix(f[2], "t") {
			t.Fatalf("%s: want line %d: %q is not `rule severity tTURN key`", name, n, line)
		}
		var turn int
		fmt.Sscanf(f[2], "t%d", &turn)
		if Lookup(f[0]) == nil {
			t.Fatalf("%s: want line %d: no rule %q", name, n, f[0])
		}
		out = append(out, label{rule: f[0], severity: f[1], turn: turn, key: f[3], line: n})
	}
	return out, scope
}

// auditArgs are the case's transcript and how it is audited: every rule, and
// the state mappings of the .compaudit.yaml beside it.
func (c labeledCase) auditArgs(t *testing.T) (parse.Transcript, audit.Options) {
	t.Helper()
	ts, diags := parse.Discover([]string{c.input})
	if len(diags) > 0 || len(ts) != 1 {
		t.Fatalf("%s: %v", c.name, diags)
	}
	opts := audit.Options{Rules: All()}
	if c.config != "" {
		cfg, err := config.Load(c.config, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		opts.StateMappings = cfg.State
	}
	return ts[0], opts
}

// loadCases finds every labeled transcript: txtar archives in
// testdata/transcripts/audit, and transcripts in testdata/transcripts with a
// .want file beside them.
func loadCases(t *testing.T) []labeledCase {
	t.Helper()
	var cases []labeledCase
	archives, _ := filepath.Glob("../../testdata/transcripts/audit/*.txtar")
	for _, path := range archives {
		tc := parsetest.Load(t, path, "want")
		want, ok := tc.Section("want")
		if !ok {
			t.Fatalf("%s has no want section", path)
		}
		c := labeledCase{name: filepath.Base(path), input: tc.Input}
		if _, ok := tc.Section(config.FileName); ok {
			c.config = filepath.Join(tc.Dir, config.FileName)
		}
		c.labels, c.scope = parseLabels(t, c.name, want)
		cases = append(cases, c)
	}
	wants, _ := filepath.Glob("../../testdata/transcripts/*.want")
	for _, w := range wants {
		data, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		c := labeledCase{name: filepath.Base(w), input: strings.TrimSuffix(w, ".want") + ".jsonl"}
		c.labels, c.scope = parseLabels(t, c.name, string(data))
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatal("no labeled cases")
	}
	return cases
}

type tally struct{ tp, fp, fn int }

func (x tally) precision() float64 {
	if x.tp+x.fp == 0 {
		return 1
	}
	return float64(x.tp) / float64(x.tp+x.fp)
}

func (x tally) recall() float64 {
	if x.tp+x.fn == 0 {
		return 1
	}
	return float64(x.tp) / float64(x.tp+x.fn)
}

func matches(l label, f audit.Finding) bool {
	if l.rule != f.Rule || l.severity != f.Severity.String() || l.turn != f.Turn {
		return false
	}
	return l.key == "-" || strings.Contains(f.Message+" "+f.Evidence.Arguments, l.key)
}

// TestCorpusPrecisionRecall audits every labeled transcript and scores each
// rule: a finding that matches a label is a true positive, an unlabeled
// finding a false positive, an unmatched label a false negative. Traps —
// cases that must stay silent — count through their false positives.
func TestCorpusPrecisionRecall(t *testing.T) {
	cases := loadCases(t)
	per := map[string]*tally{}
	for _, r := range All() {
		per[r.ID] = &tally{}
	}
	var problems []string
	for _, c := range cases {
		tr, opts := c.auditArgs(t)
		res, err := audit.Audit(tr, parse.Options{}, opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, f := range res.Files {
			if f.Err != nil || len(f.Diagnostics) > 0 {
				t.Fatalf("%s: %s: %v %v", c.name, f.Path, f.Err, f.Diagnostics)
			}
		}
		used := make([]bool, len(res.Findings))
		for _, l := range c.labels {
			found := false
			for i, f := range res.Findings {
				if !used[i] && matches(l, f) {
					used[i], found = true, true
					break
				}
			}
			if found {
				per[l.rule].tp++
			} else {
				per[l.rule].fn++
				problems = append(problems, fmt.Sprintf("%s: missed (want line %d) %s %s t%d %s", c.name, l.line, l.rule, l.severity, l.turn, l.key))
			}
		}
		for i, f := range res.Findings {
			if used[i] || f.Severity < c.scope {
				continue
			}
			per[f.Rule].fp++
			problems = append(problems, fmt.Sprintf("%s: unexpected %s %s t%d: %s", c.name, f.Rule, f.Severity, f.Turn, f.Message))
		}
	}
	table := renderTable(per, len(cases))
	if *update {
		if err := os.WriteFile(tablePath, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range problems {
		t.Log(p)
	}
	ids := make([]string, 0, len(per))
	for id := range per {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		x := per[id]
		if x.tp+x.fn == 0 {
			t.Errorf("%s: no labeled case must fire it", id)
			continue
		}
		if x.precision() < 0.9 || x.recall() < 0.9 {
			t.Errorf("%s: precision %.2f recall %.2f (tp %d fp %d fn %d), want both ≥ 0.90", id, x.precision(), x.recall(), x.tp, x.fp, x.fn)
		}
	}
	if !*update {
		got, err := os.ReadFile(tablePath)
		if err != nil || string(got) != table {
			t.Errorf("%s is stale; regenerate it with: go test ./audit/rules -run TestCorpusPrecisionRecall -update", tablePath)
		}
	}
}

func renderTable(per map[string]*tally, cases int) string {
	var b strings.Builder
	b.WriteString("# Precision and recall per rule\n\n")
	fmt.Fprintf(&b, "Measured over the %d labeled transcripts in testdata/transcripts/ (txtar cases in\n", cases)
	b.WriteString("testdata/transcripts/audit/ and the incident transcripts with their .want files).\n")
	b.WriteString("Each case lists the findings it must produce; everything else it produces at or above\n")
	b.WriteString("its labeled scope counts as a false positive, so the traps that must stay silent are\n")
	b.WriteString("measured too. The test fails when a rule falls below 0.90 on either.\n\n")
	b.WriteString("Regenerate with:\n\n    go test ./audit/rules -run TestCorpusPrecisionRecall -update\n\n")
	b.WriteString("| rule | true positives | false positives | false negatives | precision | recall |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	ids := make([]string, 0, len(per))
	for id := range per {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var total tally
	for _, id := range ids {
		x := per[id]
		total.tp += x.tp
		total.fp += x.fp
		total.fn += x.fn
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.2f | %.2f |\n", id, x.tp, x.fp, x.fn, x.precision(), x.recall())
	}
	fmt.Fprintf(&b, "| **all** | %d | %d | %d | %.2f | %.2f |\n", total.tp, total.fp, total.fn, total.precision(), total.recall())
	return b.String()
}

// TestCasesReadInPieces audits every labeled case, its state mappings
// included, on one goroutine and again by two workers in chunks of 1 and 2
// KB, as a large file is read: there the reader reuses a chunk once its
// batch is applied, clearing it here, so a finding or a shared-state
// operation that kept a piece of a line would differ.
func TestCasesReadInPieces(t *testing.T) {
	for _, c := range loadCases(t) {
		tr, opts := c.auditArgs(t)
		run := func(workers int) []byte {
			res, err := audit.Audit(tr, parse.Options{Workers: workers}, opts)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			var ops []sharedstate.StateOp
			for _, op := range res.State.Ops.All() {
				ops = append(ops, *op)
			}
			out, err := json.Marshal(struct {
				F   []audit.Finding
				S   *sharedstate.StateRun
				Ops []sharedstate.StateOp
			}{res.Findings, res.State, ops})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		own := run(1)
		// pieces of one line or two, so that a call and its result fall
		// in different batches
		for _, n := range []int{1 << 10, 2 << 10} {
			restore := parse.ReadInSmallPieces(n)
			pieces := run(2)
			restore()
			if !bytes.Equal(own, pieces) {
				t.Errorf("%s: read in pieces of %d bytes, the findings or the shared state differ:\n%s\nnot\n%s", c.name, n, pieces, own)
			}
		}
	}
}
