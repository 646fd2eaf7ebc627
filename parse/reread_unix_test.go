//go:build unix

package parse_test

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/compaudit/compaudit/parse"
)

// TestRereadPipe: a named pipe is refused at once, not opened to wait for
// a writer.
func TestRereadPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	err := parse.Reread(path, parse.FormatClaudeCode, []parse.Spot{{0, 0}}, func(int, *parse.Event) { t.Error("called for a pipe") })
	if err == nil {
		t.Fatal("a pipe read back")
	}
}
