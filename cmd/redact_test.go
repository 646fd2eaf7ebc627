package cmd

import (
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// alnumRuns are the runs of eight letters and digits or more.
var alnumRuns = regexp.MustCompile(`[A-Za-z0-9]{8,}`)

// shownSecrets are the secrets out shows. A secret shows when any run of
// eight letters and digits of it does, so a format's escapes (Markdown's
// ghp\_…) cannot hide one from the check.
func shownSecrets(out string, secrets []string) []string {
	var found []string
	for _, s := range secrets {
		for _, run := range alnumRuns.FindAllString(s, -1) {
			if strings.Contains(out, run) {
				found = append(found, s)
				break
			}
		}
	}
	return found
}

// TestRedactOutputs: a session in which the user pastes credentials. The
// findings quote them; --redact masks them in every format, markdown and
// html mask them by default, and --redact=false keeps them. A baseline,
// which is committed, masks them by default too.
func TestRedactOutputs(t *testing.T) {
	lines := incidentLines(t)
	const (
		awsKey = "AKIAIOSFODNN7EXAMPLE"
		dbPass = "hunter2x"
		ghTok  = "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
		hfTok  = "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"
	)
	lines[1] = strings.Replace(lines[1], "We're launching the new marketing site on Thursday.",
		"We're launching the new marketing site on Thursday. The read replica is postgres://deploy:"+dbPass+"@db-3.internal:5432/app, the key is "+awsKey+
			" and the CI token is "+ghTok+"; log in with huggingface-cli login --token "+hfTok+".", 1)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, joinLines(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	secrets := []string{awsKey, dbPass, ghTok, hfTok}
	leaks := func(out string) []string { return shownSecrets(out, secrets) }
	formats := []string{"text", "json", "ndjson", "sarif", "markdown", "html"}
	quoted := map[string]bool{} // by some format, without --redact
	for _, f := range formats {
		args := []string{"audit", "--format", f, "--fail-on", "none", "--min-severity", "note", path}
		_, plain, errOut := run(t, "", append(args[:len(args)-1:len(args)-1], "--redact=false", path)...)
		l := leaks(plain)
		if len(l) == 0 {
			t.Fatalf("%s: the findings do not quote the credentials, so this test proves nothing: %s", f, errOut)
		}
		for _, s := range l {
			quoted[s] = true
		}
		_, red, _ := run(t, "", append(args[:len(args)-1:len(args)-1], "--redact", path)...)
		if l := leaks(red); len(l) > 0 {
			t.Errorf("%s --redact still shows %v", f, l)
		}
		if !strings.Contains(red, "[REDACTED]") && !strings.Contains(red, `\[REDACTED\]`) && !strings.Contains(red, "***") {
			t.Errorf("%s --redact shows no mask", f)
		}
		_, def, _ := run(t, "", args...)
		switch l := leaks(def); {
		case (f == "markdown" || f == "html") && len(l) > 0:
			t.Errorf("%s is redacted by default, yet shows %v", f, l)
		case f != "markdown" && f != "html" && len(l) == 0:
			t.Errorf("%s is not redacted by default, yet shows none of the credentials", f)
		}
	}
	for _, s := range secrets {
		if !quoted[s] {
			t.Errorf("no format quotes %s, so its masking is not tested", s)
		}
	}
	for _, c := range [][]string{{"ledger", "--redact", path}, {"replay", "--redact", path}} {
		_, out, errOut := run(t, "", c...)
		if out == "" {
			t.Fatalf("%v: no output: %s", c, errOut)
		}
		if l := leaks(out); len(l) > 0 {
			t.Errorf("%v still shows %v", c, l)
		}
	}

	// a baseline is committed with the code: its messages are redacted
	// unless asked not to be, and its fingerprints are the same either way
	_, kept, _ := run(t, "", "baseline", "--redact=false", path)
	if len(leaks(kept)) == 0 {
		t.Fatalf("the baseline's messages quote none of the credentials, so this proves nothing:\n%s", kept)
	}
	_, masked, errOut := run(t, "", "baseline", path)
	if l := leaks(masked); len(l) > 0 {
		t.Errorf("the baseline shows %v", l)
	}
	if !strings.Contains(masked, "[REDACTED]") {
		t.Errorf("the baseline shows no mask:\n%s", masked)
	}
	fingerprints := func(doc string) []string {
		var b struct {
			Findings []struct{ Fingerprint string }
		}
		if err := json.Unmarshal([]byte(doc), &b); err != nil {
			t.Fatalf("baseline: %v\n%s%s", err, doc, errOut)
		}
		var fps []string
		for _, f := range b.Findings {
			fps = append(fps, f.Fingerprint)
		}
		return fps
	}
	if a, b := fingerprints(masked), fingerprints(kept); len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("fingerprints of the redacted baseline %v, of the kept one %v", a, b)
	}
	base := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(base, []byte(masked), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, "", "audit", "--baseline", base, "--format", "json", path); code != 0 || strings.Contains(out, `"baseline_state": "new"`) || !strings.Contains(out, `"baseline_state": "unchanged"`) {
		t.Errorf("audited against its redacted baseline: exit %d, %s%s", code, out, errOut)
	}
}

// TestRedactColouredSecret: a tool that prints in colour puts the colour's
// code right before a credential (ESC [ 32 m AKIA…). Read as text, "32m"
// glued to the key hid it from every pattern that wants it to start a
// word, so --redact let it through. The audit reads text without its
// escape sequences, and the key is masked in every format.
func TestRedactColouredSecret(t *testing.T) {
	const (
		awsKey = "AKIAIOSFODNN7EXAMPLE"
		ghTok  = "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
	)
	lines := incidentLines(t)
	lines[108] = strings.Replace(lines[108], "Thursday's launch plan:",
		`Thursday's launch plan (key \u001b[32m`+awsKey+`\u001b[0m, token \u001b[1m`+ghTok+`\u001b[22m):`, 1)
	if !strings.Contains(lines[108], awsKey) {
		t.Fatal("the user's turn was not found, so this test proves nothing")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, joinLines(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"text", "json", "sarif", "markdown", "html"} {
		mdTok := strings.ReplaceAll(ghTok, "_", `\_`) // as Markdown writes it
		_, plain, _ := run(t, "", "audit", "--format", f, "--min-severity", "note", "--redact=false", path)
		if !strings.Contains(plain, awsKey) || !strings.Contains(plain, ghTok) && !strings.Contains(plain, mdTok) {
			t.Fatalf("%s: the findings do not quote the credentials, so this test proves nothing", f)
		}
		_, red, _ := run(t, "", "audit", "--format", f, "--min-severity", "note", "--redact", path)
		for _, s := range []string{awsKey, ghTok, mdTok} {
			if strings.Contains(red, s) {
				t.Errorf("%s --redact still shows %s", f, s)
			}
		}
	}
}

// TestRedactEverywhere: every string of the shipped transcripts (the
// Claude Code incidents, a Codex rollout, a multi-agent run) is given a
// credential on a line of its own and another after a control character,
// as a tool prints them, so every field any view quotes holds one. With
// --redact no command, in no format, shows eight letters and digits of any
// of them in a row, whatever a format escapes them with; a baseline does
// not by default. Without --redact each command shows some, or the check
// would prove nothing.
func TestRedactEverywhere(t *testing.T) {
	// how each credential is written, and the part that must not show:
	// tokens that show what they are by themselves, and values that only
	// their name tells for secrets — quoted without it (a literal, a
	// citation), they are masked as the values they were seen to be
	forms := [][2]string{
		{"ghp_0123456789abcdefghijABCDEFGHIJklmnop", ""},
		{"AKIAI44QH8DHBEXAMPLE", ""},
		{"sk-proj-Xq3T9vLm2PzR8sKw4NbY7cHd1FgJ6uAe", ""},
		{"xoxb-2214839127-7781034459-Lm4Kq9Zr", ""},
		{"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", ""},
		{"glpat-u8jzPde0IgxLd6GncfBA", ""},
		{"eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJhdWQiOiIzMjU1NTk0MDU1OSJ9.Mh2Q7sZrA9kX4wBvT1nC8pLd", ""},
		{"postgres://deploy:hunter2xQ9z@db-3.internal:5432/app", "hunter2xQ9z"},
		{"API_KEY=9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"},
		{"Authorization: Bearer 7c1e5a9b3d2f4e6a8c0b1d3f5e7a9c2b", "7c1e5a9b3d2f4e6a8c0b1d3f5e7a9c2b"},
		{`"client_secret": "a8f5f167f44f4964e6c998dee827110c"`, "a8f5f167f44f4964e6c998dee827110c"},
		{"AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="},
		{"mysql --password s3cr3tPa55word app", "s3cr3tPa55word"},
		{"SECRET_KEY=q9Xv2Lm8R_tPz4KwY3nB7cD_e5Fh6Jk", "q9Xv2Lm8R_tPz4KwY3nB7cD_e5Fh6Jk"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH"},
	}
	var secrets []string
	for i, f := range forms {
		if f[1] == "" {
			forms[i][1] = f[0]
		}
		secrets = append(secrets, forms[i][1])
	}
	// equal strings get the same credentials, so ids still link records
	pick := func(x string, k int) string {
		h := fnv.New32a()
		h.Write([]byte(x))
		return forms[(int(h.Sum32())+k)%len(forms)][0]
	}
	// at a string's end, and after its first word
	withSecrets := func(x string) string {
		return x + "\n" + pick(x, 0) + " then\a" + pick(x, 1) + "."
	}
	inside := func(x string) string {
		if i := strings.IndexByte(x, ' '); i > 0 {
			return x[:i] + " " + pick(x, 2) + "\n" + x[i:]
		}
		return withSecrets(x)
	}
	shown := map[string]bool{} // by command, without --redact
	for _, change := range []func(string) string{withSecrets, inside} {
		redactEverywhere(t, secrets, change, shown)
	}
	for c, ok := range shown {
		if !ok {
			t.Errorf("%s --redact=false never shows a credential, so this proves nothing", c)
		}
	}
}

// redactEverywhere is TestRedactEverywhere for one way of changing the
// transcripts' strings; shown notes, by command, whether it showed a
// credential without --redact.
func redactEverywhere(t *testing.T, secrets []string, change func(string) string, shown map[string]bool) {
	dir := t.TempDir()
	var commands [][]string
	for _, in := range shippedTranscripts(t) {
		p := filepath.Join(dir, in.name)
		if err := os.WriteFile(p, mapLines(t, in.data, change), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"text", "markdown", "html", "json", "ndjson", "sarif"} {
			commands = append(commands, []string{"audit", "--format", f, "--min-severity", "note", "--fail-on", "none", p})
		}
		for _, c := range []string{"ledger", "replay"} {
			commands = append(commands, []string{c, p}, []string{c, "--format", "json", p})
		}
		commands = append(commands, []string{"baseline", p})
	}
	multi := filepath.Join(dir, "multi.jsonl")
	commands = append(commands, []string{"agents", multi}, []string{"agents", "--format", "json", multi},
		[]string{"audit", "--format", "text", "--fail-on", "none", dir})

	shows := func(out string) []string { return shownSecrets(out, secrets) }
	for _, c := range commands {
		last := len(c) - 1
		_, plain, _ := run(t, "", append(c[:last:last], "--redact=false", c[last])...)
		name := strings.Join(c[:last], " ") + " DIR" + strings.TrimPrefix(c[last], dir)
		shown[name] = shown[name] || len(shows(plain)) > 0
		redact := "--redact"
		if c[0] == "baseline" || slices.Contains(c, "markdown") || slices.Contains(c, "html") {
			redact = "--redact=true" // and by default, below
			_, out, _ := run(t, "", c...)
			if s := shows(out); len(s) > 0 {
				t.Errorf("%v shows %v by default", c, s)
			}
		}
		_, out, errOut := run(t, "", append(c[:last:last], redact, c[last])...)
		if out == "" {
			t.Errorf("%v: no output: %s", c, errOut)
		}
		if s := shows(out); len(s) > 0 {
			t.Errorf("%v --redact shows %v", c, s)
		}
	}
}

// TestRedactorForgets: a streamed output masks a transcript's secret
// pieces in its own part and then forgets them, so a folder run does not
// search every part for every secret met before; an output that writes at
// the end (Markdown, HTML) keeps them until it does.
func TestRedactorForgets(t *testing.T) {
	const v = "7c1e5a9b3d2f4e6a8c0b1d3f5e7a9c2b"
	var out strings.Builder
	r := redacting(&out, true)
	r.learn([]string{v})
	if err := r.flush(); err != nil || len(r.known) != 1 {
		t.Fatalf("a flush with nothing written forgot what it was told: %v, %v", err, r.known)
	}
	r.Write([]byte("uses " + v + "\n"))
	if err := r.flush(); err != nil || r.known != nil {
		t.Fatalf("after writing a part: %v, still knows %v", err, r.known)
	}
	if strings.Contains(out.String(), v[:8]) || !strings.Contains(out.String(), "[REDACTED]") {
		t.Errorf("the part shows %q", out.String())
	}
	off := redacting(&out, false)
	off.learn([]string{v})
	if off.known != nil {
		t.Errorf("an unredacted output keeps secrets: %v", off.known)
	}
}
