package parse_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/compaudit/compaudit/parse/parsetest"
	"github.com/tidwall/gjson"
)

// checkValid holds validJSON to encoding/json.Valid, the reference for
// what is JSON, and its UTF-8 answer to utf8.ValidString: outside its
// strings a JSON value is ASCII.
func checkValid(t *testing.T, s string) {
	t.Helper()
	ok, validUTF8 := jsontext.ValidJSON(s)
	if want := json.Valid([]byte(s)); ok != want {
		t.Fatalf("validJSON(%q) = %v, encoding/json says %v", s, ok, want)
	}
	// UTF-8 is only said of what is; and it is said whenever the strings
	// hold too few runes between them to be dense
	runes := 0
	for _, r := range s {
		if r >= utf8.RuneSelf {
			runes++
		}
	}
	if validUTF8 && (!ok || !utf8.ValidString(s)) || ok && utf8.ValidString(s) && runes < jsontext.DenseRunes && !validUTF8 {
		t.Fatalf("validJSON(%q) = %v: UTF-8 = %v", s, ok, validUTF8)
	}
	// strings taken 64 bytes at a time read as the word loop reads them
	words := jsontext.Validator{S: s}
	if wok, wutf8 := words.Run(); wok != ok || wutf8 != validUTF8 {
		t.Fatalf("validJSON(%q) = %v, %v; the word loop says %v, %v", s, ok, validUTF8, wok, wutf8)
	}
	// the index of a record's members is what a walk over them finds
	idx, rok, rutf8 := jsontext.ValidRecord(s, jsontext.RecordIndex{})
	if rok != ok || rutf8 != validUTF8 {
		t.Fatalf("validRecord(%q) = %v, %v; validJSON said %v, %v", s, rok, rutf8, ok, validUTF8)
	}
	if !ok {
		return // the index of an invalid line is never read
	}
	var want, got []string
	jsontext.Members(s, func(k, v string) bool { want = append(want, k+"="+v); return true })
	for _, f := range idx.Fields {
		got = append(got, s[f.K0:f.K1]+"="+s[f.V0:f.V1])
	}
	if !slices.Equal(got, want) {
		t.Fatalf("validRecord(%q) indexed %q, a walk finds %q", s, got, want)
	}
	// every span is a long value's, in the order they start, and a walk
	// that passes over values by them reads what one over the bytes reads
	for k, sp := range idx.Spans {
		if end := jsontext.SkipValue(s, sp.Start); end != sp.End || sp.End-sp.Start < jsontext.MinSpan || k > 0 && sp.Start <= idx.Spans[k-1].Start {
			t.Fatalf("validRecord(%q): span %d is %v, the value there ends at %d", s, k, sp, end)
		}
	}
	if got, want := walkValues(jsontext.TextOf(s, idx.Spans), s), walkValues(jsontext.Text{}, s); !slices.Equal(got, want) {
		t.Fatalf("validRecord(%q): a walk by the spans reads %q, one over the bytes %q", s, got, want)
	}
}

// walkValues is every value the reader finds in raw, nested ones too.
func walkValues(j jsontext.Text, raw string) []string {
	out := []string{raw}
	switch t := strings.TrimSpace(raw); {
	case strings.HasPrefix(t, "{"):
		j.Members(t, func(k, v string) bool { out = append(out, k); out = append(out, walkValues(j, v)...); return true })
	case strings.HasPrefix(t, "["):
		j.Elements(t, func(v string) bool { out = append(out, walkValues(j, v)...); return true })
	}
	return out
}

var validCases = []string{
	``, ` `, `{}`, ` {} `, `[]`, `{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{,}`, `[1,]`, `[,1]`,
	`{"a":[1,2,{"b":null}],"c":true,"d":false}`, `"x"`, `1`, `-`, `-0`, `-01`, `01`, `1.`, `1.5`, `.5`,
	`1e`, `1e+`, `1e+5`, `1E-05`, `0.0e0`, `tru`, `true`, `nul`, `nulll`, `{"a":1}x`, `{"a":1} {}`,
	`"\u00e9"`, `"\u00g9"`, `"\u00e"`, `"\x"`, `"\/"`, `"a\"b"`, `"a\\"`, `"a\\\"`, "\"a\tb\"", "\"a\x00b\"",
	"\"a\x1fbcdefghijklmnop\"", "\"abcdefgh\x7f\"", "\"caf\xc3\xa9 au lait, long enough\"", "\"\xff\xfe bytes\"",
	"\"caf\xc3 cut, then long enough\"", "\"\xe2\x94\x80\xe2\x94\x80 box \xe2\x94\"", "\"\xed\xa0\x80 surrogate\"", "\"\xf4\x90\x80\x80 past U+10FFFF\"",
	"\"a\xc3\"", "\"12345678\xf0\x9f\x98\x80\\n\xf0\x9f\x98\"",
	`{"a":"` + strings.Repeat("済", 64) + `","b":"` + strings.Repeat("済", 64) + `"}`, `"` + strings.Repeat("済", 65) + `"`,
	`"` + strings.Repeat("済", 80) + "\xe6\xb8" + `"`,
	"{\"k\xc3\xa9\":\"v\"}", "\xef\xbb\xbf{}", `{"a":"0123456789abcdef\"0123456789abcdef"}`,
	`{"a":"0123456789abcdef\\`, `{"a":"0123456789abcdef`, `{"a":"0123456789abcde"`, "{\"a\":1}\r\n",
	`[` + strings.Repeat(`"ok",`, 50) + `"end"]`,
	// long enough for 64-byte blocks: a backslash run, a rune and a \u escape across a block's edge
	`{"a":"` + strings.Repeat("x", 57) + `\"` + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 57) + `\\"` + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 58) + `\u00e9` + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 58) + `\u00g9` + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 57) + "\xe2\x86\x92" + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 57) + "\xe2\x86" + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 70) + "\x1f" + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 70) + `\q` + strings.Repeat("y", 70) + `"}`,
	`{"a":"` + strings.Repeat("x", 120) + `\`,
	`{"a":"` + strings.Repeat("x→", 40) + `"}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"line one\nline two \"quoted\" caf\u00e9\n"}]}}`,
}

func TestValidJSON(t *testing.T) {
	for _, c := range validCases {
		checkValid(t, c)
	}
}

// TestValidJSONDepth: nesting is bounded like encoding/json's, so a line of
// brackets is rejected rather than exhausting anything.
func TestValidJSONDepth(t *testing.T) {
	for _, n := range []int{jsontext.MaxDepth, jsontext.MaxDepth + 1} {
		checkValid(t, strings.Repeat("[", n)+strings.Repeat("]", n))
		checkValid(t, strings.Repeat(`{"a":`, n)+"1"+strings.Repeat("}", n))
	}
}

// TestDenseRunesPassedOver pins the validator's choice between decoding a
// string's runes and passing them over, which BenchmarkScanClaudeCJK
// times: runes that come apart (an arrow per line of a listing) are all
// decoded, so the record's texts need no second check; a run of runes one
// after another (CJK, box drawing) is passed over after denseRunes of them
// and left to the check of the texts read. Both answers are valid JSON;
// only the UTF-8 answer says which way the validator went.
func TestDenseRunesPassedOver(t *testing.T) {
	for _, c := range []struct {
		name, body string
		decoded    bool
	}{
		{"runes apart", strings.Repeat(`  12→ some text\n`, 100), true},
		{"a rune per long line", strings.Repeat("caf\u00e9 "+strings.Repeat("x", 40)+`\n`, 50), true},
		// the first rune of a run follows none
		{"a rune and denseRunes-1 after it", strings.Repeat("済", jsontext.DenseRunes) + strings.Repeat(" plain", 20), true},
		{"a rune and denseRunes after it", strings.Repeat("済", jsontext.DenseRunes+1) + strings.Repeat(" plain", 20), false},
		{"runes a few bytes apart count as together", strings.Repeat("済 and ", jsontext.DenseRunes+1), false},
		{"CJK", strings.Repeat("済", 200), false},
		{"box drawing", strings.Repeat("─", 80) + `\n` + strings.Repeat("│ cell ", 20), false},
	} {
		line := `{"type":"user","message":{"content":"` + c.body + `"}}`
		ok, validUTF8 := jsontext.ValidJSON(line)
		if !ok {
			t.Fatalf("%s: a valid line rejected", c.name)
		}
		if validUTF8 != c.decoded {
			t.Errorf("%s: validator says UTF-8 = %v, want %v", c.name, validUTF8, c.decoded)
		}
		checkValid(t, line)
	}
}

// FuzzValidJSON compares the fast validator with encoding/json on any input.
func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add(c)
	}
	f.Fuzz(checkValid)
}

// BenchmarkValidate compares the validator with gjson.Valid, which it
// replaced, on the same lines, and its 64-byte blocks with its word loop
// (the same where blockStrings is false).
func BenchmarkValidate(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "transcripts", "incident-drift-claude.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	benchValidators(b, strings.Split(string(data), "\n"), true)
}

// benchValidators times validJSON and its word loop on lines, side by
// side, and gjson.Valid when asked.
func benchValidators(b *testing.B, lines []string, withGJSON bool) {
	var size int64
	for _, l := range lines {
		size += int64(len(l))
	}
	type named struct {
		name  string
		valid func(string)
	}
	var idx jsontext.RecordIndex // reused, as the reader reuses it
	validators := []named{
		{"validJSON", func(l string) { jsontext.ValidJSON(l) }},
		{"validRecord", func(l string) { idx, _, _ = jsontext.ValidRecord(l, idx) }},
		{"words", func(l string) { v := jsontext.Validator{S: l}; v.Run() }},
	}
	if withGJSON {
		validators = append(validators, named{"gjson.Valid", func(l string) { gjson.Valid(l) }})
	}
	for _, v := range validators {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, l := range lines {
					v.valid(l)
				}
			}
		})
	}
}

// BenchmarkValidateToolOutput times the blocks against the word loop on
// what most of a session's bytes are: tool results, here this package's
// own sources as Claude Code's Read tool returns them (a number, an arrow
// and the line), in the record shape of the corpus.
func BenchmarkValidateToolOutput(b *testing.B) {
	benchValidators(b, parsetest.ReadOutputRecords(b), false)
}

// BenchmarkUnescapeToolOutput times the blocks against the word loop, side
// by side, on the bodies of Read outputs as a record holds them: each
// line's \n and tab, and its quotes, escaped.
func BenchmarkUnescapeToolOutput(b *testing.B) {
	var bodies []string
	var size int64
	for _, out := range parsetest.ReadOutputs(b) {
		q, err := json.Marshal(out)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, string(q[1:len(q)-1]))
		size += int64(len(q) - 2)
	}
	buf := make([]byte, 0, size)
	for _, u := range []struct {
		name     string
		unescape func([]byte, string) []byte
	}{{"blocks", jsontext.AppendUnescaped}, {"words", jsontext.UnescapeWords}} {
		b.Run(u.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				buf = buf[:0]
				for _, body := range bodies {
					buf = u.unescape(buf, body)
				}
			}
		})
	}
}

// FuzzRuneAt holds runeAt to utf8.DecodeRuneInString at every byte.
func FuzzRuneAt(f *testing.F) {
	for _, s := range []string{"→│✓—é", "\xe0\x9f\x80\xe0\xa0\x80", "\xed\x9f\xbf\xed\xa0\x80", "\xc1\xbf\xc2\x80\xdf\xbf", "\xef\xbf\xbd\xef\xbf", "\xe2\x86", "\xf0\x9f\x98\x80\xf4\x90\x80\x80", "a\x80b\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for k := range len(s) {
			r, size := utf8.DecodeRuneInString(s[k:])
			n, ok := jsontext.RuneAt(s, k)
			if n != size || ok != (r != utf8.RuneError || size > 1) {
				t.Fatalf("runeAt(%q, %d) = %d, %v; DecodeRuneInString reads %U in %d bytes", s, k, n, ok, r, size)
			}
		}
	})
}
