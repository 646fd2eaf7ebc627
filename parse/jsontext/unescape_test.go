package jsontext

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

var unescapeCases = []string{
	"", "plain", `line one\nline two\n`, `tab\there`, `quote \"x\" and \\ and \/`, `\u00e9t\u00E9`, `\ud83d\ude00 emoji`,
	`lone \ud83d high`, `\udc00 low`, `\b\f\r`, strings.Repeat(`x\n`, 100), `    12→func main() { // \"q\"\n`,
}

// checkUnescape holds unescape to encoding/json on the body of a valid
// JSON string of valid UTF-8 (encoding/json replaces invalid bytes; the
// reader repairs those afterwards).
func checkUnescape(t *testing.T, body string) {
	t.Helper()
	var want string
	if !utf8.ValidString(body) || json.Unmarshal([]byte(`"`+body+`"`), &want) != nil {
		return
	}
	if got := Unescape(body); got != want {
		t.Fatalf("unescape(%q) = %q, encoding/json decodes %q", body, got, want)
	}
}

// checkUnescapeBlocks holds appendUnescaped to unescapeWords on any body,
// valid or not, appended to a buffer that already holds bytes.
func checkUnescapeBlocks(t *testing.T, body string) {
	t.Helper()
	got := string(AppendUnescaped([]byte("kept"), body))
	want := string(UnescapeWords([]byte("kept"), body))
	if got != want {
		t.Fatalf("appendUnescaped(%q) = %q, the word loop gives %q", body, got, want)
	}
}

// TestUnescapeBlocksAgreeWithWords holds the blocks to the word loop on
// bodies long enough for many blocks: escapes of every kind at every
// place across a block's end, runs of backslashes, \u escapes cut short
// or invalid, a backslash as the last byte, and bytes that are not UTF-8.
func TestUnescapeBlocksAgreeWithWords(t *testing.T) {
	pieces := []string{`\n`, `\t`, `\"`, `\\`, `\/`, `\b`, `\f`, `\r`, `\u00e9`, `\u003c`, `\ud83d\ude00`, `\ud83d`,
		`\udc00x`, `\u12`, `\uzzzz`, `\x`, `\`, "word ", "    12→func main() {", "\xff\xfe", strings.Repeat("a", 70)}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var b strings.Builder
		for b.Len() < 64+rng.IntN(400) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkUnescapeBlocks(t, b.String())
	}
	for at := range 140 {
		for _, p := range pieces[:17] {
			checkUnescapeBlocks(t, strings.Repeat("y", at)+p+strings.Repeat("z", 70))
			checkUnescapeBlocks(t, strings.Repeat("y", at)+p)
		}
	}
}

func TestUnescape(t *testing.T) {
	for _, c := range unescapeCases {
		checkUnescape(t, c)
	}
}

func FuzzUnescape(f *testing.F) {
	for _, c := range unescapeCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkUnescape(t, body)
		checkUnescapeBlocks(t, body)
	})
}
