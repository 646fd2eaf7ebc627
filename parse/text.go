package parse

import (
	"strings"
)

// segment is a run of text inside one record with its own origin.
type segment struct {
	text   string
	origin Origin
}

const (
	reminderOpen  = "<system-reminder>"
	reminderClose = "</system-reminder>"
)

// splitReminders separates <system-reminder> blocks from the text around
// them. Claude Code appends reminders to user records and tool results; they
// carry either standing rules (CLAUDE.md) or harness notices.
func splitReminders(text string) (rest string, reminders []segment) {
	if !strings.Contains(text, reminderOpen) {
		return text, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(text, reminderOpen)
		if i < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(text[:i])
		body := text[i+len(reminderOpen):]
		j := strings.Index(body, reminderClose)
		if j < 0 {
			j = len(body)
			text = ""
		} else {
			text = body[j+len(reminderClose):]
		}
		if seg, ok := classifyReminder(body[:j]); ok {
			reminders = append(reminders, seg)
		}
	}
	return strings.TrimSpace(b.String()), reminders
}

// classifyReminder keeps only what a rule file said: the harness's own
// preamble ("These instructions OVERRIDE any default behavior…") and its
// fixed instruction reminders would otherwise read as the user's rules.
func classifyReminder(body string) (segment, bool) {
	body = strings.TrimSpace(body)
	if body == "" {
		return segment{}, false
	}
	if i := strings.Index(body, "# important-instruction-reminders"); i >= 0 {
		body = strings.TrimSpace(body[:i])
	}
	if strings.Contains(body, "# claudeMd") || strings.Contains(body, "CLAUDE.md (") {
		var rules []string
		for _, part := range strings.Split(body, "\nContents of ")[1:] {
			// "…/CLAUDE.md (project instructions, checked into the codebase):\n\n<rules>"
			if k := strings.Index(part, ":\n"); k >= 0 {
				part = part[k+2:]
			}
			rules = append(rules, strings.TrimSpace(part))
		}
		if len(rules) == 0 {
			return segment{text: body, origin: OriginHarness}, true
		}
		return segment{text: strings.Join(rules, "\n\n"), origin: OriginRules}, true
	}
	return segment{text: body, origin: OriginHarness}, true
}

// tagBody returns the text between <tag> and </tag>, and whether it was there.
func tagBody(text, tag string) (string, bool) {
	open, close := "<"+tag+">", "</"+tag+">"
	i := strings.Index(text, open)
	if i < 0 {
		return "", false
	}
	body := text[i+len(open):]
	if j := strings.Index(body, close); j >= 0 {
		body = body[:j]
	}
	return body, true
}

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
func codexOrigin(role Role, text string) (Origin, string) {
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "# AGENTS.md instructions"):
		if body, ok := tagBody(t, "INSTRUCTIONS"); ok {
			return OriginRules, strings.TrimSpace(body)
		}
		return OriginRules, t
	case strings.HasPrefix(t, "<user_instructions>"):
		body, _ := tagBody(t, "user_instructions")
		return OriginRules, strings.TrimSpace(body)
	case strings.HasPrefix(t, "<environment_context>"), strings.HasPrefix(t, "<permissions instructions>"),
		strings.HasPrefix(t, "<collaboration_mode>"), strings.HasPrefix(t, "<turn_aborted>"),
		strings.HasPrefix(t, "<user_shell_command>"), strings.HasPrefix(t, "<app-context>"),
		strings.HasPrefix(t, "<skill>"):
		return OriginHarness, t
	}
	if role == RoleDeveloper {
		// Developer messages other than the harness's envelopes are the
		// operator's instructions, re-sent with every request.
		return OriginRules, t
	}
	return OriginAuthored, t
}
