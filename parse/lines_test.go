package parse

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/compaudit/compaudit/parse/linereader"
)

// refLine is a line as a plain split of the stream has it.
type refLine struct {
	text string
	num  int
	off  int64
	last bool // unterminated, at the end
}

// splitLines is the reference the line reader is held to: lines end at
// '\n', one '\r' ending a line is dropped, and the first line's byte order
// mark is not part of it.
func splitLines(data []byte) []refLine {
	var out []refLine
	var off int64
	for num := 1; len(data) > 0; num++ {
		raw, rest, found := bytes.Cut(data, []byte{'\n'})
		text := bytes.TrimSuffix(raw, []byte{'\r'})
		start := off
		if num == 1 && bytes.HasPrefix(text, linereader.Utf8BOM) {
			text, start = text[len(linereader.Utf8BOM):], start+int64(len(linereader.Utf8BOM))
		}
		out = append(out, refLine{string(text), num, start, !found})
		off += int64(len(raw))
		if found {
			off++
		}
		data = rest
	}
	return out
}

// sameReport checks a line as read against the reference: the same, or,
// for a line passed over, what prepareLine would say of it the same; and
// over-long when it is a record's line longer than maxRecordLine, and only
// then.
func sameReport(got string, want refLine, overLong bool) error {
	t := strings.TrimLeftFunc(want.text, unicode.IsSpace)
	if record := t != "" && t[0] == '{'; overLong != (record && len(want.text) > linereader.MaxRecordLine) {
		return fmt.Errorf("line %d of %d bytes: over-long %v", want.num, len(want.text), overLong)
	}
	if got == want.text || linereader.Blank([]byte(got)) && linereader.Blank([]byte(want.text)) { // a blank line is counted, not read
		return nil
	}
	if t == "" || t[0] == '{' && !overLong {
		return fmt.Errorf("line %d: read %q, want it whole: %q", want.num, got, want.text)
	}
	g := strings.TrimLeftFunc(got, unicode.IsSpace)
	if g == "" || g[0] != t[0] || Preview(g, 12) != Preview(t, 12) ||
		strings.IndexByte(got, 0) >= 0 != (strings.IndexByte(want.text, 0) >= 0) || len(got) > linereader.PassedHead+1 {
		return fmt.Errorf("line %d: passed over as %q, which does not report %q as it is", want.num, got, want.text)
	}
	return nil
}

// FuzzLines reads a stream through a buffer and chunks small enough that
// most lines pass them, one line at a time and a chunk at a time, and holds
// both to a plain split: every line numbered and placed, a record's given
// whole unless over-long, a record over-long by its length alone, and a
// line passed over reported as it would be read whole.
func FuzzLines(f *testing.F) {
	f.Add([]byte("{\"a\":1}\nnot json at all, and longer than the buffer\n\n   \x00 zeros and more zeros after them\r\n{\"b\":2}"), uint8(0))
	f.Add([]byte("\xef\xbb\xbf   x"+strings.Repeat(" ", 80)+"y\r\n{\"c\":3}\n\x7fELF"+strings.Repeat("\x00", 100)), uint8(7))
	f.Add([]byte(strings.Repeat(" ", 40)+"{\"d\":\""+strings.Repeat("long record ", 20)+"\"}\n"), uint8(3))
	f.Add([]byte("\xef\xbb\xbf{\"e\":\""+strings.Repeat("x", 90)+"\"}\r\n{\"f\":1}\n"), uint8(200))
	// a record over the bound of 35 bytes that fits the 63-byte buffer whole
	f.Add([]byte("{\"h\":\""+strings.Repeat("z", 40)+"\"}\n{\"i\":1}\n"), uint8(47))
	// a no-break space cut by the end of the 16-byte buffer
	f.Add([]byte(strings.Repeat(" ", 15)+"\u00a0{\"g\":\""+strings.Repeat("y", 40)+"\"}\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		size := 16 + int(cut%48) // bufio's smallest buffer is 16 bytes
		defer func(n int) { linereader.MaxRecordLine = n }(linereader.MaxRecordLine)
		linereader.MaxRecordLine = 24 + int(cut/4) // some records are over-long
		want := splitLines(data)

		lr := &linereader.Reader{R: bufio.NewReaderSize(bytes.NewReader(data), size)}
		for i := 0; ; i++ {
			line, num, off, ok := lr.Next()
			if !ok {
				if i != len(want) {
					t.Fatalf("next: %d lines, want %d", i, len(want))
				}
				break
			}
			if i >= len(want) || num != want[i].num || off != want[i].off {
				t.Fatalf("next: line %d at %d, want %+v", num, off, want[min(i, len(want)-1)])
			}
			if err := sameReport(string(line), want[i], lr.OverLong); err != nil {
				t.Fatal("next: ", err)
			}
		}
		if lr.LastUnterminated != (len(want) > 0 && want[len(want)-1].last) {
			t.Fatalf("next: unterminated %v", lr.LastUnterminated)
		}

		defer func(n int) { linereader.ChunkBytes = n }(linereader.ChunkBytes)
		linereader.ChunkBytes = size
		lr = &linereader.Reader{R: bufio.NewReaderSize(bytes.NewReader(data), 16)}
		var got []linereader.BatchLine
		for {
			lines, ok := lr.NextChunk(nil)
			if !ok {
				break
			}
			got = append(got, lines...)
		}
		var nonBlank []refLine
		for _, w := range want {
			if !linereader.Blank([]byte(w.text)) {
				nonBlank = append(nonBlank, w)
			}
		}
		if len(got) != len(nonBlank) {
			t.Fatalf("nextChunk: %d lines, want %d", len(got), len(nonBlank))
		}
		for i, g := range got {
			w := nonBlank[i]
			if g.Num != w.num || g.Off != w.off || g.Last != w.last {
				t.Fatalf("nextChunk: line %d at %d (last %v), want %+v", g.Num, g.Off, g.Last, w)
			}
			if err := sameReport(g.Text, w, g.OverLong); err != nil {
				t.Fatal("nextChunk: ", err)
			}
		}
	})
}

// FuzzTrimLeftSpace holds the ASCII fast path to what it stands for.
func FuzzTrimLeftSpace(f *testing.F) {
	f.Add([]byte(" \t\n\v\f\r\u0085\u00a0\u2028x y"))
	f.Add([]byte("\xc2 \x85"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := linereader.TrimLeftSpace(b), bytes.TrimLeftFunc(b, unicode.IsSpace); !bytes.Equal(got, want) {
			t.Fatalf("trimLeftSpace(%q) = %q, want %q", b, got, want)
		}
	})
}
