// Package jsontext owns JSON as the readers meet it: a validator that
// checks a record eight bytes at a time, notes where its top-level
// members and its long values lie (RecordIndex) and whether its strings
// are UTF-8, and a walk over members, elements and strings that decodes
// a value only when asked. It knows nothing of agents, events or formats.
package jsontext

import (
	"math/bits"
	"unicode/utf8"
)

// ValidJSON reports whether s is one JSON value (RFC 8259), with space
// around it allowed, and whether its strings are known to be all UTF-8
// (false when one is not, or when one held runes too close together to
// be worth decoding here; see denseRunes). It accepts
// exactly what encoding/json.Valid accepts; like it, it does not ask that
// strings be UTF-8 — the reader repairs those.
//
// Every record is validated whole before it is read, and most of its bytes
// are long strings (tool output, file contents), taken eight bytes at a
// time: a word with no quote, backslash, control byte or high bit is
// passed over at once. The runes of the rest are checked on the way, so a
// record of UTF-8 (the common case) needs no separate check of the texts
// read from it.
func ValidJSON(s string) (ok, validUTF8 bool) {
	v := Validator{S: s}
	return v.Run()
}

// Field is one member of a record's top-level object, as offsets into the
// line: the key as written, without its quotes, and the value's raw text.
// Offsets rather than strings, so a record validated in the reader's buffer
// can be copied out whole and keep its index.
type Field struct{ K0, K1, V0, V1 int }

// span is where a long value of a record starts and ends, as offsets into
// the line: the end is just past it.
type span struct{ Start, End int }

// MinSpan is the length from which the validator keeps a value's span: a
// shorter value is walked again about as fast as its end is looked up.
const MinSpan = 64

// RecordIndex is what validRecord learns of a record on its way: the
// Members of its top-level object, and the spans of its long values in
// the order they start. The reader walks a record's nested values again
// to find the few it reads (a message's content, a block's text), and the
// Spans let it pass over a long one (a tool's output, written twice, or
// an array of blocks) without reading its bytes again.
type RecordIndex struct {
	Fields []Field
	Spans  []span
}

// ValidRecord is validJSON that also indexes the record into idx (its
// buffers reused), so reading the record needs no second walk.
func ValidRecord(s string, idx RecordIndex) (_ RecordIndex, ok, validUTF8 bool) {
	v := Validator{S: s, fields: idx.Fields[:0], spans: idx.Spans[:0], index: true}
	ok, validUTF8 = v.Run()
	return RecordIndex{v.fields, v.spans}, ok, validUTF8
}

// MaxDepth bounds nesting, so a hostile line of brackets cannot exhaust
// the stack; encoding/json's limit is 10,000.
const MaxDepth = 10000

type Validator struct {
	S      string
	unsure bool // a string held bytes that are not UTF-8, or runes passed over undecoded
	index  bool // collect the top-level object's members and the spans
	fields []Field
	spans  []span
}

func (v *Validator) Run() (ok, validUTF8 bool) {
	i, ok := v.value(v.space(0), 0)
	if !ok || v.space(i) != len(v.S) {
		return false, false
	}
	return true, !v.unsure
}

func (v *Validator) space(i int) int {
	for i < len(v.S) {
		switch v.S[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (v *Validator) value(i, depth int) (int, bool) {
	if i >= len(v.S) {
		return i, false
	}
	switch c := v.S[i]; {
	case c == '"':
		end, ok := v.str(i + 1)
		if v.index && end-i >= MinSpan {
			v.spans = append(v.spans, span{i, end})
		}
		return end, ok
	case c == '{' || c == '[':
		// its span goes before those of its values, so the spans stay in
		// the order they start; a short one holds no long value
		at := len(v.spans)
		if v.index {
			v.spans = append(v.spans, span{Start: i})
		}
		var end int
		var ok bool
		if c == '{' {
			end, ok = v.object(i+1, depth+1)
		} else {
			end, ok = v.array(i+1, depth+1)
		}
		if v.index {
			if end-i >= MinSpan {
				v.spans[at].End = end
			} else {
				v.spans = v.spans[:at]
			}
		}
		return end, ok
	case c == '-' || c >= '0' && c <= '9':
		return v.number(i)
	case c == 't':
		return v.word(i, "true")
	case c == 'f':
		return v.word(i, "false")
	case c == 'n':
		return v.word(i, "null")
	}
	return i, false
}

func (v *Validator) word(i int, w string) (int, bool) {
	if len(v.S)-i >= len(w) && v.S[i:i+len(w)] == w {
		return i + len(w), true
	}
	return i, false
}

func (v *Validator) object(i, depth int) (int, bool) {
	i, done, ok := v.open(i, depth, '}')
	for ok && !done {
		if i >= len(v.S) || v.S[i] != '"' {
			return i, false
		}
		k0 := i + 1
		if i, ok = v.str(k0); !ok {
			return i, false
		}
		k1 := i - 1
		i = v.space(i)
		if i >= len(v.S) || v.S[i] != ':' {
			return i, false
		}
		v0 := v.space(i + 1)
		if i, ok = v.value(v0, depth); !ok {
			return i, false
		}
		if depth == 1 && v.index {
			v.fields = append(v.fields, Field{k0, k1, v0, i})
		}
		i, done, ok = v.next(i, '}')
	}
	return i, ok
}

func (v *Validator) array(i, depth int) (int, bool) {
	i, done, ok := v.open(i, depth, ']')
	for ok && !done {
		if i, ok = v.value(i, depth); !ok {
			return i, false
		}
		i, done, ok = v.next(i, ']')
	}
	return i, ok
}

// open begins an object or array whose bracket is just before s[i]: done
// when it closes at once.
func (v *Validator) open(i, depth int, closing byte) (_ int, done, ok bool) {
	if depth > MaxDepth {
		return i, false, false
	}
	i = v.space(i)
	if i < len(v.S) && v.S[i] == closing {
		return i + 1, true, true
	}
	return i, false, true
}

// next reads what follows a member or an element: a comma and the start of
// the next, or the closing bracket (done).
func (v *Validator) next(i int, closing byte) (_ int, done, ok bool) {
	i = v.space(i)
	switch {
	case i >= len(v.S):
		return i, false, false
	case v.S[i] == ',':
		return v.space(i + 1), false, true
	case v.S[i] == closing:
		return i + 1, true, true
	}
	return i, false, false
}

// SWAR masks: a byte-wise "is zero" and "is below 0x20" over a word.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// str checks the string whose body starts at s[i] and returns the index
// past its closing quote.
func (v *Validator) str(i int) (int, bool) {
	s := v.S
	r := runeScan{stop: highs, after: -8}
	for {
		if i = plainWords(s, i, len(s), r.stop); i >= len(s) {
			return i, false
		}
		c := s[i]
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			switch {
			case i+1 < len(s) && simpleEscape[s[i+1]]:
				i += 2
			case i+1 < len(s) && v.hexEscape(i+1):
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		case c < utf8.RuneSelf || r.stop == 0:
			i++
		case v.decodeRune(i, &r):
			i = r.after
		}
	}
}

// runeScan is what str knows of the runes of the string it checks.
//
// stop marks the bytes the word loop stops at besides quotes, backslashes
// and control bytes: those with the high bit, whose runes are decoded. A
// tool's output is mostly ASCII with a rune here and there (an arrow per
// line of a listing, an em dash), cheaper checked here than by a second
// pass over the text; but text of runes one after another (CJK, box
// drawing) is cheaper passed over and checked once read, as a run of runes
// (utf8.ValidString), and only the texts the audit reads need it. So once
// DenseRunes runes have each followed the one before within a word (in one
// Run or not), the rest of the string is passed over: stop is then zero.
type runeScan struct {
	stop  uint64
	dense int // runes that came within eight bytes of the one before
	after int // the end of the last rune decoded
}

// plainWords returns the first byte from s[i] that needs a look (see
// specials), taking at most n words of eight bytes: i+8n when none does,
// or the first of the last few bytes, which are not taken as a word.
func plainWords(s string, i, n int, stop uint64) int {
	for ; n > 0 && i+8 <= len(s); n-- {
		if special := specials(word(s[i:i+8]), stop); special != 0 {
			return i + bits.TrailingZeros64(special)/8
		}
		i += 8
	}
	return i
}

// specials marks the high bit of each byte of w that is a quote, a
// backslash, a control byte, or has the high bit itself where stop says
// so. A borrow can only mark bytes above a true hit, so the lowest mark is
// the first byte that needs a look.
func specials(w, stop uint64) uint64 {
	q := w ^ ('"' * ones)
	b := w ^ ('\\' * ones)
	return ((q-ones)&^q | (b-ones)&^b | (w-0x20*ones)&^w | w&stop) & highs
}

// hexEscape reports whether s[k] begins the u and four hex digits of a
// \u escape.
func (v *Validator) hexEscape(k int) bool {
	if v.S[k] != 'u' || k+5 > len(v.S) {
		return false
	}
	for _, h := range []byte(v.S[k+1 : k+5]) {
		if !isHex(h) {
			return false
		}
	}
	return true
}

// decodeRune checks the rune a high byte starts at s[k], and moves
// r.after past it. Once denseRunes runes have each come within eight
// bytes of the one before, it decodes nothing more, and says so.
func (v *Validator) decodeRune(k int, r *runeScan) bool {
	if k-r.after < 8 {
		if r.dense+1 == DenseRunes {
			v.unsure, r.stop = true, 0
			return false
		}
		r.dense++
	}
	// a rune's bytes are all 0x80 and up, so it cannot run past the
	// closing quote
	n, ok := RuneAt(v.S, k)
	if !ok {
		v.unsure = true
	}
	r.after = k + n
	return true
}

// RuneAt returns the length of the rune at s[k] as utf8.DecodeRuneInString
// reads it, and whether it is valid UTF-8. Two- and three-byte runes (an
// arrow on each line of a file Claude Code read, box drawing, dashes) are
// checked inline: DecodeRuneInString calls out for every rune past ASCII.
func RuneAt(s string, k int) (n int, ok bool) {
	switch c := s[k]; {
	case 0xC2 <= c && c <= 0xDF && k+1 < len(s):
		if s[k+1]&0xC0 == 0x80 {
			return 2, true
		}
	case 0xE0 <= c && c <= 0xEF && k+2 < len(s):
		lo, hi := byte(0x80), byte(0xBF)
		switch c {
		case 0xE0:
			lo = 0xA0 // shorter forms are overlong
		case 0xED:
			hi = 0x9F // surrogates
		}
		if b := s[k+1]; lo <= b && b <= hi && s[k+2]&0xC0 == 0x80 {
			return 3, true
		}
	}
	r, n := utf8.DecodeRuneInString(s[k:])
	return n, r != utf8.RuneError || n > 1
}

var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// DenseRunes is how many runes close together a string may hold before
// the validator stops decoding them.
const DenseRunes = 8

// word reads eight bytes little-endian, as one load.
func word(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (v *Validator) number(i int) (int, bool) {
	s := v.S
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !IsDigit(s[i]) {
			return i, false
		}
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !IsDigit(s[i]) {
			return i, false
		}
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
	}
	return i, true
}
