package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/txtar"
)

// hostile is what a web page an agent fetched, or a tool it ran, can put
// in a transcript: set the terminal's title, erase the line, hide what
// follows, a C1 control sequence introducer, and a right-to-left override
// that shows the rest of a line backwards.
const hostile = " \x1b]0;owned\x07\x1b[2K\r\x1b[8m\u009b2J\u202e"

// structural members keep their values: changed, the records would no
// longer be read as what they are.
var structural = map[string]bool{
	"type": true, "subtype": true, "role": true, "timestamp": true, "name": true,
	"op": true, "status": true, "isCompactSummary": true, "isMeta": true, "isSidechain": true,
	"userType": true, "level": true, "phase": true,
}

// shipped is a transcript of testdata the tests change string by string.
type shipped struct {
	name string
	data []byte
}

// shippedTranscripts are the Claude Code incident, the drift incident, a
// Codex rollout and the multi-agent run of testdata, in that order: one of
// each shape the readers take, each with findings that quote it.
func shippedTranscripts(t *testing.T) []shipped {
	t.Helper()
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ar, err := txtar.ParseFile("../testdata/transcripts/audit/codex-patch-not-run.txtar")
	if err != nil {
		t.Fatal(err)
	}
	return []shipped{
		{"incident.jsonl", read("../testdata/transcripts/incident-claude.jsonl")},
		{"drift.jsonl", read("../testdata/transcripts/incident-drift-claude.jsonl")},
		{"rollout-2026-03-09T14-10-00-0311.jsonl", ar.Files[0].Data},
		{"multi.jsonl", read("../testdata/transcripts/multiagent-canonical.jsonl")},
	}
}

// mapStrings applies change to every string of a record but the
// structural ones, and to the strings inside a string that holds JSON (a
// Codex call's arguments). change must map equal strings alike, so ids
// still link the records.
func mapStrings(v any, key string, change func(string) string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = mapStrings(e, k, change)
		}
	case []any:
		for i, e := range x {
			x[i] = mapStrings(e, key, change)
		}
	case string:
		if structural[key] || x == "" {
			return x
		}
		var inner any
		if (x[0] == '{' || x[0] == '[') && json.Unmarshal([]byte(x), &inner) == nil {
			b, err := json.Marshal(mapStrings(inner, key, change))
			if err != nil {
				panic(err)
			}
			return string(b)
		}
		return change(x)
	}
	return v
}

// mapLines applies change to every string of every record of a JSONL file
// (mapStrings).
func mapLines(t *testing.T, data []byte, change func(string) string) []byte {
	t.Helper()
	var out bytes.Buffer
	for line := range strings.Lines(string(data)) {
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%v in %q", err, line)
		}
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(mapStrings(v, "", change)); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

// hostileLines puts hostile in every string of a file's records but the
// structural ones: after its first word when inside, else at its end.
func hostileLines(t *testing.T, data []byte, inside bool) []byte {
	return mapLines(t, data, func(x string) string {
		if i := strings.IndexByte(x, ' '); inside && i > 0 {
			return x[:i] + hostile + x[i:]
		}
		return x + hostile
	})
}

// unsafeForDisplay is the first character of s that could change a
// terminal's state, move its cursor or reorder the text shown, or "", told
// from the unicode package's tables over the whole output, whichever
// renderer wrote it. Line breaks and tabs are the renderer's own.
func unsafeForDisplay(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return fmt.Sprintf("byte %#x at byte %d", s[i], i)
		case r == '\n' || r == '\t':
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028', r == '\u2029':
			return fmt.Sprintf("%U at byte %d: …%q…", r, i, s[max(0, i-40):min(len(s), i+10)])
		}
	}
	return ""
}

// styleSequence is what the text styles write: select graphic rendition.
var styleSequence = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestHostileTextStaysInert: transcripts are untrusted text, and what a
// reader sees of them must not act on the terminal showing it, or on a CI
// log that renders colours. Every string of the shipped transcripts (the
// Claude Code incidents, a Codex rollout, a multi-agent run) is given
// escape sequences, a carriage return, a C1 control and a right-to-left
// override, and the file's own name some too; every command's human
// output and every warning on stderr must show them as visible escapes,
// and the JSON formats must carry them JSON-escaped.
func TestHostileTextStaysInert(t *testing.T) {
	inputs := shippedTranscripts(t)
	incident := inputs[0].data
	// the same record twice: the duplicate's warning quotes its id
	first, _, _ := bytes.Cut(incident[bytes.IndexByte(incident, '\n')+1:], []byte("\n"))
	inputs[0].name, inputs[0].data = "incident"+hostile+".jsonl", append(append(incident, first...), '\n')
	// a command is its arguments for the folder the inputs are in
	type command func(dir string) []string
	var commands []command
	in := func(i int, args ...string) command {
		return func(dir string) []string { return append(args, filepath.Join(dir, inputs[i].name)) }
	}
	for i := range inputs {
		for _, f := range []string{"text", "markdown", "html", "json", "ndjson", "sarif"} {
			commands = append(commands, in(i, "audit", "--format", f, "--min-severity", "note", "--redact=false"))
		}
		commands = append(commands, in(i, "ledger"), in(i, "ledger", "--at", "80"), in(i, "replay"),
			in(i, "ledger", "--format", "json"), in(i, "replay", "--format", "json"))
	}
	commands = append(commands, in(3, "agents"), in(3, "agents", "--format", "json"),
		func(dir string) []string { return []string{"audit", "--format", "text", dir} })

	shown := make([]bool, len(commands))
	for _, inside := range []bool{false, true} {
		dir := t.TempDir()
		for _, f := range inputs {
			if err := os.WriteFile(filepath.Join(dir, f.name), hostileLines(t, f.data, inside), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for i, c := range commands {
			args := c(dir)
			_, out, errOut := run(t, "", append([]string{"--color", "never"}, args...)...)
			shown[i] = shown[i] || strings.Contains(out+errOut, `\x1b`) || strings.Contains(out+errOut, `\u001b`)
			if u := unsafeForDisplay(errOut); u != "" {
				t.Errorf("%v: stderr shows %s", args, u)
			}
			if u := unsafeForDisplay(out); u != "" {
				t.Errorf("%v: stdout shows %s", args, u)
			}
			// in colour, the only escape sequences are the styles' own, and
			// the text shows the input's as often as plain text does
			_, colored, _ := run(t, "", append([]string{"--color", "always"}, args...)...)
			stripped := styleSequence.ReplaceAllString(colored, "")
			if u := unsafeForDisplay(stripped); u != "" {
				t.Errorf("%v: in colour, stdout shows %s", args, u)
			}
			if n, m := strings.Count(stripped, `\x1b`), strings.Count(out, `\x1b`); n != m {
				t.Errorf("%v: in colour the input's escapes show %d times, in plain text %d", args, n, m)
			}
		}
	}
	for i, c := range commands {
		if !shown[i] {
			t.Errorf("%v: the hostile text is never shown, so this proves nothing", c("DIR"))
		}
	}
}
