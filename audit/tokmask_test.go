package audit

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/compaudit/compaudit/parse/parsetest"
)

// TestTokenMasks holds the vector code to the byte-by-byte reference:
// every byte value at every place of a block, arrows at every place and
// cut at every place, blocks of random bytes, and a block whose arrow
// look-ahead ends its buffer.
func TestTokenMasks(t *testing.T) {
	if !blockTokens {
		t.Skip("no vector code here")
	}
	check := func(b string) {
		t.Helper()
		p := &[]byte(b)[0] // a copy of its own, so the 66 bytes end the buffer
		got := sevenMasks(tokenMasks(p))
		want := sevenMasks(tokenMasksOf(b))
		if got != want {
			t.Fatalf("tokenMasks(%q) = %v, want %v", b, got, want)
		}
	}
	for c := range 256 {
		for at := range 66 {
			block := []byte(strings.Repeat("a", 66))
			block[at] = byte(c)
			check(string(block))
		}
		check(strings.Repeat(string([]byte{byte(c)}), 66))
	}
	for at := range 66 {
		for cut := 1; cut <= len(arrow); cut++ {
			block := []byte(strings.Repeat("x", 66))
			copy(block[at:], arrow[:cut])
			check(string(block))
		}
	}
	rng := rand.New(rand.NewPCG(7, 66))
	alphabet := " \t\n\r,;|()[]{}<>\"'`\\/:@.-_#09aZ*" + arrow + "\xe2\x86\x92\xff"
	for range 3000 {
		block := make([]byte, 66)
		for k := range block {
			if rng.IntN(2) == 0 {
				block[k] = byte(rng.IntN(256))
			} else {
				block[k] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		check(string(block))
	}
}

// sevenMasks gathers tokenMasks' seven results for one comparison.
func sevenMasks(a, b, c, d, e, f, g uint64) [7]uint64 { return [7]uint64{a, b, c, d, e, f, g} }

// TestBlocksAgreeWithWords holds the block scan to the word loop and to
// the byte-by-byte scan, on generated tool output long enough for many
// blocks: Read output with arrows, paths, ids, hashes, tokens that run
// across blocks and past 512 bytes, arrows cut at block ends, and bytes
// that are not UTF-8.
func TestBlocksAgreeWithWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pieces := []string{"    12" + arrow + "func main() {", "\n", " ", "s3://acme-prod-7/builds", "v1.2.3.", "a" + arrow + "b",
		"deadbeef0123456789abcdef", "--flag=value", "HEAD:release-2026-03", "me@example.com", "**bold-1**", "word",
		"plain", "\t", "(x_y)", "[1]", "`code-2`", "\"q:1\"", "'a/b'", "\\n", "\xe2\x86", "\xe2", "\x92", "\xff\xfe",
		strings.Repeat("z", 70), strings.Repeat("k-", 300), "#42", "@user", "::", "a:b:c", "→→", "...", "*a.b*"}
	var texts []string
	for range 400 {
		var b strings.Builder
		for b.Len() < 64*4+rng.IntN(300) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	// every place for a token, an arrow and a mark around a block's end
	for at := 50; at < 80; at++ {
		for _, p := range []string{arrow, "a-b", "x" + arrow + "1", "ab:cd", strings.Repeat("q", 20) + "_"} {
			texts = append(texts, strings.Repeat("w ", at/2)+strings.Repeat("w", at%2)+p+" tail of the text "+strings.Repeat("y", 70))
		}
	}
	// an arrow ending a token, at every place across a block's end, with a
	// token right after it
	for at := 55; at < 200; at++ {
		texts = append(texts, strings.Repeat("w", at)+arrow+"a-b "+strings.Repeat("y", 70))
	}
	for _, text := range texts {
		got := scanned(text, scanClassed)
		words := scanned(text, func(s string, fn func(string, int, uint8)) { scanWords(s, 0, fn) })
		want := scanned(text, scanClassedByByte)
		if !slices.Equal(got, want) || !slices.Equal(words, want) {
			t.Fatalf("scan of %q\nblocks %v\n words %v\n bytes %v", text, got, words, want)
		}
	}
}

// scannedToken is one call of a scan's fn.
type scannedToken struct {
	tok     string
	at      int
	classes uint8
}

func scanned(text string, scan func(string, func(string, int, uint8))) []scannedToken {
	var out []scannedToken
	scan(text, func(s string, at int, c uint8) {
		if unsafe.StringData(s) != unsafe.StringData(text[at:]) {
			panic("a token that is not a piece of its text at its offset")
		}
		out = append(out, scannedToken{s, at, c})
	})
	return out
}

// BenchmarkScanToolOutput times the block scan against the word loop, side
// by side, on what a session's tool output mostly is: this package's own
// sources as Claude Code's Read tool returns them (a number, an arrow and
// the line), and on the texts of the incident transcript's events.
func BenchmarkScanToolOutput(b *testing.B) {
	read := parsetest.ReadOutputs(b)
	var incident []string
	for _, ev := range incidentEvents(b, "incident-drift-claude.jsonl") {
		if ev.Text != "" {
			incident = append(incident, ev.Text)
		}
	}
	for _, in := range []struct {
		name  string
		texts []string
	}{{"read", read}, {"incident", incident}} {
		var size int64
		for _, s := range in.texts {
			size += int64(len(s))
		}
		for _, scan := range []struct {
			name string
			scan func(string, func(string, int, uint8))
		}{
			{"blocks", scanClassed},
			{"words", func(s string, fn func(string, int, uint8)) { scanWords(s, 0, fn) }},
		} {
			b.Run(in.name+"/"+scan.name, func(b *testing.B) {
				b.SetBytes(size)
				n := 0
				count := func(string, int, uint8) { n++ } // made once: the loop measures the scan alone
				for b.Loop() {
					for _, s := range in.texts {
						scan.scan(s, count)
					}
				}
				if n == 0 {
					b.Fatal("no tokens")
				}
			})
		}
	}
}
