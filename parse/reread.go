package parse

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/compaudit/compaudit/parse/linereader"
)

// Spot is where an event was read from: the byte offset of its record in
// the file (in the decompressed stream of a gzip file) and its place among
// the events that record yields (Event.Part).
type Spot struct {
	Offset int64
	Part   int
}

// Reread reads events of a file read before back by their spots, so a
// consumer can let an event's text go and still quote it later. A plain
// file is read at each offset; a gzip file is decompressed again, once, up
// to the last spot. Each record is decoded alone, by the same code as the
// first time, so the events come out the same as long as the file has not
// changed. fn gets each spot's index and event, in offset order; the event
// is nil where the record at the spot no longer yields such an event, and
// is only the caller's during the call, so a consumer that reads back many
// large records holds one at a time. err is set when the file cannot be
// read at all, and fn is not called.
func Reread(path string, format Format, spots []Spot, fn func(i int, ev *Event)) error {
	if len(spots) == 0 {
		return nil
	}
	if path == "-" {
		return &InputError{File: path, Msg: "standard input cannot be read twice"}
	}
	if _, ok := lookup(string(format)); !ok {
		return &InputError{File: path, Msg: fmt.Sprintf("unknown input format %q", format)}
	}
	fh, err := openAgain(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	lines, err := recordsAt(fh)
	if err != nil {
		return &InputError{File: path, Msg: "cannot read gzip data: " + err.Error()}
	}
	order := make([]int, len(spots))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(spots[a].Offset, spots[b].Offset) })

	var decoded []Event
	var decodedAt int64 = -1
	for _, i := range order {
		sp := spots[i]
		if sp.Offset != decodedAt {
			decoded, decodedAt = nil, sp.Offset
			if line, ok := lines(sp.Offset); ok {
				decoded = decodeAlone(format, path, line, sp.Offset)
			}
		}
		var ev *Event
		for j := range decoded {
			if decoded[j].Part == sp.Part {
				ev = &decoded[j]
				break
			}
		}
		fn(i, ev)
	}
	return nil
}

// openAgain opens a file read before, which must be a regular file: a pipe
// is gone once read, and opening it again waits for a writer that will
// not come.
func openAgain(path string) (*os.File, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, &InputError{File: path, Msg: cleanOSError(err)}
	} else if !st.Mode().IsRegular() {
		return nil, &InputError{File: path, Msg: "not a regular file: it cannot be read twice"}
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: cleanOSError(err)}
	}
	return fh, nil
}

// recordsAt returns a reader of the line that starts at an offset of fh,
// asked in ascending order; err is a gzip header that cannot be read.
func recordsAt(fh *os.File) (lines func(off int64) ([]byte, bool), err error) {
	br := bufio.NewReaderSize(fh, linereader.PeekBufSize)
	zr, err := linereader.MaybeGunzip(br)
	if err != nil {
		return nil, err
	}
	if zr == io.Reader(br) {
		// plain: read each record where it starts, with the buffer that
		// looked for the gzip header
		lr := &linereader.Reader{R: br}
		lines = func(off int64) ([]byte, bool) {
			if off < 0 {
				return nil, false
			}
			lr.R.Reset(io.NewSectionReader(fh, off, 1<<62))
			lr.Err, lr.Offset = nil, off
			line, _, _, ok := lr.Next()
			return line, ok
		}
	} else {
		// compressed: walk the stream forward to each record in turn
		lr := &linereader.Reader{R: bufio.NewReaderSize(zr, linereader.PeekBufSize)}
		var line []byte
		var at int64 = -1
		lines = func(off int64) ([]byte, bool) {
			for at < off {
				var ok bool
				if line, _, at, ok = lr.Next(); !ok {
					return nil, false
				}
			}
			return line, at == off
		}
	}
	return lines, nil
}

// decodeAlone decodes one record with a decoder of its own: an event's
// content comes from its record alone, whatever came before it.
func decodeAlone(format Format, path string, line []byte, off int64) []Event {
	var out []Event
	s := &Sink{file: path, format: format, diag: &diagnostics{file: path}, emit: func(ev *Event) error {
		out = append(out, *ev)
		return nil
	}}
	dec := newDecoder(format, s)
	s.apply(dec, s.prepareLine(dec, string(line), false, lineOwned), 1, off)
	return out
}
