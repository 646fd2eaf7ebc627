package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoNetworkNoExec: compaudit reads transcripts offline and never runs
// what they contain. None of its own packages may import what opens a
// connection or starts a process; a change that needs one must change this
// test, and say why.
func TestNoNetworkNoExec(t *testing.T) {
	denied := map[string]string{
		"net": "opens connections", "net/http": "opens connections", "net/rpc": "opens connections",
		"net/smtp": "opens connections", "crypto/tls": "opens connections",
		"os/exec": "starts processes", "plugin": "loads code", "syscall": "reaches around os",
	}
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		// scripts/ are the maintainers' tools (the snapshot runs the
		// binary), never built into it
		if d.IsDir() && path == "scripts" {
			return filepath.SkipDir
		}
		// tests may use what the tool must not (a browser for the HTML test)
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if why, bad := denied[p]; bad {
				t.Errorf("%s imports %s, which %s", path, p, why)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d source files checked", checked)
	}
}
