package parse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Options controls reading.
type Options struct {
	// Format forces a format; empty means detect it from the first records.
	Format Format
	// Stdin is read for the path "-".
	Stdin io.Reader
}

// FileResult reports what reading one file found.
type FileResult struct {
	Path        string
	Agent       string
	Format      Format
	Events      int
	Records     int // JSON records read, conversational or not
	Diagnostics []Diagnostic
	Err         *InputError // set when the file could not be read at all
}

// Read streams the events of every file of the transcript, main file first,
// numbering them in one sequence. A file that cannot be read is reported in
// its FileResult and the others are still read; only an error from emit
// stops the reading.
func (t Transcript) Read(opts Options, emit func(*Event) error) ([]FileResult, error) {
	results := make([]FileResult, 0, len(t.Files))
	next := 0
	for _, f := range t.Files {
		res, err := ReadFile(f, opts, next, emit)
		next += res.Events
		var ie *InputError
		if errors.As(err, &ie) {
			res.Err = ie
			err = nil
		}
		results = append(results, res)
		if err != nil {
			return results, err
		}
	}
	return results, nil
}

// detectWindow bounds how many records format detection looks at before it
// gives up: a real transcript decides within its first few lines.
const detectWindow = 512

// ReadFile streams the events of one file to emit, numbering them from
// firstIndex. A malformed record is reported and skipped; a file with no
// recognizable records, or one that cannot be opened, is an *InputError.
func ReadFile(f File, opts Options, firstIndex int, emit func(*Event) error) (FileResult, error) {
	res := FileResult{Path: f.Path, Agent: f.Agent}
	var r io.Reader
	if f.Path == "-" {
		if opts.Stdin == nil {
			return res, &InputError{File: "-", Msg: "no standard input"}
		}
		r = opts.Stdin
	} else {
		fh, err := os.Open(f.Path)
		if err != nil {
			return res, &InputError{File: f.Path, Msg: cleanOSError(err)}
		}
		defer fh.Close()
		if st, err := fh.Stat(); err == nil && st.IsDir() {
			return res, &InputError{File: f.Path, Msg: "is a directory"}
		}
		r = fh
	}
	zr, err := maybeGunzip(r)
	if err != nil {
		return res, &InputError{File: f.Path, Msg: "cannot read gzip data: " + err.Error()}
	}
	d := &diagnostics{file: f.Path}
	s := &sink{file: f.Path, agent: f.Agent, diag: d, next: firstIndex, emit: emit}
	err = readLines(newLineReader(zr), opts.Format, s, &res)
	res.Events = s.next - firstIndex
	res.Diagnostics = d.finish()
	return res, err
}

// readLines detects the format, then decodes every line.
func readLines(lr *lineReader, forced Format, s *sink, res *FileResult) error {
	type held struct {
		line []byte
		num  int
		off  int64
		last bool
	}
	var pending []held
	format := forced
	var dec decoder
	records, firstNonEmpty := 0, 0

	start := func() {
		res.Format = format
		s.format = format
		dec = newDecoder(format, s)
		for _, h := range pending {
			s.decodeLine(dec, h.line, h.num, h.off, h.last)
		}
		pending = nil
	}
	if format != "" {
		start()
	}
	for {
		line, num, off, ok := lr.next()
		if !ok {
			break
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if firstNonEmpty == 0 {
			firstNonEmpty = num
			if trimmed[0] == '[' {
				// JSON Lines never opens with a bracket; reading the
				// objects of a pretty-printed array line by line would
				// yield fragments.
				return &InputError{File: s.file, Line: num,
					Msg: "holds a JSON array, not JSON Lines (one JSON object per line); convert it with: jq -c '.[]'"}
			}
		}
		records++
		last := lr.lastUnterminated
		if dec != nil {
			s.decodeLine(dec, line, num, off, last)
			if s.err != nil {
				return s.err
			}
			continue
		}
		// Still detecting: keep the line and look at it.
		pending = append(pending, held{bytes.Clone(line), num, off, last})
		if rec, ok := parseRecord(line); ok {
			if f := classify(rec); f != "" {
				format = f
				start()
				if s.err != nil {
					return s.err
				}
				continue
			}
		}
		if len(pending) >= detectWindow {
			break
		}
	}
	res.Records = records
	if err := lr.failure(); err != nil {
		line := lr.line
		if line == 0 {
			line = 1
		}
		s.diag.add(Error, line, "input ends in a read error after line %d: %s; the lines before it were read", lr.line, readErrText(err))
		if dec == nil && format == "" {
			return &InputError{File: s.file, Line: line, Msg: "cannot read: " + readErrText(err)}
		}
	}
	if dec == nil {
		if records == 0 {
			return &InputError{File: s.file, Msg: "empty file: no records"}
		}
		return &InputError{File: s.file, Line: firstNonEmpty, Msg: fmt.Sprintf(
			"no recognizable records in the first %d lines (tried %s, %s, %s, %s); use --input-format to force one",
			min(records, detectWindow), FormatClaudeCode, FormatCodex, FormatCanonical, FormatChat)}
	}
	dec.finish()
	return s.err
}

func readErrText(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of data (a compressed file cut short?)"
	}
	return err.Error()
}

func cleanOSError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// parseRecord validates one line as a JSON object. Invalid UTF-8 is tolerated:
// agents write raw tool output, and a stray byte must not cost the record.
func parseRecord(line []byte) (gjson.Result, bool) {
	if !gjson.ValidBytes(line) {
		if utf8.Valid(line) {
			return gjson.Result{}, false
		}
		line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
		if !gjson.ValidBytes(line) {
			return gjson.Result{}, false
		}
	}
	rec := gjson.ParseBytes(line)
	if !rec.IsObject() {
		return gjson.Result{}, false
	}
	return rec, true
}

// decoder turns the records of one format into events.
type decoder interface {
	decode(rec gjson.Result, line int, off int64)
	finish()
}

func newDecoder(f Format, s *sink) decoder {
	switch f {
	case FormatClaudeCode:
		return newClaudeDecoder(s)
	case FormatCodex:
		return newCodexDecoder(s)
	case FormatChat, FormatCanonical:
		return newCanonicalDecoder(s)
	}
	panic("parse: no decoder for format " + string(f)) // unreachable: formats are validated first
}

// sink receives the events of one file, numbers them and reports problems.
type sink struct {
	file   string
	format Format
	agent  string // agent the file belongs to, MainAgent or a subagent id
	diag   *diagnostics
	next   int
	emit   func(*Event) error
	err    error
}

func (s *sink) decodeLine(dec decoder, line []byte, num int, off int64, last bool) {
	if s.err != nil {
		return
	}
	rec, ok := parseRecord(line)
	if !ok {
		trimmed := bytes.TrimSpace(line)
		switch {
		case last && len(trimmed) > 0 && trimmed[0] == '{':
			s.diag.add(Error, num, "truncated last line: the record ends without closing (the writer stopped mid-record); skipped")
		case bytes.IndexByte(line, 0) >= 0:
			s.diag.add(Error, num, "malformed record: NUL bytes in the line; skipped")
		case len(trimmed) > 0 && trimmed[0] != '{':
			s.diag.add(Error, num, "malformed record: not a JSON object (starts with %q); skipped", preview(trimmed, 12))
		default:
			s.diag.add(Error, num, "malformed record: invalid JSON; skipped")
		}
		return
	}
	dec.decode(rec, num, off)
}

// put numbers an event and hands it on.
func (s *sink) put(ev *Event) {
	if s.err != nil {
		return
	}
	ev.Index = s.next
	ev.File = s.file
	ev.Format = s.format
	if !utf8.ValidString(ev.Text) {
		// raw bytes from a tool (a Latin-1 CSV) must not leak invalid
		// UTF-8 into JSON output
		ev.Text = strings.ToValidUTF8(ev.Text, "\uFFFD")
	}
	if ev.Agent == "" {
		ev.Agent = s.agent
	}
	if ev.Agent == "" {
		ev.Agent = MainAgent
	}
	s.next++
	s.err = s.emit(ev)
}

func preview(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b[:min(len(b), n)]), "?")
	return s
}
