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

// TestCodexOutput reads each form a Codex tool output takes: an object
// with content and success, a JSON string with output and an exit code, and
// text that says how the process exited.
func TestCodexOutput(t *testing.T) {
	for _, c := range []struct {
		raw     string
		text    string
		isError bool
	}{
		{`{"content":"listed 3 files","success":true}`, "listed 3 files", false},
		{`{"content":"permission denied","success":false}`, "permission denied", true},
		{`{"output":"no content member","success":"false"}`, "no content member", true},
		{`{"content":"no success member"}`, "no success member", false},
		{`"{\"output\":\"ok\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.1}}"`, "ok\n", false},
		{`"{\"output\":\"error[E0061]\\n\",\"metadata\":{\"exit_code\":101}}"`, "error[E0061]\n", true},
		{`"{\"output\":\"no metadata\"}"`, "no metadata", false},
		{`"{\"not\":\"an output\"}"`, `{"not":"an output"}`, false},
		{`"{broken json"`, "{broken json", false},
		{`"Chunk ID: 7f2a\nWall time: 0.2 seconds\nProcess exited with code 2\nOutput:\nboom"`, "Chunk ID: 7f2a\nWall time: 0.2 seconds\nProcess exited with code 2\nOutput:\nboom", true},
		{`"Exit code: 0\nok"`, "Exit code: 0\nok", false},
		{`"plain text"`, "plain text", false},
	} {
		text, isError := codexOutput(c.raw)
		if text != c.text || isError != c.isError {
			t.Errorf("codexOutput(%s) = %q, %v; want %q, %v", c.raw, text, isError, c.text, c.isError)
		}
	}
}
