package parse_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	_ "github.com/compaudit/compaudit/parse/formats"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/compaudit/compaudit/parse/linereader"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// claudeLine builds one Claude Code user record carrying text.
func claudeLine(uuid, text string) string {
	return `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"` + text +
		`"},"uuid":"` + uuid + `","timestamp":"2026-03-02T09:14:05.000Z","sessionId":"s1"}`
}

// checkReadPast reads line of 64 MB between two records, with one and two
// workers, and checks that the records around it are read, that it is
// reported as want says, and that reading past it costs the read buffers,
// not the line.
func checkReadPast(t *testing.T, name, line string, want ...string) {
	t.Helper()
	in := claudeLine("u1", "one") + "\n" + line + "\n" + claudeLine("u3", "three") + "\n"
	for _, workers := range []int{1, 2} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		evs, res := parsetest.ReadString(t, in, parse.Options{Workers: workers})
		runtime.ReadMemStats(&after)
		if parsetest.EventTexts(evs) != "one,three" {
			t.Errorf("%s, workers %d: events %q", name, workers, parsetest.EventTexts(evs))
		}
		if got := parsetest.DiagLines(res); got != strings.Join(want, "\n") {
			t.Errorf("%s, workers %d: diagnostics\n%s\nwant\n%s", name, workers, got, strings.Join(want, "\n"))
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Errorf("%s, workers %d: reading past %d MB allocated %d MB", name, workers, len(line)>>20, alloc>>20)
		}
	}
}

// TestLongLines reads lines far past any buffer size: a tool result of
// tens of megabytes is one line.
func TestLongLines(t *testing.T) {
	for _, size := range []int{100, 70 << 10, 17 << 20} {
		big := strings.Repeat("x", size)
		in := claudeLine("u1", "before") + "\n" + claudeLine("u2", big) + "\n" + claudeLine("u3", "after") + "\n"
		var got []string
		res, err := parse.ReadFile(parse.File{Path: "-", Agent: parse.MainAgent}, parse.Options{Stdin: strings.NewReader(in)}, 0, func(ev *parse.Event) error {
			got = append(got, ev.Text)
			return nil
		})
		if err != nil || len(res.Diagnostics) > 0 {
			t.Fatalf("size %d: err %v diags %v", size, err, res.Diagnostics)
		}
		if len(got) != 3 || got[0] != "before" || len(got[1]) != size || got[2] != "after" {
			t.Fatalf("size %d: got %d events", size, len(got))
		}
	}
}

// TestLineNumbersAndOffsets checks that events point at their records,
// CRLF line ends included.
func TestLineNumbersAndOffsets(t *testing.T) {
	l1, l2 := claudeLine("u1", "one"), claudeLine("u2", "two")
	in := l1 + "\r\n\r\n" + l2 + "\r\n"
	var evs []parse.Event
	_, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Stdin: strings.NewReader(in)}, 10, func(ev *parse.Event) error {
		evs = append(evs, *ev)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 {
		t.Fatalf("%d events", len(evs))
	}
	if evs[0].Line != 1 || evs[0].Offset != 0 || evs[0].Index != 10 {
		t.Errorf("first event at line %d offset %d index %d", evs[0].Line, evs[0].Offset, evs[0].Index)
	}
	if evs[1].Line != 3 || evs[1].Offset != int64(len(l1)+4) || evs[1].Index != 11 {
		t.Errorf("second event at line %d offset %d index %d", evs[1].Line, evs[1].Offset, evs[1].Index)
	}
	if !bytes.Equal([]byte(in[evs[1].Offset:evs[1].Offset+int64(len(l2))]), []byte(l2)) {
		t.Error("offset does not point at the record")
	}
}

// TestByteOrderMark: the byte order mark some Windows editors write before
// UTF-8 is not part of the first record, whose offset still points at its
// first byte, with or without a forced format. One further on is damage: two
// files joined.
func TestByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	l1, l2 := claudeLine("u1", "one"), claudeLine("u2", "two")
	in := bom + l1 + "\n" + bom + l2 + "\n"
	for _, format := range []parse.Format{"", parse.FormatClaudeCode} {
		evs, res := parsetest.ReadString(t, in, parse.Options{Format: format})
		if len(evs) != 1 || evs[0].Text != "one" || evs[0].Offset != int64(len(bom)) || in[evs[0].Offset:evs[0].Offset+int64(len(l1))] != l1 {
			t.Errorf("format %q: events %+v", format, evs)
		}
		if len(res.Diagnostics) != 1 || res.Diagnostics[0].Line != 2 || !strings.Contains(res.Diagnostics[0].Message, "not a JSON object") {
			t.Errorf("format %q: diagnostics %v", format, res.Diagnostics)
		}
	}
}

// TestUTF16: a transcript saved as UTF-16 is named as such, with the
// command that converts it, rather than as a file of no known records.
func TestUTF16(t *testing.T) {
	l := claudeLine("u1", "one") + "\n"
	le, be := make([]byte, 0, 2*len(l)), make([]byte, 0, 2*len(l))
	for _, c := range []byte(l) {
		le, be = append(le, c, 0), append(be, 0, c)
	}
	for name, in := range map[string]string{
		"little-endian with a mark": "\xff\xfe" + string(le),
		"big-endian with a mark":    "\xfe\xff" + string(be),
		"little-endian":             string(le),
		"big-endian":                string(be),
	} {
		_, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Stdin: strings.NewReader(in)}, 0, func(*parse.Event) error { return nil })
		var ie *parse.InputError
		if !errors.As(err, &ie) || ie.Line != 1 || !strings.Contains(ie.Msg, "is UTF-16 text") || !strings.Contains(ie.Msg, "iconv -f UTF-16 -t UTF-8") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// one stray zero byte is damage to a record, not another encoding
	evs, res := parsetest.ReadString(t, "{\x00"+claudeLine("u1", "one")[1:]+"\n"+claudeLine("u2", "two")+"\n", parse.Options{})
	if parsetest.EventTexts(evs) != "two" || parsetest.DiagLines(res) != "1 malformed record: NUL bytes in the line; skipped" {
		t.Errorf("a stray NUL: events %q, diagnostics %s", parsetest.EventTexts(evs), parsetest.DiagLines(res))
	}
}

// TestForcedFormat reads a file as the format given, past detection.
func TestForcedFormat(t *testing.T) {
	in := `{"role":"user","content":"hi"}` + "\n"
	res, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Stdin: strings.NewReader(in), Format: parse.FormatCanonical}, 0, func(*parse.Event) error { return nil })
	if err != nil || res.Format != parse.FormatCanonical || res.Events != 1 {
		t.Fatalf("format %s events %d err %v", res.Format, res.Events, err)
	}
	if _, err := parse.ParseFormat("yaml"); err == nil {
		t.Error("unknown format accepted")
	}
}

// TestEmitErrorStops hands an error from the consumer back unchanged.
func TestEmitErrorStops(t *testing.T) {
	stop := errors.New("stop")
	in := claudeLine("u1", "a") + "\n" + claudeLine("u2", "b") + "\n"
	n := 0
	_, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Stdin: strings.NewReader(in)}, 0, func(*parse.Event) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("err %v after %d events", err, n)
	}
}

// TestMissingFile is an input error naming the file.
func TestMissingFile(t *testing.T) {
	_, err := parse.ReadFile(parse.File{Path: "/no/such/file.jsonl"}, parse.Options{}, 0, func(*parse.Event) error { return nil })
	var ie *parse.InputError
	if !errors.As(err, &ie) || ie.File != "/no/such/file.jsonl" {
		t.Fatalf("err %v", err)
	}
	ts, diags := parse.Discover([]string{"/no/such/dir"})
	if len(ts) != 0 || len(diags) != 1 || diags[0].File != "/no/such/dir" {
		t.Fatalf("discover: %v %v", ts, diags)
	}
}

// TestSkippedRecordsAreValidated: records that are never read (progress,
// snapshots) are still validated whole, so a merged, cut or corrupted one
// is reported with its line rather than passed over — on the sequential
// path and on the workers' path alike.
func TestSkippedRecordsAreValidated(t *testing.T) {
	progress := `{"parentUuid":"u1","type":"progress","data":{"type":"bash_progress","output":"ok \"quoted\"\n"},"uuid":"p1","timestamp":"2026-03-02T09:14:06.000Z"}`
	lines := []string{
		claudeLine("u1", "first"),
		progress, // fine: silent
		`{"type":"file-history-snapshot","messageId":"m1","snapshot":{"trackedFileBackups":{}}}`, // fine: silent
		progress + progress, // two records merged on one line
		`{"parentUuid":"u1","type":"progress","data":{"output":"bad \q escape"},"uuid":"p2"}`,
		`{"parentUuid":"u1","type":"progress","data":{"output":"a control` + "\x01" + ` byte"},"uuid":"p3"}`,
		claudeLine("u2", "last"),
		`{"parentUuid":"u2","type":"progress","data":{"output":"cut sh`, // the writer stopped
	}
	in := strings.Join(lines, "\n")
	defer func(n int64) { *parse.ParallelMin = n }(*parse.ParallelMin)
	*parse.ParallelMin = 0
	for _, workers := range []int{1, 2} {
		evs, res := parsetest.ReadString(t, in, parse.Options{Workers: workers})
		if parsetest.EventTexts(evs) != "first,last" {
			t.Errorf("workers %d: events %q", workers, parsetest.EventTexts(evs))
		}
		want := []string{
			// bytes count from 1, as an editor's columns do
			fmt.Sprintf("4 malformed record: two records on one line: the second begins at byte %d; skipped", len(progress)+1),
			fmt.Sprintf("5 malformed record: invalid JSON at byte %d: invalid character 'q' in string escape code; skipped", strings.Index(lines[4], `\q`)+2),
			fmt.Sprintf("6 malformed record: invalid JSON at byte %d: invalid character '\\x01' in string literal; skipped", strings.IndexByte(lines[5], 1)+1),
			"8 truncated last line: the record ends without closing (the writer stopped mid-record); skipped",
		}
		if got := parsetest.DiagLines(res); got != strings.Join(want, "\n") {
			t.Errorf("workers %d: diagnostics\n%s\nwant\n%s", workers, got, strings.Join(want, "\n"))
		}
	}
}

// TestJSONProblems: a record that is not JSON is reported with the byte
// where it goes wrong and why, so the damage can be found in a line of
// megabytes; the line is skipped and the records around it still read.
func TestJSONProblems(t *testing.T) {
	rec := claudeLine("u2", "second")
	deep := `{"type":"user","x":` + strings.Repeat("[", jsontext.MaxDepth+5) + strings.Repeat("]", jsontext.MaxDepth+5) + "}"
	for _, c := range []struct{ name, line, want string }{
		{"cut in the middle of the file", rec[:100],
			"invalid JSON: the line ends inside the record, after byte 100"},
		{"two records merged", rec + rec,
			fmt.Sprintf("two records on one line: the second begins at byte %d", len(rec)+1)},
		{"text after the record", rec + ` trailing`,
			fmt.Sprintf("invalid JSON: text after the record at byte %d", len(rec)+2)},
		{"missing comma", strings.Replace(rec, `,"uuid"`, ` "uuid"`, 1),
			fmt.Sprintf(`invalid JSON at byte %d: invalid character '"' after object key:value pair`, strings.Index(rec, `,"uuid"`)+2)},
		{"trailing comma", strings.Replace(rec, `"s1"}`, `"s1",}`, 1),
			fmt.Sprintf("invalid JSON at byte %d: invalid character '}' looking for beginning of object key string", len(rec)+1)},
		{"bad literal", strings.Replace(rec, "false", "flase", 1),
			fmt.Sprintf("invalid JSON at byte %d: invalid character 'l' in literal false (expecting 'a')", strings.Index(rec, "false")+2)},
		// the record's own object is the first level
		{"hostile nesting", deep,
			fmt.Sprintf("invalid JSON: nested deeper than %d levels at byte %d", jsontext.MaxDepth, len(`{"type":"user","x":`)+jsontext.MaxDepth)},
	} {
		in := claudeLine("u1", "first") + "\n" + c.line + "\n" + claudeLine("u3", "third") + "\n"
		evs, res := parsetest.ReadString(t, in, parse.Options{})
		if parsetest.EventTexts(evs) != "first,third" {
			t.Errorf("%s: events %q", c.name, parsetest.EventTexts(evs))
		}
		if got, want := parsetest.DiagLines(res), "2 malformed record: "+c.want+"; skipped"; got != want {
			t.Errorf("%s: diagnostics\n%s\nwant %s", c.name, got, want)
		}
	}

	// The reasons are worked out as the lines are applied, in file order,
	// from lines that are views of read chunks: the first twenty of a file
	// get theirs, on the workers' path too, from chunks not yet reused
	// (a reused one reads as zeros here), and every line is counted.
	defer parse.ReadInSmallPieces(4 << 10)()
	lines := []string{claudeLine("u0", "first")}
	for i := range 25 {
		r := claudeLine(fmt.Sprintf("u%d", i+1), strings.Repeat("padding ", 60))
		lines = append(lines, r+r)
	}
	in := strings.Join(lines, "\n") + "\n"
	for _, workers := range []int{1, 2} {
		_, res := parsetest.ReadString(t, in, parse.Options{Workers: workers})
		var want []string
		for i := range parse.MaxSameDiagnostic {
			want = append(want, fmt.Sprintf("%d malformed record: two records on one line: the second begins at byte %d; skipped", i+2, len(lines[i+1])/2+1))
		}
		want = append(want, `0 5 more like "malformed record" not shown`)
		if got := parsetest.DiagLines(res); got != strings.Join(want, "\n") || res.Skipped != 25 {
			t.Errorf("workers %d: %d skipped, diagnostics\n%s\nwant\n%s", workers, res.Skipped, got, strings.Join(want, "\n"))
		}
	}
}

// TestUTF8FromTheValidator: a record whose strings are all UTF-8 gives
// texts that are, with no repair and no warning, escapes that decode to a
// lone surrogate included; a record with a byte that is not UTF-8 is
// repaired and warned of, whether the validator decoded its runes or
// passed over a long run of them.
func TestUTF8FromTheValidator(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
		warned           bool
	}{
		{"runes", `café — ✓ 済`, "café — ✓ 済", false},
		{"escapes", `caf\u00e9 \ud83d\ude00 lone \ud800 end`, "café 😀 lone \uFFFD end", false},
		{"both", `→ \ud800\u2192`, "→ \uFFFD→", false},
		{"cut rune", "caf\xc3 au lait", "caf\uFFFD au lait", true},
		{"bad byte, then runes", "\xff then ✓", "\uFFFD then ✓", true},
		// runes close together are passed over by the validator, and the
		// text is checked once read; runes far apart are decoded there
		{"many runes", strings.Repeat("済", 200), strings.Repeat("済", 200), false},
		{"many runes, then a cut one", strings.Repeat("済", 200) + "\xe6\xb8", strings.Repeat("済", 200) + "\uFFFD", true},
		{"runes far apart, then a cut one", strings.Repeat("  12→x\\n", 100) + "\xe2\x86", strings.Repeat("  12→x\n", 100) + "\uFFFD", true},
	} {
		in := claudeLine("u1", c.text) + "\n"
		var got []string
		res, err := parse.ReadFile(parse.File{Path: "-", Agent: parse.MainAgent}, parse.Options{Stdin: strings.NewReader(in)}, 0, func(ev *parse.Event) error {
			got = append(got, ev.Text)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: texts %q, want %q", c.name, got, c.want)
		}
		if warned := len(res.Diagnostics) == 1 && strings.Contains(res.Diagnostics[0].Message, "invalid UTF-8"); warned != c.warned || len(res.Diagnostics) > 1 {
			t.Errorf("%s: diagnostics %v, want a warning of invalid UTF-8: %v", c.name, res.Diagnostics, c.warned)
		}
	}
}

// TestLongNonRecordLines: a line longer than the read buffer that cannot
// be a record — binary bytes, a tail of zeros, a pasted log — is reported
// as a full read would report it, the lines after it keep their numbers
// and offsets, on one goroutine and on the workers' path, and it is not
// held in memory whole.
func TestLongNonRecordLines(t *testing.T) {
	defer func(n int64, c int) { *parse.ParallelMin, linereader.ChunkBytes = n, c }(*parse.ParallelMin, linereader.ChunkBytes)
	*parse.ParallelMin = 0
	big := func(head string, fill byte, nulAt int) string {
		b := bytes.Repeat([]byte{fill}, 3<<20)
		copy(b, head)
		if nulAt >= 0 {
			b[nulAt] = 0
		}
		return string(b)
	}
	l1, l2, l3 := claudeLine("u1", "one"), claudeLine("u2", "two"), claudeLine("u3", "three")
	lines := []string{
		l1,
		big("\x7fELF\x02\x01", 'x', 3<<20-5), // a zero byte near its end
		l2,
		big("   PASTED build log: ", 'y', -1),
		"",
		l3,
		big("", 0, -1), // zeros a crash left, with no line end
	}
	in := strings.Join(lines, "\n")
	want := []string{
		"2 malformed record: NUL bytes in the line; skipped",
		`4 malformed record: not a JSON object (starts with "PASTED build"); skipped`,
		"7 malformed record: NUL bytes in the line; skipped",
	}
	for _, chunk := range []int{1 << 20, 64 << 10} {
		linereader.ChunkBytes = chunk
		for _, workers := range []int{1, 2} {
			evs, res := parsetest.ReadString(t, in, parse.Options{Workers: workers})
			for i, want := range []struct {
				line int
				rec  string
			}{{1, l1}, {3, l2}, {6, l3}} {
				if i >= len(evs) || evs[i].Line != want.line || in[evs[i].Offset:evs[i].Offset+int64(len(want.rec))] != want.rec {
					t.Fatalf("chunk %d, workers %d: events %+v", chunk, workers, evs)
				}
			}
			if got := parsetest.DiagLines(res); got != strings.Join(want, "\n") || res.Skipped != 3 {
				t.Errorf("chunk %d, workers %d: %d skipped, diagnostics\n%s\nwant\n%s", chunk, workers, res.Skipped, got, strings.Join(want, "\n"))
			}
		}
	}

	linereader.ChunkBytes = 1 << 20
	checkReadPast(t, "zeros", string(make([]byte, 64<<20)), "2 malformed record: NUL bytes in the line; skipped")
}

// TestOverLongRecords: a record's line longer than maxRecordLine is
// reported and read past, not held, whichever way it is read; one under it
// is read whole.
func TestOverLongRecords(t *testing.T) {
	defer func(n int64, c, m int) { *parse.ParallelMin, linereader.ChunkBytes, linereader.MaxRecordLine = n, c, m }(*parse.ParallelMin, linereader.ChunkBytes, linereader.MaxRecordLine)
	*parse.ParallelMin, linereader.MaxRecordLine = 0, 1<<20
	over := claudeLine("u2", strings.Repeat("x", 3<<20))
	under := claudeLine("u3", strings.Repeat("y", 900<<10))
	in := strings.Join([]string{claudeLine("u1", "one"), over, under, claudeLine("u4", "four")}, "\n") + "\n"
	const over1MiB = "malformed record: a line over 1 MiB, longer than any agent writes, read past rather than held; skipped"
	want := "2 " + over1MiB
	for _, chunk := range []int{1 << 20, 64 << 10, 8 << 20} {
		linereader.ChunkBytes = chunk
		for _, workers := range []int{1, 2} {
			evs, res := parsetest.ReadString(t, in, parse.Options{Workers: workers})
			if parsetest.EventTexts(evs) != "one,"+strings.Repeat("y", 900<<10)+",four" {
				t.Errorf("chunk %d, workers %d: %d events", chunk, workers, len(evs))
			}
			if got := parsetest.DiagLines(res); got != want || res.Skipped != 1 {
				t.Errorf("chunk %d, workers %d: %d skipped, diagnostics\n%s", chunk, workers, res.Skipped, got)
			}
		}
	}

	// 64 MB of one record's line, of white space and then a record, or of
	// white space alone (a blank line), read through costs the read buffers
	linereader.ChunkBytes = 1 << 20
	spaces := strings.Repeat(" \t", 32<<20)
	checkReadPast(t, "a record", claudeLine("u2", strings.Repeat("z", 64<<20)), "2 "+over1MiB)
	checkReadPast(t, "white space, then a record", spaces+claudeLine("u2", "two"), "2 "+over1MiB)
	checkReadPast(t, "white space alone", spaces)
}
