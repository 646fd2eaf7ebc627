package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/compaudit/compaudit/cmd"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// TestNoNetworkNoExecAtRun holds compaudit to its promise at run time, not
// only by its imports (TestNoNetworkNoExec): the binary links net and
// os/user through its libraries, and a library could reach them. A child
// process puts itself under a seccomp filter that kills it at the first
// socket, connect, execve or execveat, from any thread, and then runs
// every command over the shipped transcripts, the labelled cases (the
// reader's bad-input ones among them), the shared corpus when it is
// present and two hostile files, in every output format. A control child under the same filter opens a socket and
// must die, so the filter is known to bite.
func TestNoNetworkNoExecAtRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds inputs and runs every command")
	}
	dir := t.TempDir()
	inputs := sandboxInputs(t, dir)

	control := sandboxChild(t, "control", dir)
	if control.err == nil || !strings.Contains(control.stderr, "SIGSYS") {
		t.Fatalf("the control child opened a socket under the filter and was not stopped (err %v); the filter does not bite:\n%s", control.err, control.stderr)
	}

	got := sandboxChild(t, "audit", dir, inputs...)
	if got.err != nil || !strings.Contains(got.stdout, "sandbox: ran ") {
		t.Fatalf("a command made a system call it must not (socket, connect, execve), or failed: %v\n%s", got.err, tail(got.stderr, 4000))
	}
	t.Log(strings.TrimSpace(got.stdout))
}

// sandboxRole names the child's part, and sandboxRoot its work folder.
const (
	sandboxRole = "COMPAUDIT_SANDBOX_ROLE"
	sandboxRoot = "COMPAUDIT_SANDBOX_DIR"
)

func TestMain(m *testing.M) {
	switch os.Getenv(sandboxRole) {
	case "":
		os.Exit(m.Run())
	case "control":
		mustFilter()
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
		fmt.Printf("control: socket %d, %v: the filter let it through\n", fd, err)
		os.Exit(0)
	default:
		mustFilter()
		os.Exit(runSandboxed(os.Getenv(sandboxRoot), os.Args[len(os.Args)-1]))
	}
}

// runSandboxed runs every command on every input listed in the file at
// list. Exit codes 0 and 1 (findings) are outcomes the tool chooses, and 3
// (unreadable input) too for a hostile input; 2 (usage) means a command
// never ran, 4 is a bug, and 3 on a readable input means nothing was
// audited, so each fails the child. The filter's SIGSYS kills the process
// before any of them.
func runSandboxed(dir, list string) int {
	data, err := os.ReadFile(list)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var inputs []string
	hostile := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		h, path, _ := strings.Cut(line, "\t")
		inputs = append(inputs, path)
		hostile[path] = h == "true"
	}
	runs := 0
	// tty: the streams say they are terminals, the path on which a
	// colour library would detect the terminal (tmux info, among others)
	runOn := func(unreadable, tty bool, args ...string) {
		var out, errOut bytes.Buffer
		s := &cmd.Streams{In: strings.NewReader(""), Out: &out, Err: &errOut, OutTTY: tty, ErrTTY: tty, Getenv: func(k string) string {
			switch k {
			case "HOME":
				return dir
			case "TERM":
				return "xterm-256color"
			case "TMUX":
				return "/tmp/tmux-0/default,1,0" // as inside tmux
			}
			return ""
		}}
		if code := cmd.Main(args, s); code == cmd.ExitUsage || code == cmd.ExitInternal || code == cmd.ExitUnreadable && !unreadable {
			fmt.Fprintf(os.Stderr, "%v: exit %d: %s\n", args, code, errOut.String())
			os.Exit(2)
		}
		runs++
	}
	formats := []string{"text", "json", "ndjson", "sarif", "markdown", "html"}
	for _, in := range inputs {
		run := func(args ...string) { runOn(hostile[in], false, args...) }
		runAs := func(tty bool, args ...string) { runOn(hostile[in], tty, args...) }
		for _, f := range formats {
			run("audit", "--format", f, in)
		}
		run("audit", "--redact", "--min-severity", "note", in)
		runAs(true, "audit", in)
		runAs(true, "audit", "--color", "always", in)
		run("replay", in)
		run("ledger", in)
		run("agents", in)
		run("baseline", in)
	}
	// every input at once: the parallel path, and the progress line on a
	// terminal
	runOn(true, false, append([]string{"audit", "--format", "json"}, inputs...)...)
	runOn(true, true, append([]string{"audit"}, inputs...)...)
	for _, c := range []string{"rules", "formats", "version"} {
		runOn(false, false, c)
	}
	fmt.Printf("sandbox: ran %d commands on %d inputs\n", runs, len(inputs))
	return 0
}

// mustFilter installs the seccomp filter on every thread of the process,
// or exits with a message that says why it could not.
func mustFilter() {
	// the allowed paths return before the killing one; offsets are from
	// the instruction after each jump
	const (
		kill = unix.SECCOMP_RET_KILL_PROCESS
		trap = unix.SECCOMP_RET_TRAP
	)
	ld := func(off uint32) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off}
	}
	jeq := func(k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k, Jt: jt, Jf: jf}
	}
	ret := func(k uint32) unix.SockFilter { return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k} }
	denied := []uint32{unix.SYS_SOCKET, unix.SYS_CONNECT, unix.SYS_EXECVE, unix.SYS_EXECVEAT}
	prog := []unix.SockFilter{
		ld(4), // seccomp_data.arch
		jeq(unix.AUDIT_ARCH_X86_64, 1, 0),
		ret(kill),
		ld(0), // seccomp_data.nr
		// the x32 numbers reach the same calls
		{Code: unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, K: 0x40000000, Jt: uint8(len(denied) + 1), Jf: 0},
	}
	for i, nr := range denied {
		prog = append(prog, jeq(nr, uint8(len(denied)-i), 0))
	}
	prog = append(prog, ret(unix.SECCOMP_RET_ALLOW), ret(trap))
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox: no_new_privs:", err)
		os.Exit(5)
	}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		fmt.Fprintln(os.Stderr, "sandbox: seccomp:", errno)
		os.Exit(5)
	}
}

type childRun struct {
	stdout, stderr string
	err            error
}

// sandboxChild runs the test binary again as the child named role.
func sandboxChild(t *testing.T, role, dir string, inputs ...sandboxInput) childRun {
	t.Helper()
	var list bytes.Buffer
	for _, in := range inputs {
		fmt.Fprintf(&list, "%t\t%s\n", in.hostile, in.path)
	}
	listPath := filepath.Join(dir, role+".list")
	if err := os.WriteFile(listPath, list.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(os.Args[0], "-test.run=^$", listPath)
	c.Env = append(os.Environ(), sandboxRole+"="+role, sandboxRoot+"="+dir)
	c.Dir = dir
	var out, errOut bytes.Buffer
	c.Stdout, c.Stderr = &out, &errOut
	err := c.Run()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 5 {
		t.Skipf("this kernel or container does not let a process filter its own system calls: %s", errOut.String())
	}
	return childRun{out.String(), errOut.String(), err}
}

// sandboxInput is a path the child audits, and whether it is hostile:
// only a hostile input may be unreadable (exit 3).
type sandboxInput struct {
	path    string
	hostile bool
}

// sandboxInputs gathers what the child audits: the shipped transcripts,
// every labelled case unpacked (the reader's cases are the bad-input
// ones: cut short, NUL bytes, invalid UTF-8, a JSON array, empty,
// unrecognised), the shared corpus when it is present, and what a case
// cannot hold as text: a binary file and a gzip file cut short.
func sandboxInputs(t *testing.T, dir string) []sandboxInput {
	t.Helper()
	var inputs []sandboxInput
	shipped, _ := filepath.Glob(filepath.Join("testdata", "transcripts", "*.jsonl"))
	for _, p := range shipped {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, sandboxInput{path: abs})
	}
	for _, kind := range []string{"audit", "ledger", "parse"} {
		cases, _ := filepath.Glob(filepath.Join("testdata", "transcripts", kind, "*.txtar"))
		for _, p := range cases {
			inputs = append(inputs, sandboxInput{path: parsetest.Load(t, p, "want").Dir, hostile: kind == "parse"})
		}
	}
	if corpus, err := filepath.Abs(filepath.Join("..", "shared", "corpus")); err == nil {
		for _, agent := range []string{"claude-code", "codex"} {
			if _, err := os.Stat(filepath.Join(corpus, agent)); err == nil {
				inputs = append(inputs, sandboxInput{path: filepath.Join(corpus, agent)})
			}
		}
	}
	session, err := os.ReadFile(filepath.Join("testdata", "transcripts", "incident-claude.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	hostile := filepath.Join(dir, "hostile")
	writeFile(t, filepath.Join(hostile, "binary.jsonl"), bytes.Repeat([]byte{0x7f, 'E', 'L', 'F', 0xff, 0xfe, 0}, 300))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(session)
	zw.Close()
	writeFile(t, filepath.Join(hostile, "cut.jsonl.gz"), gz.Bytes()[:gz.Len()/2])
	return append(inputs, sandboxInput{path: hostile, hostile: true})
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
