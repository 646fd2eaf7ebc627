// Command snapshot records what a compaudit binary prints for every
// transcript in testdata/ and in ../shared/corpus, in every output format,
// so that two builds can be compared byte for byte (scripts/compare.sh).
//
//	go run ./scripts/snapshot -bin ./compaudit -out DIR
//
// Each txtar case is unpacked into a folder of its own and every command is
// run inside it, so a case's .compaudit.yaml applies as in the tests. Paths
// passed to the binary are relative, so the output does not depend on where
// the snapshot was taken. stdout, stderr and the exit code are each kept.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/txtar"
)

// runs are the invocations made on every transcript file.
var runs = [][]string{
	{"audit", "--format", "text", "--color", "never"},
	{"audit", "--format", "json"},
	{"audit", "--format", "ndjson"},
	{"audit", "--format", "sarif"},
	{"audit", "--format", "markdown"},
	{"audit", "--format", "html"},
	{"audit", "--format", "ndjson", "--min-severity", "note", "--redact"},
	{"replay", "--color", "never"},
	{"ledger", "--color", "never"},
	{"agents", "--color", "never"},
}

func main() {
	bin := flag.String("bin", "", "the compaudit binary to run")
	out := flag.String("out", "", "folder to write the snapshot into (created)")
	repo := flag.String("repo", ".", "the checkout whose testdata/ is read")
	corpus := flag.String("corpus", "../shared/corpus", "the shared corpus; skipped when absent")
	flag.Parse()
	if *bin == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: snapshot -bin BINARY -out DIR [-repo DIR] [-corpus DIR]")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*bin)
	check(err)
	s := &snapshot{bin: abs, out: *out}
	check(os.MkdirAll(s.out, 0o755))
	s.testdata(filepath.Join(*repo, "testdata", "transcripts"))
	if _, err := os.Stat(*corpus); err == nil {
		s.folder("corpus", *corpus)
	}
	fmt.Printf("snapshot: %d outputs in %s\n", s.count, s.out)
}

type snapshot struct {
	bin   string
	out   string
	count int
}

// testdata snapshots the loose transcripts and every txtar case.
func (s *snapshot) testdata(root string) {
	s.folder("testdata", root)
	cases, err := filepath.Glob(filepath.Join(root, "*", "*.txtar"))
	check(err)
	tmp, err := os.MkdirTemp("", "compaudit-snapshot")
	check(err)
	defer os.RemoveAll(tmp)
	for _, c := range cases {
		ar, err := txtar.ParseFile(c)
		check(err)
		name := filepath.Base(filepath.Dir(c)) + "-" + strings.TrimSuffix(filepath.Base(c), ".txtar")
		dir := filepath.Join(tmp, name)
		check(os.MkdirAll(dir, 0o755))
		var inputs []string
		for _, f := range ar.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			check(os.MkdirAll(filepath.Dir(p), 0o755))
			check(os.WriteFile(p, f.Data, 0o644))
			if f.Name != "want" && !strings.HasPrefix(filepath.Base(f.Name), ".") {
				inputs = append(inputs, f.Name)
			}
		}
		for _, in := range inputs {
			s.all(name+"/"+in, dir, in)
		}
		s.run(name+"/folder", dir, []string{"audit", "--format", "ndjson", "."})
	}
}

// folder snapshots every transcript file under root, then root as a whole.
func (s *snapshot) folder(label, root string) {
	var files []string
	check(filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	}))
	sort.Strings(files)
	for _, f := range files {
		s.all(label+"/"+f, root, f)
	}
	s.run(label+"/folder-text", root, []string{"audit", "--format", "text", "--color", "never", "."})
	s.run(label+"/folder-ndjson", root, []string{"audit", "--format", "ndjson", "."})
}

// all runs every invocation on one file.
func (s *snapshot) all(label, dir, file string) {
	for _, r := range runs {
		args := append(append([]string{}, r...), file)
		s.run(label+"/"+strings.Join(r, "_"), dir, args)
	}
}

// run keeps one invocation's stdout, stderr and exit code.
func (s *snapshot) run(label, dir string, args []string) {
	cmd := exec.Command(s.bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "COMPAUDIT_CONFIG=", "TZ=UTC")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			check(err)
		}
		code = ee.ExitCode()
	}
	p := filepath.Join(s.out, filepath.FromSlash(strings.ReplaceAll(label, "--", "")))
	check(os.MkdirAll(filepath.Dir(p), 0o755))
	check(os.WriteFile(p+".out", stdout.Bytes(), 0o644))
	check(os.WriteFile(p+".err", append(stderr.Bytes(), fmt.Sprintf("exit %d\n", code)...), 0o644))
	s.count++
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "snapshot:", err)
		os.Exit(1)
	}
}
