package parse

import (
	"regexp"
	"strconv"
	"testing"
)

// exitCodeRE is the expression exitCode reads a line at a time, kept here
// as the reference it is held to.
var exitCodeRE = regexp.MustCompile(`(?m)^(?:Process exited with code|Exit code:?|exit status) (-?\d+)`)

var exitCodeCases = []string{
	"", "Exit code: 0\nok", "Exit code 1", "Exit code:1", "Exit code:  1", "Exit code: -3 and more",
	"Exit code: x\nExit code 4", "exit status 127\n", "exit status -", "xexit status 2", "out\nexit status 2\nexit status 3",
	"Chunk ID: 7f2a\nWall time: 0.2 seconds\nProcess exited with code 2\nOutput:\nboom",
	"Process exited with code 99999999999999999999", "Process exited with code -0", "line\r\nExit code: 5",
	"  Exit code: 5", "Exit code: ５", "EXIT CODE: 1", "Process exited with code\n1", "a\n\nexit status 0\n",
}

func FuzzExitCode(f *testing.F) {
	for _, c := range exitCodeCases {
		f.Add(c)
	}
	f.Fuzz(checkExitCode)
}

func TestExitCode(t *testing.T) {
	for _, c := range exitCodeCases {
		checkExitCode(t, c)
	}
}

// checkExitCode holds exitCode to the expression it replaced.
func checkExitCode(t *testing.T, s string) {
	t.Helper()
	code, ok := ExitCode(s)
	m := exitCodeRE.FindStringSubmatch(s)
	if ok != (m != nil) {
		t.Fatalf("exitCode(%q) found one: %v; the expression: %q", s, ok, m)
	}
	if m != nil {
		want, _ := strconv.Atoi(m[1])
		if code != want {
			t.Fatalf("exitCode(%q) = %d; the expression reads %d", s, code, want)
		}
	}
}
