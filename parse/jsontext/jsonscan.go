package jsontext

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// A minimal reader for JSON text that validJSON has already accepted. The
// records of a transcript are mostly long strings (tool output, file
// contents) that the audit only needs once, or not at all: this reads each
// record without a second walk (the validator indexes its members), skips
// the values it does not need at memchr speed, and unescapes a string only
// when asked, in bulk rather than rune by rune.
// gjson stays the reader for everything off this path.

// jsonText reads the values of one validated record, passing over a long
// value by its span rather than its bytes. Its zero value has no spans
// and walks every value.
type Text struct {
	line  string // the record's line, to which the spans' offsets refer
	spans []span
}

// TextOf is the reader of a record's line whose long values the validator
// noted (RecordIndex.Spans).
func TextOf(line string, spans []span) Text { return Text{line, spans} }

// end returns the index just past the value starting at s[i], when s is a
// piece of the line and the value one of the spans.
func (t Text) end(s string, i int) (int, bool) {
	if len(t.spans) == 0 || len(s)-i < MinSpan {
		return 0, false
	}
	off, ok := OffsetIn(s, t.line)
	if off += i; !ok || off >= len(t.line) {
		return 0, false
	}
	k, found := slices.BinarySearchFunc(t.spans, off, func(sp span, off int) int { return cmp.Compare(sp.Start, off) })
	if !found || t.spans[k].End-off > len(s)-i {
		return 0, false
	}
	return i + t.spans[k].End - off, true
}

// SkipValue is the package's skipValue, by the span when there is one.
func (t Text) skipValue(s string, i int) int {
	if end, ok := t.end(s, i); ok {
		return end
	}
	return SkipValue(s, i)
}

// Members calls fn with each member of the object in raw (a valid JSON
// object) in order: its key as written, and its value's raw text. fn returns
// false to stop.
func Members(raw string, fn func(key, val string) bool) { Text{}.Members(raw, fn) }

func (t Text) Members(raw string, fn func(key, val string) bool) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return
	}
	i++
	for {
		i = SkipSpace(raw, i)
		if i >= len(raw) || raw[i] == '}' {
			return
		}
		if raw[i] == ',' {
			i++
			continue
		}
		if raw[i] != '"' {
			return
		}
		kEnd := skipString(raw, i)
		key := raw[i+1 : kEnd-1]
		i = SkipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return
		}
		i = SkipSpace(raw, i+1)
		vEnd := t.skipValue(raw, i)
		if !fn(key, raw[i:vEnd]) {
			return
		}
		i = vEnd
	}
}

// Elements calls fn with the raw text of each element of the array in raw.
func Elements(raw string, fn func(val string) bool) { Text{}.Elements(raw, fn) }

func (t Text) Elements(raw string, fn func(val string) bool) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return
	}
	i++
	for {
		i = SkipSpace(raw, i)
		if i >= len(raw) || raw[i] == ']' {
			return
		}
		if raw[i] == ',' {
			i++
			continue
		}
		end := t.skipValue(raw, i)
		if !fn(raw[i:end]) {
			return
		}
		i = end
	}
}

// Member returns the raw value of one key of an object, or "".
func Member(raw, key string) string { return Text{}.Member(raw, key) }

func (t Text) Member(raw, key string) string {
	var out string
	t.Members(raw, func(k, v string) bool {
		if k == key {
			out = v
			return false
		}
		return true
	})
	return out
}

func SkipSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string opening at s[i].
func skipString(s string, i int) int {
	i++
	for {
		j := strings.IndexByte(s[i:], '"')
		if j < 0 {
			return len(s)
		}
		i += j
		// an odd run of backslashes escapes the quote
		bs := 0
		for k := i - 1; k >= 0 && s[k] == '\\'; k-- {
			bs++
		}
		i++
		if bs%2 == 0 {
			return i
		}
	}
}

// SkipValue returns the index just past the value starting at s[i].
func SkipValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = skipString(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default:
		for i < len(s) {
			switch s[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// JsonString returns the text of a raw JSON string value, or "" for any
// other value.
func JsonString(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	body := raw[1 : len(raw)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	return Unescape(body)
}

// RawString is jsonString that also says whether raw was a string.
func RawString(raw string) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	return JsonString(raw), true
}

// JsonBool reads a raw true.
func JsonBool(raw string) bool { return raw == "true" }

// Unescape decodes the escapes of a JSON string body into a string of its
// own.
func Unescape(s string) string {
	return string(AppendUnescaped(make([]byte, 0, len(s)), s))
}

// AppendUnescaped appends the decoded body of a JSON string to b, copying
// the runs between its escapes whole. A valid body (the validator read it)
// decodes to at most its own length.
func AppendUnescaped(b []byte, s string) []byte { return UnescapeWords(b, s) }

// escapedByte is what each byte after a backslash stands for, but u: the
// one table of both unescape loops.
var escapedByte = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
	}
	t['b'], t['f'], t['n'], t['r'], t['t'] = '\b', '\f', '\n', '\r', '\t'
	return t
}()

// UnescapeWords is appendUnescaped an escape at a time.
func UnescapeWords(b []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 || i+1 >= len(s) {
			return append(b, s...)
		}
		b = append(b, s[:i]...)
		c := s[i+1]
		s = s[i+2:]
		if c != 'u' {
			b = append(b, escapedByte[c])
			continue
		}
		r, rest := hexRune(s)
		s = rest
		b = utf8.AppendRune(b, r)
	}
}

// hexRune reads the four hex digits after \u, and a low surrogate's escape
// after a high one.
func hexRune(s string) (rune, string) {
	r, ok := hex4(s)
	if !ok {
		return utf8.RuneError, s
	}
	s = s[4:]
	if utf16.IsSurrogate(r) {
		if len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
			if r2, ok := hex4(s[2:]); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					return d, s[6:]
				}
			}
		}
		return utf8.RuneError, s
	}
	return r, s
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// OffsetIn returns where in buf s begins, when s is a piece of buf.
func OffsetIn(s, buf string) (int, bool) {
	if len(s) == 0 || len(buf) == 0 {
		return 0, false
	}
	p, b := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(buf)))
	if p < b || p >= b+uintptr(len(buf)) {
		return 0, false
	}
	return int(p - b), true
}
