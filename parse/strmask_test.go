package parse

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestStringMasks holds the vector code to the byte-by-byte reference:
// every byte value at every place of a block, blocks of random bytes, and
// blocks that end at the end of their buffer.
func TestStringMasks(t *testing.T) {
	if !blockStrings {
		t.Skip("no vector code here")
	}
	check := func(b string) {
		t.Helper()
		bs, q, ctl, hi, plain := stringMasks(addressOf(b))
		wbs, wq, wctl, whi, wplain := stringMasksOf(b)
		if bs != wbs || q != wq || ctl != wctl || hi != whi || plain != wplain {
			t.Fatalf("stringMasks(%q) = %x %x %x %x %x, want %x %x %x %x %x",
				b, bs, q, ctl, hi, plain, wbs, wq, wctl, whi, wplain)
		}
	}
	for c := range 256 {
		for at := range 64 {
			block := []byte(strings.Repeat("a", 64))
			block[at] = byte(c)
			check(string(block))
		}
		check(strings.Repeat(string([]byte{byte(c)}), 64))
	}
	rng := rand.New(rand.NewPCG(6, 64))
	for range 2000 {
		block := make([]byte, 64)
		for k := range block {
			block[k] = byte(rng.IntN(256))
		}
		check(string(block))
	}
	// the last 64 bytes of a buffer: the load must not need more
	buf := []byte(strings.Repeat(`ab\"\\n`, 40))
	check(string(buf[len(buf)-64:]))
}

// addressOf is the first byte of a copy of s, for stringMasks to read.
func addressOf(s string) *byte { return &[]byte(s)[0] }

// TestEscapes holds escapes.next to a walk that counts backslashes, over
// runs of every length that cross blocks at every place.
func TestEscapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	texts := []string{strings.Repeat(`\`, 200), strings.Repeat(`a\\`, 70), strings.Repeat(`\\\n`, 60)}
	for n := 1; n <= 70; n++ {
		texts = append(texts, strings.Repeat("x", 64-n%64)+strings.Repeat(`\`, n)+"n"+strings.Repeat("y", 64))
	}
	for range 500 {
		b := make([]byte, 64*4)
		for k := range b {
			if rng.IntN(3) == 0 {
				b[k] = 'a'
			} else {
				b[k] = '\\'
			}
		}
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		for len(text)%64 != 0 {
			text += "z"
		}
		var want []bool // is text[k] escaped
		odd := false
		for k := range len(text) {
			want = append(want, odd)
			odd = text[k] == '\\' && !odd
		}
		var e escapes
		for at := 0; at < len(text); at += 64 {
			backslash, _, _, _, _ := stringMasksOf(text[at : at+64])
			got := e.next(backslash)
			for k := range 64 {
				if got>>k&1 == 1 != want[at+k] {
					t.Fatalf("%q: byte %d escaped = %v, want %v", text, at+k, !want[at+k], want[at+k])
				}
			}
		}
	}
}

// TestBlocksAgreeWithWords generates long records whose strings hold
// escapes, runes, quotes, control bytes and broken sequences at every
// distance from a block's edge, and holds each to encoding/json and the
// two ways of checking strings to each other (checkValid).
func TestBlocksAgreeWithWords(t *testing.T) {
	pieces := []string{
		"a", "plain text ", `\n`, `\t`, `\"`, `\\`, `\/`, `\u00e9`, `\uD83D`, `\u12`, `\x`, `\`, `"`,
		"→", "é", "済済済", "─", "\xe2\x86", "\xff", "\xc3", "\x01", "\x7f", "\t", "\u2028",
		strings.Repeat("済", 9), strings.Repeat(`\\`, 33), strings.Repeat("x", 63),
	}
	rng := rand.New(rand.NewPCG(64, 8))
	for range 4000 {
		var body strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			body.WriteString(pieces[rng.IntN(len(pieces))])
		}
		line := `{"type":"user","content":"` + body.String() + `","n":1}`
		switch rng.IntN(4) {
		case 0:
			line = line[:rng.IntN(len(line)+1)] // cut anywhere
		case 1:
			line = strings.Repeat(" ", rng.IntN(64)) + line // every alignment
		}
		checkValid(t, line)
	}
}
