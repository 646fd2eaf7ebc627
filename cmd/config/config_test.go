package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseStateMappings(t *testing.T) {
	cfg, err := Parse("c.yaml", nil, nil)
	if err != nil || len(cfg.State) != 0 {
		t.Fatalf("empty file: %v", err)
	}
	cfg, err = Parse("c.yaml", []byte(`
state:
  - {tool: ledger_write, op: write, key: "args.key", value: "args.value", revision: "args.revision"}
  - tool: ledger_read
    op: read
    key: args.key
    value: result.value
    revision: result.revision
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.State) != 2 || cfg.State[0].Tool != "ledger_write" || cfg.State[1].Value != "result.value" {
		t.Fatalf("%+v", cfg.State)
	}
}

// TestErrorsNameFileAndLine: unknown keys, bad values and broken YAML each
// name the file and the line.
func TestErrorsNameFileAndLine(t *testing.T) {
	for _, c := range []struct {
		data, want string
	}{
		{"state:\n  - tool: w\n    op: write\n    key: args.k\n    colour: red\n", `c.yaml:5: unknown key "colour"`},
		{"stat:\n  - tool: w\n", `c.yaml:1: unknown key "stat"`},
		{"state:\n  - tool: w\n    op: delete\n    key: args.k\n", `c.yaml:2: state: op must be read or write`},
		{"state:\n  - tool: w\n    op: write\n    key: key\n", `c.yaml:2: state: selector "key" must start with "args." or "result."`},
		{"state: [\n", "c.yaml:"},
		{"state: 3\n", "c.yaml:1: state must be a list"},
	} {
		_, err := Parse("c.yaml", []byte(c.data), nil)
		var ce *Error
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want prefix %q", c.data, err, c.want)
		}
	}
}

func TestFindUpward(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	os.MkdirAll(deep, 0o755)
	if _, ok := Find(deep); ok {
		t.Fatal("found a file that is not there")
	}
	os.WriteFile(filepath.Join(root, FileName), []byte("state: []\n"), 0o644)
	p, ok := Find(deep)
	if !ok || p != filepath.Join(root, FileName) {
		t.Fatalf("Find = %q %v", p, ok)
	}
}
