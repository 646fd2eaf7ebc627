package docs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/tools/txtar"
)

func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	s, err := c.Compile("canonical.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateLines(t *testing.T, s *jsonschema.Schema, name string, data []byte) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
		if err != nil {
			t.Errorf("%s:%d: %v", name, n, err)
			continue
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s:%d: %v", name, n, err)
		}
	}
}

// TestSchemaAcceptsCanonicalCases validates every canonical and chat line in
// the test cases, except those a case marks as bad on purpose, so the
// schema and the reader describe the same format.
func TestSchemaAcceptsCanonicalCases(t *testing.T) {
	s := compile(t)
	files, _ := filepath.Glob("../testdata/transcripts/*/*.txtar")
	checked := 0
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		for _, af := range ar.Files {
			if af.Name == "want" {
				want = af.Data
			}
		}
		for _, af := range ar.Files {
			if !isCanonical(af.Data) || af.Name == "want" {
				continue
			}
			validateLines(t, s, f+":"+af.Name, dropReported(af.Data, af.Name, want))
			checked++
		}
	}
	if checked < 3 {
		t.Fatalf("only %d canonical files checked", checked)
	}
}

// TestSchemaRejectsBadEvents: the schema is not a rubber stamp.
func TestSchemaRejectsBadEvents(t *testing.T) {
	s := compile(t)
	for _, bad := range []string{
		`{"type":"state","op":"sync","key":"x"}`,
		`{"type":"message","role":"tool","content":"x"}`,
		`{"type":"tool_call"}`,
		`{"type":"compaction","kept":["three"]}`,
		`{"type":"wibble"}`,
	} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err := s.Validate(v); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// TestDocExampleValidates keeps the worked example in the docs valid.
func TestDocExampleValidates(t *testing.T) {
	doc, err := os.ReadFile("canonical-format.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```jsonl\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("no jsonl example")
	}
	validateLines(t, compile(t), "canonical-format.md", m[1])
}

var canonicalType = regexp.MustCompile(`^\{"(type|role)"`)

func isCanonical(data []byte) bool {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if !canonicalType.Match(line) {
		return false
	}
	var v map[string]any
	if json.Unmarshal(line, &v) != nil {
		return false
	}
	switch v["type"] {
	case "message", "tool_call", "tool_result", "compaction", "state", nil:
		return v["type"] != nil || v["role"] != nil
	}
	return false
}

// dropReported blanks the records a case's want section reports as
// skipped: they are bad on purpose.
func dropReported(data []byte, name string, want []byte) []byte {
	bad := map[int]bool{}
	re := regexp.MustCompile(`(?m)^! ` + regexp.QuoteMeta(name) + `:(\d+): (?:error|warning)`)
	for _, m := range re.FindAllSubmatch(want, -1) {
		n := 0
		for _, c := range m[1] {
			n = n*10 + int(c-'0')
		}
		bad[n] = true
	}
	lines := strings.Split(string(data), "\n")
	for i := range lines {
		if bad[i+1] {
			lines[i] = ""
		}
	}
	return []byte(strings.Join(lines, "\n"))
}
