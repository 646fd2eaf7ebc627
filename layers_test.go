package main

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/compaudit/compaudit"

// layers ranks the packages compaudit is built from, bottom up: data flows
// parse → lex → tag → runstate → reading → ledger and sharedstate → replay →
// audit → rules and report → cmd (report/mask, the secrets' masking, stands
// beside audit; a format's reader stands above parse, and parse/formats
// above them all, imported by cmd alone), and a package may import only
// packages of a lower rank. docs/architecture.md draws the same map.
var layers = map[string]int{
	"parse/jsontext":    -3,
	"parse/linereader":  -3,
	"parse":             -2,
	"parse/claude":      -1,
	"parse/codex":       -1,
	"parse/canonical":   -1,
	"parse/formats":     0,
	"audit/lex":         1,
	"audit/tag":         2,
	"audit/runstate":    3,
	"audit/reading":     4,
	"audit/ledger":      5,
	"audit/sharedstate": 5,
	"audit/replay":      6,
	"audit":             7,
	"report/mask":       7,
	"audit/rules":       8,
	"audit/policy":      8,
	"report":            8,
	"cmd/config":        9,
	"cmd":               10,
	".":                 11,
}

// maxPackageLines bounds a package's source (tests aside), so that one
// idea stays one package. The packages listed in overLimit are over it
// today and may not grow; a split brings each under it.
const maxPackageLines = 3000

var overLimit = map[string]int{}

// TestLayers: every package of the binary is ranked, imports only what is
// below it, opens with a doc comment, and keeps to its size.
func TestLayers(t *testing.T) {
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || path == "scripts" || path == "docs") {
			return filepath.SkipDir
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		var sources []string
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				sources = append(sources, f)
			}
		}
		if len(sources) == 0 || path == "parse/parsetest" {
			return nil // no package, or a test helper
		}
		pkg := filepath.ToSlash(path)
		seen[pkg] = true
		rank, ranked := layers[pkg]
		if !ranked {
			t.Errorf("%s is not in layers: give it a rank", pkg)
		}
		documented, lines := false, 0
		for _, f := range sources {
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly|parser.ParseComments)
			if err != nil {
				return err
			}
			documented = documented || file.Doc != nil
			for _, imp := range file.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if p != module && !strings.HasPrefix(p, module+"/") {
					continue
				}
				dep := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
				if dep == "" {
					dep = "."
				}
				if r, ok := layers[dep]; ranked && ok && r >= rank {
					t.Errorf("%s imports %s, which is not below it", f, dep)
				}
			}
			lines += countLines(t, f)
		}
		if !documented {
			t.Errorf("%s has no package doc comment", pkg)
		}
		limit := maxPackageLines
		if l, ok := overLimit[pkg]; ok {
			limit = l
		}
		if lines > limit {
			t.Errorf("%s holds %d lines of source, more than %d", pkg, lines, limit)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range layers {
		if !seen[pkg] {
			t.Errorf("layers names %s, which has no source", pkg)
		}
	}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n
}
