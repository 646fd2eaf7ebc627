package parse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/compaudit/compaudit/parse/linereader"
	"github.com/tidwall/gjson"
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
		// looked at in place: a skipped record is never copied
		view := unsafe.String(unsafe.SliceData(line), len(line))
		s.apply(dec, s.prepareRead(dec, view, lr.LastUnterminated, lr.OverLong, lineView), num, off)
	}
	return records
}

// A batch is a run of lines read together: one goroutine prepares it while
// others prepare the batches around it, and the decoder applies them in
// file order.
type batch struct {
	lines []linereader.BatchLine
	chunk *[]byte // what the lines are views of, on a chunk's last batch
	out   []any
	lists *batchLists // the chunk's lines and out, on its last batch
}

// batchLines is the most lines a batch holds. A chunk of a session holds a
// few hundred records; one of a multi-agent run, about 9,000 small ones,
// whose prepared events take several times the chunk's size, and whole
// chunks in flight held tens of megabytes of them. A variable so tests can
// cut a chunk into many batches.
var batchLines = 2048

// batchLists are a batch's lines and what was prepared of them, reused with
// its chunk: a chunk of small records (a multi-agent run's) holds thousands,
// and making both lists afresh for every chunk showed as page faults.
type batchLists struct {
	lines []linereader.BatchLine
	out   []any
}

// freeLists holds batchLists for reuse, as freeChunks holds chunks.
var freeLists = make(linereader.Reuse[*batchLists], 32)

func takeLists() *batchLists {
	if l, ok := freeLists.Take(); ok {
		return l
	}
	return &batchLists{}
}

// releaseLists hands a batch's lists back once it is applied, holding
// nothing of what they held.
func releaseLists(l *batchLists) {
	clear(l.lines)
	clear(l.out)
	freeLists.Give(l)
}

// streamParallel decodes the rest of the file on workers goroutines, this
// one among them; events still come out in file order.
//
// No goroutine only reads: whichever needs work reads the next chunk
// itself. This one applies the batches in file order and, while the next
// is still being prepared, prepares a later one rather than wait. With a
// reader handing chunks to workers, a worker parked whenever the reader
// was held up behind the applying goroutine, and a goroutine parked here
// takes about 55 µs to wake: the trace of one audit of the bench's session
// had one goroutine running for 40–47 ms of its 320 when it was measured.
func (s *Sink) streamParallel(lr *linereader.Reader, dec Decoder, workers int) int {
	p := &pipeline{s: s, lr: lr, dec: dec, limit: 2 * workers}
	p.cond.L = &p.mu
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(p.work)
	}
	p.applyAll()
	wg.Wait()
	return p.records
}

// pipeline is what the goroutines of streamParallel share.
type pipeline struct {
	s   *Sink
	lr  *linereader.Reader
	dec Decoder
	// limit bounds the batches read and not yet applied, so memory does
	// not grow with the file: a worker ahead of the applying goroutine by
	// that many waits.
	limit int

	readMu sync.Mutex // held while reading, so chunks join the queue in file order
	mu     sync.Mutex // guards what follows
	cond   sync.Cond  // a batch was read, prepared or applied, or the stream ended
	queue  []*queued  // read and not yet applied, in file order
	// reading counts the chunks being read, against limit
	reading int
	ended   bool // no more chunks
	stopped bool // the sink failed: read no more
	records int
}

// queued is a batch in the queue.
type queued struct {
	b        *batch
	claimed  bool // taken to be prepared
	prepared bool
}

// work prepares batches until the stream ends.
func (p *pipeline) work() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if q := p.claim(); q != nil {
			p.prepare(q)
			continue
		}
		if p.ended || p.stopped {
			return
		}
		p.cond.Wait()
	}
}

// applyAll applies the batches in file order, preparing while the next is
// not ready, until the stream ends and every batch read is applied.
func (p *pipeline) applyAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if p.headReady() {
			b := p.queue[0].b
			p.queue[0] = nil
			p.queue = p.queue[1:]
			p.cond.Broadcast() // room for another
			p.mu.Unlock()
			failed := p.apply(b)
			p.mu.Lock()
			p.stopped = p.stopped || failed
			continue
		}
		if q := p.claim(); q != nil {
			p.prepare(q)
			continue
		}
		if len(p.queue) == 0 && (p.ended || p.stopped) {
			return
		}
		// claim lets go of p.mu while it reads, and the broadcast of the
		// head's being prepared may have come then
		if !p.headReady() {
			p.cond.Wait()
		}
	}
}

// headReady reports whether the next batch to apply is prepared.
func (p *pipeline) headReady() bool {
	return len(p.queue) > 0 && p.queue[0].prepared
}

// apply applies a prepared batch, unless the sink has failed, and lets go
// of it; it reports whether the sink has failed.
func (p *pipeline) apply(b *batch) bool {
	s := p.s
	if s.err == nil { // else drain, so every batch read is let go
		for i, l := range b.lines {
			if s.apply(p.dec, b.out[i], l.Num, l.Off); s.err != nil {
				break
			}
		}
	}
	// applied: no record of it is read again, and what the events keep
	// was copied out
	clear(b.out)
	if b.lists != nil {
		linereader.ReleaseChunk(b.chunk)
		releaseLists(b.lists)
	}
	return s.err != nil
}

// claim takes a batch to prepare: one read and not yet taken, else the
// first of a chunk it reads, if the limit leaves room. p.mu is held on
// entry and on return, but not while reading, so what was true before the
// call may not be after it.
func (p *pipeline) claim() *queued {
	for _, q := range p.queue {
		if !q.claimed {
			q.claimed = true
			return q
		}
	}
	if p.ended || p.stopped || len(p.queue)+p.reading >= p.limit {
		return nil
	}
	p.reading++
	p.mu.Unlock()
	p.readMu.Lock()
	// A batch is a read chunk, or batchLines of its lines; the last batch
	// of a chunk releases it.
	lists := takeLists()
	lines, chunk, ok := p.lr.NextChunk(lists.lines[:0])
	p.mu.Lock()
	p.readMu.Unlock()
	p.reading--
	p.cond.Broadcast()
	if !ok {
		p.ended = true
		releaseLists(lists)
		return nil
	}
	p.records += len(lines)
	lists.lines, lists.out = lines, slices.Grow(lists.out[:0], len(lines))[:len(lines)]
	first := len(p.queue)
	for start := 0; ; start += batchLines {
		end := min(start+batchLines, len(lines))
		b := &batch{lines: lines[start:end], out: lists.out[start:end]}
		if end == len(lines) {
			b.chunk, b.lists = chunk, lists
		}
		p.queue = append(p.queue, &queued{b: b})
		if end == len(lines) {
			break
		}
	}
	p.queue[first].claimed = true
	return p.queue[first]
}

// prepare prepares a claimed batch without p.mu, which is held on entry
// and on return.
func (p *pipeline) prepare(q *queued) {
	p.mu.Unlock()
	b, s := q.b, p.s
	for i, l := range b.lines {
		b.out[i] = s.prepareRead(p.dec, l.Text, l.Last, l.OverLong, lineInChunk)
	}
	p.mu.Lock()
	q.prepared = true
	p.cond.Broadcast()
}

// lineHolding says what holds a line's bytes, and so whether a record read
// from it may keep pieces of it.
type lineHolding int

const (
	lineOwned   lineHolding = iota // the line's own copy
	lineView                       // the read buffer, reused for the next line: copied if read
	lineInChunk                    // a read chunk (nextChunk), shared with other lines and reused once they are applied
)

// Detacher is a decoder whose prepare copies out every string it keeps, so
// it may read a line in place in a chunk: it reads tens of megabytes of
// tool output, most of which it never keeps, while a piece of a line that
// was kept would hold its whole chunk in memory.
type Detacher interface {
	Detaches()
}

func detaches(dec Decoder) bool {
	_, ok := dec.(Detacher)
	return ok
}

// Within reports whether s is a piece of buf: the same bytes, not a copy.
func Within(s, buf string) bool {
	_, ok := jsontext.OffsetIn(s, buf)
	return ok
}

// lineProblem is a line that is not a record, with what to say about it.
// A line that is not JSON keeps the line instead (a view, valid until it
// is applied), for apply to say where and why: only the lines a file shows
// are worth that second look.
type lineProblem struct{ msg, invalid string }

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
	if held == lineView || held == lineInChunk && !detaches(dec) {
		rec.Raw = strings.Clone(rec.Raw) // the index is offsets: it still holds
	}
	rec.NoReasoning = s.noReasoning
	return dec.Prepare(rec, s.prepare)
}

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

// prepareRead is prepareLine for a line as the reader gave it: one passed
// over for its length is reported without a look.
func (s *Sink) prepareRead(dec Decoder, line string, last, overLong bool, held lineHolding) any {
	if overLong {
		return overLongLine()
	}
	return s.prepareLine(dec, line, last, held)
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
func parseRecord(line string) (gjson.Result, bool) {
	rec, ok := ReadRecord(line, jsontext.RecordIndex{})
	if !ok {
		return gjson.Result{}, false
	}
	return rec.JSON(), true
}

// indexBuffers hold the index of a record while it is prepared; no
// decoder keeps it.
var indexBuffers = sync.Pool{New: func() any { return new(jsontext.RecordIndex) }}

// Record is a validated JSON object with its index.
type Record struct {
	Raw string
	jsontext.RecordIndex
	ValidUTF8 bool // every string is UTF-8, so no text read from it needs a check
	// NoReasoning: reasoning's text is not read (Options.NoReasoningText)
	NoReasoning bool
}

// Get returns the raw value of a top-level key, or "". Of a key written
// twice it is the last, as the decoders read the members in order.
func (r Record) Get(key string) string {
	for i := len(r.Fields) - 1; i >= 0; i-- {
		if f := r.Fields[i]; r.Raw[f.K0:f.K1] == key {
			return r.Raw[f.V0:f.V1]
		}
	}
	return ""
}

// JSON is the record for gjson's queries.
func (r Record) JSON() gjson.Result { return gjson.Parse(r.Raw) }

// ReadRecord validates one line as a JSON object and indexes it into idx
// (its buffers reused). Invalid UTF-8 does not make a line invalid (the
// validator, like encoding/json, does not ask for it): the decoders repair
// the texts they read and warn.
func ReadRecord(line string, idx jsontext.RecordIndex) (rec Record, ok bool) {
	idx, valid, validUTF8 := jsontext.ValidRecord(line, idx)
	if !valid {
		return Record{}, false
	}
	t := strings.TrimLeft(line, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return Record{}, false
	}
	return Record{Raw: line, RecordIndex: idx, ValidUTF8: validUTF8}, true
}

// Decoder turns the records of one format into events, in two steps:
// prepare reads one record on its own and may run on several at once;
// apply takes the prepared records in file order and keeps the state.
type Decoder interface {
	Prepare(rec Record, annotate func(*Event)) any
	Apply(p any, line int, off int64)
	Finish()
}

// Skipper is a decoder that passes over some types of record whole: they
// are validated like any other, so a cut or merged line is still reported,
// but never read.
type Skipper interface {
	Skips(typ string) bool
}

func newDecoder(f Format, s *Sink) Decoder {
	r := readerOf(f)
	s.ownClock = r.OwnClock
	return r.NewDecoder(s)
}

// Sink receives the events of one file, numbers them and reports problems.
type Sink struct {
	file    string
	format  Format
	agent   string // agent the file belongs to, MainAgent or a subagent id
	diag    *diagnostics
	skipped int // lines that were not records
	next    int
	emit    func(*Event) error
	prepare func(*Event)
	err     error
	// noReasoning: reasoning is not read (Options.NoReasoningText)
	noReasoning bool

	ownClock     bool   // the decoder checks timestamps (FormatReader.OwnClock)
	lastTime     string // latest timestamp so far, and its line
	lastTimeLine int

	partOff int64 // record of the last event put, and its part
	part    int
	parted  bool
}

// Settle readies an event's content for the audit, once, on whichever
// goroutine has it first — a decoder's prepare on the reading workers, or
// put: text that is not UTF-8 is repaired, since raw bytes from a tool (a
// Latin-1 CSV) must not leak into JSON output, its terminal escape
// sequences are removed (plainText), and the consumer's Prepare runs. It reports a repair, for the caller to warn of; validUTF8 says
// every string of the record was UTF-8, so no text read from it needs the
// check: the escapes decode to UTF-8 too.
func Settle(ev *Event, validUTF8 bool, prepare func(*Event)) (repaired bool) {
	if !ev.textChecked {
		if !validUTF8 && !utf8.ValidString(ev.Text) {
			ev.Text = strings.ToValidUTF8(ev.Text, "\uFFFD")
			repaired = true
		}
		ev.Text = plainText(ev.Text)
		if b := ev.Boundary; b != nil {
			b.Summary = plainText(b.Summary)
		}
		ev.textChecked = true
	}
	if prepare != nil && !ev.prepared {
		prepare(ev)
		ev.prepared = true
	}
	return repaired
}

// Put numbers an event and hands it on.
func (s *Sink) Put(ev *Event) {
	if s.err != nil {
		return
	}
	ev.Index = s.next
	ev.File = s.file
	ev.Format = s.format
	// a record's events come out together, so counting from its first
	// one numbers them alike however many records came before (Reread)
	if s.parted && ev.Offset == s.partOff {
		s.part++
	} else {
		s.partOff, s.part, s.parted = ev.Offset, 0, true
	}
	ev.Part = s.part
	if Settle(ev, false, s.prepare) {
		s.diag.add(Warning, ev.Line, InvalidUTF8Msg)
	}
	ev.Agent = s.AgentOr(ev.Agent)
	s.checkTime(ev)
	s.next++
	s.err = s.emit(ev)
}

// Report records a problem found at a line of the file; problems with the
// same message are capped (MaxSameDiagnostic).
func (s *Sink) Report(sev Severity, line int, format string, args ...any) {
	s.diag.add(sev, line, format, args...)
}

// FileAgent is the agent of the file being read, as its File names it.
func (s *Sink) FileAgent() string { return s.agent }

// AgentOr is agent, or the file's agent when it is empty, or MainAgent.
func (s *Sink) AgentOr(agent string) string {
	switch {
	case agent != "":
		return agent
	case s.agent != "":
		return s.agent
	}
	return MainAgent
}

// checkTime warns when a record's timestamp is earlier than the one before
// it in the file: merged or hand-edited files, clock skew. Events are still
// taken in file order, which the warning says.
func (s *Sink) checkTime(ev *Event) {
	if ev.Time == "" || s.ownClock {
		return // Claude Code's records are checked against their parents
	}
	if s.lastTime != "" && ev.Time < s.lastTime {
		t, err1 := time.Parse(time.RFC3339Nano, ev.Time)
		last, err2 := time.Parse(time.RFC3339Nano, s.lastTime)
		if err1 == nil && err2 == nil && t.Before(last) {
			s.diag.add(Warning, ev.Line, "out-of-order timestamp: %s is earlier than %s at line %d; events are taken in file order",
				ev.Time, s.lastTime, s.lastTimeLine)
			return // the later time stays the mark
		}
	}
	s.lastTime, s.lastTimeLine = ev.Time, ev.Line
}

func Preview(b string, n int) string {
	return strings.ToValidUTF8(b[:min(len(b), n)], "?")
}

// Text is the reader of the record, valid while its index is.
func (r Record) Text() jsontext.Text { return jsontext.TextOf(r.Raw, r.Spans) }
