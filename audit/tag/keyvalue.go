package tag

import "github.com/compaudit/compaudit/audit/lex"

var KeyValueRE = lex.LiteralPattern(`(?i)(--?[a-z][a-z0-9_-]*|\b[a-z_][a-z0-9_]*)["']?\s*(?:=|:|\s)\s*["']?(\d+(?:\.\d+)?)(ms|s|sec|secs|seconds|m|min|minutes|h|%)?\b`)

// KeyValueMatches is keyValueRE().FindAllStringSubmatch(s, -1), run only on
// the stretches around s's digits. A command can carry a megabyte of
// heredoc, mostly words, and the expression reads every byte of it at
// about 10 MB/s.
//
// Every match is a key, a gap and a number. Walking left from the first
// digit of a run over gap bytes, then over key bytes, and right over the
// bytes a number and its unit are made of, gives a stretch that holds any
// match whose number starts there. A stretch is bounded by bytes that are
// not ASCII word characters (or by the ends of s), so \b reads the same at
// its edges as in s; no match crosses from one stretch into another, so
// matching stretch by stretch, in order, finds what matching s finds.
// Bytes of multi-byte runes count as key and unit bytes, since (?i) lets
// the Kelvin sign stand for k and ſ for s. FuzzKeyValueMatches holds it to
// the expression.
func KeyValueMatches(s string) [][]string {
	var out [][]string
	start, end := -1, -1 // the stretch gathered so far
	flush := func() {
		if start >= 0 {
			out = append(out, KeyValueRE().FindAllStringSubmatch(s[start:end], -1)...)
		}
	}
	for i := 0; i < len(s); {
		if !lex.IsDigit(s[i]) {
			i++
			continue
		}
		a := i
		for a > 0 && kvGap(s[a-1]) {
			a--
		}
		for a > 0 && kvKey(s[a-1]) {
			a--
		}
		b := i
		for b < len(s) && kvNumberOrUnit(s[b]) {
			b++
		}
		if a > end {
			flush()
			start = a
		}
		end = b
		i = b
	}
	flush()
	return out
}

// kvGap: what may stand between a key and its number.
func kvGap(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\f', '\r', '"', '\'', '=', ':':
		return true
	}
	return false
}

func kvKey(c byte) bool {
	return c == '_' || c == '-' || lex.IsDigit(c) || lex.AsciiLetter(c) || c >= 0x80
}

func kvNumberOrUnit(c byte) bool {
	return c == '_' || c == '.' || c == '%' || lex.IsDigit(c) || lex.AsciiLetter(c) || c >= 0x80
}
