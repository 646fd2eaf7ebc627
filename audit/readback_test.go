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

func auditOf(t *testing.T, path string, stdin []byte, half func(parse.Transcript, parse.Options, audit.Options) (*audit.Result, error)) *audit.Result {
	t.Helper()
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path, Agent: parse.MainAgent}}}
	res, err := half(tr, parse.Options{Stdin: bytes.NewReader(stdin)}, audit.Options{Rules: rules.All()})
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

func copyIncident(t *testing.T) (path string, data []byte) {
	t.Helper()
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// TestReadBackQuotes: a finding made from a file lets the texts it quotes
// from later turns go, and reading them back by offset yields exactly the
// findings of standard input, where they are kept.
func TestReadBackQuotes(t *testing.T) {
	path, data := copyIncident(t)
	want := findingsJSON(t, auditOf(t, "-", data, audit.Audit), "-")

	res := auditOf(t, path, nil, audit.Stream)
	quotes := 0
	for _, f := range res.Findings {
		quotes += f.Quotes()
		for _, st := range f.Evidence.Chain {
			switch st.Kind {
			case "used", "needed", "violated", "breached":
				if st.Text != "" {
					t.Errorf("%s: the %s step at line %d kept its text %q", f.Rule, st.Kind, st.Line, st.Text)
				}
			}
		}
		if f.Evidence.Tool != "" && f.Evidence.Arguments != "" {
			t.Errorf("%s: kept the arguments of %s", f.Rule, f.Evidence.Tool)
		}
	}
	if quotes < 6 {
		t.Fatalf("%d quotes let go; the session's four findings on later calls quote at least 6", quotes)
	}
	res.ReadBack()
	sameFindings(t, "read back", findingsJSON(t, res, path), want)
	if d := res.Files[0].Diagnostics; len(d) != 0 {
		t.Errorf("reading back reported %v", d)
	}

	// gzipped, the stream is decompressed again
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	gz := path + ".gz"
	if err := os.WriteFile(gz, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sameFindings(t, "gzip", findingsJSON(t, auditOf(t, gz, nil, audit.Audit), gz), want)
}

// TestReadBackAppended: a live session grows while it is audited; what
// was written before stays where it was, and reads back.
func TestReadBackAppended(t *testing.T) {
	path, data := copyIncident(t)
	want := findingsJSON(t, auditOf(t, path, nil, audit.Audit), path)
	res := auditOf(t, path, nil, audit.Stream)
	if err := os.WriteFile(path, append(data, data...), 0o644); err != nil {
		t.Fatal(err)
	}
	res.ReadBack()
	sameFindings(t, "appended to", findingsJSON(t, res, path), want)
}

// TestReadBackChangedRecord: a record rewritten between the audit and the
// read-back is not quoted as it is now: its excerpts are left out, with a
// warning on its line, and the other findings keep theirs.
func TestReadBackChangedRecord(t *testing.T) {
	path, data := copyIncident(t)
	want := auditOf(t, path, nil, audit.Audit)
	res := auditOf(t, path, nil, audit.Stream)
	lines := bytes.Split(data, []byte("\n"))
	l275 := lines[274]
	if !bytes.Contains(l275, []byte("s3://acme-prod/")) {
		t.Fatalf("line 275 is not the deploy to acme-prod: %.200s", l275)
	}
	lines[274] = bytes.ReplaceAll(l275, []byte("s3://acme-prod/"), []byte("s3://acme-prud/"))
	if err := os.WriteFile(path, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	res.ReadBack()

	diags := res.Files[0].Diagnostics
	if len(diags) != 1 || diags[0].Line != 275 || diags[0].File != path || diags[0].Severity != parse.Warning ||
		!strings.Contains(diags[0].Message, "changed") {
		t.Fatalf("diagnostics %v; want one warning on line 275 that the record changed", diags)
	}
	if len(res.Findings) != len(want.Findings) {
		t.Fatalf("%d findings, want %d", len(res.Findings), len(want.Findings))
	}
	left := 0
	for i, f := range res.Findings {
		w := want.Findings[i]
		for j, st := range f.Evidence.Chain {
			ws := w.Evidence.Chain[j]
			switch {
			case st.Text == ws.Text:
			case st.Text == "" && st.Line == 275:
				left++
			default:
				t.Errorf("%s: step %s at line %d reads %q, want %q", f.Rule, st.Kind, st.Line, st.Text, ws.Text)
			}
			if strings.Contains(st.Text, "acme-prud") {
				t.Errorf("%s: quotes the rewritten record", f.Rule)
			}
		}
		if f.Evidence.Arguments != w.Evidence.Arguments && (f.Line != 275 || f.Evidence.Arguments != "") {
			t.Errorf("%s: arguments %q, want %q", f.Rule, f.Evidence.Arguments, w.Evidence.Arguments)
		}
	}
	if left != 2 {
		t.Errorf("%d steps on line 275 left out, want the 2 that quote it", left)
	}
}

// TestReadBackFileGone: a file removed before its quotes are read back
// gets a warning that names it; the findings stay.
func TestReadBackFileGone(t *testing.T) {
	path, _ := copyIncident(t)
	res := auditOf(t, path, nil, audit.Stream)
	n := len(res.Findings)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	res.ReadBack()
	diags := res.Files[0].Diagnostics
	if len(diags) != 1 || diags[0].File != path || !strings.Contains(diags[0].Message, "cannot read the file again") {
		t.Fatalf("diagnostics %v; want one warning that the file cannot be read again", diags)
	}
	if len(res.Findings) != n {
		t.Errorf("%d findings, want %d", len(res.Findings), n)
	}
}
