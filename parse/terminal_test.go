package parse

import (
	"regexp"
	"testing"
)

func TestPlainText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"no escapes at all", "no escapes at all"},
		{"\x1b[1m\x1b[31mFAIL\x1b[39m\x1b[22m src/a.test.ts", "FAIL src/a.test.ts"},
		{"Tests: \x1b[31m1 failed\x1b[0m, \x1b[32m47 passed\x1b[0m", "Tests: 1 failed, 47 passed"},
		{"key \x1b[32mAKIAIOSFODNN7EXAMPLE\x1b[0m,", "key AKIAIOSFODNN7EXAMPLE,"},
		{"\x1b[?25l\x1b[2K\x1b[1Gdone", "done"},                       // hide the cursor, erase, column 1
		{"\x1b]0;title\x07after", "after"},                            // OSC ended by BEL
		{"\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\", "link"}, // a hyperlink, ended by ST
		{"\x1b(Bplain\x1b=", "plain"},                                 // a character set, a keypad mode
		{"cut \x1b[31", "cut \x1b[31"},                                // a sequence cut short stays
		{"\x1b]0;no end", "\x1b]0;no end"},
		{"lone \x1b", "lone \x1b"},
		{"\x1b\x1b[0m", "\x1b"},
		{"ünï \x1b[1mcödé\x1b[0m", "ünï cödé"},
	} {
		if got := plainText(c.in); got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { plainText("a tool's output without colour, ünïcödé included") }); n != 0 {
		t.Errorf("plainText of text without escapes allocates %v times", n)
	}
}

// terminalSequence is escapeLen's grammar as an expression: CSI, the
// control strings up to BEL or ST, and ESC with intermediates and a final
// byte (without intermediates, not one that opens a CSI or a string).
var terminalSequence = regexp.MustCompile("\x1b(?:\\[[0-?]*[ -/]*[@-~]|[\\]PX^_][^\x07]*?(?:\x07|\x1b\\\\)|[ -/]+[0-~]|[0-OQ-WYZ\\\\`-~])")

func FuzzPlainText(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[1;31mred\x1b[0m", "\x1b]0;t\x07x", "\x1b]8;;u\x1b\\l", "\x1b(B", "\x1b[31", "\x1b\x1b[0m", "\x1b\xc3\xa9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plainText(s), terminalSequence.ReplaceAllString(s, ""); got != want {
			t.Fatalf("plainText(%q) = %q, the expression gives %q", s, got, want)
		}
	})
}
