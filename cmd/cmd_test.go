package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

const incident = "../testdata/transcripts/incident-claude.jsonl"

func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	s, out, errOut := TestStreams(stdin)
	code := Main(args, s)
	return code, out.String(), errOut.String()
}

// TestLedgerIncident is the foundation's acceptance check: on the first
// design note's incident the ledger shows the literal, the prohibition with
// its object and the threshold, each with its origin turn.
func TestLedgerIncident(t *testing.T) {
	code, out, errOut := run(t, "", "ledger", "--at", "63", incident)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"literal     s3://acme-stage-07/  [uri, bucket, from user]  turn 41, user",
		"prohibition never prod  [object: prod]  turn 41, user",
		"threshold   retry ≤ 3 times  [retry <= 3]  turn 41, user",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ledger lacks %q\n%s", want, out)
		}
	}
}

func TestLedgerJSON(t *testing.T) {
	code, out, errOut := run(t, "", "ledger", "--format", "json", incident)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Tool        string `json:"tool"`
		Transcripts []struct {
			Format string `json:"format"`
			Agents []struct {
				Agent       string `json:"agent"`
				Obligations []struct {
					Kind   string `json:"kind"`
					Text   string `json:"text"`
					Origin struct {
						Turn int    `json:"turn"`
						Role string `json:"role"`
					} `json:"origin"`
					Object *struct {
						Terms []string `json:"terms"`
					} `json:"object"`
				} `json:"obligations"`
			} `json:"agents"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tool != "compaudit" || len(doc.Transcripts) != 1 || doc.Transcripts[0].Format != "claude-code" {
		t.Fatalf("header: %+v", doc)
	}
	found := false
	for _, o := range doc.Transcripts[0].Agents[0].Obligations {
		if o.Kind == "prohibition" && o.Text == "never prod" {
			found = o.Origin.Turn == 41 && o.Origin.Role == "user" && o.Object != nil && o.Object.Terms[0] == "prod"
		}
	}
	if !found {
		t.Error("prohibition never prod at turn 41 missing from JSON")
	}
}

func TestLedgerNDJSONFromStdin(t *testing.T) {
	in := `{"type":"message","role":"user","content":"Never push to main. Retry at most 2 times."}` + "\n"
	code, out, errOut := run(t, in, "ledger", "--format", "ndjson", "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil || v["transcript"] != "-" {
			t.Errorf("line %q: %v", l, err)
		}
	}
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"version"}, ExitOK, ""},
		{[]string{"formats"}, ExitOK, ""},
		{[]string{"formats", "--format", "json"}, ExitOK, ""},
		{[]string{"ledger"}, ExitUsage, "requires at least 1 arg"},
		{[]string{"ledger", "--bogus", incident}, ExitUsage, "unknown flag"},
		{[]string{"ledger", "--format", "xml", incident}, ExitUsage, "--format must be"},
		{[]string{"ledger", "--input-format", "yaml", incident}, ExitUsage, "unknown input format"},
		{[]string{"--color", "sometimes", "version"}, ExitUsage, "--color must be"},
		{[]string{"ledger", "/no/such/transcript.jsonl"}, ExitUnreadable, "/no/such/transcript.jsonl"},
		{[]string{"nosuchcommand"}, ExitUsage, "unknown command"},
	}
	for _, c := range cases {
		code, _, errOut := run(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.err) {
			t.Errorf("%v: exit %d stderr %q; want %d containing %q", c.args, code, errOut, c.code, c.err)
		}
	}
}

// TestUnreadableStdin: nothing recognizable on stdin is exit 3 with the
// formats tried named.
func TestUnreadableStdin(t *testing.T) {
	code, _, errOut := run(t, "not json at all\n", "ledger", "-")
	if code != ExitUnreadable || !strings.Contains(errOut, "tried claude-code, codex, canonical, chat") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestColorDecision(t *testing.T) {
	env := map[string]string{}
	s := &Streams{Getenv: func(k string) string { return env[k] }}
	if !s.useColor("auto", true) || s.useColor("auto", false) {
		t.Error("auto should follow the terminal")
	}
	env["NO_COLOR"] = "1"
	if s.useColor("auto", true) || !s.useColor("always", false) {
		t.Error("NO_COLOR turns auto off; always wins")
	}
	env["NO_COLOR"], env["TERM"] = "", "dumb"
	if s.useColor("auto", true) || s.useColor("never", true) {
		t.Error("TERM=dumb and never turn colour off")
	}
	code, out, _ := run(t, "", "--color", "always", "ledger", "--at", "63", incident)
	if code != 0 || !strings.Contains(out, "\x1b[") {
		t.Error("--color always should style output")
	}
	code, out, _ = run(t, "", "ledger", "--at", "63", incident)
	if code != 0 || strings.Contains(out, "\x1b[") {
		t.Error("output to a buffer should be plain")
	}
}
