package parse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"sync"
)

// lineReader yields the lines of a JSONL stream with their 1-based numbers and
// byte offsets. Lines may be of any length: a tool result of tens of
// megabytes is one line.
type lineReader struct {
	r      *bufio.Reader
	buf    []byte // reused for lines longer than the bufio buffer
	line   int
	offset int64 // offset of the next line
	err    error // the error that ended the stream, other than io.EOF
	// lastUnterminated is set when the final line had no newline: a writer
	// stopped mid-record or the file was cut.
	lastUnterminated bool
}

// Read buffers: large for a large file, no larger than the file for a small
// one — a folder of a thousand sessions should not allocate a gigabyte of
// buffers — and small for a peek at the first records.
const (
	readBufSize = 1 << 20
	minBufSize  = 16 << 10
	peekBufSize = 64 << 10
)

// bufSizeFor picks a read buffer for a file of n bytes (n < 0: unknown).
func bufSizeFor(n int64) int {
	if n < 0 || n >= readBufSize/4 {
		return readBufSize // pooled
	}
	return max(minBufSize, int(n)+1)
}

// Large read buffers are reused from file to file: a folder of sessions
// would otherwise allocate, and zero, one per file.
var bigReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBufSize) }}

// newBufReader buffers r with size bytes; release hands a pooled buffer back.
func newBufReader(r io.Reader, size int) (br *bufio.Reader, release func()) {
	if size < readBufSize {
		return bufio.NewReaderSize(r, size), func() {}
	}
	br = bigReaders.Get().(*bufio.Reader)
	br.Reset(r)
	return br, func() {
		br.Reset(nil)
		bigReaders.Put(br)
	}
}

// newLineReader reads lines from r with a buffer of size bytes; an r that
// is already buffered that large is used as it is.
func newLineReader(r io.Reader, size int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, size)}
}

// next returns the next line without its line terminator. The slice is only
// valid until the following call. ok is false at the end of the stream.
func (lr *lineReader) next() (line []byte, num int, offset int64, ok bool) {
	if lr.err != nil {
		return nil, 0, 0, false
	}
	start := lr.offset
	chunk, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.buf = append(lr.buf[:0], chunk...)
		for err == bufio.ErrBufferFull {
			chunk, err = lr.r.ReadSlice('\n')
			lr.buf = append(lr.buf, chunk...)
		}
		chunk = lr.buf
	}
	if err != nil && err != io.EOF {
		lr.err = err
		if len(chunk) == 0 {
			return nil, 0, 0, false
		}
	}
	if len(chunk) == 0 {
		lr.err = io.EOF
		return nil, 0, 0, false
	}
	lr.offset += int64(len(chunk))
	lr.line++
	if chunk[len(chunk)-1] == '\n' {
		chunk = chunk[:len(chunk)-1]
	} else {
		lr.lastUnterminated = true
		if err == io.EOF {
			lr.err = io.EOF
		}
	}
	chunk = bytes.TrimSuffix(chunk, []byte{'\r'})
	return chunk, lr.line, start, true
}

// nextRecord is next without the blank lines.
func (lr *lineReader) nextRecord() (line []byte, num int, offset int64, ok bool) {
	for {
		line, num, offset, ok = lr.next()
		if !ok || len(bytes.TrimSpace(line)) > 0 {
			return line, num, offset, ok
		}
	}
}

// failure reports a read error other than a clean end of stream.
func (lr *lineReader) failure() error {
	if lr.err == nil || lr.err == io.EOF {
		return nil
	}
	return lr.err
}

// maybeGunzip returns a reader that transparently decompresses gzip data,
// recognized by its magic number rather than by the file name.
func maybeGunzip(br *bufio.Reader) (io.Reader, error) {
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
