package parse

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// canonicalDecoder reads compaudit's canonical JSONL and, for lines with a
// role and no type, OpenAI chat messages.
type canonicalDecoder struct {
	s     *sink
	turns turnCounter
}

func newCanonicalDecoder(s *sink) *canonicalDecoder { return &canonicalDecoder{s: s} }

// prepare keeps the record's index of its members: decode asks for a
// dozen of them, and gjson would walk the record from its start for each.
func (d *canonicalDecoder) prepare(rec record, _ func(*Event)) any {
	return &canonicalRecord{raw: rec.raw, fields: slices.Clone(rec.fields)}
}

func (d *canonicalDecoder) apply(p any, line int, off int64) {
	d.decode(p.(*canonicalRecord), line, off)
}

// canonicalRecord is a validated record and the index of its members.
type canonicalRecord struct {
	raw    string
	fields []field
}

// Get is gjson's Get for a top-level member: of a key written twice, the
// first, and a key written with escapes read as it decodes, as gjson
// reads them.
func (r *canonicalRecord) Get(key string) gjson.Result {
	for _, f := range r.fields {
		k := r.raw[f.k0:f.k1]
		if strings.IndexByte(k, '\\') >= 0 {
			k = unescape(k)
		}
		if k == key {
			return gjson.Parse(r.raw[f.v0:f.v1])
		}
	}
	return gjson.Result{}
}

func (d *canonicalDecoder) decode(rec *canonicalRecord, line int, off int64) {
	base := Event{Line: line, Offset: off, Agent: rec.Get("agent").Str, Time: rec.Get("ts").Str}
	if base.Agent == "" {
		base.Agent = d.s.agent
	}
	if base.Agent == "" {
		base.Agent = MainAgent
	}
	if cwd := rec.Get("cwd").Str; cwd != "" {
		base.Cwd = cwd
	}
	typ := rec.Get("type")
	if !typ.Exists() {
		if rec.Get("role").Type == gjson.String {
			d.chat(rec, base)
			return
		}
		d.s.diag.add(Error, line, `record has neither "type" nor "role": skipped`)
		return
	}
	explicit := rec.Get("turn")
	turn := func(s side) int {
		if explicit.Type == gjson.Number {
			return d.turns.set(base.Agent, s, int(explicit.Int()))
		}
		return d.turns.next(base.Agent, s, "")
	}
	switch typ.Str {
	case "message":
		role, ok := ParseRole(rec.Get("role").Str)
		if !ok || role == RoleTool {
			d.s.diag.add(Error, line, "message with role %q (want user, assistant, system or developer): skipped", rec.Get("role").Str)
			return
		}
		ev := base
		ev.Kind, ev.Role, ev.Text = KindMessage, role, rec.Get("content").Str
		ev.Origin = originField(rec)
		ev.Turn = turn(sideOf(role))
		d.s.put(&ev)
	case "tool_call":
		ev := base
		ev.Kind, ev.Role = KindToolCall, RoleAssistant
		ev.ToolID, ev.ToolName = idString(rec.Get("id")), rec.Get("name").Str
		if ev.ToolName == "" {
			d.s.diag.add(Error, line, "tool_call without a name: skipped")
			return
		}
		ev.Args = rawArgs(rec.Get("arguments").Raw)
		if se := rec.Get("side_effect"); se.IsBool() {
			v := se.Bool()
			ev.SideEffect = &v
		}
		ev.Turn = turn(sideAssistant)
		d.s.put(&ev)
	case "tool_result":
		ev := base
		ev.Kind, ev.Role = KindToolResult, RoleTool
		ev.ToolID = idString(rec.Get("id"))
		ev.Text = textOf(rec.Get("content"))
		ev.IsError = rec.Get("is_error").Bool()
		ev.Turn = turn(sideTool)
		d.s.put(&ev)
	case "compaction":
		b := &Boundary{Kind: BoundaryCompact, Trigger: rec.Get("trigger").Str,
			PreTokens: int(rec.Get("pre_tokens").Int())}
		b.ReplacesThrough = d.turns.current(base.Agent)
		if s := rec.Get("summary"); s.Type == gjson.String {
			b.Summary, b.Readable = s.Str, true
		} else {
			b.Unreadable = "the summary is absent or null (opaque compaction)"
		}
		if k := rec.Get("kind").Str; k == "microcompact" {
			b.Kind, b.Readable, b.Unreadable = BoundaryMicrocompact, true, ""
		}
		for _, k := range rec.Get("kept").Array() {
			if k.Type == gjson.Number {
				b.KeptTurns = append(b.KeptTurns, int(k.Int()))
			}
		}
		for _, n := range rec.Get("notified").Array() {
			b.Notified = append(b.Notified, n.Str)
		}
		for _, c := range rec.Get("cleared").Array() {
			b.ClearedToolIDs = append(b.ClearedToolIDs, idString(c))
		}
		ev := base
		ev.Kind, ev.Role, ev.Origin, ev.Boundary = KindBoundary, RoleSystem, OriginHarness, b
		if explicit.Type == gjson.Number {
			ev.Turn = d.turns.set(base.Agent, sideBoundary, int(explicit.Int()))
		} else {
			ev.Turn = d.turns.boundary(base.Agent)
		}
		d.s.put(&ev)
	case "state":
		op := rec.Get("op").Str
		if op != "read" && op != "write" {
			d.s.diag.add(Error, line, "state event with op %q (want read or write): skipped", op)
			return
		}
		key := rec.Get("key").Str
		if key == "" {
			d.s.diag.add(Error, line, "state event without a key: skipped")
			return
		}
		st := &StateOp{Key: key, Value: valueString(rec.Get("value")), PayloadHash: rec.Get("payload_hash").Str}
		if r := rec.Get("revision"); r.Type == gjson.Number {
			st.Revision, st.HasRevision = r.Int(), true
		}
		if c := rec.Get("confidence"); c.Type == gjson.Number {
			st.Confidence, st.HasConf = c.Float(), true
		}
		ev := base
		ev.Kind, ev.Role, ev.State = KindStateRead, RoleAssistant, st
		if op == "write" {
			ev.Kind = KindStateWrite
		}
		ev.Turn = turn(sideAssistant)
		d.s.put(&ev)
	default:
		d.s.diag.add(Warning, line, "unknown event type %q: skipped", typ.Str)
	}
}

// chat reads an OpenAI chat message: {role, content, tool_calls} or a tool
// message {role: tool, tool_call_id, content}.
func (d *canonicalDecoder) chat(rec *canonicalRecord, base Event) {
	roleName := rec.Get("role").Str
	if roleName == "function" {
		roleName = "tool"
	}
	role, ok := ParseRole(roleName)
	if !ok {
		d.s.diag.add(Error, base.Line, "chat message with unknown role %q: skipped", roleName)
		return
	}
	text := textOf(rec.Get("content"))
	if role == RoleTool {
		ev := base
		ev.Kind, ev.Role, ev.Text = KindToolResult, RoleTool, text
		ev.ToolID = idString(rec.Get("tool_call_id"))
		ev.IsError = rec.Get("is_error").Bool()
		ev.Turn = d.turns.next(base.Agent, sideTool, "")
		d.s.put(&ev)
		return
	}
	if strings.TrimSpace(text) != "" {
		ev := base
		ev.Kind, ev.Role, ev.Text = KindMessage, role, text
		ev.Origin = originField(rec)
		ev.Turn = d.turns.next(base.Agent, sideOf(role), "")
		d.s.put(&ev)
	}
	for _, c := range rec.Get("tool_calls").Array() {
		ev := base
		ev.Kind, ev.Role = KindToolCall, RoleAssistant
		ev.ToolID = idString(c.Get("id"))
		ev.ToolName = c.Get("function.name").Str
		ev.Args = rawArgs(c.Get("function.arguments").Raw)
		ev.Turn = d.turns.next(base.Agent, sideAssistant, "")
		d.s.put(&ev)
	}
}

func (d *canonicalDecoder) finish() {}

func sideOf(r Role) side {
	if r == RoleAssistant {
		return sideAssistant
	}
	return sideUser
}

// originField honours an explicit "origin" (rules or harness).
func originField(rec *canonicalRecord) Origin {
	switch rec.Get("origin").Str {
	case "rules":
		return OriginRules
	case "harness":
		return OriginHarness
	case "authored":
		return OriginAuthored
	}
	return OriginAuthored
}

func idString(v gjson.Result) string {
	if v.Type == gjson.Number {
		return strconv.FormatInt(v.Int(), 10)
	}
	return v.Str
}

// textOf reads content given as a string or as a list of text parts.
func textOf(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	if v.IsArray() {
		return rawText(v.Raw)
	}
	if v.Exists() && v.Type != gjson.Null {
		return v.Raw
	}
	return ""
}

// valueString renders a state value: strings as they are, anything else as
// compact JSON.
func valueString(v gjson.Result) string {
	switch v.Type {
	case gjson.String:
		return v.Str
	case gjson.Null:
		return ""
	}
	var buf json.RawMessage = []byte(v.Raw)
	out, err := json.Marshal(buf)
	if err != nil {
		return v.Raw
	}
	return string(out)
}
