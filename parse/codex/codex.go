// Package codex reads Codex CLI rollout JSONL into parse's events:
// response_item messages, reasoning, function calls and their outputs, and
// compacted lines with their summary or replacement history. It knows
// Codex's records and nothing of other formats or of obligations.
package codex

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/tidwall/gjson"
)

// Reader reads Codex CLI rollouts.
var Reader = parse.FormatReader{
	Info: parse.FormatInfo{
		Name:      parse.FormatCodex,
		Title:     "Codex CLI rollout JSONL",
		Location:  "~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl",
		Detection: `lines {timestamp, type, payload} with "type" session_meta, response_item, event_msg, turn_context or compacted`,
		Boundary:  `"compacted" line: payload.message holds the summary; a replacement_history ending in an encrypted compaction item is opaque`,
	},
	Claims:     claimsCodex,
	NewDecoder: func(s *parse.Sink) parse.Decoder { return newCodexDecoder(s) },
}

var codexTypes = []string{"session_meta", "response_item", "event_msg", "turn_context", "compacted"}

// claimsCodex: a Codex line type with a payload.
func claimsCodex(rec gjson.Result) bool {
	return parse.TypeIn(rec, codexTypes) && rec.Get("payload").Exists()
}

// codexDecoder reads Codex CLI rollout records.
type codexDecoder struct {
	s     *parse.Sink
	turns parse.Turns
	cwd   string
}

func newCodexDecoder(s *parse.Sink) *codexDecoder { return &codexDecoder{s: s} }

// codexRecord is one rollout record read on its own, before the decoder's
// state (the working directory, turns) applies: reading it is the costly
// part and runs on several records at once.
type codexRecord struct {
	cwd         string // what session_meta or turn_context names
	time        string
	drafts      []codexDraft // a boundary's side is unused: it takes no turn
	warning     string       // a record that was read and skipped
	invalidUTF8 bool         // text that was not UTF-8 was replaced
	noReasoning bool         // reasoning is not read (Options.NoReasoningText)
}

// Skips event_msg records: they repeat what response_item records hold, for
// the UI.
func (*codexDecoder) Skips(typ string) bool { return typ == "event_msg" }

// Detaches: Prepare copies out every string a record's events keep, so a
// line is read in place.
func (*codexDecoder) Detaches() {}

// what the reader asks of a decoder beyond parse.Decoder, checked here
// because it asks by type assertion
var (
	_ parse.Skipper  = (*codexDecoder)(nil)
	_ parse.Detacher = (*codexDecoder)(nil)
)

// Prepare reads a rollout record. It keeps no state.
func (d *codexDecoder) Prepare(rec parse.Record, annotate func(*parse.Event)) any {
	r := &codexRecord{time: jsontext.JsonString(rec.Get("timestamp")), noReasoning: rec.NoReasoning}
	p := readCodexPayload(rec.Get("payload"))
	switch jsontext.JsonString(rec.Get("type")) {
	case "session_meta", "turn_context":
		r.cwd = jsontext.JsonString(p.cwd)
	case "response_item":
		r.item(p)
	case "compacted":
		r.compacted(p)
	}
	r.detach(rec.Raw)
	for i := range r.drafts {
		if parse.Settle(&r.drafts[i].ev, rec.ValidUTF8, annotate) {
			r.invalidUTF8 = true
		}
	}
	return r
}

// detach copies every string the record keeps that is a piece of its line.
func (r *codexRecord) detach(line string) {
	own := func(s string) string {
		if parse.Within(s, line) {
			return strings.Clone(s)
		}
		return s
	}
	r.cwd, r.time, r.warning = own(r.cwd), own(r.time), own(r.warning)
	for i := range r.drafts {
		ev := &r.drafts[i].ev
		ev.Text = own(ev.Text)
		ev.ToolName, ev.ToolID = own(ev.ToolName), own(ev.ToolID)
		if len(ev.Args) > 0 && parse.Within(string(ev.Args), line) {
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

func (d *codexDecoder) Apply(p any, line int, off int64) {
	r, _ := p.(*codexRecord)
	if r == nil {
		return
	}
	if r.cwd != "" {
		d.cwd = r.cwd
	}
	if r.warning != "" {
		d.s.Report(parse.Warning, line, "%s", r.warning)
	}
	if r.invalidUTF8 {
		d.s.Report(parse.Warning, line, parse.InvalidUTF8Msg)
	}
	agent := d.s.FileAgent()
	for i := range r.drafts {
		dr := &r.drafts[i]
		ev := &dr.ev // the record is done with once applied, as in claudeDecoder.apply
		ev.Line, ev.Offset, ev.Time, ev.Cwd = line, off, r.time, d.cwd
		if ev.Kind == parse.KindBoundary {
			ev.Boundary.ReplacesThrough = d.turns.Current(agent)
			ev.Turn = d.turns.Boundary(agent)
		} else {
			ev.Turn = d.turns.Next(agent, dr.side, "")
		}
		d.s.Put(ev)
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

// codexDraft is an event of a record without its place in the stream.
type codexDraft struct {
	ev   parse.Event
	side parse.Side
}

func (r *codexRecord) add(ev parse.Event, s parse.Side) {
	r.drafts = append(r.drafts, codexDraft{ev: ev, side: s})
}

func (r *codexRecord) item(p codexPayload) {
	var ev parse.Event
	switch typ := jsontext.JsonString(p.typ); typ {
	case "message":
		roleName := jsontext.JsonString(p.role)
		role, ok := parse.ParseRole(roleName)
		if !ok {
			r.warning = "message with unknown role " + strconv.Quote(roleName) + ": skipped"
			return
		}
		text := jsontext.PartsText(p.content)
		if strings.TrimSpace(text) == "" {
			return
		}
		ev.Kind, ev.Role = parse.KindMessage, role
		ev.Origin, ev.Text = codexOrigin(role, text)
		s := parse.SideUser
		if role == parse.RoleAssistant {
			s = parse.SideAssistant
		}
		r.add(ev, s)
	case "reasoning":
		var parts []string
		if !r.noReasoning {
			jsontext.Each(p.summary, func(v string) bool {
				parts = append(parts, jsontext.JsonString(jsontext.Member(v, "text")))
				return true
			})
		}
		ev.Kind, ev.Role, ev.Text = parse.KindReasoning, parse.RoleAssistant, strings.Join(parts, "\n")
		r.add(ev, parse.SideAssistant)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		ev.Kind, ev.Role = parse.KindToolCall, parse.RoleAssistant
		ev.ToolName, ev.ToolID = jsontext.JsonString(p.name), jsontext.JsonString(p.callID)
		switch typ {
		case "function_call":
			ev.Args = jsontext.Arguments(p.arguments)
		case "custom_tool_call":
			ev.Args = jsontext.Arguments(p.input)
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
		r.add(ev, parse.SideAssistant)
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		ev.Kind, ev.Role = parse.KindToolResult, parse.RoleTool
		ev.ToolID = jsontext.JsonString(p.callID)
		ev.Text, ev.IsError = codexOutput(p.output)
		r.add(ev, parse.SideTool)
	}
}

// compacted turns a "compacted" line into a boundary. Local compaction puts
// the summary in message; remote compaction leaves message empty and ends
// replacement_history with an encrypted compaction item.
func (r *codexRecord) compacted(p codexPayload) {
	b := &parse.Boundary{Kind: parse.BoundaryCompact}
	summary := stripCodexPrefix(jsontext.JsonString(p.message))
	encrypted := false
	jsontext.Each(p.history, func(it string) bool {
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
			role, _ := parse.ParseRole(jsontext.JsonString(role))
			text := jsontext.PartsText(content)
			if strings.HasPrefix(strings.TrimSpace(text), codexSummaryPrefix) {
				if summary == "" {
					summary = stripCodexPrefix(text)
				}
				return true
			}
			if strings.TrimSpace(text) != "" {
				b.Kept = append(b.Kept, parse.KeptItem{Role: role, Text: text})
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
	var ev parse.Event
	ev.Kind, ev.Role, ev.Origin, ev.Boundary = parse.KindBoundary, parse.RoleSystem, parse.OriginHarness, b
	r.add(ev, 0)
}

func (d *codexDecoder) Finish() {}

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
		if rec, ok := parse.ReadRecord(t, jsontext.RecordIndex{}); ok {
			if out := rec.Get("output"); out != "" {
				code := jsontext.Member(rec.Get("metadata"), "exit_code")
				return jsontext.JsonString(out), code != "" && rawInt(code) != 0
			}
		}
	}
	if code, ok := parse.ExitCode(s); ok {
		return s, code != 0
	}
	return s, false
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
