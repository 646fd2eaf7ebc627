package parse

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/parse/jsontext"
)

// codexDecoder reads Codex CLI rollout records.
type codexDecoder struct {
	s     *sink
	turns turnCounter
	cwd   string
}

func newCodexDecoder(s *sink) *codexDecoder { return &codexDecoder{s: s} }

// codexRecord is one rollout record read on its own, before the decoder's
// state (the working directory, turns) applies: reading it is the costly
// part and runs on several records at once.
type codexRecord struct {
	cwd         string // what session_meta or turn_context names
	time        string
	drafts      []draft // a boundary's side is unused: it takes no turn
	warning     string  // a record that was read and skipped
	invalidUTF8 bool    // text that was not UTF-8 was replaced
	noReasoning bool    // reasoning is not read (Options.NoReasoningText)
}

// skips event_msg records: they repeat what response_item records hold, for
// the UI.
func (*codexDecoder) skips(typ string) bool { return typ == "event_msg" }

// detaches: prepare copies out every string a record's events keep, so a
// line is read in place.
func (*codexDecoder) detaches() {}

// prepare reads a rollout record. It keeps no state.
func (d *codexDecoder) prepare(rec record, annotate func(*Event)) any {
	r := &codexRecord{time: jsontext.JsonString(rec.get("timestamp")), noReasoning: rec.noReasoning}
	p := readCodexPayload(rec.get("payload"))
	switch jsontext.JsonString(rec.get("type")) {
	case "session_meta", "turn_context":
		r.cwd = jsontext.JsonString(p.cwd)
	case "response_item":
		r.item(p)
	case "compacted":
		r.compacted(p)
	}
	r.detach(rec.raw)
	for i := range r.drafts {
		if settle(&r.drafts[i].ev, rec.utf8, annotate) {
			r.invalidUTF8 = true
		}
	}
	return r
}

// detach copies every string the record keeps that is a piece of its line.
func (r *codexRecord) detach(line string) {
	own := func(s string) string {
		if within(s, line) {
			return strings.Clone(s)
		}
		return s
	}
	r.cwd, r.time, r.warning = own(r.cwd), own(r.time), own(r.warning)
	for i := range r.drafts {
		ev := &r.drafts[i].ev
		ev.Text = own(ev.Text)
		ev.ToolName, ev.ToolID = own(ev.ToolName), own(ev.ToolID)
		if len(ev.Args) > 0 && within(string(ev.Args), line) {
			ev.Args = json.RawMessage(strings.Clone(string(ev.Args)))
		}
		if b := ev.Boundary; b != nil {
			b.Summary = own(b.Summary)
			for j := range b.Kept {
				b.Kept[j].Text = own(b.Kept[j].Text)
			}
		}
	}
}

func (d *codexDecoder) apply(p any, line int, off int64) {
	r, _ := p.(*codexRecord)
	if r == nil {
		return
	}
	if r.cwd != "" {
		d.cwd = r.cwd
	}
	if r.warning != "" {
		d.s.diag.add(Warning, line, "%s", r.warning)
	}
	if r.invalidUTF8 {
		d.s.diag.add(Warning, line, invalidUTF8Msg)
	}
	agent := d.s.agent
	for i := range r.drafts {
		dr := &r.drafts[i]
		ev := &dr.ev // the record is done with once applied, as in claudeDecoder.apply
		ev.Line, ev.Offset, ev.Time, ev.Cwd = line, off, r.time, d.cwd
		if ev.Kind == KindBoundary {
			ev.Boundary.ReplacesThrough = d.turns.current(agent)
			ev.Turn = d.turns.boundary(agent)
		} else {
			ev.Turn = d.turns.next(agent, dr.side, "")
		}
		d.s.put(ev)
	}
}

// codexPayload is the raw JSON of the payload members a record's type
// reads.
type codexPayload struct {
	typ, role, content, summary, name, callID, arguments, input, action,
	output, message, history, cwd string
}

// readCodexPayload reads the members of a payload in one pass.
func readCodexPayload(raw string) codexPayload {
	var p codexPayload
	jsontext.Members(raw, func(k, v string) bool {
		switch k {
		case "type":
			p.typ = v
		case "role":
			p.role = v
		case "content":
			p.content = v
		case "summary":
			p.summary = v
		case "name":
			p.name = v
		case "call_id":
			p.callID = v
		case "arguments":
			p.arguments = v
		case "input":
			p.input = v
		case "action":
			p.action = v
		case "output":
			p.output = v
		case "message":
			p.message = v
		case "replacement_history":
			p.history = v
		case "cwd":
			p.cwd = v
		}
		return true
	})
	return p
}

func (r *codexRecord) add(ev Event, s side) { r.drafts = append(r.drafts, draft{ev: ev, side: s}) }

func (r *codexRecord) item(p codexPayload) {
	var ev Event
	switch typ := jsontext.JsonString(p.typ); typ {
	case "message":
		roleName := jsontext.JsonString(p.role)
		role, ok := ParseRole(roleName)
		if !ok {
			r.warning = "message with unknown role " + strconv.Quote(roleName) + ": skipped"
			return
		}
		text := rawText(p.content)
		if strings.TrimSpace(text) == "" {
			return
		}
		ev.Kind, ev.Role = KindMessage, role
		ev.Origin, ev.Text = codexOrigin(role, text)
		s := sideUser
		if role == RoleAssistant {
			s = sideAssistant
		}
		r.add(ev, s)
	case "reasoning":
		var parts []string
		if !r.noReasoning {
			each(p.summary, func(v string) bool {
				parts = append(parts, jsontext.JsonString(jsontext.Member(v, "text")))
				return true
			})
		}
		ev.Kind, ev.Role, ev.Text = KindReasoning, RoleAssistant, strings.Join(parts, "\n")
		r.add(ev, sideAssistant)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		ev.Kind, ev.Role = KindToolCall, RoleAssistant
		ev.ToolName, ev.ToolID = jsontext.JsonString(p.name), jsontext.JsonString(p.callID)
		switch typ {
		case "function_call":
			ev.Args = rawArgs(p.arguments)
		case "custom_tool_call":
			ev.Args = rawArgs(p.input)
			// Codex's custom tools (apply_patch and others) change things
			yes := true
			ev.SideEffect = &yes
		case "local_shell_call":
			ev.ToolName = "local_shell"
			ev.Args = json.RawMessage(p.action)
		case "web_search_call":
			ev.ToolName = "web_search"
			if p.action != "" {
				ev.Args = json.RawMessage(p.action)
			}
		}
		r.add(ev, sideAssistant)
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		ev.Kind, ev.Role = KindToolResult, RoleTool
		ev.ToolID = jsontext.JsonString(p.callID)
		ev.Text, ev.IsError = codexOutput(p.output)
		r.add(ev, sideTool)
	}
}

// compacted turns a "compacted" line into a boundary. Local compaction puts
// the summary in message; remote compaction leaves message empty and ends
// replacement_history with an encrypted compaction item.
func (r *codexRecord) compacted(p codexPayload) {
	b := &Boundary{Kind: BoundaryCompact}
	summary := stripCodexPrefix(jsontext.JsonString(p.message))
	encrypted := false
	each(p.history, func(it string) bool {
		var typ, role, content, encryptedContent, itSummary string
		jsontext.Members(it, func(k, v string) bool {
			switch k {
			case "type":
				typ = v
			case "role":
				role = v
			case "content":
				content = v
			case "encrypted_content":
				encryptedContent = v
			case "summary":
				itSummary = v
			}
			return true
		})
		switch jsontext.JsonString(typ) {
		case "compaction", "compaction_summary":
			if encryptedContent != "" {
				encrypted = true
			} else if s := jsontext.JsonString(itSummary); s != "" && summary == "" {
				summary = stripCodexPrefix(s)
			}
		case "message":
			role, _ := ParseRole(jsontext.JsonString(role))
			text := rawText(content)
			if strings.HasPrefix(strings.TrimSpace(text), codexSummaryPrefix) {
				if summary == "" {
					summary = stripCodexPrefix(text)
				}
				return true
			}
			if strings.TrimSpace(text) != "" {
				b.Kept = append(b.Kept, KeptItem{Role: role, Text: text})
			}
		}
		return true
	})
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
	var ev Event
	ev.Kind, ev.Role, ev.Origin, ev.Boundary = KindBoundary, RoleSystem, OriginHarness, b
	r.add(ev, 0)
}

func (d *codexDecoder) finish() {}

// rawText joins the text parts of a message's raw content: a string, or a
// list of parts with text.
func rawText(content string) string {
	if s, ok := jsontext.RawString(content); ok {
		return s
	}
	var parts []string
	each(content, func(c string) bool {
		if t, ok := jsontext.RawString(jsontext.Member(c, "text")); ok {
			parts = append(parts, t)
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// rawArgs keeps arguments as raw JSON: a string holding a JSON object is
// unwrapped, anything else (a patch, a redacted value) stays a JSON string.
func rawArgs(raw string) json.RawMessage {
	if raw == "" {
		return nil
	}
	if str, ok := jsontext.RawString(raw); ok {
		s := strings.TrimSpace(str)
		if len(s) > 0 && (s[0] == '{' || s[0] == '[') {
			if ok, _ := jsontext.ValidJSON(s); ok {
				return json.RawMessage(s)
			}
		}
		b, _ := json.Marshal(str)
		return b
	}
	return json.RawMessage(raw)
}

// exitStatusLeads are how Codex's shell tools begin the line that gives a
// process's exit code, each followed by the code: "Process exited with
// code 1", "Exit code: 1", "exit status 1".
var exitStatusLeads = []string{"Process exited with code ", "Exit code: ", "Exit code ", "exit status "}

// exitCode finds the first line that gives a process's exit code, as
// (?m)^(?:Process exited with code|Exit code:?|exit status) (-?\d+) would.
// It looks only at the start of each line: the expression was tried at
// every byte of an output that had no such line.
func exitCode(s string) (code int, ok bool) {
	for {
		if code, ok := ExitCodeLine(s); ok {
			return code, true
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return 0, false
		}
		s = s[i+1:]
	}
}

// ExitCodeLine reads the exit code a line starting at s gives, if it does:
// "Process exited with code 1", "Exit code: 2" (Codex's shell tools),
// "Exit code 1" (Claude Code's Bash tool), "exit status 1".
func ExitCodeLine(s string) (int, bool) {
	for _, lead := range exitStatusLeads {
		if !strings.HasPrefix(s, lead) {
			continue
		}
		s = s[len(lead):]
		n := 0
		if n < len(s) && s[n] == '-' {
			n++
		}
		digits := n
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == digits {
			return 0, false // the leads exclude each other: no other can match
		}
		code, _ := strconv.Atoi(s[:n]) // past the range of int: the nearest, still not 0
		return code, true
	}
	return 0, false
}

// codexOutput reads a tool output: a string, a JSON string holding
// {output, metadata:{exit_code}}, or an object with content and success.
func codexOutput(raw string) (string, bool) {
	if t := jsontext.SkipSpace(raw, 0); t < len(raw) && raw[t] == '{' {
		var content, output, success string
		jsontext.Members(raw, func(k, v string) bool {
			switch k {
			case "content":
				content = v
			case "output":
				output = v
			case "success":
				success = v
			}
			return true
		})
		text := jsontext.JsonString(content)
		if text == "" {
			text = jsontext.JsonString(output)
		}
		return text, success != "" && !rawBool(success)
	}
	s := jsontext.JsonString(raw)
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
		// validated and indexed in one pass, as a record is
		if rec, ok := readRecord(t, jsontext.RecordIndex{}); ok {
			if out := rec.get("output"); out != "" {
				code := jsontext.Member(rec.get("metadata"), "exit_code")
				return jsontext.JsonString(out), code != "" && rawInt(code) != 0
			}
		}
	}
	if code, ok := exitCode(s); ok {
		return s, code != 0
	}
	return s, false
}

// each calls fn with the elements of an array, or once with any other value
// but null: a list that holds one item is sometimes written as the item.
func each(raw string, fn func(val string) bool) {
	switch {
	case raw == "" || raw == "null":
	case raw[0] == '[':
		jsontext.Elements(raw, fn)
	default:
		fn(raw)
	}
}

// rawBool reads a flag the way a lenient writer may have put it: true, a
// string such as "false", or a number.
func rawBool(raw string) bool {
	if s, ok := jsontext.RawString(raw); ok {
		b, _ := strconv.ParseBool(strings.ToLower(s))
		return b
	}
	if raw == "true" {
		return true
	}
	f, err := strconv.ParseFloat(raw, 64)
	return err == nil && f != 0
}

// rawInt reads an integer written as a number or a string of one; true is
// 1, anything else 0.
func rawInt(raw string) int64 {
	if s, ok := jsontext.RawString(raw); ok {
		raw = s
	}
	if raw == "true" {
		return 1
	}
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return n
	}
	f, _ := strconv.ParseFloat(raw, 64)
	return int64(f)
}
