package report

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Transcripts are untrusted text: a web page an agent fetched or a tool it
// ran can put escape sequences in them that set a terminal's title, write
// its clipboard, erase or hide lines, or a carriage return or bidi override
// that makes a line read as something else. A finding that quotes such
// text must show it, not let it act on the terminal or the CI log showing
// the report. So the human formats show every such character as the escape
// Go would write in a quoted string (\x1b, \r, \u202e); the JSON formats
// carry it JSON-escaped, the same text for any reader.

// Inert returns s as one line with nothing in it that a terminal acts on:
// control characters, line breaks included, bidi controls, and bytes that
// are not UTF-8 are written as escapes. Tabs stay. s is returned as it is
// when it holds none, which is the common case.
func Inert(s string) string { return inert(s, false) }

// InertLines is Inert that keeps line breaks (\n and \r\n), for text of
// several lines such as an error with its stack, or a page.
func InertLines(s string) string { return inert(s, true) }

func inert(s string, lines bool) string {
	i := firstActive(s, lines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i >= 0 {
		b.WriteString(s[:i])
		_, size := utf8.DecodeRuneInString(s[i:])
		q := strconv.Quote(s[i : i+size]) // \x1b, \r, \u202e, \xff: Go's own escape
		b.WriteString(q[1 : len(q)-1])
		s = s[i+size:]
		i = firstActive(s, lines)
	}
	b.WriteString(s)
	return b.String()
}

// firstActive is the index of the first byte of s that starts a character
// Inert escapes, or -1.
func firstActive(s string, lines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && !(lines && lineBreak(s, i)) || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || activeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// lineBreak: whether s breaks its line at i, with a line feed or a
// carriage return and line feed, as Windows tools write. A carriage return
// alone takes the cursor back over the line, so it is escaped.
func lineBreak(s string, i int) bool {
	return s[i] == '\n' || s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n'
}

// activeRune: the C1 controls, which some terminals read as escape
// sequences (U+009B is a one-character CSI), the line and paragraph
// separators, and the controls that reorder bidirectional text ("Trojan
// Source"). Characters of other kinds, zero-width ones among them, are
// shown as they are.
func activeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// inertJSON escapes, in encoded JSON, the characters encoding/json leaves
// as they are but Inert would not: the C1 controls, DEL and the bidi
// controls. Encoded JSON holds them only inside strings, where \uXXXX
// means the same character, so the value read back is unchanged.
func inertJSON(b []byte) []byte {
	if !hasNonASCII(b) {
		return b
	}
	s := string(b)
	i := firstActive(s, true)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+12)
	for i >= 0 {
		out = append(out, s[:i]...)
		r, size := utf8.DecodeRuneInString(s[i:])
		out = fmt.Appendf(out, `\u%04x`, r)
		s = s[i+size:]
		i = firstActive(s, true)
	}
	return append(out, s...)
}

// hasNonASCII: whether b holds a byte past ASCII or DEL, the only bytes
// that start what inertJSON escapes.
func hasNonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x7f {
			return true
		}
	}
	return false
}
