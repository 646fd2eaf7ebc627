// Package parsetest unpacks the test cases kept as txtar archives: a
// transcript (and its subagents) beside the expectations for it.
package parsetest

import (
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Case is an unpacked archive.
type Case struct {
	Path    string // the archive
	Archive *txtar.Archive
	Dir     string // where its files were written
	Input   string // the first file written: the transcript under test
}

// Load unpacks every file of an archive except its expectation sections
// into a temporary folder; the first file is the input.
func Load(t testing.TB, path string, sections ...string) *Case {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &Case{Path: path, Archive: ar, Dir: t.TempDir()}
	skip := map[string]bool{}
	for _, s := range sections {
		skip[s] = true
	}
	for _, f := range ar.Files {
		if skip[f.Name] {
			continue
		}
		p := filepath.Join(c.Dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if c.Input == "" {
			c.Input = p
		}
	}
	return c
}

// Section returns the data of a named section and whether it is there.
func (c *Case) Section(name string) (string, bool) {
	for _, f := range c.Archive.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// Check compares got with a section, or, when update is set, rewrites the
// section in the archive.
func (c *Case) Check(t testing.TB, name, got string, update bool) {
	t.Helper()
	if update {
		found := false
		for i := range c.Archive.Files {
			if c.Archive.Files[i].Name == name {
				c.Archive.Files[i].Data, found = []byte(got), true
			}
		}
		if !found {
			c.Archive.Files = append(c.Archive.Files, txtar.File{Name: name, Data: []byte(got)})
		}
		if err := os.WriteFile(c.Path, txtar.Format(c.Archive), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, _ := c.Section(name); got != want {
		t.Errorf("%s differs (-update rewrites it)\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// Files yields each file of the folders (not their subfolders) with its
// name, and for a txtar archive each file inside it instead, named
// archive/file: the seeds of the fuzz targets. A file that cannot be read
// is passed over.
func Files(dirs ...string) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		for _, dir := range dirs {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				data, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					continue
				}
				if filepath.Ext(e.Name()) != ".txtar" {
					if !yield(e.Name(), data) {
						return
					}
					continue
				}
				for _, f := range txtar.Parse(data).Files {
					if !yield(e.Name()+"/"+f.Name, f.Data) {
						return
					}
				}
			}
		}
	}
}

// ReadOutputs is what most of a session's bytes are, for benchmarks: the
// Go sources of the test's package as Claude Code's Read tool returns
// them, a line number, an arrow and the line.
func ReadOutputs(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		tb.Fatal("no sources", err)
	}
	var outs []string
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		var out strings.Builder
		for n, l := range strings.Split(string(src), "\n") {
			fmt.Fprintf(&out, "%6d→%s\n", n+1, l)
		}
		outs = append(outs, out.String())
	}
	return outs
}

// Transcripts are the transcripts shipped in testdata/transcripts and, when
// ../shared is present, the public corpus's, as a test of a package one
// folder down from the module's root finds them. The corpus is only read.
func Transcripts(tb testing.TB) []string {
	tb.Helper()
	root := moduleRoot(tb)
	shipped, err := filepath.Glob(filepath.Join(root, "testdata", "transcripts", "*.jsonl"))
	if err != nil || len(shipped) == 0 {
		tb.Fatal("no shipped transcripts", err)
	}
	corpus, _ := filepath.Glob(filepath.Join(root, "..", "shared", "corpus", "*", "*.jsonl"))
	return append(shipped, corpus...)
}

// moduleRoot is the folder holding go.mod, found upward from the test's
// package, however deep it is.
func moduleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
