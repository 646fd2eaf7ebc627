package mask

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// RedactForms is Redact, and masks as well the pieces of forms that b
// holds.
func RedactForms(b []byte, forms []string) []byte {
	b = Redact(b)
	spans := knownSpans(b, forms)
	if spans == nil {
		return b
	}
	return MaskSpans(b, MergeSpans(spans))
}

// knownSpans finds where b holds a piece of one of forms: an eight-byte
// window of a form, four bytes apart, grown to as much of the form as b
// shares around it. A few windows are each searched for (spansByWindow);
// more, and every position of b is looked up once among them all
// (spansInOnePass), so a folder's report, which can know thousands of
// secrets, costs about what one costs: a search per window took a page of
// 300 sessions' reports from 1 to 20 seconds.
func knownSpans(b []byte, forms []string) [][2]int {
	n := 0
	for _, v := range forms {
		n += max(len(v)-4, 0) / 4
	}
	switch {
	case n == 0:
		return nil
	case n <= byWindowMost:
		return SpansByWindow(b, forms)
	}
	return SpansInOnePass(b, forms)
}

// byWindowMost is the most windows searched for one by one: a search runs
// at memory speed, a lookup at every position at a fifth of it.
const byWindowMost = 8

// SpansByWindow searches b for each window of each form, from where its
// last match's piece ended.
func SpansByWindow(b []byte, forms []string) [][2]int {
	var spans [][2]int
	for _, v := range forms {
		for k := 0; k+8 <= len(v); k += 4 {
			w := []byte(v[k : k+8])
			for from := 0; ; {
				i := bytes.Index(b[from:], w)
				if i < 0 {
					break
				}
				lo, hi := pieceAround(b, from+i, v, k)
				spans = append(spans, [2]int{lo, hi})
				from = hi
			}
		}
	}
	return spans
}

// pieceAround grows a match of v[k:k+8] at b[i:] to the piece of v it
// stands in.
func pieceAround(b []byte, i int, v string, k int) (lo, hi int) {
	lo, hi = i, i+8
	for j := k; lo > 0 && j > 0 && b[lo-1] == v[j-1]; j-- {
		lo--
	}
	for j := k + 8; hi < len(b) && j < len(v) && b[hi] == v[j]; j++ {
		hi++
	}
	return lo, hi
}

// SpansInOnePass finds what spansByWindow finds, looking every position of
// b up among the windows of forms.
func SpansInOnePass(b []byte, forms []string) [][2]int {
	type window struct {
		form, at int // the window is forms[form][at:at+8]
		next     int // where its next match may start, past the last one's piece
	}
	var windows []window
	byBytes := map[uint64][]int{} // a window's bytes: its indexes in windows
	for f, v := range forms {
		for k := 0; k+8 <= len(v); k += 4 {
			x := binary.LittleEndian.Uint64([]byte(v[k : k+8]))
			byBytes[x] = append(byBytes[x], len(windows))
			windows = append(windows, window{form: f, at: k})
		}
	}
	filter := newKnownFilter(len(windows))
	for x := range byBytes {
		filter.add(x)
	}
	var spans [][2]int
	for i := 0; i+8 <= len(b); i++ {
		x := binary.LittleEndian.Uint64(b[i:])
		if !filter.has(x) {
			continue
		}
		for _, wi := range byBytes[x] {
			w := &windows[wi]
			if i < w.next {
				continue // inside the piece its last match stood in
			}
			lo, hi := pieceAround(b, i, forms[w.form], w.at)
			spans = append(spans, [2]int{lo, hi})
			w.next = hi
		}
	}
	return spans
}

// knownFilter says quickly that eight bytes are no window of a known
// secret, as nearly every eight bytes of a report are not: a bit for each
// of a hash's values, about 32 to a window, so few bytes get past it.
type knownFilter struct {
	bits  []uint64
	shift uint
}

func newKnownFilter(windows int) knownFilter {
	logBits := uint(12)
	for logBits < 24 && 1<<logBits < 32*windows {
		logBits++
	}
	return knownFilter{bits: make([]uint64, 1<<(logBits-6)), shift: 64 - logBits}
}

func (f knownFilter) slot(x uint64) (int, uint64) {
	h := (x * 0x9E3779B97F4A7C15) >> f.shift
	return int(h >> 6), 1 << (h & 63)
}

func (f knownFilter) add(x uint64) {
	i, bit := f.slot(x)
	f.bits[i] |= bit
}

func (f knownFilter) has(x uint64) bool {
	i, bit := f.slot(x)
	return f.bits[i]&bit != 0
}

// MergeSpans sorts spans and joins those that overlap or touch.
func MergeSpans(spans [][2]int) [][2]int {
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	out := spans[:1]
	for _, s := range spans[1:] {
		if last := &out[len(out)-1]; s[0] <= last[1] {
			last[1] = max(last[1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}
