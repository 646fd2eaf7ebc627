package runstate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/runstate"
)

// TestDerivedPatterns: a derived pattern (the anchored status
// expressions) reads its source's expression.
func TestDerivedPatterns(t *testing.T) {
	if got, want := runstate.TaskStatusAt().String(), "^(?:"+runstate.TaskStatusRE().String()+")"; got != want {
		t.Errorf("taskStatusAt is %q, want %q", got, want)
	}
	if got, want := runstate.RunStatusAt().String(), "^(?:"+runstate.RunStatusRE().String()+")"; got != want {
		t.Errorf("runStatusAt is %q, want %q", got, want)
	}
}

// TestNoPatternCompiledAtInit: the package compiles no regular expression
// of its own as it is initialized; each is a lazyPattern, so that
// a command that audits nothing compiles none.
func TestNoPatternCompiledAtInit(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "pattern.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "regexp.MustCompile(") || strings.Contains(line, "regexp.Compile(") {
				t.Errorf("%s:%d compiles a pattern of its own; make it a literalPattern or lazyPattern", f, i+1)
			}
		}
	}
}
