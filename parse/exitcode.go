package parse

import (
	"strconv"
	"strings"
)

// exitStatusLeads are how Codex's shell tools begin the line that gives a
// process's exit code, each followed by the code: "Process exited with
// code 1", "Exit code: 1", "exit status 1".
var exitStatusLeads = []string{"Process exited with code ", "Exit code: ", "Exit code ", "exit status "}

// ExitCode finds the first line that gives a process's exit code, as
// (?m)^(?:Process exited with code|Exit code:?|exit status) (-?\d+) would.
// It looks only at the start of each line: the expression was tried at
// every byte of an output that had no such line.
func ExitCode(s string) (code int, ok bool) {
	for {
		if code, ok := ExitCodeLine(s); ok {
			return code, true
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return 0, false
		}
		s = s[i+1:]
	}
}

// ExitCodeLine reads the exit code a line starting at s gives, if it does:
// "Process exited with code 1", "Exit code: 2" (Codex's shell tools),
// "Exit code 1" (Claude Code's Bash tool), "exit status 1".
func ExitCodeLine(s string) (int, bool) {
	for _, lead := range exitStatusLeads {
		if !strings.HasPrefix(s, lead) {
			continue
		}
		s = s[len(lead):]
		n := 0
		if n < len(s) && s[n] == '-' {
			n++
		}
		digits := n
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == digits {
			return 0, false // the leads exclude each other: no other can match
		}
		code, _ := strconv.Atoi(s[:n]) // past the range of int: the nearest, still not 0
		return code, true
	}
	return 0, false
}
