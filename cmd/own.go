package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/compaudit/compaudit/parse"
)

// ownSessions finds this directory's own agent sessions: Claude Code's
// project folder for the working directory, and the Codex rollouts that
// recorded it as their working directory. It says what it found.
func ownSessions(a *app) ([]string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, &ExitError{Code: ExitUsage, Err: fmt.Errorf("no path given and the working directory is unknown: %v", err)}
	}
	home := a.streams.Getenv("HOME")
	claudeHome := a.streams.Getenv("CLAUDE_CONFIG_DIR")
	if claudeHome == "" {
		claudeHome = filepath.Join(home, ".claude")
	}
	codexHome := a.streams.Getenv("CODEX_HOME")
	if codexHome == "" {
		codexHome = filepath.Join(home, ".codex")
	}
	var paths, found []string
	claudeDir := parse.ClaudeProjectDir(claudeHome, cwd)
	if n := countSessions(claudeDir); n > 0 {
		paths = append(paths, claudeDir)
		found = append(found, fmt.Sprintf("%d Claude Code session(s) in %s", n, claudeDir))
	}
	codexDir := filepath.Join(codexHome, "sessions")
	if rollouts := parse.CodexSessionsFor(codexDir, cwd); len(rollouts) > 0 {
		paths = append(paths, rollouts...)
		found = append(found, fmt.Sprintf("%d Codex session(s) in %s", len(rollouts), codexDir))
	}
	if len(paths) == 0 {
		return nil, &ExitError{Code: ExitUnreadable, Err: fmt.Errorf(
			"no agent sessions recorded for %s (looked in %s and %s); name a FILE, a DIR or - to audit", cwd, claudeDir, codexDir)}
	}
	a.warnf("compaudit: auditing this directory's sessions: %s\n", strings.Join(found, "; "))
	return paths, nil
}

func countSessions(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") && !strings.HasPrefix(e.Name(), "agent-") {
			n++
		}
	}
	return n
}
