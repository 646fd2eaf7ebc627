// Package linereader owns a transcript file's bytes as lines: gzip
// undone, lines numbered with their offsets, chunks handed to the reading
// workers without copying, records past 64 MiB and long lines that are no
// record read past rather than held, and a UTF-16 or cut-short file told
// apart. It knows nothing of JSON, agents or formats.
package linereader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
)

// lineReader yields the lines of a JSONL stream with their 1-based numbers and
// byte offsets. Lines may be of any length: a tool result of tens of
// megabytes is one line. A record's line is given whole up to
// MaxRecordLine; a longer one, and a long line that is no record, only by
// its start (passedHead).
type Reader struct {
	R      *bufio.Reader
	Under  io.Reader // what r buffers, if known: chunks are read from it directly
	buf    []byte    // reused for lines longer than the bufio buffer
	carry  []byte    // the start of a record cut by the end of a chunk, copied out
	Line   int
	Offset int64 // offset of the next line
	Err    error // the error that ended the stream, other than io.EOF
	// LastUnterminated is set when the final line had no newline: a writer
	// stopped mid-record or the file was cut.
	LastUnterminated bool
	// OverLong is set when the line next returned was a record's start
	// passed over for its length (maxRecordLine).
	OverLong bool
}

// Read buffers: large for a large file, no larger than the file for a small
// one — a folder of a thousand sessions should not allocate a gigabyte of
// buffers — and small for a peek at the first records.
const (
	ReadBufSize = 1 << 20
	minBufSize  = 16 << 10
	PeekBufSize = 64 << 10
)

// BufSizeFor picks a read buffer for a file of n bytes (n < 0: unknown).
func BufSizeFor(n int64) int {
	if n < 0 || n >= ReadBufSize/4 {
		return ReadBufSize // pooled
	}
	return max(minBufSize, int(n)+1)
}

// Large read buffers are reused from file to file: a folder of sessions
// would otherwise allocate, and zero, one per file.
var bigReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, ReadBufSize) }}

// NewBufReader buffers r with size bytes; release hands a pooled buffer back.
func NewBufReader(r io.Reader, size int) (br *bufio.Reader, release func()) {
	if size < ReadBufSize {
		return bufio.NewReaderSize(r, size), func() {}
	}
	br = bigReaders.Get().(*bufio.Reader)
	br.Reset(r)
	return br, func() {
		br.Reset(nil)
		bigReaders.Put(br)
	}
}

// NewLineReader reads lines from r with a buffer of size bytes; an r that
// is already buffered that large is used as it is.
func NewLineReader(r io.Reader, size int) *Reader {
	return &Reader{R: bufio.NewReaderSize(r, size)}
}

// Next returns the next line without its line terminator. The slice is only
// valid until the following call. ok is false at the end of the stream.
func (lr *Reader) Next() (line []byte, num int, offset int64, ok bool) {
	if lr.Err != nil {
		return nil, 0, 0, false
	}
	lr.OverLong = false
	chunk, err := lr.R.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		if t := lr.nonRecord(chunk); t != nil {
			return lr.passNext(chunk, t)
		}
	}
	if err == bufio.ErrBufferFull {
		lr.buf = append(lr.buf[:0], chunk...)
		for err == bufio.ErrBufferFull {
			// over the bound, and past a rune the buffer may have cut: of
			// white space so far, it is blank or over-long, whichever follows
			if len(lr.buf) > MaxRecordLine+lineSlack {
				if t := lr.pastSpace(lr.buf); len(t) == 0 || utf8.FullRune(t) {
					line, num, offset, ok = lr.passNext(lr.buf, t)
					lr.OverLong = startsRecord(line)
					lr.buf = nil // not held for the lines after it
					return line, num, offset, ok
				}
			}
			chunk, err = lr.R.ReadSlice('\n')
			lr.buf = append(lr.buf, chunk...)
		}
		chunk = lr.buf
	}
	if err != nil && err != io.EOF {
		lr.Err = err
		if len(chunk) == 0 {
			return nil, 0, 0, false
		}
	}
	if len(chunk) == 0 {
		lr.Err = io.EOF
		return nil, 0, 0, false
	}
	line, start, last := lr.count(chunk)
	if last && err == io.EOF {
		lr.Err = io.EOF
	}
	lr.OverLong = len(line) > MaxRecordLine && startsRecord(line)
	return line, lr.Line, start, true
}

// count numbers a line read whole, with its line end if it has one, and
// returns it without the line end, with its offset, and whether it was an
// unterminated last line.
func (lr *Reader) count(raw []byte) (line []byte, start int64, last bool) {
	mark := lr.markLen(raw)
	start = lr.Offset + int64(mark)
	lr.Offset += int64(len(raw))
	lr.Line++
	if raw[len(raw)-1] == '\n' {
		raw = raw[:len(raw)-1]
	} else {
		last = true
		lr.LastUnterminated = true
	}
	return bytes.TrimSuffix(raw[mark:], []byte{'\r'}), start, last
}

var Utf8BOM = []byte("\xef\xbb\xbf")

// markLen is the length of the byte order mark a line not yet counted
// starts with: Windows editors write one before UTF-8, and it is counted
// in the file's offsets but is no part of the first record. Only the
// stream's first line has one.
func (lr *Reader) markLen(raw []byte) int {
	if lr.Line == 0 && bytes.HasPrefix(raw, Utf8BOM) {
		return len(Utf8BOM)
	}
	return 0
}

// InUTF16 reports a first line in UTF-16, as Windows PowerShell's > writes
// Text: a byte order mark, or a brace and the next character each with a
// zero byte beside them (one stray NUL is damage, reported per record).
func InUTF16(line []byte) bool {
	return len(line) >= 2 && (line[0] == 0xff && line[1] == 0xfe || line[0] == 0xfe && line[1] == 0xff) ||
		len(line) >= 4 && (line[0] == '{' && line[1] == 0 && line[3] == 0 || line[0] == 0 && line[1] == '{' && line[2] == 0)
}

// A line longer than the read buffer whose first byte is not a record's
// '{' — a binary file, a tail of zeros a crash left, a log pasted in — is
// passed over rather than held: only its start and whether it holds a
// zero byte are kept, which is all a report of it says, so such a line
// costs no memory of its size. A record's line is held whole, up to
// MaxRecordLine.
const PassedHead = 64

// MaxRecordLine bounds a record's line, so that a hostile one cannot take
// the machine's memory: past it, a line is passed over as one that is no
// record is, and reported. The longest line of the corpus's real sessions
// is 178 KB, and an image an agent reads in is a few megabytes. A variable
// so tests can lower it.
var MaxRecordLine = 64 << 20

// lineSlack is how far past maxRecordLine a line is read before it is
// passed over: more than a byte order mark and a carriage return, so the
// Line itself is surely over the bound, and a line is over-long by its
// length alone whichever way it is read.
const lineSlack = 8

// TrimLeftSpace is bytes.TrimLeftFunc(b, unicode.IsSpace), a byte at a
// time over ASCII: a hostile line of hundreds of megabytes of white space
// is looked over more than once.
func TrimLeftSpace(b []byte) []byte {
	for len(b) > 0 {
		if c := b[0]; c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				return b
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if !unicode.IsSpace(r) {
			return b
		}
		b = b[size:]
	}
	return b
}

// startsRecord reports whether a line's first byte past white space is a
// record's '{'.
func startsRecord(t []byte) bool {
	t = TrimLeftSpace(t)
	return len(t) > 0 && t[0] == '{'
}

// nonRecord returns the start of a line from its first byte past white
// space (and the first line's byte order mark) when that byte shows the
// Line cannot be a record, and nil when it is a '{' or not yet read whole:
// a rune cut by the end of the buffer may be white space yet.
func (lr *Reader) nonRecord(start []byte) []byte {
	t := lr.pastSpace(start)
	if len(t) == 0 || t[0] == '{' || !utf8.FullRune(t) {
		return nil
	}
	return t
}

// pastSpace is a line not yet counted from its first byte past white space
// and, on the first line, the byte order mark count would drop.
func (lr *Reader) pastSpace(raw []byte) []byte {
	return TrimLeftSpace(raw[lr.markLen(raw):])
}

// passing gathers what is kept of a line passed over.
type passing struct {
	total int64  // the line's bytes so far, its line end included
	kept  int64  // of them, those from its first byte past white space
	head  []byte // the first passedHead+1 of those
	nul   bool
	// pend is the start of a rune the last read cut, while all before it
	// was white space: it may be white space too
	pend []byte
}

// startPassing begins passing over a line, read so far into raw, whose
// start past white space is t: a line that is no record (nonRecord), or a
// record's that is over-long.
func startPassing(raw, t []byte) *passing {
	p := &passing{total: int64(len(raw) - len(t))}
	p.add(t)
	return p
}

func (p *passing) add(b []byte) {
	p.total += int64(len(b))
	if p.kept == 0 { // white space so far: passed over, as a whole read does
		if len(p.pend) > 0 {
			b = append(p.pend, b...)
			p.pend = nil
		}
		b = TrimLeftSpace(b)
		if !utf8.FullRune(b) {
			p.pend = bytes.Clone(b)
			return
		}
	}
	p.kept += int64(len(b))
	p.nul = p.nul || bytes.IndexByte(b, 0) >= 0
	if len(p.head) <= PassedHead {
		p.head = append(p.head, b[:min(len(b), PassedHead+1-len(p.head))]...)
	}
}

// Line is what is kept: the line's first bytes past white space, and a
// zero byte if the line held one.
func (p *passing) line(terminated bool) []byte {
	if p.kept == 0 { // white space, its line end too, or a rune cut at the stream's end
		return p.pend
	}
	head := p.head
	if int64(len(head)) < p.kept { // more followed
		head = head[:PassedHead:PassedHead]
	} else { // the line's end is in it, which count would drop
		if terminated {
			head = head[:len(head)-1]
		}
		head = bytes.TrimSuffix(head, []byte{'\r'})
	}
	if p.nul && bytes.IndexByte(head, 0) < 0 {
		head = append(head, 0)
	}
	return head
}

// countPassed numbers the line passed over and returns it as kept, with its
// Offset and whether it was an unterminated last line.
func (lr *Reader) countPassed(p *passing, terminated bool, mark int) (line []byte, start int64, last bool) {
	start = lr.Offset + int64(mark) // the line starts after a byte order mark, as count has it
	lr.Offset += p.total
	lr.Line++
	if !terminated {
		lr.LastUnterminated = true
	}
	return p.line(terminated), start, !terminated
}

// passNext reads past the rest of a line begun in raw (the reader's
// buffer, read over next, or lr.buf), whose start is t (startPassing).
func (lr *Reader) passNext(raw, t []byte) (line []byte, num int, offset int64, ok bool) {
	mark := lr.markLen(raw)
	p := startPassing(raw, t)
	chunk, err := raw, bufio.ErrBufferFull
	for err == bufio.ErrBufferFull {
		chunk, err = lr.R.ReadSlice('\n')
		p.add(chunk)
	}
	if err != nil {
		lr.Err = err // io.EOF included: nothing follows the line
	}
	line, offset, _ = lr.countPassed(p, len(chunk) > 0 && chunk[len(chunk)-1] == '\n', mark)
	return line, lr.Line, offset, true
}

// fill reads into buf[n:] until it is full or the stream ends, and returns
// how much of buf is read.
func (lr *Reader) fill(buf []byte, n int) int {
	for n < len(buf) && lr.Err == nil {
		var rd io.Reader = lr.R
		if lr.Under != nil && lr.R.Buffered() == 0 {
			rd = lr.Under // not through the buffer, which would copy it twice
		}
		m, err := rd.Read(buf[n:])
		n += m
		if err != nil {
			lr.Err = err
		}
	}
	return n
}

// passChunk reads past the rest of a line that fills buf[:n], whose start
// is t (startPassing), reading over buf. It returns the line as kept, and
// how much of buf then holds what follows it.
func (lr *Reader) passChunk(buf []byte, n int, t []byte) (int, BatchLine) {
	mark := lr.markLen(buf)
	p := startPassing(buf[:n], t)
	for {
		n = lr.fill(buf, 0)
		i := bytes.IndexByte(buf[:n], '\n')
		if i < 0 && lr.Err == nil {
			p.add(buf[:n])
			continue
		}
		end := n // of the line in buf
		if i >= 0 {
			end = i + 1
		}
		p.add(buf[:end])
		line, start, last := lr.countPassed(p, i >= 0, mark)
		rest := copy(buf, buf[end:n]) // what follows the line, to the front
		return rest, BatchLine{Text: string(line), Num: lr.Line, Off: start, Last: last}
	}
}

// Blank reports a line of nothing but white space: counted, not a record.
func Blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// NextRecord is next without the blank lines.
func (lr *Reader) NextRecord() (line []byte, num int, offset int64, ok bool) {
	for {
		line, num, offset, ok = lr.Next()
		if !ok || !Blank(line) {
			return line, num, offset, ok
		}
	}
}

// Failure reports a read error other than a clean end of stream.
func (lr *Reader) Failure() error {
	if lr.Err == nil || lr.Err == io.EOF {
		return nil
	}
	return lr.Err
}

// MaybeGunzip returns a reader that transparently decompresses gzip data,
// recognized by its magic number rather than by the file name.
func MaybeGunzip(br *bufio.Reader) (io.Reader, error) {
	head, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return zr, nil
	}
	return br, nil
}

// ChunkBytes is the size of a read chunk; a variable so tests can cut a
// small file into many. The chunks in flight are about half of what an
// audit of a session holds, and the collector lets the heap grow to three
// times that: 512 KB chunks took 11 MB off the peak of 1 MB ones, and
// with it a sixth of the page faults, which cost most on a cold run
// (measured when the chunk size was chosen); 256 KB ones took no more off and cost CPU.
var ChunkBytes = 512 << 10

// Reuse holds values for reuse: a channel rather than a sync.Pool, which
// the collector empties at every cycle — a dozen times a second here. What
// it has no room for is left to the collector.
type Reuse[T any] chan T

// Take returns a value held for reuse, if there is one.
func (r Reuse[T]) Take() (v T, ok bool) {
	select {
	case v = <-r:
		return v, true
	default:
		return v, false
	}
}

// Give holds v for reuse, if there is room.
func (r Reuse[T]) Give(v T) {
	select {
	case r <- v:
	default:
	}
}

// freeChunks holds chunks for reuse: a fresh megabyte costs page faults
// and zeroing, about as much as reading into it. A chunk is free again as
// soon as its records are copied out of it.
var freeChunks = make(Reuse[*[]byte], 32)

// releaseChunk hands a chunk back for reuse.
func releaseChunk(c *[]byte) {
	if c == nil || len(*c) != ChunkBytes {
		return // grown for a long record: left to the collector
	}
	freeChunks.Give(c)
}

// NextChunk reads the next stretch of the stream, chunkBytes unless the
// stream ends first, and returns its records. They are pieces of one
// string, a copy of the stretch, so a record costs no copy of its own and
// the buffer it was read into is reused at once; a decoder copies out
// what it keeps, or a piece would hold the whole stretch in memory
// (parse.Within). A record cut by the end of the chunk is carried into the
// next; one longer than the chunk grows it. Blank lines are counted, not
// returned. ok is false once the stream has ended and nothing was read.
// The lines are appended to lines, which the caller may pass in for reuse.
func (lr *Reader) NextChunk(lines []BatchLine) (_ []BatchLine, ok bool) {
	if lr.Err != nil && len(lr.carry) == 0 {
		return lines, false
	}
	var chunk *[]byte
	if 2*len(lr.carry) > ChunkBytes { // a long record, cut by the last chunk
		b := make([]byte, 2*len(lr.carry))
		chunk = &b
	} else {
		chunk, _ = freeChunks.Take()
		if chunk == nil || len(*chunk) != ChunkBytes { // none free, or a test changed the size
			b := make([]byte, ChunkBytes)
			chunk = &b
		}
	}
	buf := *chunk
	n := copy(buf, lr.carry)
	lr.carry = lr.carry[:0]
	end := -1    // index of the last newline in buf[:n]
	scanned := n // the carried start of a record holds no newline
	for {
		n = lr.fill(buf, n)
		if end = bytes.LastIndexByte(buf[scanned:n], '\n'); end >= 0 {
			end += scanned
			break
		}
		if lr.Err != nil {
			break
		}
		t := lr.nonRecord(buf[:n])
		pass := t != nil
		if !pass && n > MaxRecordLine+lineSlack { // over-long, or blank
			t = lr.pastSpace(buf[:n])
			pass = len(t) == 0 || utf8.FullRune(t)
		}
		if pass {
			var passed BatchLine
			n, passed = lr.passChunk(buf, n, t)
			passed.OverLong = startsRecord([]byte(passed.Text))
			if !Blank([]byte(passed.Text)) { // counted, not returned
				lines = append(lines, passed)
			}
			scanned = 0
			continue
		}
		grown := make([]byte, 2*len(buf)) // one record longer than the chunk
		copy(grown, buf[:n])
		chunk, buf = &grown, grown
		scanned = n
	}
	body := buf[:end+1]
	if lr.Err != nil && end+1 < n {
		body = buf[:n] // the stream ended inside a last, unterminated line
	} else {
		// copied out, so the chunk can be released before the next is read
		lr.carry = append(lr.carry, buf[end+1:n]...)
	}
	// one copy of the chunk's records as a string, whose pieces the lines
	// are: the chunk itself is free again at once
	text, pos := string(body), 0
	for len(body) > 0 {
		raw := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			raw, body = body[:i+1], body[i+1:]
		} else {
			body = nil
		}
		at := pos + lr.markLen(raw) // where count's line begins
		pos += len(raw)
		line, start, last := lr.count(raw)
		if Blank(line) {
			continue
		}
		lines = append(lines, BatchLine{Text: text[at : at+len(line)], Num: lr.Line, Off: start, Last: last,
			OverLong: len(line) > MaxRecordLine && startsRecord(line)})
	}
	releaseChunk(chunk)
	return lines, true
}

type BatchLine struct {
	Text     string
	Num      int
	Off      int64
	Last     bool
	OverLong bool // a record's start, passed over for its length
}
