package parse_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/claude"
)

// TestRegistry: the formats parse/formats registers are listed in order,
// each name and alias --input-format takes finds its format, an unknown
// one is refused with the list, and a name taken twice is refused.
func TestRegistry(t *testing.T) {
	var names []string
	for _, f := range parse.Formats() {
		names = append(names, string(f.Name))
	}
	if got := strings.Join(names, ","); got != "claude-code,codex,canonical,chat" {
		t.Errorf("formats listed as %s", got)
	}
	for name, want := range map[string]parse.Format{
		"": "", "auto": "", "claude-code": parse.FormatClaudeCode, "claude": parse.FormatClaudeCode,
		"claudecode": parse.FormatClaudeCode, "codex": parse.FormatCodex, "canonical": parse.FormatCanonical,
		"chat": parse.FormatChat, "openai": parse.FormatChat,
	} {
		if got, err := parse.ParseFormat(name); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	_, err := parse.ParseFormat("gemini")
	if err == nil || !strings.Contains(err.Error(), "want auto, claude-code, codex, canonical, chat") {
		t.Errorf("unknown format: %v", err)
	}
	_, err = parse.ReadFile(parse.File{Path: "-"}, parse.Options{Format: "gemini", Stdin: strings.NewReader("{}\n")}, 0, func(*parse.Event) error { return nil })
	var ie *parse.InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, `unknown input format "gemini"`) {
		t.Errorf("reading an unregistered format: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a format registered twice was taken")
		}
		if n := len(parse.Formats()); n != 4 {
			t.Errorf("%d formats after the refused registration", n)
		}
	}()
	again := claude.Reader
	again.Info.Name = "claude-too" // its aliases are taken
	parse.Register(again)
}
