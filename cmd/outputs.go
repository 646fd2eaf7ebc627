package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// output is one rendering of the audit: a format to a destination.
type output struct {
	format string
	path   string // "" is stdout
}

func parseOutputs(format string, specs []string) ([]output, error) {
	if _, err := pick(format, renderers()); err != nil {
		return nil, err
	}
	outs := []output{{format: format}}
	for _, spec := range specs {
		f, p, ok := strings.Cut(spec, "=")
		if !ok || p == "" {
			return nil, usageError("--output wants FORMAT=PATH, not %q", spec)
		}
		if _, err := pick(f, renderers()); err != nil {
			return nil, err
		}
		outs = append(outs, output{format: f, path: p})
	}
	return outs, nil
}

// checkOutputs refuses, before anything is opened for writing, an output
// that would overwrite what the run reads: an input transcript (named
// directly, through a symlink or a hard link), a file inside an audited
// folder, or a file the run reads besides (the baseline, the
// configuration). It also refuses two outputs to one file, which would
// leave only the second. A device or a pipe (/dev/stdout) is no input's
// and may be named more than once.
func checkOutputs(outs []output, inputs, read []string) error {
	type place struct {
		path string
		info os.FileInfo // nil when it does not exist yet
	}
	at := func(p string) place {
		r := resolvePath(p)
		info, err := os.Stat(r)
		if err != nil {
			info = nil
		}
		return place{r, info}
	}
	var ins []place
	for _, in := range inputs {
		if in != "-" {
			ins = append(ins, at(in))
		}
	}
	var others []place
	for _, r := range read {
		if r != "" {
			others = append(others, at(r))
		}
	}
	var seen []place
	var seenSpec []string
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		out := at(o.path)
		spec := o.format + "=" + o.path
		if out.info != nil && !out.info.Mode().IsRegular() && !out.info.IsDir() {
			continue // a device or a pipe: written to, never replaced
		}
		same := func(p place) bool {
			if p.path == out.path {
				return true
			}
			return p.info != nil && out.info != nil && os.SameFile(p.info, out.info)
		}
		for i, in := range ins {
			switch {
			case in.info != nil && in.info.IsDir() && within(in.path, out.path):
				return usageError("--output %s is inside %s, which is audited: the report would be read as a transcript, or overwrite one; write it elsewhere", spec, inputs[i])
			case same(in):
				return usageError("--output %s is the input %s: writing the report would destroy the transcript before it is read", spec, inputs[i])
			}
		}
		for i, r := range others {
			if same(r) {
				return usageError("--output %s is %s, which this run reads: write the report elsewhere", spec, read[i])
			}
		}
		for i, s := range seen {
			if same(s) {
				return usageError("--output %s and --output %s name one file: the second would replace the first", seenSpec[i], spec)
			}
		}
		seen, seenSpec = append(seen, out), append(seenSpec, spec)
	}
	return nil
}

// resolvePath is p made absolute with its symlinks followed as far as the
// path exists, so that two spellings of one file compare equal. A name that
// does not exist yet keeps its resolved folder; a dangling symlink is
// followed to the file it would create.
func resolvePath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	for hops := 0; hops < 40; hops++ {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return r
		}
		dir, name := filepath.Split(abs)
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			dir = r
		}
		target, err := os.Readlink(filepath.Join(dir, name))
		if err != nil {
			return filepath.Join(dir, name)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		abs = filepath.Clean(target)
	}
	return abs
}

// within says whether path lies inside folder (both resolved).
func within(folder, path string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// reportFile is an --output file being written. A regular file is written
// to a temporary file beside it and renamed into place when the report is
// whole, so a run that stops early leaves the previous report (or none),
// never half of one. A device or a pipe is written to directly.
type reportFile struct {
	*os.File
	final string // the path renamed onto; "" when written directly
}

func createReport(path string) (*reportFile, error) {
	target := resolvePath(path)
	if st, err := os.Stat(target); err == nil && !st.Mode().IsRegular() {
		fh, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, err
		}
		return &reportFile{File: fh}, nil
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	dir, name := filepath.Split(target)
	fh, err := os.CreateTemp(dir, "."+name+".compaudit-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write beside %s: %v", path, err)
	}
	if err := fh.Chmod(mode); err != nil {
		fh.Close()
		os.Remove(fh.Name())
		return nil, err
	}
	return &reportFile{File: fh, final: target}, nil
}

// commit closes the file and moves it into place.
func (f *reportFile) commit() error {
	if err := f.Close(); err != nil {
		f.discard()
		return err
	}
	if f.final == "" {
		return nil
	}
	if err := os.Rename(f.Name(), f.final); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// discard closes the file and removes what was written, if it was a
// temporary file.
func (f *reportFile) discard() {
	_ = f.Close()
	if f.final != "" {
		_ = os.Remove(f.Name())
	}
}
