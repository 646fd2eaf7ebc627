package parse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
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

const readBufSize = 1 << 20

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBufSize)}
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

// failure reports a read error other than a clean end of stream.
func (lr *lineReader) failure() error {
	if lr.err == nil || lr.err == io.EOF {
		return nil
	}
	return lr.err
}

// maybeGunzip returns a reader that transparently decompresses gzip data,
// recognized by its magic number rather than by the file name.
func maybeGunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, readBufSize)
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
