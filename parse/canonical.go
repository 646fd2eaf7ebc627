package parse

import (
	"encoding/json"
	"fmt"
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

// prepare reads a record into its events on a reading worker, with all
// but what needs the records before it: the agent's turn, the default
// agent, the line's place. A multi-agent run is mostly small records, and
// reading them in the ordered stage kept one core busy while the other
// waited.
func (d *canonicalDecoder) prepare(rec record, annotate func(*Event)) any {
	r := &canonicalRead{}
	cr := newCanonicalRecord(rec.raw, rec.fields)
	readCanonical(&cr, r)
	for i := range r.drafts {
		r.drafts[i].repaired = settle(&r.drafts[i].ev, rec.utf8, annotate)
	}
	return r
}

func (d *canonicalDecoder) apply(p any, line int, off int64) {
	r, _ := p.(*canonicalRead)
	if r == nil {
		return
	}
	if r.problem != "" {
		d.s.diag.add(r.severity, line, "%s", r.problem)
		return
	}
	agent := r.agent
	if agent == "" {
		agent = d.s.agent
	}
	if agent == "" {
		agent = MainAgent
	}
	for i := range r.drafts {
		dr := &r.drafts[i]
		ev := &dr.ev
		ev.Line, ev.Offset, ev.Agent = line, off, agent
		if b := ev.Boundary; b != nil {
			b.ReplacesThrough = d.turns.current(agent)
		}
		switch {
		case r.hasTurn:
			ev.Turn = d.turns.set(agent, dr.side, r.turn)
		case dr.side == sideBoundary:
			ev.Turn = d.turns.boundary(agent)
		default:
			ev.Turn = d.turns.next(agent, dr.side, "")
		}
		if dr.repaired {
			d.s.diag.add(Warning, line, invalidUTF8Msg)
		}
		d.s.put(ev)
	}
}

// canonicalRead is what a worker reads of one record: its events, or the
// problem that skips it.
type canonicalRead struct {
	agent    string // the record's own agent; "" for the file's
	turn     int    // the record's explicit turn, when hasTurn
	hasTurn  bool
	drafts   []canonicalDraft
	severity Severity
	problem  string
	// one holds the first draft: most records are one event, and a
	// multi-agent run has hundreds of thousands
	one [1]canonicalDraft
}

// canonicalDraft is an event and the side of the conversation it counts on.
type canonicalDraft struct {
	ev       Event
	side     side
	repaired bool // its text was not UTF-8 and was mended
}

func (r *canonicalRead) skip(sev Severity, format string, args ...any) {
	r.severity, r.problem = sev, fmt.Sprintf(format, args...)
}

func (r *canonicalRead) add(ev Event, s side) {
	if r.drafts == nil {
		r.drafts = r.one[:0]
	}
	r.drafts = append(r.drafts, canonicalDraft{ev: ev, side: s})
}

// canonicalRecord is a validated record and the index of its members.
type canonicalRecord struct {
	raw     string
	fields  []field
	escapes bool // some key is written with escapes
}

func newCanonicalRecord(raw string, fields []field) canonicalRecord {
	r := canonicalRecord{raw: raw, fields: fields}
	for _, f := range fields {
		if strings.IndexByte(raw[f.k0:f.k1], '\\') >= 0 {
			r.escapes = true
			break
		}
	}
	return r
}

// Get is gjson's Get for a top-level member: of a key written twice, the
// first, and a key written with escapes read as it decodes, as gjson
// reads them.
func (r *canonicalRecord) Get(key string) gjson.Result {
	for _, f := range r.fields {
		k := r.raw[f.k0:f.k1]
		if r.escapes && strings.IndexByte(k, '\\') >= 0 {
			k = unescape(k)
		}
		if k == key {
			return gjson.Parse(r.raw[f.v0:f.v1])
		}
	}
	return gjson.Result{}
}

// readCanonical reads one record of the canonical format, or a chat
// message, into r.
func readCanonical(rec *canonicalRecord, r *canonicalRead) {
	r.agent = rec.Get("agent").Str
	base := Event{Time: rec.Get("ts").Str}
	if cwd := rec.Get("cwd").Str; cwd != "" {
		base.Cwd = cwd
	}
	typ := rec.Get("type")
	if !typ.Exists() {
		if rec.Get("role").Type == gjson.String {
			readChat(rec, base, r)
			return
		}
		r.skip(Error, `record has neither "type" nor "role": skipped`)
		return
	}
	if explicit := rec.Get("turn"); explicit.Type == gjson.Number {
		r.turn, r.hasTurn = int(explicit.Int()), true
	}
	switch typ.Str {
	case "message":
		role, ok := ParseRole(rec.Get("role").Str)
		if !ok || role == RoleTool {
			r.skip(Error, "message with role %q (want user, assistant, system or developer): skipped", rec.Get("role").Str)
			return
		}
		ev := base
		ev.Kind, ev.Role, ev.Text = KindMessage, role, rec.Get("content").Str
		ev.Origin = originField(rec)
		r.add(ev, sideOf(role))
	case "tool_call":
		ev := base
		ev.Kind, ev.Role = KindToolCall, RoleAssistant
		ev.ToolID, ev.ToolName = idString(rec.Get("id")), rec.Get("name").Str
		if ev.ToolName == "" {
			r.skip(Error, "tool_call without a name: skipped")
			return
		}
		ev.Args = rawArgs(rec.Get("arguments").Raw)
		if se := rec.Get("side_effect"); se.IsBool() {
			v := se.Bool()
			ev.SideEffect = &v
		}
		r.add(ev, sideAssistant)
	case "tool_result":
		ev := base
		ev.Kind, ev.Role = KindToolResult, RoleTool
		ev.ToolID = idString(rec.Get("id"))
		ev.Text = textOf(rec.Get("content"))
		ev.IsError = rec.Get("is_error").Bool()
		r.add(ev, sideTool)
	case "compaction":
		b := &Boundary{Kind: BoundaryCompact, Trigger: rec.Get("trigger").Str,
			PreTokens: int(rec.Get("pre_tokens").Int())}
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
		r.add(ev, sideBoundary)
	case "state":
		op := rec.Get("op").Str
		if op != "read" && op != "write" {
			r.skip(Error, "state event with op %q (want read or write): skipped", op)
			return
		}
		key := rec.Get("key").Str
		if key == "" {
			r.skip(Error, "state event without a key: skipped")
			return
		}
		st := &StateOp{Key: key, Value: valueString(rec.Get("value")), PayloadHash: rec.Get("payload_hash").Str}
		if rv := rec.Get("revision"); rv.Type == gjson.Number {
			st.Revision, st.HasRevision = rv.Int(), true
		}
		if c := rec.Get("confidence"); c.Type == gjson.Number {
			st.Confidence, st.HasConf = c.Float(), true
		}
		ev := base
		ev.Kind, ev.Role, ev.State = KindStateRead, RoleAssistant, st
		if op == "write" {
			ev.Kind = KindStateWrite
		}
		r.add(ev, sideAssistant)
	default:
		r.skip(Warning, "unknown event type %q: skipped", typ.Str)
	}
}

// readChat reads an OpenAI chat message: {role, content, tool_calls} or a
// tool message {role: tool, tool_call_id, content}. A chat message's turns
// are counted, whatever "turn" it carries.
func readChat(rec *canonicalRecord, base Event, r *canonicalRead) {
	roleName := rec.Get("role").Str
	if roleName == "function" {
		roleName = "tool"
	}
	role, ok := ParseRole(roleName)
	if !ok {
		r.skip(Error, "chat message with unknown role %q: skipped", roleName)
		return
	}
	text := textOf(rec.Get("content"))
	if role == RoleTool {
		ev := base
		ev.Kind, ev.Role, ev.Text = KindToolResult, RoleTool, text
		ev.ToolID = idString(rec.Get("tool_call_id"))
		ev.IsError = rec.Get("is_error").Bool()
		r.add(ev, sideTool)
		return
	}
	if strings.TrimSpace(text) != "" {
		ev := base
		ev.Kind, ev.Role, ev.Text = KindMessage, role, text
		ev.Origin = originField(rec)
		r.add(ev, sideOf(role))
	}
	for _, c := range rec.Get("tool_calls").Array() {
		ev := base
		ev.Kind, ev.Role = KindToolCall, RoleAssistant
		ev.ToolID = idString(c.Get("id"))
		ev.ToolName = c.Get("function.name").Str
		ev.Args = rawArgs(c.Get("function.arguments").Raw)
		r.add(ev, sideAssistant)
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
