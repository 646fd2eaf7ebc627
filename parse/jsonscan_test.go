package parse

import (
	"encoding/json"
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
	if got := unescape(body); got != want {
		t.Fatalf("unescape(%q) = %q, encoding/json decodes %q", body, got, want)
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
	f.Fuzz(checkUnescape)
}
