package audit

import (
	"index/suffixarray"
	"maps"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse/parsetest"
	"github.com/tidwall/gjson"
)

// TestScanTokens: identifier-shaped tokens come out whole, prose words and
// short pieces do not, and the parts of a refspec come out too.
func TestScanTokens(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"deploy to s3://acme-stage-07/, then **v2.3.1**.", []string{"s3://acme-stage-07/", "v2.3.1"}},
		{"plain words only, nothing marked", nil},
		{"git push origin HEAD:release-2026-03", []string{"HEAD:release-2026-03", "HEAD", "release-2026-03"}},
		{"(see lib/report.ex; ok)", []string{"lib/report.ex"}},
		// Claude Code's Read output: the line number and the arrow are
		// not part of the line's first token
		// (a number of three digits is a token like any: an id, a port)
		{"     1→defmodule Acme.Report do\n    12→#transcript-panel {\n   130→github.com/acme/x", []string{"Acme.Report", "#transcript-panel", "130", "github.com/acme/x"}},
		{"a→b 10→→x_y", []string{"x_y"}},
		{"caf\u00e9-2 \u2192", []string{"caf\u00e9-2"}},
	} {
		var got []string
		reading.ScanTokens(c.text, func(tok string) { got = append(got, tok) })
		if !slices.Equal(got, c.want) {
			t.Errorf("scanTokens(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// FuzzReadCall holds readCall, which reads a call's members once with the
// reader's walk, to gjson's reading of them: for the command line, a
// lookup per key — the first of command, cmd, script and input that is a
// string, or an array whose last element runs; for the strings, and the
// numbers keyValuesOf reads, a walk of the members of its own.
func FuzzReadCall(f *testing.F) {
	for _, s := range []string{
		`{"command":"go test ./..."}`, `"ls -la"`, `{"cmd":["bash","-lc","make"]}`,
		`{"input":"x","command":5,"script":"s"}`, `{"command":null,"command":"b","cmd":[]}`,
		`{"file_path":"/a","content":"command"}`, `{"comm\u0061nd":"esc"}`, `[{"command":"a"}]`, `7`,
		`"*** Begin Patch\n*** Update File: a.go\n"`, `{"input":"*** Add File: b.go","paths":["x","y",3]}`,
		`["cmd","arg"]`, ` {"retries": 8, "timeout_ms": -2.5e3, "n": [1]} `, `{"content":"a\"b\\","path":"p"}`,
		`{"command":["a",{"b":1}]}`, `{"k\"ey":"v","cmd":"c"}`,
	} {
		f.Add(s)
	}
	byLookup := func(r gjson.Result) string {
		if r.Type == gjson.String {
			return r.Str
		}
		for _, k := range []string{"command", "cmd", "script", "input"} {
			v := r.Get(k)
			if v.Type == gjson.String {
				return v.Str
			}
			if v.IsArray() {
				if parts := v.Array(); len(parts) > 0 {
					return parts[len(parts)-1].Str
				}
			}
		}
		return ""
	}
	byWalk := func(r gjson.Result) []string {
		if r.Type == gjson.String {
			return tag.PatchPaths(r.Str)
		}
		var out []string
		r.ForEach(func(k, v gjson.Result) bool {
			switch {
			case tag.BulkKeys[k.Str]:
			case v.Type == gjson.String && (k.Str == "input" || k.Str == "patch"):
				out = append(out, tag.PatchPaths(v.Str)...)
			case v.Type == gjson.String:
				out = append(out, v.Str)
			case v.IsArray():
				for _, e := range v.Array() {
					if e.Type == gjson.String {
						out = append(out, e.Str)
					}
				}
			}
			return true
		})
		return out
	}
	f.Fuzz(func(t *testing.T, args string) {
		if args == "" || !gjson.Valid(args) {
			return // a record's arguments are valid JSON by the time they are read
		}
		command, texts, numbers := tag.ReadCall([]byte(args))
		r := gjson.Parse(args)
		if want := byLookup(r); command != want {
			t.Fatalf("command of %s = %q, want %q", args, command, want)
		}
		if want := byWalk(r); !slices.Equal(texts, want) {
			t.Fatalf("strings of %s = %q, want %q", args, texts, want)
		}
		// the numbers keyValuesOf reads of structured arguments
		var nums, want []string
		for _, n := range numbers {
			nums = append(nums, n.Key+"="+n.Text)
		}
		r.ForEach(func(k, v gjson.Result) bool {
			if v.Type == gjson.Number {
				want = append(want, k.Str+"="+v.Raw)
			}
			return true
		})
		if !slices.Equal(nums, want) {
			t.Fatalf("numbers of %s = %q, want %q", args, nums, want)
		}
	})
}

// FuzzScanClassed holds scanClassed, which looks for mark bytes first, to
// the byte-by-byte scan it replaced: the same tokens, offsets and classes,
// in the same order.
func FuzzScanClassed(f *testing.F) {
	for _, s := range []string{
		"see s3://acme-prod-7/builds and v1.2.3.", "    12→func main() {\n    13→\treturn 0", "a→b→c-d",
		"origin:main x:y:z http://h:80/p", "**bold-1** *x_y*:", "plain words only here", "\xe2\x86\x92\xe2\x86-1",
		"ab\xe2\x86\x92_c", "#123 @user me@x.io", "\xad\xae\xaf \xa3\xc0\xdf 0x2d", strings.Repeat("a", 600) + "-b c-d",
	} {
		f.Add(s)
	}
	type tok struct {
		tok     string
		at      int
		classes uint8
	}
	f.Fuzz(func(t *testing.T, text string) {
		var got, want []tok
		reading.ScanClassed(text, func(s string, at int, c uint8) { got = append(got, tok{s, at, c}) })
		scanClassedByByte(text, func(s string, at int, c uint8) { want = append(want, tok{s, at, c}) })
		if !slices.Equal(got, want) {
			t.Fatalf("scanClassed(%q)\n got %v\nwant %v", text, got, want)
		}
	})
}

// scanClassedByByte is scanClassed as it was: one table lookup per byte.
func scanClassedByByte(text string, fn func(tok string, at int, classes uint8)) {
	n := len(text)
	i := 0
	for i < n {
		for i < n {
			if c := reading.ByteClass[text[i]]; c&reading.ClassSep != 0 {
				i++
			} else if reading.ArrowAt(text, i, c) {
				i += len(reading.Arrow)
			} else {
				break
			}
		}
		start := i
		var classes uint8
		for i < n {
			c := reading.ByteClass[text[i]]
			if c&reading.ClassSep != 0 || reading.ArrowAt(text, i, c) {
				break
			}
			classes |= c
			i++
		}
		if classes&reading.ClassMark == 0 || i-start < 3 || i-start > 512 {
			continue
		}
		// trailing punctuation and markdown emphasis are not part of it
		end := i
		for end > start && reading.TrailTable[text[end-1]] {
			end--
		}
		for start < end && text[start] == '*' {
			start++
		}
		if end-start < 3 {
			continue
		}
		tok := text[start:end]
		fn(tok, start, classes)
		if classes&reading.ClassColon == 0 {
			continue
		}
		// a refspec or key:value pair also names its parts
		if c := strings.IndexByte(tok, ':'); c > 0 && c < len(tok)-1 && !strings.Contains(tok, "://") && strings.Count(tok, ":") == 1 {
			if c >= 3 {
				fn(tok[:c], start, classes)
			}
			if len(tok)-c-1 >= 3 {
				fn(tok[c+1:], start+c+1, classes)
			}
		}
	}
}

// FuzzMayMention: when the test of the whole text says no sentence could
// mention an object, walking every sentence finds none either.
func FuzzMayMention(f *testing.F) {
	f.Add("Never deploy to prod. The staging bucket is s3://acme-stage-07/; keep it.", "deploy to prod")
	f.Add("Secrets must never be committed.\nUse `main` only.", "commit secrets to the repo")
	f.Add("Builds go to s3://acme-stage-07 now", "touch s3://acme-stage-07/")
	f.Add("The agent deployed build 7 to s3://acme-stag-7/ after review.", "touch prod-7")
	f.Fuzz(func(t *testing.T, text, phrase string) {
		ft := replay.NewFoldedText(text, nil)
		obj := tag.MakeObject(phrase)
		if ft.CouldMention(obj) {
			return
		}
		if _, excerpt, found := replay.ObjectForceIn(ft.Sentences, ft.Terms, obj); found {
			t.Fatalf("%q mentions %q in %q, yet the whole text said it could not", text, phrase, excerpt)
		}
	})
}

// FuzzIndexLowerIn: a literal looked up through a suffix array of a long
// text is found where the search from its start finds it, and every
// occurrence of it alike.
func FuzzIndexLowerIn(f *testing.F) {
	f.Add("deploy to s3://acme-stage-07/ then s3://acme-stage-07-old/ and acme-stage-07", "acme-stage-07")
	f.Add("prod-17 prod-1 prod-170 xprod-1", "prod-1")
	f.Add("a.b a.b.c", "a.b")
	f.Fuzz(func(t *testing.T, text, lit string) {
		lh, ln := lex.FoldLower(text), lex.FoldLower(lit)
		want := lex.IndexLower(lh, ln)
		walked, indexed := &replay.FoldedText{Lower: lh}, &replay.FoldedText{Lower: lh, Sa: suffixarray.New([]byte(lh))}
		for _, ft := range []*replay.FoldedText{walked, indexed} {
			if got := ft.IndexLower(ln); got != want {
				t.Fatalf("indexLower(%q, %q) = %d (with a suffix array: %v), the search from the start %d", lh, ln, got, ft.Sa != nil, want)
			}
			if ln != "" {
				if has := ft.HasText(ln); has != strings.Contains(lh, ln) {
					t.Fatalf("hasText(%q, %q) = %v (with a suffix array: %v)", lh, ln, has, ft.Sa != nil)
				}
			}
		}
		if ln != "" && !slices.Equal(slices.Collect(walked.Occurrences(ln)), slices.Collect(indexed.Occurrences(ln))) {
			t.Fatalf("occurrences of %q in %q differ with a suffix array", ln, lh)
		}
	})
}

// FuzzIsTLD holds isTLD to the lookup it replaced: the label lowered, in
// full Unicode, and looked up when it is at most 9 bytes.
func FuzzIsTLD(f *testing.F) {
	for _, s := range []string{"com", "COM", "Dev", "internal", "localhost", "LOCALHOST", "loc", "cöm", "ＣＯＭ", "\u212aom", "", "io:8080", "svc\xff"} {
		f.Add(s)
	}
	for tld := range tag.Tlds { // each, as isTLD's first test (tldShapes) must pass it
		f.Add(tld)
		f.Add(strings.ToUpper(tld))
		f.Add(tld[:len(tld)-1])
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := reading.IsTLD(s), len(s) <= reading.MaxTLD && tag.Tlds[tag.AsciiLower(s)]; got != want {
			t.Fatalf("isTLD(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestCandidatesCarried: a boundary takes the candidates of each line the
// last boundary read, and gets the list it would have read itself, in the
// same order; what it takes holds none of the last boundary's text.
func TestCandidatesCarried(t *testing.T) {
	lastText := "Deploys go to s3://acme-stage-07/ via deploy-v2.sh.\nRetries for job-7 stay under 3.\n```\nrm -rf build/ && make release-2026.03\n```\nThe checkout-rounding fix is in."
	text := "Summary: the export to s3://acme-ledger-07/ is done.\nRetries for job-7 stay under 3.\nThe checkout-rounding fix is in.\nDeploys go to s3://acme-stage-07/ via deploy-v2.sh.\n\nRetries for job-7 stay under 3."
	last := replay.NewFoldedText(lastText, nil)
	last.Candidates()
	carried, fresh := replay.NewFoldedText(text, last.Readings), replay.NewFoldedText(text, nil)
	got, want := carried.Candidates(), fresh.Candidates()
	if len(got) != len(want) || len(want) < 6 {
		t.Fatalf("carried %d candidates, fresh %d", len(got), len(want))
	}
	lastStart := uintptr(unsafe.Pointer(unsafe.StringData(lastText)))
	for i := range want {
		if got[i].Value != want[i].Value || !maps.Equal(got[i].Parts, want[i].Parts) {
			t.Errorf("candidate %d: carried %q %v, fresh %q %v", i, got[i].Value, got[i].Parts, want[i].Value, want[i].Parts)
		}
		if p := uintptr(unsafe.Pointer(unsafe.StringData(got[i].Value))); p >= lastStart && p < lastStart+uintptr(len(lastText)) {
			t.Errorf("candidate %q is a piece of the last boundary's text", got[i].Value)
		}
	}
	shared := 0
	textStart := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	for line, r := range carried.Readings.Lines {
		if prev, ok := last.Readings.Lines[line]; ok && len(r.Cands) > 0 && prev == r {
			shared++
		}
		if p := uintptr(unsafe.Pointer(unsafe.StringData(line))); len(line) > 0 && p >= textStart && p < textStart+uintptr(len(text)) {
			t.Errorf("line %q is filed under a piece of the boundary's text", line)
		}
	}
	if shared < 2 {
		t.Errorf("%d lines' candidates taken from the last boundary, want the 2 it repeats", shared)
	}
}

// BenchmarkIsTLD times isTLD against isTLD as it was before tldShapes
// (lookUpTLD alone), side by side, on the last labels of the dotted tokens of
// Read output, as toolCandidate asks it of every one.
func BenchmarkIsTLD(b *testing.B) {
	var labels []string
	for _, s := range parsetest.ReadOutputs(b) {
		reading.ScanTokens(s, func(tok string) {
			if dot := strings.LastIndexByte(tok, '.'); dot >= 0 {
				labels = append(labels, tok[dot+1:])
			}
		})
	}
	for _, c := range []struct {
		name string
		is   func(string) bool
	}{
		{"isTLD", reading.IsTLD},
		{"lookup", reading.LookUpTLD},
	} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				for _, l := range labels {
					if c.is(l) {
						n++
					}
				}
			}
			b.ReportMetric(float64(len(labels)), "labels")
		})
	}
}
