package lex_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compaudit/compaudit/audit/lex"
)

// appendWordsByRune is appendWords as it was, rune by rune with trimming
// by cutset, kept for FuzzAppendWords to hold the faster walk to.
func appendWordsByRune(out []lex.Word, s string) []lex.Word {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !lex.IsWordRune(r) {
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !lex.IsWordRune(r) {
				break
			}
			j += size
		}
		tok := strings.TrimRight(s[i:j], ".:,-/=+")
		tok = strings.TrimLeft(tok, ".:,=+")
		if tok != "" {
			start := i + strings.Index(s[i:j], tok)
			out = append(out, lex.Word{W: lex.FoldLower(tok), Start: start, End: start + len(tok)})
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
		if got, want := lex.AppendWords(nil, s), appendWordsByRune(nil, s); !slices.Equal(got, want) {
			t.Fatalf("appendWords(%q) = %v, want %v", s, got, want)
		}
	})
}

// FuzzSentenceAround: an obligation keeps its whole sentence when it is
// short, and otherwise a stretch of it around its span, no longer than the
// bound and cut on character boundaries.
func FuzzSentenceAround(f *testing.F) {
	f.Add(strings.Repeat("then deploy to s3://acme-bucket-7/ and ", 60), 400, 420)
	f.Add(strings.Repeat("é", 700), 3, 5)
	f.Add("x"+strings.Repeat("é", 700), 603, 609)
	f.Add("keep the timeout under 30s", 5, 12)
	f.Fuzz(func(t *testing.T, text string, start, end int) {
		if start < 0 || end < start || end > len(text) {
			return
		}
		lo, hi := lex.Stretch(text, start, end)
		if len(text) <= lex.MaxSentence {
			if lo != 0 || hi != len(text) {
				t.Fatalf("a sentence of %d bytes was cut to [%d, %d)", len(text), lo, hi)
			}
			return
		}
		if lo < 0 || lo > start || hi < end || hi > len(text) {
			t.Fatalf("[%d, %d) does not hold the span [%d, %d)", lo, hi, start, end)
		}
		if hi-lo > max(lex.MaxSentence, end-start) {
			t.Fatalf("kept %d bytes around a span of %d", hi-lo, end-start)
		}
		// the span's own ends are the caller's; the cuts are stretch's
		if utf8.ValidString(text) && (lo < start && !utf8.RuneStart(text[lo]) || hi > end && hi < len(text) && !utf8.RuneStart(text[hi])) {
			t.Fatalf("cut inside a character at [%d, %d)", lo, hi)
		}
		got := lex.Sentence{Text: text}.Around(start, end)
		want := text[lo:hi]
		if lo > 0 {
			want = "…" + want
		}
		if hi < len(text) {
			want += "…"
		}
		if got != want {
			t.Fatalf("around = %q, want %q", got, want)
		}
	})
}

// checkAsciiLetters holds appendLabelled's shortcut to plainWord: a word
// asciiLetters accepts is one plainWord returns unchanged.
func checkAsciiLetters(t *testing.T, w string) {
	t.Helper()
	if lex.AsciiLetters(w) && lex.PlainWord(w) != w {
		t.Fatalf("asciiLetters(%q), but plainWord gives %q", w, lex.PlainWord(w))
	}
}

var asciiLettersCases = []string{"", "bucket", "Bucket", "BRANCH", "@a", "a[", "`x", "{y", "z@", "port:", "bucket’s", "Ａ", "a1"}

func TestAsciiLetters(t *testing.T) {
	for _, w := range asciiLettersCases {
		checkAsciiLetters(t, w)
	}
	for _, c := range []struct {
		w    string
		want bool
	}{{"bucket", true}, {"BuCkEt", true}, {"", true}, {"a@", false}, {"[a", false}, {"a`", false}, {"{", false}, {"a1", false}, {"é", false}} {
		if got := lex.AsciiLetters(c.w); got != c.want {
			t.Errorf("asciiLetters(%q) = %v, want %v", c.w, got, c.want)
		}
	}
}

// TestWordBytes holds isWordByte to \w on every byte, as \b reads it
// (runes past ASCII are no word bytes there), and isIdentByte to \w and
// every byte past ASCII.
func TestWordBytes(t *testing.T) {
	word := regexp.MustCompile(`^\w$`)
	for c := 0; c < 256; c++ {
		b := byte(c)
		want := c < utf8.RuneSelf && word.MatchString(string(rune(c)))
		if got := lex.IsWordByte(b); got != want {
			t.Errorf("isWordByte(%#x) = %v, want %v", c, got, want)
		}
		if got := lex.IsIdentByte(b); got != (want || c >= utf8.RuneSelf) {
			t.Errorf("isIdentByte(%#x) = %v, want %v", c, got, want || c >= utf8.RuneSelf)
		}
	}
}

func FuzzAsciiLetters(f *testing.F) {
	for _, w := range asciiLettersCases {
		f.Add(w)
	}
	f.Fuzz(checkAsciiLetters)
}

// FuzzTermsOfPieces: the terms of texts joined by spaces are the terms of
// each, gathered, as touches gathers a call's.
func FuzzTermsOfPieces(f *testing.F) {
	for _, c := range [][2]string{{"Bash", "rm -rf /srv/prod-db"}, {"deploy to", "production."}, {"a-", "-b"}, {"x:", ":y"}, {"naïve", "café’s"}, {"", ""}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		want := lex.TermsOf(a + " " + b)
		got := lex.TermsOf(a).With(b)
		if !slices.Equal(got, want) {
			t.Fatalf("terms of %q and %q gathered: %v; joined: %v", a, b, got, want)
		}
	})
}

// TestFoldKeyIsEqualFold: two strings share a foldKey exactly when
// strings.EqualFold calls them equal, across ASCII, the runes whose
// folding orbit has three members, other scripts and invalid bytes.
func TestFoldKeyIsEqualFold(t *testing.T) {
	words := []string{"tests", "TESTS", "Tests", "teſts", "deploy", "DEPLOY", "k8s", "K8S", "\u212a8s",
		"ǅ", "ǆ", "Ǆ", "Σίσυφος", "ΣΊΣΥΦΟΣ", "σίσυφοσ", "straße", "STRASSE", "\xff", "\xfe", "\ufffd", "a\xffb", "A\xfeB", "", "İ", "i", "ı"}
	for _, a := range words {
		for _, b := range words {
			if got, want := lex.FoldKey(a) == lex.FoldKey(b), strings.EqualFold(a, b); got != want {
				t.Errorf("%q, %q: same key %v, EqualFold %v (%q, %q)", a, b, got, want, lex.FoldKey(a), lex.FoldKey(b))
			}
		}
	}
}
