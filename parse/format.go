package parse

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Format names a transcript format.
type Format string

const (
	FormatClaudeCode Format = "claude-code"
	FormatCodex      Format = "codex"
	FormatCanonical  Format = "canonical"
	FormatChat       Format = "chat"
)

// FormatInfo describes a supported format for `compaudit formats`.
type FormatInfo struct {
	Name      Format `json:"name"`
	Title     string `json:"title"`
	Location  string `json:"location"`
	Detection string `json:"detection"`
	Boundary  string `json:"boundary"`
}

// Formats lists the supported formats in detection order.
func Formats() []FormatInfo {
	return []FormatInfo{
		{FormatClaudeCode, "Claude Code session JSONL",
			"~/.claude/projects/<encoded-cwd>/<session>.jsonl, subagents in <session>/subagents/agent-*.jsonl",
			`records with "type" user, assistant, system, attachment, progress, file-history-snapshot, queue-operation, custom-title or summary and a "uuid", "sessionId" or "message" field`,
			`system record subtype compact_boundary followed by the user record with isCompactSummary; system subtype microcompact_boundary`},
		{FormatCodex, "Codex CLI rollout JSONL",
			"~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl",
			`lines {timestamp, type, payload} with "type" session_meta, response_item, event_msg, turn_context or compacted`,
			`"compacted" line: payload.message holds the summary; a replacement_history ending in an encrypted compaction item is opaque`},
		{FormatCanonical, "compaudit canonical JSONL",
			"any path; see docs/canonical-format.md",
			`lines with "type" message, tool_call, tool_result, compaction or state`,
			`{"type":"compaction","summary":...}; a null or absent summary is opaque`},
		{FormatChat, "OpenAI chat-message JSONL",
			"any path",
			`lines with a "role" and no "type"`,
			"none: plain chat logs record no compaction"},
	}
}

// ParseFormat accepts a format name as given to --input-format.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "", "auto":
		return "", nil
	case string(FormatClaudeCode), "claude", "claudecode":
		return FormatClaudeCode, nil
	case string(FormatCodex):
		return FormatCodex, nil
	case string(FormatCanonical):
		return FormatCanonical, nil
	case string(FormatChat), "openai":
		return FormatChat, nil
	}
	names := make([]string, 0, 4)
	for _, f := range Formats() {
		names = append(names, string(f.Name))
	}
	return "", fmt.Errorf("unknown input format %q (want auto, %s)", s, strings.Join(names, ", "))
}

var (
	claudeTypes = []string{"user", "assistant", "system", "summary", "progress",
		"file-history-snapshot", "queue-operation", "attachment", "custom-title"}
	codexTypes     = []string{"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
	canonicalTypes = []string{"message", "tool_call", "tool_result", "compaction", "state"}
)

// classify says which format one record belongs to, or "" when it does not
// decide. Canonical types are checked before Claude Code's because both use
// a "type" field, and a canonical record never carries Claude's uuid fields.
func classify(rec gjson.Result) Format {
	typ := rec.Get("type")
	if typ.Type == gjson.String {
		t := typ.Str
		if slices.Contains(codexTypes, t) && rec.Get("payload").Exists() {
			return FormatCodex
		}
		if slices.Contains(canonicalTypes, t) && !rec.Get("uuid").Exists() && !rec.Get("sessionId").Exists() {
			return FormatCanonical
		}
		if slices.Contains(claudeTypes, t) && (rec.Get("uuid").Exists() || rec.Get("sessionId").Exists() ||
			rec.Get("message").Exists() || rec.Get("snapshot").Exists() || rec.Get("leafUuid").Exists()) {
			return FormatClaudeCode
		}
		return ""
	}
	if !typ.Exists() && rec.Get("role").Type == gjson.String {
		return FormatChat
	}
	return ""
}
