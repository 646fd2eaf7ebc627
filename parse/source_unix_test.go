//go:build unix

package parse_test

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/compaudit/compaudit/parse"
)

// TestDiscoverPassesOverPipes: a named pipe, a link to one, or a socket
// found in a folder — as a session, as a subagent beside one or under it,
// or as a rollout — is passed over with a warning naming it, where opening
// it would hold the audit until something wrote to it. The sessions
// beside it are still found, and a pipe named on the command line is
// still a transcript.
func TestDiscoverPassesOverPipes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string { return writeSession(t, dir, name) }
	pipe := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		return p
	}
	good := write("s1.jsonl")
	sub := write("s1/subagents/agent-a1.jsonl")
	pipes := []string{pipe("s2.jsonl"), pipe("agent-a2.jsonl"), pipe("s1/subagents/agent-a3.jsonl")}
	link := filepath.Join(dir, "s3.jsonl")
	if err := os.Symlink(pipes[0], link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s4.jsonl")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	defer l.Close()

	ts, diags := parse.Discover([]string{dir})
	if len(ts) != 1 || ts[0].Path != good || len(ts[0].Files) != 2 || ts[0].Files[1].Path != sub {
		t.Errorf("found %+v", ts)
	}
	warned := map[string]string{}
	for _, d := range diags {
		if d.Severity != parse.Warning || !strings.Contains(d.Message, "not a transcript file: skipped") {
			t.Errorf("diagnostic %v", d)
		}
		warned[d.File] = d.Message
	}
	for _, p := range append(pipes, link) {
		if !strings.HasPrefix(warned[p], "a named pipe,") {
			t.Errorf("%s: warned %q", p, warned[p])
		}
	}
	if !strings.HasPrefix(warned[sock], "a socket,") {
		t.Errorf("%s: warned %q", sock, warned[sock])
	}
	if len(warned) != 5 {
		t.Errorf("warnings for %v", warned)
	}

	ts, diags = parse.Discover([]string{pipes[0]})
	if len(ts) != 1 || ts[0].Path != pipes[0] || len(diags) != 0 {
		t.Errorf("a pipe named: %+v, %v", ts, diags)
	}

	// a rollout's working folder is read from it, which a pipe would hold
	pipe("codex/2026/11/30/rollout-2026-11-30T10-00-00-x.jsonl")
	if got := parse.CodexSessionsFor(filepath.Join(dir, "codex"), dir); len(got) != 0 {
		t.Errorf("rollouts %v", got)
	}
}

// TestDiscoverTakesAFileOnce: a session reached by two names — a link in
// its folder (a latest.jsonl, or one that sorts before it), the folder and
// the file named on their own, ./ before a name — is one transcript, taken
// by its own name so its subagents come with it, with a warning naming the
// other name. It was audited once per name, its findings counted twice.
func TestDiscoverTakesAFileOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string { return writeSession(t, dir, name) }
	link := func(target, name string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s := write("s.jsonl")
	sub := write("s/subagents/agent-a1.jsonl")
	other := write("t.jsonl")
	latest := link("s.jsonl", "latest.jsonl") // sorts after s.jsonl
	early := link(s, "a-copy.jsonl")          // sorts before it, by an absolute target
	// a link to a session elsewhere is a session of its own here
	outside := filepath.Join(t.TempDir(), "u.jsonl")
	if err := os.WriteFile(outside, []byte(claudeLine("u2", "two")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	far := link(outside, "far.jsonl")

	t.Chdir(dir)
	ts, diags := parse.Discover([]string{dir, "./s.jsonl", other, "t.jsonl"})
	var paths []string
	for _, tr := range ts {
		paths = append(paths, tr.Path)
	}
	if want := []string{far, s, other}; !slices.Equal(paths, want) {
		t.Fatalf("transcripts %v, want %v", paths, want)
	}
	if len(ts[1].Files) != 2 || ts[1].Files[1].Path != sub {
		t.Errorf("%s without its subagent: %+v", s, ts[1].Files)
	}
	warned := map[string]string{}
	for _, d := range diags {
		if d.Severity != parse.Warning {
			t.Errorf("diagnostic %v", d)
		}
		warned[d.File] = d.Message
	}
	for name, first := range map[string]string{early: s, latest: s, "./s.jsonl": s, "t.jsonl": other} {
		if want := "the same file as " + first + ": audited once, as that"; warned[name] != want {
			t.Errorf("%s: warned %q, want %q", name, warned[name], want)
		}
	}
	if len(warned) != 4 {
		t.Errorf("warnings %v", warned)
	}

	// named twice the same way, as before: once, and no warning
	ts, diags = parse.Discover([]string{s, s})
	if len(ts) != 1 || len(diags) != 0 {
		t.Errorf("a file named twice: %d transcripts, %v", len(ts), diags)
	}
}

// writeSession writes a one-record session at dir/name, making its folders.
func writeSession(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(claudeLine("u1", "one")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
