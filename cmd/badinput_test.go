package cmd

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// The bad-input matrix: each damaged transcript gets a clear error or
// warning naming its file and line, everything else is still audited, and
// the exit code says whether input was lost (3) — including when nothing
// at all could be read.

type auditedDoc struct {
	Transcripts []struct {
		Path  string `json:"path"`
		Files []struct {
			Skipped int `json:"skipped"`
		} `json:"files"`
		Boundaries []json.RawMessage `json:"boundaries"`
		Findings   []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
	} `json:"transcripts"`
}

// incidentLines is the first design note's incident, one record per line:
// its compaction is the boundary at line 169 with the summary at line 170.
func incidentLines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func joinLines(lines []string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

// auditJSON audits paths and returns the exit code, the report and stderr.
func auditJSON(t *testing.T, paths ...string) (int, auditedDoc, string) {
	t.Helper()
	code, out, errOut := run(t, "", append([]string{"audit", "--format", "json", "--fail-on", "none"}, paths...)...)
	var doc auditedDoc
	if out != "" {
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
	}
	return code, doc, errOut
}

// audited checks the transcript at path was audited: its boundaries and
// one of the incident's findings are in the report.
func audited(t *testing.T, doc auditedDoc, path string, boundaries int, rule, mention string) {
	t.Helper()
	for _, tr := range doc.Transcripts {
		if tr.Path != path {
			continue
		}
		if len(tr.Boundaries) != boundaries {
			t.Errorf("%s: %d boundaries audited, want %d", path, len(tr.Boundaries), boundaries)
		}
		rules := map[string]bool{}
		mentioned := mention == ""
		for _, f := range tr.Findings {
			rules[f.Rule] = true
			mentioned = mentioned || strings.Contains(f.Message, mention)
		}
		if !mentioned {
			t.Errorf("%s: no finding mentions %s, so its record was not read", path, mention)
		}
		if !rules[rule] {
			t.Errorf("%s: the incident's findings are missing: %v", path, rules)
		}
		return
	}
	t.Errorf("%s was not audited", path)
}

func TestBadInputMatrix(t *testing.T) {
	lines := incidentLines(t)
	n := len(lines)
	cases := []struct {
		name string
		// make writes the case's files into dir and returns the paths to
		// audit and the path the good records are in ("" when none)
		make func(t *testing.T, dir string) (args []string, good string)
		code int
		// want lists what stderr must say, each "%s" the damaged file
		want       []string
		boundaries int
		// rule is a finding the good records yield; by default the agent's
		// deploy to the paraphrased bucket, found after the boundary
		// whatever became of the summary
		rule string
		// mention is what a finding must quote from the damaged record
		mention string
		// skipped is how many lines the JSON report counts as lost
		skipped int
	}{
		{
			name: "truncated last line",
			make: func(t *testing.T, dir string) ([]string, string) {
				p := writeFile(t, dir, "s.jsonl", append(joinLines(lines), `{"parentUuid":"x","type":"user","message":{"role":"user","content":"and deploy it to`...))
				return []string{p}, p
			},
			code: ExitUnreadable, want: []string{fmt.Sprintf("%%s:%d: error: truncated last line", n+1),
				"0 file(s) unreadable, 0 cut short by a read error, 1 record(s) skipped"}, boundaries: 1, skipped: 1,
		},
		{
			name: "line over 64 KB",
			make: func(t *testing.T, dir string) ([]string, string) {
				p := writeFile(t, dir, "s.jsonl", joinLines(withToolOutput(lines, 100, 70<<10)))
				return []string{p}, p
			},
			code: ExitOK, boundaries: 1, mention: bigOutputHost,
		},
		{
			name: "line over 16 MB",
			make: func(t *testing.T, dir string) ([]string, string) {
				p := writeFile(t, dir, "s.jsonl", joinLines(withToolOutput(lines, 100, 17<<20)))
				return []string{p}, p
			},
			code: ExitOK, boundaries: 1, mention: bigOutputHost,
		},
		{
			name: "NUL bytes",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := append([]string(nil), lines...)
				l[49] = l[49][:40] + "\x00" + l[49][40:]
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitUnreadable, want: []string{"%s:50: error: malformed record: NUL bytes",
				"0 file(s) unreadable, 0 cut short by a read error, 1 record(s) skipped"}, boundaries: 1, skipped: 1,
		},
		{
			// a writer that lost its newlines: twenty are shown one by one,
			// and every one of them is counted as lost
			name: "many records merged",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := append([]string(nil), lines...)
				for range 30 {
					l = append(l, lines[5]+lines[6])
				}
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitUnreadable, want: []string{
				fmt.Sprintf("%%s:%d: error: malformed record: two records on one line: the second begins at byte %d; skipped", n+1, len(lines[5])+1),
				fmt.Sprintf("%%s:%d: error: malformed record: two records on one line", n+20),
				`%s: error: 10 more like "malformed record" not shown`,
				"0 file(s) unreadable, 0 cut short by a read error, 30 record(s) skipped"}, boundaries: 1, skipped: 30,
		},
		{
			name: "invalid UTF-8",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := append([]string(nil), lines...)
				l[1] = strings.Replace(l[1], "launching", "launch\xff\xfeing", 1)
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{"%s:2: warning: invalid UTF-8"}, boundaries: 1,
		},
		{
			name: "UTF-8 byte order mark",
			make: func(t *testing.T, dir string) ([]string, string) {
				p := writeFile(t, dir, "s.jsonl", append([]byte("\xef\xbb\xbf"), joinLines(lines)...))
				return []string{p}, p
			},
			code: ExitOK, boundaries: 1,
		},
		{
			name: "UTF-16 file",
			make: func(t *testing.T, dir string) ([]string, string) {
				text := joinLines(lines)
				u := []byte{0xff, 0xfe}
				for _, c := range utf16.Encode([]rune(string(text))) {
					u = binary.LittleEndian.AppendUint16(u, c)
				}
				bad := writeFile(t, dir, "windows.jsonl", u)
				good := writeFile(t, dir, "s.jsonl", text)
				return []string{bad, good}, good
			},
			code: ExitUnreadable, want: []string{"%s:1: is UTF-16 text, not UTF-8", "convert it with: iconv -f UTF-16 -t UTF-8",
				"1 file(s) unreadable, 0 cut short by a read error, 0 record(s) skipped"}, boundaries: 1,
		},
		{
			name: "JSON array instead of JSONL",
			make: func(t *testing.T, dir string) ([]string, string) {
				bad := writeFile(t, dir, "array.json", []byte("[\n"+strings.Join(lines[:5], ",\n")+"\n]\n"))
				good := writeFile(t, dir, "s.jsonl", joinLines(lines))
				return []string{bad, good}, good
			},
			code: ExitUnreadable, want: []string{"%s:1: holds a JSON array, not JSON Lines"}, boundaries: 1,
		},
		{
			name: "binary file",
			make: func(t *testing.T, dir string) ([]string, string) {
				bin := make([]byte, 4096)
				for i := range bin {
					bin[i] = byte(i*7 + i/13)
				}
				bad := writeFile(t, dir, "core.jsonl", bin)
				good := writeFile(t, dir, "s.jsonl", joinLines(lines))
				return []string{bad, good}, good
			},
			code: ExitUnreadable, want: []string{"%s:1: no recognizable records",
				"1 file(s) unreadable, 0 cut short by a read error, 0 record(s) skipped"}, boundaries: 1,
		},
		{
			name: "empty file",
			make: func(t *testing.T, dir string) ([]string, string) {
				bad := writeFile(t, dir, "empty.jsonl", nil)
				good := writeFile(t, dir, "s.jsonl", joinLines(lines))
				return []string{bad, good}, good
			},
			code: ExitUnreadable, want: []string{"%s: empty file"}, boundaries: 1,
		},
		{
			name: "folder with an unreadable file",
			make: func(t *testing.T, dir string) ([]string, string) {
				good := writeFile(t, dir, "s.jsonl", joinLines(lines))
				// a session whose file cannot be opened: a dangling link
				if err := os.Symlink(filepath.Join(dir, "gone.jsonl"), filepath.Join(dir, "t.jsonl")); err != nil {
					t.Fatal(err)
				}
				return []string{dir}, good
			},
			code: ExitUnreadable, want: []string{"t.jsonl"}, boundaries: 1,
		},
		{
			name: "gzip file cut short",
			make: func(t *testing.T, dir string) ([]string, string) {
				var b bytes.Buffer
				zw := gzip.NewWriter(&b)
				zw.Write(joinLines(lines))
				zw.Close()
				p := writeFile(t, dir, "s.jsonl.gz", b.Bytes()[:b.Len()*9/10])
				return []string{p}, p
			},
			// the cut takes the turns after the boundary with it
			code: ExitUnreadable, want: []string{"error: input ends in a read error", "a compressed file cut short?",
				"0 file(s) unreadable, 1 cut short by a read error, 1 record(s) skipped"}, boundaries: 1, rule: "dropped-literal", skipped: 1,
		},
		{
			name: "duplicate uuids",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := slices.Insert(slices.Clone(lines), 60, lines[59]) // line 60 written twice
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{"%s:61: warning: duplicate uuid", "(first at line 60): record skipped"}, boundaries: 1,
		},
		{
			name: "duplicate uuid further back than the window of recent ids",
			make: func(t *testing.T, dir string) ([]string, string) {
				// the session goes on for 66,000 turn-duration records, then
				// line 60 is written again: its first copy has left the
				// 65,536 ids kept with their lines
				l := slices.Clone(lines)
				parent, ts := field(t, l[len(l)-1], "uuid"), field(t, l[len(l)-1], "timestamp")
				for i := range 66000 {
					id := fmt.Sprintf("7d1e%04x-%04x-4a5b-8c6d-%012x", i>>16, i&0xffff, i)
					l = append(l, `{"parentUuid":"`+parent+`","isSidechain":false,"userType":"external","cwd":"/home/dev/acme-site","sessionId":"bd2cb367-c66c-96fc-3dc2-2642db0a6f2a","version":"2.1.39","gitBranch":"launch/marketing-site","type":"system","subtype":"turn_duration","durationMs":41250,"timestamp":"`+ts+`","uuid":"`+id+`","isMeta":false}`)
					parent = id
				}
				l = append(l, lines[59])
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{fmt.Sprintf("%%s:%d: warning: duplicate uuid %s (first more than 65536 records earlier): record skipped", len(lines)+66001, field(t, lines[59], "uuid"))}, boundaries: 1,
		},
		{
			name: "parentUuid cycle",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := append([]string(nil), lines...)
				// record 2 names record 3 as its parent, and 3 names 2
				u2, u3 := field(t, l[1], "uuid"), field(t, l[2], "uuid")
				l[1] = strings.Replace(l[1], `"parentUuid":null`, `"parentUuid":"`+u3+`"`, 1)
				l[2] = strings.Replace(l[2], `"parentUuid":"`+field(t, l[2], "parentUuid")+`"`, `"parentUuid":"`+u2+`"`, 1)
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{"%s:3: warning: parentUuid cycle"}, boundaries: 1,
		},
		{
			name: "out-of-order timestamps",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := append([]string(nil), lines...)
				ts := field(t, l[2], "timestamp")
				l[2] = strings.Replace(l[2], ts, "2026-03-01"+ts[10:], 1) // a day before its parent
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{"%s:3: warning: out-of-order timestamp", "earlier than its parent's at line 2"}, boundaries: 1,
		},
		{
			name: "unreadable timestamp",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := append([]string(nil), lines...)
				ts := field(t, l[2], "timestamp")
				l[2] = strings.Replace(l[2], ts, ts[:14]+"-1"+ts[16:], 1) // a minute of -1
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{"%s:3: warning: unreadable timestamp", "is not an RFC 3339 time"}, boundaries: 1,
		},
		{
			name: "boundary with no summary after it",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := slices.Delete(slices.Clone(lines), 169, 170) // the summary
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{"%s:169: warning: compact_boundary with no summary record after it"}, boundaries: 1,
		},
		{
			name: "summary with no boundary",
			make: func(t *testing.T, dir string) ([]string, string) {
				l := slices.Delete(slices.Clone(lines), 168, 169) // the boundary
				p := writeFile(t, dir, "s.jsonl", joinLines(l))
				return []string{p}, p
			},
			code: ExitOK, want: []string{"%s:169: warning: compaction summary with no compact_boundary record before it"}, boundaries: 1,
		},
		{
			// a generated or hostile session: 33 Write calls of 1 MiB after
			// the compaction, more than any model's context holds. The
			// window keeps 32 MiB: its 11 KB of turns and 31 calls with
			// their results; the 32nd call (line n+63, turn 133: the
			// incident ends at turn 101 and each call is a turn) is the
			// first it does not keep, and the audit's memory stays bounded.
			name: "a window larger than any model's context",
			make: func(t *testing.T, dir string) ([]string, string) {
				p := writeFile(t, dir, "s.jsonl", joinLines(withWrites(lines, 33, 1<<20)))
				return []string{p}, p
			},
			code: ExitOK, want: []string{fmt.Sprintf("%%[1]s:%d: warning: the turns after the compaction at %%[1]s:169 hold more than 32 MiB", n+63),
				"from here (turn 133) to the agent's next compaction"}, boundaries: 1,
		},
		{
			name: "nothing readable",
			make: func(t *testing.T, dir string) ([]string, string) {
				a := writeFile(t, dir, "empty.jsonl", nil)
				b := writeFile(t, dir, "array.json", []byte("[{\"type\":\"user\"}]\n"))
				return []string{a, b}, ""
			},
			code: ExitUnreadable, want: []string{"empty.jsonl: empty file", "array.json:1: holds a JSON array",
				"2 file(s) unreadable, 0 cut short by a read error, 0 record(s) skipped"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args, good := c.make(t, dir)
			code, doc, stderr := auditJSON(t, args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			damaged := args[0]
			for _, w := range c.want {
				if strings.Contains(w, "%s") || strings.Contains(w, "%[1]s") {
					w = fmt.Sprintf(w, damaged)
				}
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr does not say %q:\n%s", w, stderr)
				}
			}
			if good != "" {
				rule := c.rule
				if rule == "" {
					rule = "paraphrase-reference"
				}
				audited(t, doc, good, c.boundaries, rule, c.mention)
			} else if len(doc.Transcripts) != 0 {
				t.Errorf("nothing was readable, yet %d transcripts were reported", len(doc.Transcripts))
			}
			skipped := 0
			for _, tr := range doc.Transcripts {
				for _, f := range tr.Files {
					skipped += f.Skipped
				}
			}
			if skipped != c.skipped {
				t.Errorf("the JSON report counts %d lines skipped, want %d", skipped, c.skipped)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "internal error") {
				t.Errorf("stderr reports a crash:\n%s", stderr)
			}
		})
	}
}

// bigOutputHost ends the long tool output: the summary drops it, so a
// finding quotes it only if the whole line was read.
const bigOutputHost = "db-big.internal:5432"

// withToolOutput inserts, after line at, a tool result of size bytes of
// ordinary build output that ends naming a database host.
func withToolOutput(lines []string, at, size int) []string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(`dist/assets/index-4f9a2c1e.js   183.42 kB │ gzip: 58.10 kB\n`)
	}
	b.WriteString("deployed; database at " + bigOutputHost)
	rec := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/acme-site","sessionId":"bd2cb367-c66c-96fc-3dc2-2642db0a6f2a","version":"2.1.39","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_big","type":"tool_result","content":"` + b.String() + `"}]},"uuid":"0f0f0f0f-1111-2222-3333-444455556666","timestamp":"2026-03-02T09:20:00.000Z"}`
	out := append([]string(nil), lines[:at]...)
	out = append(out, rec)
	return append(out, lines[at:]...)
}

// withWrites appends to the session count Write calls of a size-byte file,
// each as Claude Code records it: the assistant's tool_use, then the
// user's tool_result.
func withWrites(lines []string, count, size int) []string {
	body := strings.Repeat(`export const price = 49;\n`, size/26+1)[:size]
	out := append([]string(nil), lines...)
	parent := "8a2bf875-7446-bec0-f472-4cf3752a406f" // the last record's uuid
	for i := range count {
		call, result := fmt.Sprintf("c0de0000-0000-4000-8000-%012d", i), fmt.Sprintf("7e570000-0000-4000-8000-%012d", i)
		id := fmt.Sprintf("toolu_gen%04d", i)
		out = append(out,
			`{"parentUuid":"`+parent+`","isSidechain":false,"userType":"external","cwd":"/home/dev/acme-site","sessionId":"bd2cb367-c66c-96fc-3dc2-2642db0a6f2a","version":"2.1.39","message":{"model":"claude-opus-4-6","id":"msg_gen`+id+`","type":"message","role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"Write","input":{"file_path":"/home/dev/acme-site/src/gen/prices`+fmt.Sprint(i)+`.ts","content":"`+body+`"}}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":4,"output_tokens":900}},"type":"assistant","uuid":"`+call+`","timestamp":"2026-03-02T09:40:00.000Z"}`,
			`{"parentUuid":"`+call+`","isSidechain":false,"userType":"external","cwd":"/home/dev/acme-site","sessionId":"bd2cb367-c66c-96fc-3dc2-2642db0a6f2a","version":"2.1.39","type":"user","message":{"role":"user","content":[{"tool_use_id":"`+id+`","type":"tool_result","content":"File created successfully at: /home/dev/acme-site/src/gen/prices`+fmt.Sprint(i)+`.ts"}]},"uuid":"`+result+`","timestamp":"2026-03-02T09:40:01.000Z"}`)
		parent = result
	}
	return out
}

// field reads a top-level string field of a record line.
func field(t *testing.T, line, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m[key].(string)
	if s == "" {
		t.Fatalf("record has no %s: %.120s", key, line)
	}
	return s
}

// TestByteOrderMarkSameReport: a session saved with a byte order mark is
// reported as the same session without one, in every format that quotes
// its records; the quotes are read back by byte offset, which the mark
// moves by three.
func TestByteOrderMarkSameReport(t *testing.T) {
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	plain, marked := t.TempDir(), t.TempDir()
	writeFile(t, plain, "s.jsonl", data)
	writeFile(t, marked, "s.jsonl", append([]byte("\xef\xbb\xbf"), data...))
	for _, format := range []string{"text", "markdown"} {
		var outs []string
		for _, dir := range []string{plain, marked} {
			code, out, errOut := run(t, "", "audit", "--format", format, "--fail-on", "none", filepath.Join(dir, "s.jsonl"))
			if code != ExitOK || errOut != "" {
				t.Fatalf("%s: exit %d, stderr %s", format, code, errOut)
			}
			outs = append(outs, strings.ReplaceAll(out, dir, "DIR"))
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: the report with a byte order mark differs:\n%s\nwithout:\n%s", format, outs[1], outs[0])
		}
		if !strings.Contains(outs[0], "s3://acme-stage-07/") {
			t.Errorf("%s: the report quotes nothing of the incident:\n%s", format, outs[0])
		}
	}
}
