package report

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
)

func TestInert(t *testing.T) {
	for _, c := range []struct{ in, want, lines string }{
		{"s3://acme-stage-07/", "s3://acme-stage-07/", ""},
		{"a\tb", "a\tb", ""},
		{"日本語 👨‍👩‍👧 café", "日本語 👨‍👩‍👧 café", ""}, // a zero-width joiner is no control
		{"one\ntwo\r\n", `one\ntwo\r\n`, "one\ntwo\r\n"},
		{"over\rwritten\r", `over\rwritten\r`, `over\rwritten\r`},
		{"\x1b]0;owned\x07title", `\x1b]0;owned\atitle`, ""},
		{"\x1b[8mhidden\x1b[0m", `\x1b[8mhidden\x1b[0m`, ""},
		{"\x00\x08\x0b\x0c\x7f", `\x00\b\v\f\x7f`, ""},
		{"\u009b2J", `\u009b2J`, ""},
		{"admin\u202e \u2066x\u2069\u200f", `admin\u202e \u2066x\u2069\u200f`, ""},
		{"line\u2028sep", `line\u2028sep`, ""},
		{"bad \xff\xfe byte", `bad \xff\xfe byte`, ""},
		{"cut \xe2\x80", `cut \xe2\x80`, ""},
	} {
		if got := Inert(c.in); got != c.want {
			t.Errorf("Inert(%q) = %q, want %q", c.in, got, c.want)
		}
		lines := c.lines
		if lines == "" {
			lines = c.want
		}
		if got := InertLines(c.in); got != lines {
			t.Errorf("InertLines(%q) = %q, want %q", c.in, got, lines)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Inert("nothing to escape in this excerpt, ünïcödé included") }); n != 0 {
		t.Errorf("Inert of plain text allocates %v times", n)
	}
}

// active is what Inert must never let through, told rune by rune from the
// unicode package's tables, not through Inert's byte scan and its fast
// path for ASCII: control characters but tab
// (and line breaks when lines are kept), bidi controls, line and paragraph
// separators, and bytes that are not UTF-8.
func active(s string, lines bool) (rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return r, true
		case r == '\t', lines && (r == '\n' || r == '\r' && strings.HasPrefix(s[i:], "\r\n")):
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028', r == '\u2029':
			return r, true
		}
	}
	return 0, false
}

func FuzzInert(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2K\r", "\u009b", "a\u202eb", "\xff", "日本\n語", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			got := inert(s, lines)
			if r, ok := active(got, lines); ok {
				t.Fatalf("inert(%q, %v) = %q lets %U through", s, lines, got, r)
			}
			if _, ok := active(s, lines); !ok && got != s {
				t.Fatalf("inert(%q, %v) = %q changed text with nothing to escape", s, lines, got)
			}
		}
		// JSON: the same value read back, with nothing active left raw
		enc, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var want, back string
		if err := json.Unmarshal(enc, &want); err != nil {
			t.Fatal(err)
		}
		out := inertJSON(enc)
		if err := json.Unmarshal(out, &back); err != nil || back != want {
			t.Fatalf("inertJSON(%s) = %s reads back as %q (%v), want %q", enc, out, back, err, want)
		}
		if r, ok := active(string(out), false); ok {
			t.Fatalf("inertJSON(%s) = %s lets %U through", enc, out, r)
		}
	})
}

// FuzzRenderInert: whatever a transcript holds, no output of any format
// holds a character that acts on a terminal, bar the renderer's own line
// breaks and tabs. Seeded from the golden inputs, once as they are and
// once with escape sequences in a user's turn.
func FuzzRenderInert(f *testing.F) {
	for _, p := range goldenInputs {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(bytes.ReplaceAll(data, []byte("launch plan:"), []byte(`launch \u001b]0;owned\u0007\u001b[8m\u009b\u202e plan:`)))
	}
	renderers := auditRenderers(AuditView{MinSeverity: audit.SeverityNote}, goldenOptions)
	for name, r := range map[string]func(io.Writer) Stream{
		"baseline":    func(w io.Writer) Stream { return NewBaseline(w, goldenOptions) },
		"ledger":      func(w io.Writer) Stream { return NewLedgerText(w, LedgerView{}, goldenOptions) },
		"ledger json": func(w io.Writer) Stream { return NewLedgerJSON(w, LedgerView{}, goldenOptions) },
		"replay":      func(w io.Writer) Stream { return NewReplayText(w, ReplayView{}, goldenOptions) },
		"replay json": func(w io.Writer) Stream { return NewReplayJSON(w, ReplayView{}, goldenOptions) },
		"agents":      func(w io.Writer) Stream { return NewAgentsText(w, 5, goldenOptions) },
		"agents json": func(w io.Writer) Stream { return NewAgentsJSON(w, 5, goldenOptions) },
	} {
		renderers[name] = r
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := parse.Transcript{Path: "-", Files: []parse.File{{Path: "-"}}}
		res, err := audit.Audit(tr, parse.Options{Stdin: bytes.NewReader(data)}, audit.Options{Rules: rules.All()})
		if err != nil {
			return // unreadable input; the readers' targets cover it
		}
		for name, r := range renderers {
			var b bytes.Buffer
			if err := renderAll(r(&b), []*audit.Result{res}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if c, ok := active(b.String(), true); ok {
				t.Fatalf("%s shows %U:\n%s", name, c, b.String())
			}
		}
	})
}
