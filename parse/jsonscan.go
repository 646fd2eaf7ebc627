package parse

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
type jsonText struct {
	line  string // the record's line, to which the spans' offsets refer
	spans []span
}

// end returns the index just past the value starting at s[i], when s is a
// piece of the line and the value one of the spans.
func (t jsonText) end(s string, i int) (int, bool) {
	if len(t.spans) == 0 || len(s)-i < minSpan {
		return 0, false
	}
	off, ok := offsetIn(s, t.line)
	if off += i; !ok || off >= len(t.line) {
		return 0, false
	}
	k, found := slices.BinarySearchFunc(t.spans, off, func(sp span, off int) int { return cmp.Compare(sp.start, off) })
	if !found || t.spans[k].end-off > len(s)-i {
		return 0, false
	}
	return i + t.spans[k].end - off, true
}

// skipValue is the package's skipValue, by the span when there is one.
func (t jsonText) skipValue(s string, i int) int {
	if end, ok := t.end(s, i); ok {
		return end
	}
	return skipValue(s, i)
}

// members calls fn with each member of the object in raw (a valid JSON
// object) in order: its key as written, and its value's raw text. fn returns
// false to stop.
func members(raw string, fn func(key, val string) bool) { jsonText{}.members(raw, fn) }

func (t jsonText) members(raw string, fn func(key, val string) bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return
	}
	i++
	for {
		i = skipSpace(raw, i)
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
		i = skipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return
		}
		i = skipSpace(raw, i+1)
		vEnd := t.skipValue(raw, i)
		if !fn(key, raw[i:vEnd]) {
			return
		}
		i = vEnd
	}
}

// elements calls fn with the raw text of each element of the array in raw.
func elements(raw string, fn func(val string) bool) { jsonText{}.elements(raw, fn) }

func (t jsonText) elements(raw string, fn func(val string) bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return
	}
	i++
	for {
		i = skipSpace(raw, i)
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

// member returns the raw value of one key of an object, or "".
func member(raw, key string) string { return jsonText{}.member(raw, key) }

func (t jsonText) member(raw, key string) string {
	var out string
	t.members(raw, func(k, v string) bool {
		if k == key {
			out = v
			return false
		}
		return true
	})
	return out
}

func skipSpace(s string, i int) int {
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

// skipValue returns the index just past the value starting at s[i].
func skipValue(s string, i int) int {
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

// jsonString returns the text of a raw JSON string value, or "" for any
// other value.
func jsonString(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	body := raw[1 : len(raw)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	return unescape(body)
}

// rawString is jsonString that also says whether raw was a string.
func rawString(raw string) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	return jsonString(raw), true
}

// jsonBool reads a raw true.
func jsonBool(raw string) bool { return raw == "true" }

// unescape decodes the escapes of a JSON string body into a string of its
// own.
func unescape(s string) string {
	return string(appendUnescaped(make([]byte, 0, len(s)), s))
}

// appendUnescaped appends the decoded body of a JSON string to b, copying
// the runs between its escapes whole. A valid body (the validator read it)
// decodes to at most its own length.
func appendUnescaped(b []byte, s string) []byte { return unescapeWords(b, s) }

// escapedByte is what each byte after a backslash stands for, but u: the
// one table of both unescape loops.
var escapedByte = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
	}
	t['b'], t['f'], t['n'], t['r'], t['t'] = '\b', '\f', '\n', '\r', '\t'
	return t
}()

// unescapeWords is appendUnescaped an escape at a time.
func unescapeWords(b []byte, s string) []byte {
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

// offsetIn returns where in buf s begins, when s is a piece of buf.
func offsetIn(s, buf string) (int, bool) {
	if len(s) == 0 || len(buf) == 0 {
		return 0, false
	}
	p, b := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(buf)))
	if p < b || p >= b+uintptr(len(buf)) {
		return 0, false
	}
	return int(p - b), true
}
