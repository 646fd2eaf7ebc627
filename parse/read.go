package parse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/compaudit/compaudit/parse/linereader"
)

// Options controls reading.
type Options struct {
	// Format forces a format; empty means detect it from the first records.
	Format Format
	// Stdin is read for the path "-".
	Stdin io.Reader
	// Workers is how many goroutines read the records of one file at
	// once; events still come out in file order. 0 or 1 reads on the
	// caller's goroutine.
	Workers int
	// Prepare, when set, is called once for every event before it is
	// emitted, possibly on several events at once from the reading
	// goroutines: it lets a consumer do its per-event work in parallel and
	// keep it in Event.Prepared. It sees the event's content (kind, role,
	// origin, text, tool fields), not yet its place (turn, index, agent).
	Prepare func(*Event)
	// NoReasoningText hands out reasoning events (an assistant's
	// thinking) without their text, for a consumer that reads none of
	// it: thinking is a tenth of a Claude Code session's bytes, and was
	// unescaped and copied only to be thrown away.
	NoReasoningText bool
}

// FileResult reports what reading one file found.
type FileResult struct {
	Path        string
	Agent       string
	Format      Format
	Events      int
	Records     int  // JSON records read, conversational or not
	Skipped     int  // lines that were not records, each an error whether shown or counted in a capped line
	Cut         bool // reading stopped at a read error before the end of the data
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

// parallelMin is the file size from which reading workers pay off.
var parallelMin int64 = 4 << 20 // a variable so tests can read small files in parallel

// detectWindow bounds how many records format detection looks at before it
// gives up: a real transcript decides within its first few lines.
const detectWindow = 512

// ReadFile streams the events of one file to emit, numbering them from
// firstIndex. A malformed record is reported and skipped; a file with no
// recognizable records, or one that cannot be opened, is an *InputError.
func ReadFile(f File, opts Options, firstIndex int, emit func(*Event) error) (FileResult, error) {
	res := FileResult{Path: f.Path, Agent: f.Agent}
	if _, ok := lookup(string(opts.Format)); opts.Format != "" && !ok {
		return res, &InputError{File: f.Path, Msg: fmt.Sprintf("unknown input format %q (registered: %s)", opts.Format, formatNames())}
	}
	var r io.Reader
	size := int64(-1)
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
		if st, err := fh.Stat(); err == nil {
			if st.IsDir() {
				return res, &InputError{File: f.Path, Msg: "is a directory"}
			}
			if st.Mode().IsRegular() {
				size = st.Size()
			}
		}
		r = fh
	}
	// a file of a chunk or a few is too few batches to share out: as fast
	// on one goroutine, in time and CPU (BenchmarkScanClaude beside
	// BenchmarkScanClaudeWorkers)
	small := size >= 0 && size < parallelMin
	bufSize := linereader.BufSizeFor(size)
	if opts.Workers > 1 && !small {
		// read in chunks past the buffer (lineReader.fill): it holds only
		// the lines read to detect the format, and a megabyte made, zeroed
		// and filled for them was 1-6 ms before the workers started
		bufSize = linereader.PeekBufSize
	}
	br, release := linereader.NewBufReader(r, bufSize)
	defer release()
	zr, err := linereader.MaybeGunzip(br)
	if err != nil {
		return res, &InputError{File: f.Path, Msg: "cannot read gzip data: " + err.Error()}
	}
	src, ok := zr.(*bufio.Reader)
	under := r // what src buffers
	if !ok {
		under = zr
		// decompressed data is larger than the file
		var release func()
		src, release = linereader.NewBufReader(zr, linereader.ReadBufSize)
		defer release()
	}
	d := &diagnostics{file: f.Path}
	s := &Sink{file: f.Path, agent: f.Agent, diag: d, next: firstIndex, emit: emit, prepare: opts.Prepare,
		noReasoning: opts.NoReasoningText}
	workers := opts.Workers
	if small && src == br { // a small gzip file still decompresses to many chunks
		workers = 1
	}
	err = readLines(&linereader.Reader{R: src, Under: under}, opts.Format, workers, s, &res)
	res.Events = s.next - firstIndex
	res.Skipped = s.skipped
	res.Diagnostics = d.finish()
	return res, err
}

// readLines detects the format, then decodes every line.
func readLines(lr *linereader.Reader, forced Format, workers int, s *Sink, res *FileResult) error {
	d := &detection{s: s, res: res}
	if forced != "" {
		d.start(forced)
	}
	if err := d.detect(lr); err != nil {
		return err
	}
	records := d.records
	if d.dec != nil && s.err == nil {
		if workers > 1 {
			records += s.streamParallel(lr, d.dec, workers)
		} else {
			records += s.stream(lr, d.dec)
		}
	}
	if s.err != nil {
		return s.err
	}
	res.Records = records
	if err := lr.Failure(); err != nil {
		line := max(lr.Line, 1)
		s.diag.add(Error, line, "input ends in a read error after line %d: %s; the lines before it were read", lr.Line, readErrText(err))
		res.Cut = true
		if d.dec == nil {
			return &InputError{File: s.file, Line: line, Msg: "cannot read: " + readErrText(err)}
		}
	}
	if d.dec == nil {
		if records == 0 {
			return &InputError{File: s.file, Msg: "empty file: no records"}
		}
		return &InputError{File: s.file, Line: d.firstNonEmpty, Msg: fmt.Sprintf(
			"no recognizable records in the first %d lines (tried %s); use --input-format to force one",
			min(records, detectWindow), formatNames())}
	}
	d.dec.Finish()
	return s.err
}

// detection reads a file's first records until they decide its format,
// holding them until it is known; then they are decoded, and the rest of
// the file streams.
type detection struct {
	s             *Sink
	res           *FileResult
	dec           Decoder // nil until the format is known
	pending       []heldLine
	records       int
	firstNonEmpty int
}

// heldLine is a line read before the format was known.
type heldLine struct {
	line     string // its own copy, read from when the format is known
	num      int
	off      int64
	last     bool
	overLong bool
}

// start decodes with format from now on, the lines held first.
func (d *detection) start(format Format) {
	s := d.s
	d.res.Format, s.format = format, format
	d.dec = newDecoder(format, s)
	for _, h := range d.pending {
		s.apply(d.dec, s.prepareRead(d.dec, h.line, h.last, h.overLong, lineOwned), h.num, h.off)
	}
	d.pending = nil
}

// detect reads lines until the format is known and the first non-empty
// line seen, or detectWindow lines decided nothing, or the input ends.
func (d *detection) detect(lr *linereader.Reader) error {
	s := d.s
	for d.dec == nil || d.firstNonEmpty == 0 {
		line, num, off, ok := lr.Next()
		if !ok {
			return nil
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if d.firstNonEmpty == 0 {
			d.firstNonEmpty = num
			if err := notJSONLines(s.file, trimmed, num); err != nil {
				return err
			}
		}
		d.records++
		last := lr.LastUnterminated
		if d.dec != nil {
			s.apply(d.dec, s.prepareRead(d.dec, string(line), last, lr.OverLong, lineOwned), num, off)
			continue
		}
		// one copy is held, classified and, once the format is known, read:
		// the first record can be a 60 MB message
		own := string(line)
		d.pending = append(d.pending, heldLine{own, num, off, last, lr.OverLong})
		if rec, ok := parseRecord(own); ok && !lr.OverLong {
			if f := classify(rec); f != "" {
				d.start(f)
				continue
			}
		}
		if len(d.pending) >= detectWindow {
			return nil
		}
	}
	return nil
}

// notJSONLines refuses a file whose first line shows it is no JSON Lines.
func notJSONLines(file string, first []byte, num int) error {
	if linereader.InUTF16(first) {
		return &InputError{File: file, Line: num,
			Msg: "is UTF-16 text, not UTF-8 (Windows PowerShell's > writes UTF-16); convert it with: iconv -f UTF-16 -t UTF-8"}
	}
	if first[0] == '[' {
		// JSON Lines never opens with a bracket; reading the objects of a
		// pretty-printed array line by line would yield fragments.
		return &InputError{File: file, Line: num,
			Msg: "holds a JSON array, not JSON Lines (one JSON object per line); convert it with: jq -c '.[]'"}
	}
	return nil
}

// lineHolding says what holds a line's bytes, and so whether a record read
// from it may keep pieces of it.
type lineHolding int

const (
	lineOwned   lineHolding = iota // the line's own copy
	lineInChunk                    // a piece of a read chunk (NextChunk), shared with other lines: a piece kept holds them all
)

// lineProblem is a line that is not a record, with what to say about it.
// A line that is not JSON keeps the line instead, for apply to say where
// and why: only the lines a file shows
// are worth that second look.
type lineProblem struct{ msg, invalid string }

// jsonProblem says where and why a line that failed validation is not
// JSON, as a postmortem needs to find the damage in a line of megabytes.
// The validator only says no, to stay fast on good lines; encoding/json,
// which FuzzValidJSON holds it to, names the first bad byte of a bad one.
func jsonProblem(line string) string {
	var raw json.RawMessage
	var se *json.SyntaxError
	if !errors.As(json.Unmarshal([]byte(line), &raw), &se) {
		return "invalid JSON"
	}
	at := se.Offset // of the bad byte, counting from 1
	switch msg := se.Error(); {
	case msg == "unexpected end of JSON input":
		return fmt.Sprintf("invalid JSON: the line ends inside the record, after byte %d", at)
	case strings.HasSuffix(msg, "exceeded max depth"):
		return fmt.Sprintf("invalid JSON: nested deeper than %d levels at byte %d", jsontext.MaxDepth, at)
	case strings.HasSuffix(msg, "after top-level value"):
		if at >= 1 && at <= int64(len(line)) && line[at-1] == '{' {
			return fmt.Sprintf("two records on one line: the second begins at byte %d", at)
		}
		return fmt.Sprintf("invalid JSON: text after the record at byte %d", at)
	default:
		return fmt.Sprintf("invalid JSON at byte %d: %s", at, msg)
	}
}

// overLongLine reports a line too long to hold as a record.
func overLongLine() lineProblem {
	return lineProblem{msg: fmt.Sprintf("%s: a line over %d MiB, longer than any agent writes, read past rather than held; skipped", malformed, linereader.MaxRecordLine>>20)}
}

// malformed begins the report of a line that is no record; the words are
// the key its problems are capped by (diagnostics.add).
const malformed = "malformed record"

// InvalidUTF8Msg reports a record whose bytes were not all UTF-8.
const InvalidUTF8Msg = "invalid UTF-8: bytes that are not UTF-8 were read as U+FFFD; the record is audited"

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

func Preview(b string, n int) string {
	return strings.ToValidUTF8(b[:min(len(b), n)], "?")
}

// stream decodes the rest of the file on this goroutine and returns how
// many records it read.
func (s *Sink) stream(lr *linereader.Reader, dec Decoder) int {
	records := 0
	for s.err == nil {
		line, num, off, ok := lr.NextRecord()
		if !ok {
			break
		}
		records++
		// the line's own copy (the read buffer is reused for the next); a
		// line read past for its length is not copied
		var text string
		if !lr.OverLong {
			text = string(line)
		}
		s.apply(dec, s.prepareRead(dec, text, lr.LastUnterminated, lr.OverLong, lineOwned), num, off)
	}
	return records
}

// prepareLine validates a line and reads it as far as can be done without
// the decoder's state. It is safe to call on several lines at once. A panic
// here is a bug in compaudit, not in the input: the record is reported
// with its line and skipped, and the rest of the file is still read.
func (s *Sink) prepareLine(dec Decoder, line string, last bool, held lineHolding) (p any) {
	defer func() {
		if r := recover(); r != nil {
			p = lineProblem{msg: fmt.Sprintf("internal error reading this record (a compaudit bug; please report it): %v; skipped", r)}
		}
	}()
	idx := indexBuffers.Get().(*jsontext.RecordIndex)
	defer indexBuffers.Put(idx)
	rec, ok := ReadRecord(line, *idx)
	*idx = rec.RecordIndex
	if !ok {
		// from its first byte past white space: all that is kept of a long
		// line that is no record (passing)
		trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
		switch {
		case last && len(trimmed) > 0 && trimmed[0] == '{':
			return lineProblem{msg: "truncated last line: the record ends without closing (the writer stopped mid-record); skipped"}
		case strings.IndexByte(line, 0) >= 0:
			return lineProblem{msg: malformed + ": NUL bytes in the line; skipped"}
		case len(trimmed) > 0 && trimmed[0] != '{':
			return lineProblem{msg: fmt.Sprintf("%s: not a JSON object (starts with %q); skipped", malformed, Preview(trimmed, 12))}
		default:
			return lineProblem{invalid: line}
		}
	}
	if sk, ok := dec.(Skipper); ok && sk.Skips(jsontext.JsonString(rec.Get("type"))) {
		return nil
	}
	if held == lineInChunk && !detaches(dec) {
		rec.Raw = strings.Clone(rec.Raw) // the index is offsets: it still holds
	}
	rec.NoReasoning = s.noReasoning
	return dec.Prepare(rec, s.prepare)
}

// prepareRead is prepareLine for a line as the reader gave it: one passed
// over for its length is reported without a look.
func (s *Sink) prepareRead(dec Decoder, line string, last, overLong bool, held lineHolding) any {
	if overLong {
		return overLongLine()
	}
	return s.prepareLine(dec, line, last, held)
}

// apply hands a prepared line to the decoder, in file order.
func (s *Sink) apply(dec Decoder, p any, num int, off int64) {
	if s.err != nil {
		return
	}
	if lp, ok := p.(lineProblem); ok {
		s.skipped++
		msg := lp.msg
		if msg == "" { // not JSON: where and why, if it will be shown
			why := "invalid JSON"
			if s.diag.shows(malformed) {
				why = jsonProblem(lp.invalid)
			}
			msg = malformed + ": " + why + "; skipped"
		}
		s.diag.add(Error, num, "%s", msg)
		return
	}
	dec.Apply(p, num, off)
}
