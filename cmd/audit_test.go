package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const (
	drift     = "../testdata/transcripts/incident-drift-claude.jsonl"
	corpusDir = "../../shared/corpus" // read-only; tests skip it when absent
)

type ndFinding struct {
	Rule       string `json:"rule"`
	Severity   string `json:"severity"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	Turn       int    `json:"turn"`
	Boundary   int    `json:"boundary"`
	Agent      string `json:"agent"`
	Message    string `json:"message"`
	Obligation struct {
		ID       string `json:"id"`
		Kind     string `json:"kind"`
		Text     string `json:"text"`
		Literal  string `json:"literal"`
		Polarity string `json:"polarity"`
		Origin   struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Turn int    `json:"turn"`
			Role string `json:"role"`
		} `json:"origin"`
	} `json:"obligation"`
	Evidence struct {
		Chain []struct {
			Kind     string `json:"kind"`
			Turn     int    `json:"turn"`
			Boundary int    `json:"boundary"`
		} `json:"chain"`
		Trail []struct {
			Boundary int    `json:"boundary"`
			State    string `json:"state"`
		} `json:"trail"`
		Change string `json:"change"`
	} `json:"evidence"`
	Fingerprint string `json:"fingerprint"`
}

func ndjson(t *testing.T, out string) []ndFinding {
	t.Helper()
	var fs []ndFinding
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var f ndFinding
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("not one JSON object per line: %q: %v", l, err)
		}
		fs = append(fs, f)
	}
	return fs
}

// TestAuditIncident is the audit issue's acceptance check on the first
// design note's incident, with its causal chain.
func TestAuditIncident(t *testing.T) {
	code, out, errOut := run(t, "", "audit", "--format", "ndjson", "--min-severity", "warning", incident)
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1: %s", code, errOut)
	}
	fs := ndjson(t, out)
	got := map[string]ndFinding{}
	for _, f := range fs {
		got[f.Rule] = f
	}
	if f := got["dropped-literal"]; f.Obligation.Literal != "s3://acme-stage-07/" || f.Severity != "error" || f.Turn != 63 {
		t.Errorf("dropped-literal: %+v", f)
	}
	if f := got["softened-negation"]; f.Obligation.Text != "never prod" || f.Evidence.Change != "softened" || f.Obligation.Polarity != "forbid" {
		t.Errorf("softened-negation: %+v", f)
	}
	if f := got["paraphrase-reference"]; f.Turn != 97 || !strings.Contains(f.Message, "s3://acme-staging/") || !strings.Contains(f.Message, "use s3://acme-stage-07/") {
		t.Errorf("paraphrase-reference: %+v", f)
	}
	f := got["forbidden-action"]
	if f.Turn != 98 || f.Obligation.Origin.Turn != 41 || f.Obligation.Origin.Role != "user" {
		t.Fatalf("forbidden-action: %+v", f)
	}
	// stated at turn 41 → softened at boundary 1 (turn 63) → violated at turn 98
	c := f.Evidence.Chain
	if len(c) != 3 || c[0].Kind != "stated" || c[0].Turn != 41 || c[1].Kind != "boundary" || c[1].Boundary != 1 ||
		c[1].Turn != 63 || c[2].Kind != "violated" || c[2].Turn != 98 {
		t.Errorf("chain: %+v", c)
	}
}

// TestAuditDrift: the same story over three compactions reports the
// threshold's trail and the later breach.
func TestAuditDrift(t *testing.T) {
	code, out, _ := run(t, "", "audit", "--format", "ndjson", drift)
	if code != ExitFindings {
		t.Fatalf("exit %d", code)
	}
	var drifts, breaches []ndFinding
	for _, f := range ndjson(t, out) {
		switch f.Rule {
		case "threshold-drift":
			drifts = append(drifts, f)
		case "threshold-breach":
			breaches = append(breaches, f)
		}
	}
	if len(drifts) != 2 || len(breaches) != 1 {
		t.Fatalf("%d drifts, %d breaches", len(drifts), len(breaches))
	}
	trail := drifts[1].Evidence.Trail
	if len(trail) != 3 || trail[0].State != "preserved" || trail[1].State != "drifted" || trail[2].State != "drifted" {
		t.Errorf("trail: %+v", trail)
	}
	if b := breaches[0]; b.Turn != 151 || !strings.Contains(b.Message, "--retries 8") {
		t.Errorf("breach: %+v", b)
	}
}

func TestAuditFailOn(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"audit", incident}, ExitFindings},
		{[]string{"audit", "--fail-on", "none", incident}, ExitOK},
		{[]string{"audit", "--fail-on", "note", "../testdata/transcripts/audit/no-compaction.txtar"}, ExitUnreadable},
		{[]string{"audit", "--fail-on", "sometimes", incident}, ExitUsage},
		{[]string{"audit", "--min-severity", "fatal", incident}, ExitUsage},
		{[]string{"audit", "--format", "xml", incident}, ExitUsage},
	} {
		if code, _, errOut := run(t, "", c.args...); code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, errOut)
		}
	}
	// a run with no compaction and nothing to report
	chat := `{"role":"user","content":"Never deploy to prod."}` + "\n" + `{"role":"assistant","content":"OK."}` + "\n"
	if code, out, _ := run(t, chat, "audit", "--fail-on", "note", "--format", "ndjson", "-"); code != ExitOK || out != "" {
		t.Errorf("quiet run: exit %d, out %q", code, out)
	}
}

// TestAuditJSON checks the document's shape: the fields the issue names, and
// empty lists as [] rather than null.
func TestAuditJSON(t *testing.T) {
	code, out, _ := run(t, "", "audit", "--format", "json", incident)
	if code != ExitFindings {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(out, "null") {
		t.Errorf("JSON output holds null")
	}
	var doc struct {
		Tool        string `json:"tool"`
		Version     string `json:"version"`
		Transcripts []struct {
			Path       string   `json:"path"`
			Format     string   `json:"format"`
			Agents     []string `json:"agents"`
			Boundaries []struct {
				Index             int    `json:"index"`
				Line              int    `json:"line"`
				Turn              int    `json:"turn"`
				Kind              string `json:"kind"`
				Trigger           string `json:"trigger"`
				Readable          bool   `json:"readable"`
				ObligationsBefore int    `json:"obligations_before"`
				ObligationsAfter  int    `json:"obligations_after"`
				Survival          map[string]int
			} `json:"boundaries"`
			Findings []json.RawMessage `json:"findings"`
		} `json:"transcripts"`
		Totals map[string]int `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	tr := doc.Transcripts[0]
	b := tr.Boundaries[0]
	if doc.Tool != "compaudit" || tr.Format != "claude-code" || len(tr.Agents) != 1 || b.Turn != 63 || b.Kind != "compact" ||
		b.Trigger != "auto" || !b.Readable || b.ObligationsBefore <= b.ObligationsAfter {
		t.Errorf("document: %+v", doc)
	}
	for _, k := range []string{"preserved", "paraphrased", "softened", "drifted", "dropped", "inverted", "unverifiable"} {
		if _, ok := b.Survival[k]; !ok {
			t.Errorf("survival lacks %s", k)
		}
	}
	if doc.Totals["findings"] != len(tr.Findings) || doc.Totals["errors"] != 4 {
		t.Errorf("totals %v for %d findings", doc.Totals, len(tr.Findings))
	}
}

// TestDeterministic: the same input gives the same bytes in every format.
// TestDeterministic: every format is byte-identical across runs and across
// GOMAXPROCS settings, with files audited at once and a transcript large
// enough to be read by several workers.
func TestDeterministic(t *testing.T) {
	big := bigTranscript(t)
	args := []string{incident, big, "../testdata/transcripts/multiagent-canonical.jsonl"}
	if _, err := os.Stat(corpusDir); err == nil {
		args = append(args, corpusDir)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	formats := slices.Sorted(slices.Values(auditFormatNames()))
	want := map[string]string{}
	for _, procs := range []int{1, 2, 3, 1} {
		runtime.GOMAXPROCS(procs)
		// several transcripts are audited at once; one alone is read by
		// several workers
		for i, set := range [][]string{args, {big}} {
			for _, format := range formats {
				_, out, errOut := run(t, "", append([]string{"audit", "--format", format, "--fail-on", "none"}, set...)...)
				if out == "" {
					t.Fatalf("%s: no output: %s", format, errOut)
				}
				key := fmt.Sprint(format, i)
				if prev, ok := want[key]; !ok {
					want[key] = out
				} else if out != prev {
					t.Errorf("%s output of %v with GOMAXPROCS=%d differs from the first run", format, set, procs)
				}
			}
		}
	}
}

// bigTranscript is the drift incident with a large tool result after every
// tenth record: over the size from which a file is read by several workers.
func bigTranscript(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(drift)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var out []string
	pad := strings.Repeat(`ok  \tgithub.com/acme/site/internal/handler\t0.412s\n`, 3000)
	for i, l := range lines {
		out = append(out, l)
		if i%10 == 9 {
			out = append(out, fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/acme-site","sessionId":"bd2cb367","version":"2.1.39","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_pad%d","type":"tool_result","content":"%s"}]},"uuid":"pad-%d","timestamp":"2026-03-02T09:20:00.000Z"}`, i, pad, i))
		}
	}
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Size() < 4<<20 {
		t.Fatalf("big transcript is only %d bytes", st.Size())
	}
	return path
}

// TestFingerprintsStable: fingerprints do not move when the file is edited
// elsewhere — here, noise records inserted before every line.
func TestFingerprintsStable(t *testing.T) {
	_, before, _ := run(t, "", "audit", "--format", "ndjson", incident)
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	var edited bytes.Buffer
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if len(l) > 0 {
			edited.WriteString(`{"type":"progress","data":{"type":"hook_progress"},"uuid":"noise"}` + "\n")
		}
		edited.Write(l)
	}
	p := filepath.Join(t.TempDir(), filepath.Base(incident))
	if err := os.WriteFile(p, edited.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, after, _ := run(t, "", "audit", "--format", "ndjson", p)
	fa, fb := ndjson(t, before), ndjson(t, after)
	if len(fa) != len(fb) || len(fa) == 0 {
		t.Fatalf("%d findings before, %d after", len(fa), len(fb))
	}
	seen := map[string]bool{}
	for i := range fa {
		if fa[i].Fingerprint != fb[i].Fingerprint || fa[i].Line == fb[i].Line {
			t.Errorf("%s: fingerprint %s → %s (line %d → %d)", fa[i].Rule, fa[i].Fingerprint, fb[i].Fingerprint, fa[i].Line, fb[i].Line)
		}
		if seen[fa[i].Fingerprint] {
			t.Errorf("duplicate fingerprint %s", fa[i].Fingerprint)
		}
		seen[fa[i].Fingerprint] = true
	}
}

func TestRulesAndExplain(t *testing.T) {
	code, out, _ := run(t, "", "rules")
	if code != 0 || !strings.Contains(out, "softened-negation") || !strings.Contains(out, "error") {
		t.Errorf("rules: %d %s", code, out)
	}
	code, out, _ = run(t, "", "explain", "dropped-literal")
	if code != 0 || !strings.Contains(out, "Why it matters") || !strings.Contains(out, "default severity: warning") {
		t.Errorf("explain: %d %s", code, out)
	}
	if code, _, errOut := run(t, "", "explain", "no-such-rule"); code != ExitUsage || !strings.Contains(errOut, "compaudit rules") {
		t.Errorf("explain unknown: %d %s", code, errOut)
	}
}

func TestReplay(t *testing.T) {
	code, out, _ := run(t, "", "replay", "--boundary", "2", drift)
	if code != 0 || !strings.Contains(out, "boundary 2") || strings.Contains(out, "boundary 1 ") ||
		!strings.Contains(out, "trail: b1 preserved → b2 drifted") {
		t.Errorf("replay: %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "replay", "--format", "json", incident)
	var doc map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Errorf("replay json: %d", code)
	}
	// the audit lets a boundary's text go once no rule reads it; the
	// replay shows every boundary's, so it keeps them
	code, out, _ = run(t, "", "replay", "--format", "json", drift)
	var replay struct {
		Transcripts []struct {
			Boundaries []struct {
				Index   int    `json:"index"`
				Summary string `json:"summary"`
			} `json:"boundaries"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal([]byte(out), &replay); err != nil || len(replay.Transcripts) != 1 || len(replay.Transcripts[0].Boundaries) < 2 {
		t.Fatalf("replay json of the drift incident: %d %v", code, err)
	}
	for _, b := range replay.Transcripts[0].Boundaries {
		if b.Summary == "" {
			t.Errorf("boundary %d: the replay shows no summary", b.Index)
		}
	}
}

// TestRealCorpus audits every real transcript: the audit completes with exit
// 0 or 1, and reads everything.
func TestRealCorpus(t *testing.T) {
	const dir = corpusDir
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/corpus is not present")
	}
	code, out, errOut := run(t, "", "audit", "--format", "json", dir+"/claude-code", dir+"/codex")
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("stderr: %s", errOut)
	}
	var doc struct {
		Totals map[string]int `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Totals["transcripts"] != 14 || doc.Totals["boundaries"] != 6 {
		t.Errorf("totals %v: %v", doc.Totals, err)
	}
}

const multi = "../testdata/transcripts/multiagent-canonical.jsonl"

// TestAuditMultiAgent is the shared-state issue's acceptance check: the
// note's pipeline reports the five signals for the executor and nothing for
// the planner or the verifier.
func TestAuditMultiAgent(t *testing.T) {
	code, out, _ := run(t, "", "audit", "--format", "ndjson", multi)
	if code != ExitFindings {
		t.Fatalf("exit %d", code)
	}
	byAgent := map[string]map[string]bool{}
	for _, f := range ndjson(t, out) {
		if byAgent[f.Agent] == nil {
			byAgent[f.Agent] = map[string]bool{}
		}
		byAgent[f.Agent][f.Rule] = true
	}
	for _, r := range []string{"stale-revision", "write-without-reread", "false-completion", "write-breadth-collapse", "citation-decay"} {
		if !byAgent["executor"][r] {
			t.Errorf("executor: no %s", r)
		}
	}
	if len(byAgent["planner"])+len(byAgent["verifier"]) > 0 {
		t.Errorf("planner %v, verifier %v: want nothing", byAgent["planner"], byAgent["verifier"])
	}
}

func TestAgentsCommand(t *testing.T) {
	code, out, _ := run(t, "", "agents", multi)
	for _, want := range []string{"agent executor", "compacted at turn 8", "notified: none", "baseline 4.2",
		"t7:4 | t8:1 t9:1", "(categorical: \"the completed tasks\")"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("agents output lacks %q (exit %d)\n%s", want, code, out)
		}
	}
	code, out, _ = run(t, "", "agents", "--format", "json", multi)
	var doc struct {
		Transcripts []struct {
			Agents []struct {
				Agent   string `json:"agent"`
				Writes  int    `json:"writes"`
				Breadth []struct {
					Turn, Keys int
				} `json:"write_breadth"`
			} `json:"agents"`
		} `json:"transcripts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Transcripts[0].Agents) != 3 {
		t.Fatalf("agents json: %d %s", code, out)
	}
}

// TestConfigErrors: a bad configuration is exit 2 naming file and line;
// a good one maps tools to state.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("state:\n  - tool: w\n    op: write\n    key: args.k\n    colour: red\n"), 0o644)
	code, _, errOut := run(t, "", "--config", bad, "audit", multi)
	if code != ExitUsage || !strings.Contains(errOut, bad+":5: unknown key \"colour\"") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := run(t, "", "--config", filepath.Join(dir, "missing.yaml"), "audit", multi); code != ExitUsage || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("missing config: exit %d: %s", code, errOut)
	}
}
