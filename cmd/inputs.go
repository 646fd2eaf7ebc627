package cmd

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

// inputOptions are the flags of commands that read transcripts.
type inputOptions struct {
	format string
	jobs   int
}

func (o *inputOptions) register(c *cobra.Command) {
	names := []string{"auto"}
	for _, f := range parse.Formats() {
		names = append(names, string(f.Name))
	}
	c.Flags().StringVar(&o.format, "input-format", "auto", "transcript format: "+orList(names))
	c.Flags().IntVarP(&o.jobs, "jobs", "j", 0, "CPUs to use: transcripts audited at once, or reading workers for a single one (default: all, GOMAXPROCS)")
}

// workers is the parallelism asked for, bounded by GOMAXPROCS.
func (o *inputOptions) workers() int {
	n := runtime.GOMAXPROCS(0)
	if o.jobs > 0 && o.jobs < n {
		n = o.jobs
	}
	return n
}

// parseOptions validates the flags into reading options.
func (o *inputOptions) parseOptions(s *Streams) (parse.Options, error) {
	f, err := parse.ParseFormat(o.format)
	if err != nil {
		return parse.Options{}, usageError("%v", err)
	}
	if o.jobs < 0 {
		return parse.Options{}, usageError("--jobs must be at least 1, got %d", o.jobs)
	}
	return parse.Options{Format: f, Stdin: s.In, Workers: o.workers()}, nil
}

// discover expands the arguments into transcripts. Paths that do not exist
// are reported and the rest is still read; when nothing at all can be
// found the error says so.
func discover(a *app, args []string) ([]parse.Transcript, []parse.Diagnostic, error) {
	ts, diags := parse.Discover(args)
	if len(ts) == 0 {
		msg := "no transcripts found"
		if len(diags) > 0 {
			msg = diags[0].String()
			for _, d := range diags[1:] {
				msg += "\n" + d.String()
			}
		}
		// each missing path was reported already
		return nil, diags, &ExitError{Code: ExitUnreadable, Err: fmt.Errorf("%s", msg), Silent: len(diags) > 0}
	}
	return ts, diags, nil
}

// reportDiagnostics writes reading problems to stderr.
func reportDiagnostics(a *app, diags []parse.Diagnostic) {
	for _, d := range diags {
		a.warnf("compaudit: %s\n", report.Inert(d.String())) // its ids and paths are the input's
	}
}

// inputHealth counts what could not be read, for the exit code. Its counts
// are the reader's own, not its messages: a file of ten thousand bad lines
// shows twenty and counts the rest in one line, and all of them are lost.
type inputHealth struct {
	failedFiles int // files that could not be read at all
	cutFiles    int // files whose reading stopped at a read error
	lostRecords int // lines skipped as not records
}

func (h *inputHealth) add(diags []parse.Diagnostic) {
	for _, d := range diags {
		if d.Severity == parse.Error {
			h.failedFiles++
		}
	}
}

// files reports the problems of the files of one transcript and counts them.
func (h *inputHealth) files(a *app, files []parse.FileResult) {
	for _, f := range files {
		reportDiagnostics(a, f.Diagnostics)
		h.lostRecords += f.Skipped
		switch {
		case f.Err != nil:
			a.warnf("compaudit: %s\n", report.Inert(f.Err.Error()))
			h.failedFiles++
		case f.Cut:
			h.cutFiles++
		}
	}
}

// exit is nil when everything was read; otherwise an exit 3 that says what
// was lost. Each problem was already reported on stderr.
func (h *inputHealth) exit() error {
	if h.failedFiles == 0 && h.cutFiles == 0 && h.lostRecords == 0 {
		return nil
	}
	return &ExitError{Code: ExitUnreadable, Err: fmt.Errorf(
		"input not fully read: %d file(s) unreadable, %d cut short by a read error, %d record(s) skipped (see the messages above)",
		h.failedFiles, h.cutFiles, h.lostRecords)}
}

// pick returns the renderer registered for a --format value, or a usage
// error listing the ones there are.
func pick[T any](name string, renderers map[string]T) (T, error) {
	if r, ok := renderers[name]; ok {
		return r, nil
	}
	names := make([]string, 0, len(renderers))
	for n := range renderers {
		names = append(names, n)
	}
	slices.Sort(names)
	var zero T
	return zero, usageError("--format must be %s, not %q", strings.Join(names, ", "), name)
}
