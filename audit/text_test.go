package audit

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// appendWordsByRune is appendWords as it was, rune by rune with trimming
// by cutset, kept for FuzzAppendWords to hold the faster walk to.
func appendWordsByRune(out []word, s string) []word {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
		tok := strings.TrimRight(s[i:j], ".:,-/=+")
		tok = strings.TrimLeft(tok, ".:,=+")
		if tok != "" {
			start := i + strings.Index(s[i:j], tok)
			out = append(out, word{w: foldLower(tok), start: start, end: start + len(tok)})
		}
		i = j
	}
	return out
}

func FuzzAppendWords(f *testing.F) {
	for _, s := range []string{"Hello, world.", "--max-retries=3", "s3://acme-prod/", "..a..", "=a=a", "don’t",
		"naïve café", "\xff\xfe word", "K-9 ſ", "a/b/c/ ./x ../y", "+=.:", "user's rule #4 $HOME ~/x 50%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendWords(nil, s), appendWordsByRune(nil, s); !slices.Equal(got, want) {
			t.Fatalf("appendWords(%q) = %v, want %v", s, got, want)
		}
	})
}
