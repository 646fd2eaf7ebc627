package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/compaudit/compaudit/audit"
)

// sessionsFolder writes n copies of a small testdata transcript into a
// fresh folder.
func sessionsFolder(t *testing.T, n int) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "transcripts", "multiagent-canonical.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%03d.jsonl", i)), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAuditEachHoldsFewResults: when the results are streamed, a result
// handed over is not held by anything once its turn is done, and while the
// first one is held back no more than resultsAhead transcripts (for whole
// results, which the views of the replay need, wholeResultsAhead) are
// audited ahead of it. Without either, a folder of thousands of sessions
// held all of their findings until the end (210 MB for 2,000 sessions).
func TestAuditEachHoldsFewResults(t *testing.T) {
	n := resultsAhead + 40
	dir := sessionsFolder(t, n)
	for _, c := range []struct {
		full  bool
		ahead int
	}{{false, resultsAhead}, {true, wholeResultsAhead}} {
		var audited atomic.Int32
		counter := &audit.Rule{ID: "count", Title: "counts audits", Severity: audit.SeverityNote, Scope: audit.ScopeRun,
			Run: func(*audit.Pass) { audited.Add(1) }}
		a := &app{streams: &Streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, global: &globalOptions{}}
		in := &inputOptions{format: "auto", jobs: 2}
		var used []weak.Pointer[audit.Result]
		_, err := auditEach(a, in, []string{dir}, audit.Options{Rules: []*audit.Rule{counter}}, c.full, false, func(r *audit.Result, _ []string) error {
			if len(used) == 0 {
				// hold the first back until no more audits start ahead of it
				last, steady := audited.Load(), time.Now()
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && time.Since(steady) < 300*time.Millisecond; {
					time.Sleep(10 * time.Millisecond)
					if now := audited.Load(); now != last {
						last, steady = now, time.Now()
					}
				}
				if got := audited.Load(); got > int32(c.ahead) {
					t.Errorf("full=%v: %d transcripts audited while the first result waited; at most %d may be", c.full, got, c.ahead)
				}
			}
			used = append(used, weak.Make(r))
			if len(used)%25 == 0 {
				runtime.GC()
				for i, w := range used[:len(used)-1] {
					if w.Value() != nil {
						t.Fatalf("full=%v: result %d is still held after result %d was handed over", c.full, i, len(used)-1)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(used) != n || int(audited.Load()) != n {
			t.Errorf("full=%v: %d results handed over, %d audits run; want %d of each", c.full, len(used), audited.Load(), n)
		}
	}
}

// TestViewsStreamInOrder: ledger, replay and agents are written a
// transcript at a time; over a folder, their line-per-item and text output
// is each file's own output, in the folder's order, with nothing lost or
// repeated.
func TestViewsStreamInOrder(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, name := range []string{"incident-claude.jsonl", "multiagent-canonical.jsonl", "incident-drift-claude.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "transcripts", name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("%d-%s", i, name))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, c := range []struct {
		args []string
		sep  string // between two files' output in one run
	}{
		{[]string{"ledger", "--format", "ndjson"}, ""},
		{[]string{"ledger"}, "\n"},
		{[]string{"replay"}, ""},
		{[]string{"agents"}, ""},
	} {
		_, whole, _ := run(t, "", append(c.args, dir)...)
		var want strings.Builder
		for i, f := range files {
			_, one, _ := run(t, "", append(c.args, f)...)
			if one == "" {
				t.Fatalf("%v %s: no output", c.args, f)
			}
			if i > 0 {
				want.WriteString(c.sep)
			}
			want.WriteString(one)
		}
		if whole != want.String() {
			t.Errorf("%v over the folder (%d bytes) is not each file's output in order (%d bytes)", c.args, len(whole), want.Len())
		}
	}
}

// TestStreamedSameAsKept: text, JSON, ndjson and SARIF are written
// transcript by transcript; with a markdown output beside them, which
// needs every result at once, every result is kept to the end and each is
// rendered whole. The output is the same byte for byte, and so is the exit
// code, with one worker or two, with redaction or without.
func TestStreamedSameAsKept(t *testing.T) {
	dirs := []string{sessionsFolder(t, 5), filepath.Join("..", "testdata", "transcripts")}
	for _, dir := range dirs {
		for _, format := range []string{"text", "json", "ndjson", "sarif"} {
			for _, extra := range [][]string{{"-j", "1"}, {"-j", "2"}, {"--redact"}} {
				args := append([]string{"audit", "--format", format, "--min-severity", "note", "--fail-on", "warning"}, extra...)
				code, streamed, _ := run(t, "", append(args, dir)...)
				code2, whole, _ := run(t, "", append(args, "--output", "markdown="+filepath.Join(t.TempDir(), "all.md"), dir)...)
				if strings.Count(streamed, "\n") < 5 {
					t.Fatalf("%s %s: too little output to compare: %q", dir, format, streamed)
				}
				if streamed != whole || code != code2 {
					t.Errorf("%s %s %v: streamed (exit %d, %d bytes) differs from kept (exit %d, %d bytes)",
						dir, format, extra, code, len(streamed), code2, len(whole))
				}
			}
		}
	}
}

// TestOutputFileOnlyWhole: a file given to --output exists only once its
// report is whole. A streamed run writes it as it goes, so a run that
// stops early (here: nothing to read) removes it rather than leave a
// report cut short, or an empty one, to pass for a finished one.
func TestOutputFileOnlyWhole(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"json", "sarif", "ndjson", "text"} {
		path := filepath.Join(dir, "out."+format)
		code, _, errOut := run(t, "", "audit", "--format", format, "--output", format+"="+path, filepath.Join(dir, "missing"))
		if code != ExitUnreadable {
			t.Fatalf("%s: exit %d, want %d: %s", format, code, ExitUnreadable, errOut)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: a run that read nothing left %s behind (%v)", format, path, err)
		}
		src := filepath.Join("..", "testdata", "transcripts", "incident-claude.jsonl")
		_, stdout, _ := run(t, "", "audit", "--format", format, "--output", format+"="+path, src)
		written, err := os.ReadFile(path)
		if err != nil || string(written) != stdout || stdout == "" {
			t.Errorf("%s: the file holds %d bytes (%v), standard output %d", format, len(written), err, len(stdout))
		}
	}
}

// TestProgressLeavesTheLines: on a terminal that shows both standard
// output and the progress line, a streamed report's parts are written as
// the transcripts finish, while the progress line is up. Each part, and
// each warning, starts after the line is cleared, never at its end.
func TestProgressLeavesTheLines(t *testing.T) {
	var term bytes.Buffer
	s := &Streams{In: strings.NewReader(""), Out: &term, Err: &term, OutTTY: true, ErrTTY: true,
		Getenv: func(string) string { return "" }}
	dir := sessionsFolder(t, 3)
	Main([]string{"audit", "--min-severity", "note", dir}, s)
	text := term.String()
	if !strings.Contains(text, "audited 1/3 files") || !strings.Contains(text, "3 transcripts:") {
		t.Fatalf("no progress, or no report, on the terminal: %q…", text[:min(len(text), 200)])
	}
	for rest := text; ; {
		i := strings.Index(rest, " left")
		if i < 0 {
			break
		}
		rest = rest[i+len(" left"):]
		if rest != "" && rest[0] != '\r' {
			t.Fatalf("output written at the end of the progress line: %q", rest[:min(len(rest), 60)])
		}
	}
}

// TestCommandsWriteAsTheyGo: on a terminal that shows the progress line
// and the output together, a streamed command's first transcript is on the
// screen before the last one is counted as audited; a run that keeps every
// result (markdown) writes only after it. The first line of output each
// command writes is looked for.
func TestCommandsWriteAsTheyGo(t *testing.T) {
	dir := sessionsFolder(t, 3)
	for _, c := range []struct {
		args     []string
		first    string
		streamed bool
	}{
		{[]string{"audit", "--min-severity", "note"}, "canonical · 3 agent(s)", true},
		{[]string{"audit", "--format", "json"}, `"tool": "compaudit"`, true},
		{[]string{"audit", "--format", "ndjson"}, `"rule":`, true},
		{[]string{"audit", "--format", "sarif"}, `"results": [`, true},
		{[]string{"audit", "--format", "markdown"}, "## compaudit:", false},
		{[]string{"ledger", "--format", "ndjson"}, `"transcript":`, true},
		{[]string{"replay", "--format", "json"}, `"tool": "compaudit"`, true},
		{[]string{"agents"}, "agent executor", true},
	} {
		var term bytes.Buffer
		s := &Streams{In: strings.NewReader(""), Out: &term, Err: &term, ErrTTY: true,
			Getenv: func(string) string { return "" }}
		Main(append(c.args, dir), s)
		text := term.String()
		out, last := strings.Index(text, c.first), strings.Index(text, "audited 3/3 files")
		if out < 0 || last < 0 {
			t.Fatalf("%v: no output (%d) or no progress (%d): %q…", c.args, out, last, text[:min(len(text), 200)])
		}
		if streamed := out < last; streamed != c.streamed {
			t.Errorf("%v: output before the last transcript was audited: %v, want %v", c.args, streamed, c.streamed)
		}
	}
}
