package claude

import (
	"strings"

	"github.com/compaudit/compaudit/parse"
)

// segment is a run of text inside one record with its own origin.
type segment struct {
	text   string
	origin parse.Origin
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
			return segment{text: body, origin: parse.OriginHarness}, true
		}
		return segment{text: strings.Join(rules, "\n\n"), origin: parse.OriginRules}, true
	}
	return segment{text: body, origin: parse.OriginHarness}, true
}
