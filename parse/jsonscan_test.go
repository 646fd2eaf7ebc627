package parse

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compaudit/compaudit/parse/jsontext"
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
	if got := jsontext.Unescape(body); got != want {
		t.Fatalf("unescape(%q) = %q, encoding/json decodes %q", body, got, want)
	}
}

// checkUnescapeBlocks holds appendUnescaped to unescapeWords on any body,
// valid or not, appended to a buffer that already holds bytes.
func checkUnescapeBlocks(t *testing.T, body string) {
	t.Helper()
	got := string(jsontext.AppendUnescaped([]byte("kept"), body))
	want := string(jsontext.UnescapeWords([]byte("kept"), body))
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
			t.Errorf("codexOutput(%s): %q, %v; want %q, %v", c.raw, text, isError, c.text, c.isError)
		}
	}
}

// exitCodeRE is the expression exitCode reads a line at a time, kept here
// as the reference it is held to.
var exitCodeRE = regexp.MustCompile(`(?m)^(?:Process exited with code|Exit code:?|exit status) (-?\d+)`)

var exitCodeCases = []string{
	"", "Exit code: 0\nok", "Exit code 1", "Exit code:1", "Exit code:  1", "Exit code: -3 and more",
	"Exit code: x\nExit code 4", "exit status 127\n", "exit status -", "xexit status 2", "out\nexit status 2\nexit status 3",
	"Chunk ID: 7f2a\nWall time: 0.2 seconds\nProcess exited with code 2\nOutput:\nboom",
	"Process exited with code 99999999999999999999", "Process exited with code -0", "line\r\nExit code: 5",
	"  Exit code: 5", "Exit code: ５", "EXIT CODE: 1", "Process exited with code\n1", "a\n\nexit status 0\n",
}

func FuzzExitCode(f *testing.F) {
	for _, c := range exitCodeCases {
		f.Add(c)
	}
	f.Fuzz(checkExitCode)
}

func TestExitCode(t *testing.T) {
	for _, c := range exitCodeCases {
		checkExitCode(t, c)
	}
}

// checkExitCode holds exitCode to the expression it replaced.
func checkExitCode(t *testing.T, s string) {
	t.Helper()
	code, ok := exitCode(s)
	m := exitCodeRE.FindStringSubmatch(s)
	if ok != (m != nil) {
		t.Fatalf("exitCode(%q) found one: %v; the expression: %q", s, ok, m)
	}
	if m != nil {
		want, _ := strconv.Atoi(m[1])
		if code != want {
			t.Fatalf("exitCode(%q) = %d; the expression reads %d", s, code, want)
		}
	}
}
