package reading_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
)

// The token hash must agree with hashing the lowered token, however it
// gets there.
func TestTokenHashFolds(t *testing.T) {
	h := reading.NewTokenHasher()
	for _, c := range [][2]string{
		{"S3://Acme-Stage-07/", "s3://acme-stage-07"},
		{"`acme-stage-07`", "acme-stage-07"},
		{"'\"Ref\"'", "ref"},
		{"ÉCOLE-7", lex.FoldLower("ÉCOLE-7")},
		{strings.Repeat("AB", 100), strings.Repeat("ab", 100)},
		{strings.Repeat("Ab1-", 130), strings.Repeat("ab1-", 130)}, // hashed in pieces
	} {
		if h.Hash(c[0]) != h.Hash(c[1]) {
			t.Errorf("hash(%q) != hash(%q)", c[0], c[1])
		}
	}
}

// FuzzTokenHash: two tokens hash alike exactly when they fold alike —
// quotes and a trailing slash trimmed, letters lowered — and lowerWord
// lowers eight bytes as the byte-wise fold does.
func FuzzTokenHash(f *testing.F) {
	for _, c := range [][2]string{{"S3://Acme-Stage-07/", "s3://acme-stage-07"}, {"ÉCOLE-7", "école-7"},
		{"abcdefgh", "abcdefgi"}, {"[\\]^_`@Z", "[\\]^_`@z"}, {"ab", "ab\x00"}, {"\xc3", "\xc3\xa9"}} {
		f.Add(c[0], c[1])
	}
	h := reading.NewTokenHasher()
	f.Fuzz(func(t *testing.T, a, b string) {
		same := lex.FoldLower(reading.TrimToken(a)) == lex.FoldLower(reading.TrimToken(b))
		if got := h.Hash(a) == h.Hash(b); got != same {
			t.Fatalf("hash(%q) == hash(%q) is %v; their folds are equal: %v", a, b, got, same)
		}
		if len(a) >= 8 {
			want := lex.Le64(foldLowerASCII(a[:8]))
			if got := lex.LowerWord(lex.Le64(a[:8])); got != want {
				t.Fatalf("lowerWord(%q) = %x, want %x", a[:8], got, want)
			}
		}
	})
}

// foldLowerASCII lowers the ASCII capitals only.
func foldLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// TestDistinct: every fingerprint once, in order of first sight, for short
// and table-sized inputs, the hash 0 among them (fingerprint 1).
func TestDistinct(t *testing.T) {
	for _, n := range []int{0, 1, 5, 15, 16, 17, 100, 5000} {
		var in, want []uint32
		seen := map[uint32]bool{}
		for i := 0; i < n; i++ {
			v := reading.Fingerprint(uint64(i*7919%(n/3+1)) * 0x9e3779b97f4a7c15)
			in = append(in, v)
			if !seen[v] {
				seen[v] = true
				want = append(want, v)
			}
		}
		got := reading.Distinct(slices.Clone(in))
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: distinct gave %d values, want %d (%v...)", n, len(got), len(want), got[:min(len(got), 5)])
		}
	}
}

// foldLowerRef is foldLower's definition, rune by rune: each valid rune is
// lowered when its lower case has the same length in bytes; everything
// else is kept.
func foldLowerRef(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if l := unicode.ToLower(r); r != utf8.RuneError && l != r && utf8.RuneLen(l) == n {
			b = utf8.AppendRune(b, l)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

var foldCases = []string{"", "abc", "ABC", "S3://Acme-Stage-07/", "└─ lib/Annotation.ex", "ÉCOLE", "İstanbul", "\u212a kelvin",
	"bad \xff\xfe BYTES", "ΣΊΣΥΦΟΣ", "mixed ascii ÀÉÎ and \xc3 cut", "ǅ title-case"}

func TestFoldLower(t *testing.T) {
	for _, c := range foldCases {
		if got, want := lex.FoldLower(c), foldLowerRef(c); got != want {
			t.Errorf("foldLower(%q) = %q, want %q", c, got, want)
		}
	}
}

// BenchmarkFoldLower times foldLower eight bytes at a time against the
// byte loop it replaced (foldLowerBytes), side by side, on tool output
// (this package's sources) and the agent's words of the incident
// transcript.
func BenchmarkFoldLower(b *testing.B) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	var size int64
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		texts, size = append(texts, string(src)), size+int64(len(src))
	}
	for name, fold := range map[string]func(string) string{"words": lex.FoldLower, "bytes": foldLowerBytes} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, t := range texts {
					if len(fold(t)) != len(t) {
						b.Fatal("length changed")
					}
				}
			}
		})
	}
}

// foldLowerBytes is foldLower a byte at a time, as it was before it took
// ASCII eight bytes at a time. It copies every text, as that one copied
// every text with a capital letter, which each of the benchmark's has.
func foldLowerBytes(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		if c := s[i]; c >= utf8.RuneSelf {
			i = lex.LowerRuneAt(b, s, i)
			continue
		} else if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
		i++
	}
	return string(b)
}

func FuzzFoldLower(f *testing.F) {
	for _, c := range foldCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := lex.FoldLower(s)
		if want := foldLowerRef(s); got != want {
			t.Fatalf("foldLower(%q) = %q, want %q", s, got, want)
		}
		if len(got) != len(s) {
			t.Fatalf("foldLower(%q) changed the length", s)
		}
	})
}
