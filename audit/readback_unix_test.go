//go:build unix

package audit_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/compaudit/compaudit/audit"
)

// TestReadBackPipe: a session given by the path of a pipe, as
// compaudit audit <(zcat s.jsonl.gz) gives it, cannot be read twice; its
// findings keep their quotes as standard input's do.
func TestReadBackPipe(t *testing.T) {
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	want := findingsJSON(t, auditOf(t, "-", data, audit.Audit), "-")
	path := filepath.Join(t.TempDir(), "session.pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write(data)
		w.Close()
	}()
	res := auditOf(t, path, nil, audit.Audit)
	sameFindings(t, "pipe", findingsJSON(t, res, path), want)
	if d := res.Files[0].Diagnostics; len(d) != 0 {
		t.Errorf("reading a pipe reported %v", d)
	}
}
