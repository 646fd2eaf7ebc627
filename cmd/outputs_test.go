package cmd

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
)

// copyIncident puts the incident transcript in a fresh folder and returns
// the folder and the copy's path.
func copyIncident(t *testing.T) (string, string) {
	t.Helper()
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, p
}

// TestOutputNeverOverwritesAnInput: an --output that is an input, however
// it is spelled, or lies in an audited folder, or is a file the run reads,
// is refused with a usage error before anything is written, and the
// transcript is left as it was.
func TestOutputNeverOverwritesAnInput(t *testing.T) {
	dir, session := copyIncident(t)
	before, _ := os.ReadFile(session)
	link := filepath.Join(t.TempDir(), "link.jsonl")
	if err := os.Symlink(session, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(t.TempDir(), "hard.jsonl")
	if err := os.Link(session, hard); err != nil {
		t.Fatal(err)
	}
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	if code, out, errOut := run(t, "", "baseline", session); code != ExitFindings && code != ExitOK {
		t.Fatalf("baseline: exit %d: %s", code, errOut)
	} else if err := os.WriteFile(baseline, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"the input itself", []string{"--output", "json=" + session, session}, "is the input"},
		{"the input by another path", []string{"--output", "json=" + filepath.Join(dir, ".", "session.jsonl"), session}, "is the input"},
		{"a symlink to the input", []string{"--output", "sarif=" + link, session}, "is the input"},
		{"the input through a symlink", []string{"--output", "sarif=" + session, link}, "is the input"},
		{"a hard link to the input", []string{"--output", "markdown=" + hard, session}, "is the input"},
		{"a file in an audited folder", []string{"--output", "json=" + session, dir}, "is inside"},
		{"a new file in an audited folder", []string{"--output", "html=" + filepath.Join(dir, "sub", "r.html"), dir}, "is inside"},
		{"the baseline", []string{"--baseline", baseline, "--output", "json=" + baseline, session}, "which this run reads"},
		{"one file spelled two ways", []string{"--output", "json=" + filepath.Join(dir, "..", "r.json"), "--output", "sarif=" + filepath.Join(filepath.Dir(dir), "r.json"), session}, "name one file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := run(t, "", append([]string{"audit"}, c.args...)...)
			if code != ExitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, want %d with %q: %s", code, ExitUsage, c.want, errOut)
			}
			if after, _ := os.ReadFile(session); string(after) != string(before) {
				t.Fatalf("the transcript was changed (%d bytes, was %d)", len(after), len(before))
			}
			if _, err := os.Stat(filepath.Join(dir, "sub")); err == nil {
				t.Errorf("a folder was made for a refused output")
			}
		})
	}
}

// TestOutputTwiceToOneFile: two --outputs that name one file are refused
// (the second would replace the first); a device may be named twice.
func TestOutputTwiceToOneFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	code, _, errOut := run(t, "", "audit", "--output", "json="+out, "--output", "sarif="+out, incident)
	if code != ExitUsage || !strings.Contains(errOut, "name one file") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused output was written (%v)", err)
	}
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	code, _, errOut = run(t, "", "audit", "--output", "json="+os.DevNull, "--output", "sarif="+os.DevNull, incident)
	if code == ExitUsage {
		t.Errorf("%s twice refused: %s", os.DevNull, errOut)
	}
}

// TestOutputReplacesWhole: a report is written beside its path and moved
// into place when whole. A run that stops early leaves the previous report
// as it was (or no file), and no temporary file behind; a device is
// written to directly.
func TestOutputReplacesWhole(t *testing.T) {
	a := &app{streams: &Streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, global: &globalOptions{}}
	r := &audit.Result{Path: "s.jsonl"}
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string // want "" is no file
	}{{filepath.Join(dir, "new.json"), ""}, {old, "{}"}} {
		d := &destination{out: output{format: "json", path: c.path}}
		if err := d.open(a); err != nil {
			t.Fatal(err)
		}
		if err := d.transcript(r, nil); err != nil {
			t.Fatal(err)
		}
		closeAll([]*destination{d})
		got, err := os.ReadFile(c.path)
		switch {
		case c.want == "" && !os.IsNotExist(err):
			t.Errorf("%s exists after the run stopped early (%v)", c.path, err)
		case c.want != "" && string(got) != c.want:
			t.Errorf("%s is %q after the run stopped early, want the previous %q", c.path, got, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}

	// a finished run replaces the file whole and keeps its mode
	d := &destination{out: output{format: "json", path: old}}
	if err := d.open(a); err != nil {
		t.Fatal(err)
	}
	if err := d.transcript(r, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(old); string(got) != "{}" {
		t.Errorf("the report was replaced before it was whole: %q", got)
	}
	if err := d.finish(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(old); !strings.Contains(string(got), `"tool": "compaudit"`) {
		t.Errorf("the finished report is not in place: %q", got)
	}
	if st, err := os.Stat(old); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("mode after replacing: %v %v", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}

	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	d = &destination{out: output{format: "json", path: os.DevNull}}
	if err := d.open(a); err != nil {
		t.Fatal(err)
	}
	if d.file.final != "" {
		t.Errorf("%s would be replaced by a rename", os.DevNull)
	}
	if err := d.close(); err != nil {
		t.Fatal(err)
	}
}

// TestOutputThroughSymlinkWritesTarget: an output named through a symlink
// writes the file it points to and keeps the link.
func TestOutputThroughSymlinkWritesTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.sarif")
	link := filepath.Join(dir, "link.sarif")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "", "audit", "--output", "sarif="+link, incident); code == ExitUsage || code == ExitInternal {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st, err)
	}
	if got, err := os.ReadFile(target); err != nil || !strings.Contains(string(got), `"version": "2.1.0"`) {
		t.Errorf("the link's target holds no report: %v", err)
	}
}
