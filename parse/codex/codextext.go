package codex

import (
	"strings"

	"github.com/compaudit/compaudit/parse"
)

// codexSummaryPrefix is the fixed text Codex puts before a local compaction
// summary; it is the harness's, not the summarizer's.
const codexSummaryPrefix = "Another language model started to solve this problem and produced a summary of its thinking process."

func stripCodexPrefix(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, codexSummaryPrefix) {
		return s
	}
	const marker = "use the information in this summary to assist with your own analysis:"
	if i := strings.Index(s, marker); i >= 0 {
		return strings.TrimSpace(s[i+len(marker):])
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[i+1:])
	}
	return ""
}

// codexOrigin classifies a Codex message by its fixed envelopes.
func codexOrigin(role parse.Role, text string) (parse.Origin, string) {
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "# AGENTS.md instructions"):
		if body, ok := parse.TagBody(t, "INSTRUCTIONS"); ok {
			return parse.OriginRules, strings.TrimSpace(body)
		}
		return parse.OriginRules, t
	case strings.HasPrefix(t, "<user_instructions>"):
		body, _ := parse.TagBody(t, "user_instructions")
		return parse.OriginRules, strings.TrimSpace(body)
	case strings.HasPrefix(t, "<environment_context>"), strings.HasPrefix(t, "<permissions instructions>"),
		strings.HasPrefix(t, "<collaboration_mode>"), strings.HasPrefix(t, "<turn_aborted>"),
		strings.HasPrefix(t, "<user_shell_command>"), strings.HasPrefix(t, "<app-context>"),
		strings.HasPrefix(t, "<skill>"):
		return parse.OriginHarness, t
	}
	if role == parse.RoleDeveloper {
		// Developer messages other than the harness's envelopes are the
		// operator's instructions, re-sent with every request.
		return parse.OriginRules, t
	}
	return parse.OriginAuthored, t
}
