package parse

import "strings"

// Tools write colour and cursor control into their output (a test runner's
// coloured FAIL, cargo's status lines), and Claude Code passes it to the
// model as it came: ESC [ 1 m, ESC ] 0 ; title BEL. Read as text, such a
// sequence glues its parameters to the next word ("32mAKIA…", "36mv4.0.18"),
// so a literal, a status word or a credential after a colour code is not
// the word it shows as, and a finding would quote the codes. The audit
// reads what a terminal shows: an event's text has its well-formed escape
// sequences removed. A lone ESC, or a sequence cut short, stays, for the
// report to show as an escape.

const esc = '\x1b'

// plainText returns s without its terminal escape sequences, or s itself
// when it has none.
func plainText(s string) string {
	i := strings.IndexByte(s, esc)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		n := escapeLen(s[i:])
		if n == 0 {
			n = 1 // not a sequence: the ESC stays
			b.WriteString(s[:i+1])
		} else {
			b.WriteString(s[:i])
		}
		s = s[i+n:]
		i = strings.IndexByte(s, esc)
	}
	b.WriteString(s)
	return b.String()
}

// escapeLen is the length of the escape sequence s starts with (s[0] is
// ESC), or 0 when it starts none (ECMA-48):
//   - CSI: ESC [, parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F,
//     a final byte 0x40–0x7E (colours, cursor moves, erasing);
//   - OSC, and the other control strings (DCS, SOS, PM, APC): ESC ], P, X,
//     ^ or _, then anything up to BEL or ST (ESC \) (titles, links,
//     clipboard writes);
//   - ESC, intermediate bytes 0x20–0x2F, a final byte 0x30–0x7E (character
//     sets, keypad modes, a reset).
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '[':
		i := 2
		for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
			i++
		}
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
		return 0
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			switch {
			case s[i] == '\a':
				return i + 1
			case s[i] == esc && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			}
		}
		return 0
	}
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		return i + 1
	}
	return 0
}
