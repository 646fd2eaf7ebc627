package lex

import (
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf8"
)

func IndexFold(hay, needle string) int {
	if needle == "" {
		return -1
	}
	return IndexLower(FoldLower(hay), FoldLower(needle))
}

func boundaryBefore(s string, i int, needle string) bool {
	if i == 0 || !IsIdentByte(needle[0]) {
		return true
	}
	return !IsIdentByte(s[i-1])
}

func boundaryAfter(s string, end int, needle string) bool {
	if end >= len(s) || !IsIdentByte(needle[len(needle)-1]) {
		return true
	}
	return !IsIdentByte(s[end])
}

// FoldLower lowers s without changing its length in bytes, so an offset
// found in the lowered text is an offset in s. strings.ToLower does not
// promise that: it turns an invalid byte into a three-byte U+FFFD, and a
// few letters into letters of another length (İ into i, the Kelvin sign
// into k). Those are left as they are.
func FoldLower(s string) string {
	lower, _ := FoldLowerInto(s, nil)
	return lower
}

// FoldKey is s with each rune replaced by the least rune of its simple
// case-folding orbit, and each byte that is no rune by U+FFFD, as
// strings.EqualFold decodes it: two strings have one key exactly when
// EqualFold says they are equal, so a map keyed by it finds what a scan
// with EqualFold would.
func FoldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s) // 'A' is the least of {a, A}, 'K' of {k, K, U+212A}
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// FoldLowerInto is foldLower lowering, when it must, in scratch (grown as
// needed, and returned for the next call); the string it returns is its
// own.
func FoldLowerInto(s string, scratch []byte) (string, []byte) {
	// most text has nothing to lower: find the first byte that might,
	// eight at a time while they are ASCII
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if w := Le64(s[i:]); w&LaneHigh != 0 || LowerWord(w) != w {
			break
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s, scratch
	}
	// lowered in place in a copy: tool output is mostly ASCII with a few
	// runes (box drawing, quotes), and only those need decoding
	b := append(scratch[:0], s...)
	for i < len(b) {
		if i+8 <= len(b) {
			if w := Le64(s[i:]); w&LaneHigh == 0 {
				binary.LittleEndian.PutUint64(b[i:], LowerWord(w))
				i += 8
				continue
			}
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		i = LowerRuneAt(b, s, i)
	}
	return string(b), b
}

// LowerRuneAt lowers the rune that begins at s[i] past ASCII into b, a
// copy of s, when its lower case is as long, and returns where the next
// begins; a byte that is no rune is left as it is.
func LowerRuneAt(b []byte, s string, i int) int {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return i + 1
	}
	if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == n {
		utf8.EncodeRune(b[i:], l)
	}
	return i + n
}

// rawTokens are the whitespace tokens of the text, found once.
// IndexLower is indexFold for a haystack and a needle already lower-cased.
func IndexLower(lh, ln string) int {
	if ln == "" {
		return -1
	}
	return IndexWhere(lh, ln, func(i, _ int) bool { return WordAt(lh, i, ln) })
}

// WordAt reports whether ln, standing in lh at i, stands there on word
// boundaries as indexLower reads them.
func WordAt(lh string, i int, ln string) bool {
	return boundaryBefore(lh, i, ln) && boundaryAfter(lh, i+len(ln), ln)
}

// IndexWhere is the first index of sub in s at which at(start, end) holds,
// or -1.
func IndexWhere(s, sub string, at func(start, end int) bool) int {
	from := 0
	for {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return -1
		}
		i += from
		if at(i, i+len(sub)) {
			return i
		}
		from = i + 1
	}
}

// Bytes as eight lanes of a word, for the word-at-a-time scans of the hash
// and the token search.
const (
	Lanes    = 0x0101010101010101
	LaneHigh = 0x8080808080808080
)

// Le64 reads eight bytes little-endian, as one load.
func Le64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// LowerWord lowers the ASCII capitals among eight bytes at once; bytes
// with the high bit set are left alone.
func LowerWord(w uint64) uint64 {
	b := w &^ LaneHigh
	atLeastA := b + (0x80-'A')*Lanes // high bit set where the byte is >= 'A'
	pastZ := b + (0x80-'Z'-1)*Lanes  // high bit set where the byte is > 'Z'
	upper := atLeastA &^ pastZ &^ w & LaneHigh
	return w | upper>>2 // 0x80 >> 2 is the 0x20 between the cases
}
