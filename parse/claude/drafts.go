package claude

import (
	"encoding/json"
	"strings"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/tidwall/gjson"
)

func (r *claudeRecord) userDrafts(j jsontext.Text, content string, isMeta bool) {
	if text, ok := jsontext.RawString(content); ok {
		r.userText(text, isMeta)
		return
	}
	j.Elements(content, func(raw string) bool {
		b := readBlock(j, raw)
		switch b.typ {
		case "text":
			r.userText(b.text, isMeta)
		case "tool_result":
			r.toolResult(claudeContentText(b.content), b.toolUseID, b.isError)
		}
		return true
	})
}

// userText drafts the parts of a user record's text: the user's own words,
// the rules and notices in reminders, and slash-command envelopes.
func (r *claudeRecord) userText(text string, isMeta bool) {
	if strings.HasPrefix(strings.TrimSpace(text), "<local-command-caveat>") {
		return // the harness's note about the records that follow
	}
	rest, reminders := splitReminders(text)
	origin := parse.OriginAuthored
	if isMeta {
		origin = parse.OriginHarness // skill bodies and other injected context
	}
	if _, ok := parse.TagBody(rest, "command-name"); ok {
		// A slash command: its arguments are the user's words; the command
		// name is the harness's.
		args, _ := parse.TagBody(rest, "command-args")
		rest = strings.TrimSpace(args)
	} else if isHarnessEnvelope(rest) {
		origin = parse.OriginHarness
	} else if out, ok := parse.TagBody(rest, "local-command-stdout"); ok {
		rest, origin = out, parse.OriginHarness
	} else if out, ok := parse.TagBody(rest, "bash-stdout"); ok {
		errOut, _ := parse.TagBody(rest, "bash-stderr")
		rest, origin = strings.TrimSpace(out+"\n"+errOut), parse.OriginHarness
	} else if in, ok := parse.TagBody(rest, "bash-input"); ok {
		rest = "!" + in
	}
	for _, seg := range reminders {
		r.drafts = append(r.drafts, draft{ev: parse.Event{Kind: parse.KindMessage, Role: parse.RoleSystem, Origin: seg.origin, Text: seg.text}, side: parse.SideUser, remember: true})
	}
	if strings.TrimSpace(rest) == "" {
		return
	}
	r.drafts = append(r.drafts, draft{ev: parse.Event{Kind: parse.KindMessage, Role: parse.RoleUser, Origin: origin, Text: rest}, side: parse.SideUser, remember: true})
}

// queuedPrompt reads what the user typed while the agent was busy. Claude
// Code does not write it as a user record: the model reads it in the middle
// of the turn, from an attachment,
//
//	{"type":"attachment","attachment":{"type":"queued_command","prompt":"also add tests","commandMode":"prompt","origin":{"kind":"human"}},...}
//
// whose prompt is a string, or text and image blocks. It returns the
// prompt's raw JSON, and whether a person typed it: a task's notification
// (commandMode task-notification) or another session's message (origin
// peer) is the harness's. Any other attachment gives "".
func queuedPrompt(attachment string) (prompt string, human bool) {
	if attachment == "" || jsontext.JsonString(jsontext.Member(attachment, "type")) != "queued_command" {
		return "", false
	}
	mode := jsontext.JsonString(jsontext.Member(attachment, "commandMode"))
	kind := jsontext.JsonString(jsontext.Member(jsontext.Member(attachment, "origin"), "kind"))
	return jsontext.Member(attachment, "prompt"), (mode == "" || mode == "prompt") && (kind == "" || kind == "human")
}

// attachedContext reads the attachments that put context before the model
// mid-session. A nested CLAUDE.md, loaded when the agent first works in
// its folder, binds as the rule files of the first prompt's reminder do,
// and the model reads it so ("Contents of …/CLAUDE.md: …"); path-scoped
// rules (.claude/rules/*.md) come the same way:
//
//	{"type":"nested_memory","path":"/repo/infra/CLAUDE.md","content":{"path":"/repo/infra/CLAUDE.md","type":"Project","content":"Never run terraform apply from a laptop."}}
//
// But it is not sent again with every request, as the files of the working
// folder and those above it are (OriginRules): it is a message of the
// conversation, which a compaction summarizes. One of those files written
// this way stays a standing rule. A hook's additional context
// ({"type":"hook_additional_context","content":["…"]}) is the harness's:
// its words bind nothing, but what they name has been seen. Other
// attachments give "".
func attachedContext(attachment, cwd string) (string, parse.Origin) {
	switch jsontext.JsonString(jsontext.Member(attachment, "type")) {
	case "nested_memory":
		content := jsontext.Member(attachment, "content")
		text, ok := jsontext.RawString(content)
		if !ok {
			text = jsontext.JsonString(jsontext.Member(content, "content"))
		}
		file := jsontext.JsonString(jsontext.Member(content, "path"))
		if file == "" {
			file = jsontext.JsonString(jsontext.Member(attachment, "path"))
		}
		if loadedAtStart(file, cwd) {
			return text, parse.OriginRules
		}
		return text, parse.OriginAuthored
	case "hook_additional_context":
		var parts []string
		jsontext.Each(jsontext.Member(attachment, "content"), func(v string) bool {
			if t, ok := jsontext.RawString(v); ok && strings.TrimSpace(t) != "" {
				parts = append(parts, t)
			}
			return true
		})
		return strings.Join(parts, "\n"), parse.OriginHarness
	}
	return "", parse.OriginAuthored
}

// loadedAtStart reports whether a memory file lies in the working folder
// or one above it, whose files Claude Code reads at start and sends with
// every request. Paths compare with either separator, as a session
// recorded on Windows writes them.
func loadedAtStart(file, cwd string) bool {
	if file == "" || cwd == "" {
		return false
	}
	slash := func(p string) string { return strings.TrimSuffix(strings.ReplaceAll(p, `\`, "/"), "/") }
	dir, cwd := slash(file), slash(cwd)
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[:i]
	} else {
		return false
	}
	return dir == cwd || strings.HasPrefix(cwd, dir+"/") || dir == ""
}

// isHarnessEnvelope recognizes notices Claude Code writes as user records:
// background task notifications and their fields.
func isHarnessEnvelope(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<task-notification>", "<task-id>", "<output-file>", "<local-command-stderr>", "<user-prompt-submit-hook>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func (r *claudeRecord) toolResult(text, toolID string, isError bool) {
	rest, reminders := splitReminders(text)
	r.drafts = append(r.drafts, draft{ev: parse.Event{Kind: parse.KindToolResult, Role: parse.RoleTool, Text: rest, ToolID: toolID, IsError: isError},
		side: parse.SideTool, remember: true})
	for _, seg := range reminders {
		r.drafts = append(r.drafts, draft{ev: parse.Event{Kind: parse.KindMessage, Role: parse.RoleSystem, Origin: seg.origin, Text: seg.text}, sameTurn: true})
	}
}

func (r *claudeRecord) assistantDrafts(j jsontext.Text, message string, apiError bool, ids *lastCopy) {
	// Only the id and the content are read, and the message's usage comes
	// after them, an object of objects to walk a byte at a time: the walk
	// stops at the content once the id is known. The first of a repeated
	// member counts, as with member.
	var content, id string
	j.Members(message, func(k, v string) bool {
		switch {
		case k == "id" && id == "":
			id = v
		case k == "content" && content == "":
			content = v
		}
		return id == "" || content == ""
	})
	r.msgID = ids.keep(jsontext.JsonString(id))
	if r.msgID == "" {
		r.msgID = r.uuid
	}
	role, origin := parse.RoleAssistant, parse.OriginAuthored
	if apiError {
		role, origin = parse.RoleSystem, parse.OriginHarness
	}
	if text, ok := jsontext.RawString(content); ok {
		r.assistantText(text, role, origin)
		return
	}
	j.Elements(content, func(raw string) bool {
		b := readBlock(j, raw)
		switch b.typ {
		case "text":
			r.assistantText(b.text, role, origin)
		case "thinking":
			var text string
			if !r.noReasoning {
				text = jsontext.JsonString(b.thinking)
			}
			r.drafts = append(r.drafts, draft{ev: parse.Event{Kind: parse.KindReasoning, Role: parse.RoleAssistant, Text: text}, side: parse.SideAssistant})
		case "tool_use", "server_tool_use":
			ev := parse.Event{Kind: parse.KindToolCall, Role: parse.RoleAssistant, ToolName: b.name, ToolID: b.id}
			if b.input != "" {
				ev.Args = json.RawMessage(b.input)
			}
			r.drafts = append(r.drafts, draft{ev: ev, side: parse.SideAssistant, remember: true})
		}
		return true
	})
}

// block is a content block of a message: text, thinking, tool_use or
// tool_result. Ids and names are kept apart from the record's line.
// thinking is raw JSON, decoded only where it is read.
type block struct {
	typ, text, thinking string
	name, id, input     string // tool_use
	content, toolUseID  string // tool_result; content is raw JSON
	isError             bool
}

func readBlock(j jsontext.Text, raw string) block {
	var b block
	j.Members(raw, func(k, v string) bool {
		switch k {
		case "type":
			b.typ = jsontext.JsonString(v)
		case "text":
			b.text = jsontext.JsonString(v)
		case "thinking":
			b.thinking = v
		case "name":
			b.name = jsontext.JsonString(v)
		case "id":
			b.id = jsontext.JsonString(v)
		case "input":
			b.input = v
		case "content":
			b.content = v
		case "tool_use_id":
			b.toolUseID = jsontext.JsonString(v)
		case "is_error":
			b.isError = jsontext.JsonBool(v)
		}
		return true
	})
	detach(&b.name, &b.id, &b.toolUseID)
	return b
}

func (r *claudeRecord) assistantText(text string, role parse.Role, origin parse.Origin) {
	if strings.TrimSpace(text) == "" {
		// Claude Code writes a "\n\n" text block before thinking; it still
		// opens the turn.
		r.drafts = append(r.drafts, draft{side: parse.SideAssistant, turnOnly: true})
		return
	}
	r.drafts = append(r.drafts, draft{ev: parse.Event{Kind: parse.KindMessage, Role: role, Origin: origin, Text: text}, side: parse.SideAssistant, remember: true})
}

// claudeText flattens message or tool_result content: a string, or blocks
// of which the text ones count.
func claudeText(content gjson.Result) string { return claudeContentText(content.Raw) }

// claudeContentText is claudeText on raw JSON.
func claudeContentText(raw string) string {
	if text, ok := jsontext.RawString(raw); ok {
		return text
	}
	var parts []string
	jsontext.Elements(raw, func(b string) bool {
		if text, ok := jsontext.RawString(b); ok {
			parts = append(parts, text)
			return true
		}
		if t, ok := jsontext.RawString(jsontext.Member(b, "text")); ok {
			parts = append(parts, t)
		}
		return true
	})
	return strings.Join(parts, "\n")
}
