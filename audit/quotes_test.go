package audit_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
)

// incident is a session whose findings quote later calls: the deploy to
// acme-staging at line 270 and the one to acme-prod at line 275.
const incident = "../testdata/transcripts/incident-claude.jsonl"

func auditOf(t *testing.T, path string, stdin []byte) *audit.Result {
	t.Helper()
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path, Agent: parse.MainAgent}}}
	res, err := audit.Audit(tr, parse.Options{Stdin: bytes.NewReader(stdin)}, audit.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// findingsJSON renders findings for comparison, with the file named "-"
// whatever it was read from and the fingerprints, which name it, left out.
func findingsJSON(t *testing.T, res *audit.Result, path string) []string {
	t.Helper()
	var out []string
	for _, f := range res.Findings {
		f.Fingerprint = ""
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.ReplaceAll(string(b), `"`+path+`"`, `"-"`))
	}
	return out
}

func sameFindings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d findings, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: finding %d\n got %s\nwant %s", what, i, got[i], want[i])
		}
	}
}

// TestQuotesWherever: a finding quotes the later calls it is about the
// same whether the session came from a file, a gzipped file or standard
// input, and the quotes are there.
func TestQuotesWherever(t *testing.T) {
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	stdin := auditOf(t, "-", data)
	quoted := 0
	for _, f := range stdin.Findings {
		for _, st := range f.Evidence.Chain {
			switch st.Kind {
			case "used", "needed", "violated", "breached":
				if st.Text != "" {
					quoted++
				}
			}
		}
		if f.Evidence.Tool != "" && f.Evidence.Arguments != "" {
			quoted++
		}
	}
	if quoted < 6 {
		t.Fatalf("%d quotes; the session's four findings on later calls quote at least 6", quoted)
	}
	want := findingsJSON(t, stdin, "-")
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sameFindings(t, "file", findingsJSON(t, auditOf(t, path, nil), path), want)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	gz := path + ".gz"
	if err := os.WriteFile(gz, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sameFindings(t, "gzip", findingsJSON(t, auditOf(t, gz, nil), gz), want)
}

// TestQuotedArgumentsClipped: a forbidden call that writes a file of a
// megabyte is quoted by its first MaxQuotedArguments bytes and a count of
// the rest, not whole.
func TestQuotedArgumentsClipped(t *testing.T) {
	content := strings.Repeat("é", 600<<10) // 1.2 MB, two bytes a rune
	args, _ := json.Marshal(map[string]string{"file_path": "/srv/prod/config.yaml", "content": content})
	in := `{"type":"message","role":"user","content":"Never touch /srv/prod/config.yaml."}` + "\n" +
		`{"type":"compaction","summary":"The user is working on the config."}` + "\n" +
		`{"type":"tool_call","id":"c1","name":"Write","arguments":` + string(args) + "}\n"
	res := auditOf(t, "-", []byte(in))
	found := false
	for _, f := range res.Findings {
		a := f.Evidence.Arguments
		if a == "" {
			continue
		}
		found = true
		if len(a) > audit.MaxQuotedArguments+40 || !strings.HasSuffix(a, " more bytes)") || !strings.HasPrefix(a, `{"content":"éé`) {
			t.Errorf("%s quotes %d bytes of arguments, ending %q", f.Rule, len(a), a[max(len(a)-40, 0):])
		}
	}
	if !found {
		t.Fatalf("no finding quotes the write; findings: %v", res.Findings)
	}
}
