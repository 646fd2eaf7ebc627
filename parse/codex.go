package parse

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// codexDecoder reads Codex CLI rollout records.
type codexDecoder struct {
	s     *sink
	turns turnCounter
	cwd   string
}

func newCodexDecoder(s *sink) *codexDecoder { return &codexDecoder{s: s} }

// prepare has nothing to read ahead: the records are small.
func (d *codexDecoder) prepare(rec record, _ func(*Event)) any { return rec.json() }

func (d *codexDecoder) apply(p any, line int, off int64) { d.decode(p.(gjson.Result), line, off) }

func (d *codexDecoder) decode(rec gjson.Result, line int, off int64) {
	payload := rec.Get("payload")
	base := Event{Line: line, Offset: off, Time: rec.Get("timestamp").Str}
	switch rec.Get("type").Str {
	case "session_meta", "turn_context":
		if cwd := payload.Get("cwd").Str; cwd != "" {
			d.cwd = cwd
		}
	case "response_item":
		base.Cwd = d.cwd
		d.item(payload, base)
	case "compacted":
		base.Cwd = d.cwd
		d.compacted(payload, base)
	}
	// event_msg lines repeat what response_item lines hold, for the UI.
}

func (d *codexDecoder) item(p gjson.Result, base Event) {
	agent := d.s.agent
	switch p.Get("type").Str {
	case "message":
		role, ok := ParseRole(p.Get("role").Str)
		if !ok {
			d.s.diag.add(Warning, base.Line, "message with unknown role %q: skipped", p.Get("role").Str)
			return
		}
		text := codexText(p.Get("content"))
		if strings.TrimSpace(text) == "" {
			return
		}
		ev := base
		ev.Kind, ev.Role = KindMessage, role
		ev.Origin, ev.Text = codexOrigin(role, text)
		if role == RoleAssistant {
			ev.Turn = d.turns.next(agent, sideAssistant, "")
		} else {
			ev.Turn = d.turns.next(agent, sideUser, "")
		}
		d.s.put(&ev)
	case "reasoning":
		var parts []string
		for _, s := range p.Get("summary").Array() {
			parts = append(parts, s.Get("text").Str)
		}
		ev := base
		ev.Kind, ev.Role, ev.Text = KindReasoning, RoleAssistant, strings.Join(parts, "\n")
		ev.Turn = d.turns.next(agent, sideAssistant, "")
		d.s.put(&ev)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		ev := base
		ev.Kind, ev.Role = KindToolCall, RoleAssistant
		ev.ToolName, ev.ToolID = p.Get("name").Str, p.Get("call_id").Str
		switch p.Get("type").Str {
		case "function_call":
			ev.Args = jsonArgs(p.Get("arguments"))
		case "custom_tool_call":
			ev.Args = jsonArgs(p.Get("input"))
			// Codex's custom tools (apply_patch and others) change things
			yes := true
			ev.SideEffect = &yes
		case "local_shell_call":
			ev.ToolName = "local_shell"
			ev.Args = json.RawMessage(p.Get("action").Raw)
		case "web_search_call":
			ev.ToolName = "web_search"
			if a := p.Get("action"); a.Exists() {
				ev.Args = json.RawMessage(a.Raw)
			}
		}
		ev.Turn = d.turns.next(agent, sideAssistant, "")
		d.s.put(&ev)
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		ev := base
		ev.Kind, ev.Role = KindToolResult, RoleTool
		ev.ToolID = p.Get("call_id").Str
		ev.Text, ev.IsError = codexOutput(p.Get("output"))
		ev.Turn = d.turns.next(agent, sideTool, "")
		d.s.put(&ev)
	}
}

// compacted turns a "compacted" line into a boundary. Local compaction puts
// the summary in message; remote compaction leaves message empty and ends
// replacement_history with an encrypted compaction item.
func (d *codexDecoder) compacted(p gjson.Result, base Event) {
	agent := d.s.agent
	b := &Boundary{Kind: BoundaryCompact, ReplacesThrough: d.turns.current(agent)}
	summary := stripCodexPrefix(p.Get("message").Str)
	encrypted := false
	for _, it := range p.Get("replacement_history").Array() {
		switch it.Get("type").Str {
		case "compaction", "compaction_summary":
			if it.Get("encrypted_content").Exists() {
				encrypted = true
			} else if s := it.Get("summary").Str; s != "" && summary == "" {
				summary = stripCodexPrefix(s)
			}
		case "message":
			role, _ := ParseRole(it.Get("role").Str)
			text := codexText(it.Get("content"))
			if strings.HasPrefix(strings.TrimSpace(text), codexSummaryPrefix) {
				if summary == "" {
					summary = stripCodexPrefix(text)
				}
				continue
			}
			if strings.TrimSpace(text) != "" {
				b.Kept = append(b.Kept, KeptItem{Role: role, Text: text})
			}
		}
	}
	switch {
	case encrypted:
		// The model sees the encrypted summary; any plaintext message is not
		// what it reads, so the boundary is audited by behaviour only.
		b.Unreadable = "remote compaction: the summary is encrypted"
	case strings.TrimSpace(summary) == "":
		b.Unreadable = "the compaction recorded no summary"
	default:
		b.Summary, b.Readable = summary, true
	}
	ev := base
	ev.Kind, ev.Role, ev.Origin, ev.Boundary = KindBoundary, RoleSystem, OriginHarness, b
	ev.Turn = d.turns.boundary(agent)
	d.s.put(&ev)
}

func (d *codexDecoder) finish() {}

// codexText joins the text parts of a message.
func codexText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	var parts []string
	for _, c := range content.Array() {
		if t := c.Get("text"); t.Type == gjson.String {
			parts = append(parts, t.Str)
		}
	}
	return strings.Join(parts, "\n")
}

// jsonArgs keeps arguments as raw JSON: a string holding a JSON object is
// unwrapped, anything else (a patch, a redacted value) stays a JSON string.
func jsonArgs(v gjson.Result) json.RawMessage {
	if !v.Exists() {
		return nil
	}
	if v.Type == gjson.String {
		s := strings.TrimSpace(v.Str)
		if len(s) > 0 && (s[0] == '{' || s[0] == '[') && gjson.Valid(s) {
			return json.RawMessage(s)
		}
		b, _ := json.Marshal(v.Str)
		return b
	}
	return json.RawMessage(v.Raw)
}

var exitCodeRE = regexp.MustCompile(`(?m)^(?:Process exited with code|Exit code:?|exit status) (-?\d+)`)

// codexOutput reads a tool output: a string, a JSON string holding
// {output, metadata:{exit_code}}, or an object with content and success.
func codexOutput(v gjson.Result) (string, bool) {
	if v.IsObject() {
		text := v.Get("content").Str
		if text == "" {
			text = v.Get("output").Str
		}
		return text, v.Get("success").Exists() && !v.Get("success").Bool()
	}
	s := v.Str
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") && gjson.Valid(t) {
		obj := gjson.Parse(t)
		if out := obj.Get("output"); out.Exists() {
			code := obj.Get("metadata.exit_code")
			return out.Str, code.Exists() && code.Int() != 0
		}
	}
	if m := exitCodeRE.FindStringSubmatch(s); m != nil {
		code, _ := strconv.Atoi(m[1])
		return s, code != 0
	}
	return s, false
}
