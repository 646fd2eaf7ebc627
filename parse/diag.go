package parse

import (
	"fmt"
	"slices"
	"strings"
)

// Severity of a reading problem.
type Severity uint8

const (
	// Warning: something was odd or skipped; the rest was read.
	Warning Severity = iota + 1
	// Error: a record or a whole file could not be read.
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// MarshalText makes severities readable in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is a problem met while reading input. It always names the file
// and, where one applies, the line.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	File     string   `json:"file"`
	Line     int      `json:"line,omitempty"`
	Message  string   `json:"message"`
}

func (d Diagnostic) String() string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", d.File, d.Line, d.Severity, d.Message)
	}
	return fmt.Sprintf("%s: %s: %s", d.File, d.Severity, d.Message)
}

// InputError is returned when a file cannot be read at all or holds no
// recognizable records; callers map it to the "unreadable input" exit code.
type InputError struct {
	File string
	Line int
	Msg  string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// diagnostics collects problems for one file. It caps repeats of the same
// message so a file of ten thousand bad lines stays readable, and says how
// many it left out.
type diagnostics struct {
	file    string
	list    []Diagnostic
	counts  map[string]int
	dropped map[string]capped
}

type capped struct {
	n   int
	sev Severity
}

// MaxSameDiagnostic is how many problems of one kind a file reports one
// by one; the rest are counted in one line.
const MaxSameDiagnostic = 20

func (d *diagnostics) add(sev Severity, line int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	key := msg
	if i := strings.IndexByte(msg, ':'); i > 0 {
		key = msg[:i]
	}
	if d.counts == nil {
		d.counts = map[string]int{}
	}
	d.counts[key]++
	if d.counts[key] > MaxSameDiagnostic {
		if d.dropped == nil {
			d.dropped = map[string]capped{}
		}
		c := d.dropped[key]
		c.n++
		c.sev = max(c.sev, sev)
		d.dropped[key] = c
		return
	}
	d.list = append(d.list, Diagnostic{Severity: sev, File: d.file, Line: line, Message: msg})
}

// shows reports whether a problem of the kind key (a message's words
// before its first colon) would still be shown one by one.
func (d *diagnostics) shows(key string) bool { return d.counts[key] < MaxSameDiagnostic }

// finish appends one summary line per capped message and returns the list.
func (d *diagnostics) finish() []Diagnostic {
	keys := make([]string, 0, len(d.dropped))
	for k := range d.dropped {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		c := d.dropped[k]
		d.list = append(d.list, Diagnostic{Severity: c.sev, File: d.file,
			Message: fmt.Sprintf("%d more like %q not shown", c.n, k)})
	}
	return d.list
}
