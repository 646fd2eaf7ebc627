package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/cmd/config"
)

// copyTo copies a transcript into dir, editing its text with replace.
func copyTo(t *testing.T, src, dir string, replace ...string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(s, replace[i]) {
			t.Fatalf("%q not in %s", replace[i], src)
		}
		s = strings.Replace(s, replace[i], replace[i+1], 1)
	}
	p := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBaselineWorkflow: a baseline taken on a transcript followed by an
// identical run reports no new findings; changing one summary reports
// exactly the new findings.
func TestBaselineWorkflow(t *testing.T) {
	dir := t.TempDir()
	p := copyTo(t, drift, dir)
	code, out, errOut := run(t, "", "baseline", p)
	if code != 0 {
		t.Fatalf("baseline: exit %d %s", code, errOut)
	}
	base := filepath.Join(dir, ".compaudit-baseline.json")
	os.WriteFile(base, []byte(out), 0o644)

	code, out, _ = run(t, "", "audit", "--format", "ndjson", "--baseline", base, p)
	if code != ExitOK {
		t.Errorf("identical run: exit %d, want 0", code)
	}
	for _, f := range ndjsonStates(t, out) {
		if f != "unchanged" {
			t.Fatalf("identical run has a %s finding", f)
		}
	}

	// the second summary loses the bucket, in both places it named it
	copyTo(t, drift, dir, "deploys go to the staging bucket s3://acme-stage-07/, never to production",
		"deploys go to the staging bucket, never to production",
		"was deployed to the staging bucket s3://acme-stage-07/ and the user",
		"was deployed to the staging bucket and the user")
	code, out, _ = run(t, "", "audit", "--format", "ndjson", "--baseline", base, p)
	var fresh []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var g map[string]any
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatal(err)
		}
		if g["baseline_state"] == "new" {
			fresh = append(fresh, g["rule"].(string)+": "+g["message"].(string))
		}
	}
	if len(fresh) != 1 || !strings.HasPrefix(fresh[0], "dropped-literal: s3://acme-stage-07/") {
		t.Errorf("new findings after changing one summary: %q", fresh)
	}
	if code != ExitOK {
		t.Errorf("a new warning fails only with --fail-on warning: exit %d", code)
	}
	if code, _, _ := run(t, "", "audit", "--fail-on", "warning", "--baseline", base, p); code != ExitFindings {
		t.Errorf("new warning with --fail-on warning: exit %d", code)
	}
}

func ndjsonStates(t *testing.T, out string) []string {
	var states []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var g map[string]any
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatal(err)
		}
		s, _ := g["baseline_state"].(string)
		states = append(states, s)
	}
	return states
}

// TestSuppressions: a suppression with a reason silences what it matches
// and keeps the run from failing; unused and expired ones are reported; one
// without a reason is a configuration error.
func TestSuppressions(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, config.FileName)
	os.WriteFile(cfg, []byte(`fail-on: warning
suppressions:
  - rule: forbidden-action
    reason: rolled back in INC-17
  - rule: dropped-literal
    contains: s3://acme-stage-07/
    reason: bucket renamed since
  - rule: paraphrase-reference
    reason: tracked in INC-17
  - rule: softened-negation
    reason: accepted
  - rule: unbound-reference
    reason: nothing to match
  - rule: threshold-drift
    reason: old exception
    expires: 2020-01-01
`), 0o644)
	code, out, errOut := run(t, "", "--config", cfg, "audit", "--format", "ndjson", incident)
	if code != ExitOK {
		t.Errorf("everything above notes suppressed: exit %d (%s)", code, errOut)
	}
	if !strings.Contains(errOut, cfg+":12: suppression matched no finding") || !strings.Contains(errOut, cfg+":14: suppression expired on 2020-01-01") {
		t.Errorf("unused or expired suppression not reported:\n%s", errOut)
	}
	suppressed := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(l, `"suppressed":{"rule":"forbidden-action"`) && strings.Contains(l, "rolled back in INC-17") {
			suppressed++
		}
	}
	if suppressed != 1 {
		t.Errorf("%d forbidden-action findings marked suppressed", suppressed)
	}
	os.WriteFile(cfg, []byte("suppressions:\n  - rule: forbidden-action\n"), 0o644)
	if code, _, errOut := run(t, "", "--config", cfg, "audit", incident); code != ExitUsage || !strings.Contains(errOut, ":2: suppressions: every suppression needs a reason") {
		t.Errorf("no reason: exit %d %s", code, errOut)
	}
}

// TestConfigShapesTheAudit: disabled rules do not run, severity overrides
// apply, configured literal patterns and side-effecting tools count.
func TestConfigShapesTheAudit(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, config.FileName)
	os.WriteFile(cfg, []byte(`rules:
  disable: [ledger-shrink, paraphrase-reference]
  severity: {dropped-literal: note}
`), 0o644)
	_, out, _ := run(t, "", "--config", cfg, "audit", "--format", "ndjson", incident)
	for _, f := range ndjson(t, out) {
		if f.Rule == "ledger-shrink" || f.Rule == "paraphrase-reference" {
			t.Errorf("disabled rule %s ran", f.Rule)
		}
		if f.Rule == "dropped-literal" && f.Severity != "note" {
			t.Errorf("dropped-literal at %s, want the override note", f.Severity)
		}
	}
	// a team's ticket ids, and a tool that writes
	in := strings.Join([]string{
		`{"type":"message","role":"user","content":"Close ticket TKT_88123 and never call wipe_cache."}`,
		`{"type":"compaction","summary":"Working on the ticket."}`,
		`{"type":"tool_call","id":"1","name":"wipe_cache","arguments":{"scope":"all"}}`,
	}, "\n") + "\n"
	os.WriteFile(cfg, []byte("patterns:\n  literals: ['TKT_[0-9]+']\nside-effecting:\n  canonical:\n    remove: [wipe_cache]\n"), 0o644)
	_, out, _ = run(t, in, "--config", cfg, "audit", "--format", "ndjson", "-")
	rules := map[string]bool{}
	for _, f := range ndjson(t, out) {
		rules[f.Rule+":"+f.Obligation.Literal] = true
	}
	if !rules["dropped-literal:TKT_88123"] {
		t.Errorf("the configured pattern was not a literal: %v", rules)
	}
	if rules["forbidden-action:"] {
		t.Errorf("a tool removed from the side-effecting list still counted: %v", rules)
	}
}

// TestOutputs writes text to stdout and SARIF to a file in one run.
func TestOutputs(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.sarif")
	code, out, _ := run(t, "", "audit", "--output", "sarif="+p, "--output", "markdown="+p+".md", incident)
	if code != ExitFindings || !strings.Contains(out, "boundary 1") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(data), `"version": "2.1.0"`) {
		t.Errorf("sarif file: %v", err)
	}
	if md, err := os.ReadFile(p + ".md"); err != nil || !strings.HasPrefix(string(md), "## compaudit:") {
		t.Errorf("markdown file: %v", err)
	}
	for _, bad := range []string{"sarif", "xml=out", "sarif="} {
		if code, _, _ := run(t, "", "audit", "--output", bad, incident); code != ExitUsage {
			t.Errorf("--output %s: exit %d", bad, code)
		}
	}
}

// TestProgress shows files done on a terminal, and nothing on a pipe or in CI.
func TestProgress(t *testing.T) {
	s, _, errOut := TestStreams("")
	s.ErrTTY = true
	Main([]string{"audit", incident, drift}, s)
	if !strings.Contains(errOut.String(), "audited 2/2 files") {
		t.Errorf("no progress on a terminal: %q", errOut.String())
	}
	s, _, errOut = TestStreams("")
	s.ErrTTY = true
	s.Getenv = func(k string) string {
		if k == "CI" {
			return "true"
		}
		return ""
	}
	Main([]string{"audit", incident, drift}, s)
	if strings.Contains(errOut.String(), "audited") {
		t.Errorf("progress in CI: %q", errOut.String())
	}
}

// TestOwnSessions: with no path, audit finds this directory's sessions.
func TestOwnSessions(t *testing.T) {
	home := t.TempDir()
	work := t.TempDir()
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	incidentData, _ := os.ReadFile(incident)
	os.Chdir(work)
	cwd, _ := os.Getwd()
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	s, _, errOut := TestStreams("")
	s.Getenv = env
	if code := Main([]string{"audit"}, s); code != ExitUnreadable || !strings.Contains(errOut.String(), "no agent sessions recorded for "+cwd) {
		t.Fatalf("no sessions: exit %d %s", code, errOut.String())
	}
	enc := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, cwd)
	proj := filepath.Join(home, ".claude", "projects", enc)
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "s1.jsonl"), incidentData, 0o644)
	codex := filepath.Join(home, ".codex", "sessions", "2026", "03", "04")
	os.MkdirAll(codex, 0o755)
	os.WriteFile(filepath.Join(codex, "rollout-2026-03-04T10-00-00-1.jsonl"),
		[]byte(`{"timestamp":"2026-03-04T10:00:00Z","type":"session_meta","payload":{"id":"1","cwd":"`+cwd+`"}}`+"\n"+
			`{"timestamp":"2026-03-04T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(codex, "rollout-2026-03-04T11-00-00-2.jsonl"),
		[]byte(`{"timestamp":"2026-03-04T11:00:00Z","type":"session_meta","payload":{"id":"2","cwd":"/somewhere/else"}}`+"\n"), 0o644)
	s, out, errOut := TestStreams("")
	s.Getenv = env
	code := Main([]string{"audit", "--format", "json"}, s)
	if code != ExitFindings || !strings.Contains(errOut.String(), "1 Claude Code session(s) in "+proj) ||
		!strings.Contains(errOut.String(), "1 Codex session(s)") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var doc struct {
		Totals map[string]int `json:"totals"`
	}
	if json.Unmarshal(out.Bytes(), &doc) != nil || doc.Totals["transcripts"] != 2 {
		t.Errorf("totals %v", doc.Totals)
	}
}

func TestConfigInit(t *testing.T) {
	p := filepath.Join(t.TempDir(), config.FileName)
	if code, _, errOut := run(t, "", "config", "init", p); code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	if _, err := config.Load(p, nil); err != nil {
		t.Errorf("the default file does not load: %v", err)
	}
	if code, _, _ := run(t, "", "config", "init", p); code != ExitUsage {
		t.Error("init overwrote an existing file without --force")
	}
	if code, out, _ := run(t, "", "config", "init", "-"); code != 0 || !strings.Contains(out, "suppressions:") {
		t.Error("init - does not print the file")
	}
}

func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		if code, out, _ := run(t, "", "completion", sh); code != 0 || !strings.Contains(out, "compaudit") {
			t.Errorf("completion %s: exit %d", sh, code)
		}
	}
}

// TestBaselineErrorsSayWhere: a baseline is edited by hand and merged; one
// that is not JSON is a usage error naming its file, line and column, and
// one that is JSON but not a baseline says so.
func TestBaselineErrorsSayWhere(t *testing.T) {
	dir := t.TempDir()
	p := copyTo(t, drift, dir)
	for _, c := range []struct{ doc, want string }{
		// a trailing comma left by a merge
		{"{\n  \"tool\": \"compaudit\",\n  \"findings\": [\n    {\"fingerprint\": \"a\"},\n  ]\n}\n", "base.json:5:3: not a baseline: invalid character ']'"},
		// cut short
		{"{\n  \"tool\": \"compaudit\",\n  \"findings\": [\n", "base.json:4:1: not a baseline: unexpected end of JSON input"},
		// findings as an object
		{`{"tool": "compaudit", "findings": {"a": 1}}`, "base.json:1:35: not a baseline: json: cannot unmarshal object"},
		{`{"findings": []}`, `base.json: not a compaudit baseline (no "tool": "compaudit")`},
	} {
		base := filepath.Join(dir, "base.json")
		if err := os.WriteFile(base, []byte(c.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := run(t, "", "audit", "--baseline", base, p)
		if code != ExitUsage || !strings.Contains(errOut, "--baseline "+dir+string(filepath.Separator)+c.want) {
			t.Errorf("%q: exit %d, %s\nwant it to say %s", c.doc, code, errOut, c.want)
		}
	}
}
