// Package canonical reads compaudit's canonical JSONL (docs/canonical-format.md)
// and plain OpenAI chat-message JSONL into parse's events, shared-state
// operations included. It knows those two formats and nothing of
// obligations.
package canonical

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/tidwall/gjson"
)

// Reader reads compaudit's canonical JSONL.
var Reader = parse.FormatReader{
	Info: parse.FormatInfo{
		Name:      parse.FormatCanonical,
		Title:     "compaudit canonical JSONL",
		Location:  "any path; see docs/canonical-format.md",
		Detection: `lines with "type" message, tool_call, tool_result, compaction or state`,
		Boundary:  `{"type":"compaction","summary":...}; a null or absent summary is opaque`,
	},
	Claims:     claimsCanonical,
	NewDecoder: func(s *parse.Sink) parse.Decoder { return newCanonicalDecoder(s) },
}

// ChatReader reads plain OpenAI chat-message JSONL, which the canonical
// decoder reads as the messages it is.
var ChatReader = parse.FormatReader{
	Info: parse.FormatInfo{
		Name:      parse.FormatChat,
		Title:     "OpenAI chat-message JSONL",
		Location:  "any path",
		Detection: `lines with a "role" and no "type"`,
		Boundary:  "none: plain chat logs record no compaction",
	},
	Aliases:    []string{"openai"},
	Claims:     claimsChat,
	NewDecoder: func(s *parse.Sink) parse.Decoder { return newCanonicalDecoder(s) },
}

var canonicalTypes = []string{"message", "tool_call", "tool_result", "compaction", "state"}

// claimsCanonical: a canonical record type, without the uuid fields a
// Claude Code record carries.
func claimsCanonical(rec gjson.Result) bool {
	return parse.TypeIn(rec, canonicalTypes) && !rec.Get("uuid").Exists() && !rec.Get("sessionId").Exists()
}

// claimsChat: a role and no type.
func claimsChat(rec gjson.Result) bool {
	return !rec.Get("type").Exists() && rec.Get("role").Type == gjson.String
}

// canonicalDecoder reads compaudit's canonical JSONL and, for lines with a
// role and no type, OpenAI chat messages.
type canonicalDecoder struct {
	s     *parse.Sink
	turns parse.Turns
}

func newCanonicalDecoder(s *parse.Sink) *canonicalDecoder { return &canonicalDecoder{s: s} }

// Prepare reads a record into its events on a reading worker, with all
// but what needs the records before it: the agent's turn, the default
// agent, the line's place. A multi-agent run is mostly small records, and
// reading them in the ordered stage kept one core busy while the other
// waited.
func (d *canonicalDecoder) Prepare(rec parse.Record, annotate func(*parse.Event)) any {
	r := &canonicalRead{}
	cr := newCanonicalRecord(rec.Raw, rec.Fields)
	readCanonical(&cr, r)
	for i := range r.drafts {
		r.drafts[i].repaired = parse.Settle(&r.drafts[i].ev, rec.ValidUTF8, annotate)
	}
	return r
}

func (d *canonicalDecoder) Apply(p any, line int, off int64) {
	r, _ := p.(*canonicalRead)
	if r == nil {
		return
	}
	if r.problem != "" {
		d.s.Report(r.severity, line, "%s", r.problem)
		return
	}
	agent := d.s.AgentOr(r.agent) // before put: the turns are counted per agent
	for i := range r.drafts {
		dr := &r.drafts[i]
		ev := &dr.ev
		ev.Line, ev.Offset, ev.Agent = line, off, agent
		if b := ev.Boundary; b != nil {
			b.ReplacesThrough = d.turns.Current(agent)
		}
		switch {
		case r.hasTurn:
			ev.Turn = d.turns.Set(agent, dr.side, r.turn)
		case dr.side == parse.SideBoundary:
			ev.Turn = d.turns.Boundary(agent)
		default:
			ev.Turn = d.turns.Next(agent, dr.side, "")
		}
		if dr.repaired {
			d.s.Report(parse.Warning, line, parse.InvalidUTF8Msg)
		}
		d.s.Put(ev)
	}
}

// canonicalRead is what a worker reads of one record: its events, or the
// problem that skips it.
type canonicalRead struct {
	agent    string // the record's own agent; "" for the file's
	turn     int    // the record's explicit turn, when hasTurn
	hasTurn  bool
	drafts   []canonicalDraft
	severity parse.Severity
	problem  string
	// one holds the first draft: most records are one event, and a
	// multi-agent run has hundreds of thousands
	one [1]canonicalDraft
}

// canonicalDraft is an event and the side of the conversation it counts on.
type canonicalDraft struct {
	ev       parse.Event
	side     parse.Side
	repaired bool // its text was not UTF-8 and was mended
}

func (r *canonicalRead) skip(sev parse.Severity, format string, args ...any) {
	r.severity, r.problem = sev, fmt.Sprintf(format, args...)
}

func (r *canonicalRead) add(ev parse.Event, s parse.Side) {
	if r.drafts == nil {
		r.drafts = r.one[:0]
	}
	r.drafts = append(r.drafts, canonicalDraft{ev: ev, side: s})
}

// canonicalRecord is a validated record and the index of its members.
type canonicalRecord struct {
	raw     string
	fields  []jsontext.Field
	escapes bool // some key is written with escapes
}

func newCanonicalRecord(raw string, fields []jsontext.Field) canonicalRecord {
	r := canonicalRecord{raw: raw, fields: fields}
	for _, f := range fields {
		if strings.IndexByte(raw[f.K0:f.K1], '\\') >= 0 {
			r.escapes = true
			break
		}
	}
	return r
}

// canonicalMembers are the raw values of the members the canonical format
// and chat messages define, read from a record's index in one pass: a
// member written twice keeps its first, as Get has it. Asking Get for each
// walked the index a dozen times a record, a twentieth of a multi-agent
// run's time.
type canonicalMembers struct {
	agent, ts, cwd, typ, role, turn, content, origin, id, name,
	arguments, sideEffect, isError, trigger, preTokens, summary, kind, kept, notified, cleared,
	op, key, value, payloadHash, revision, confidence, toolCallID, toolCalls string
}

// members reads the record's members in one pass.
func (r *canonicalRecord) members() canonicalMembers {
	var m canonicalMembers
	for _, f := range r.fields {
		k := r.raw[f.K0:f.K1]
		if r.escapes && strings.IndexByte(k, '\\') >= 0 {
			k = jsontext.Unescape(k)
		}
		if p := m.slot(k); p != nil && *p == "" {
			*p = r.raw[f.V0:f.V1]
		}
	}
	return m
}

// slot is the field a member is read into, nil for a member the format
// does not have. A switch, not a map: a multi-agent run is millions of
// members, and looking each up in a map took 1.18x the run's time. It is
// cut in two by the name's first letter only to keep each half short.
func (m *canonicalMembers) slot(k string) *string {
	if k != "" && k[0] < 'n' {
		return m.slotAM(k)
	}
	return m.slotNZ(k)
}

func (m *canonicalMembers) slotAM(k string) *string {
	switch k {
	case "agent":
		return &m.agent
	case "cwd":
		return &m.cwd
	case "content":
		return &m.content
	case "id":
		return &m.id
	case "arguments":
		return &m.arguments
	case "is_error":
		return &m.isError
	case "kind":
		return &m.kind
	case "kept":
		return &m.kept
	case "cleared":
		return &m.cleared
	case "key":
		return &m.key
	case "confidence":
		return &m.confidence
	}
	return nil
}

func (m *canonicalMembers) slotNZ(k string) *string {
	switch k {
	case "ts":
		return &m.ts
	case "type":
		return &m.typ
	case "role":
		return &m.role
	case "turn":
		return &m.turn
	case "origin":
		return &m.origin
	case "name":
		return &m.name
	case "side_effect":
		return &m.sideEffect
	case "trigger":
		return &m.trigger
	case "pre_tokens":
		return &m.preTokens
	case "summary":
		return &m.summary
	case "notified":
		return &m.notified
	case "op":
		return &m.op
	case "value":
		return &m.value
	case "payload_hash":
		return &m.payloadHash
	case "revision":
		return &m.revision
	case "tool_call_id":
		return &m.toolCallID
	case "tool_calls":
		return &m.toolCalls
	}
	return nil
}

// rawResult is gjson's reading of a member's raw value; none for "".
func rawResult(raw string) gjson.Result {
	if raw == "" {
		return gjson.Result{}
	}
	return gjson.Parse(raw)
}

// readCanonical reads one record of the canonical format, or a chat
// message, into r.
func readCanonical(rec *canonicalRecord, r *canonicalRead) {
	m := rec.members()
	r.agent = jsontext.JsonString(m.agent)
	base := parse.Event{Time: jsontext.JsonString(m.ts)}
	if cwd := jsontext.JsonString(m.cwd); cwd != "" {
		base.Cwd = cwd
	}
	if m.typ == "" {
		if _, ok := jsontext.RawString(m.role); ok {
			readChat(&m, base, r)
			return
		}
		r.skip(parse.Error, `record has neither "type" nor "role": skipped`)
		return
	}
	if turn, ok := jsonInt(m.turn); ok {
		r.turn, r.hasTurn = int(turn), true
	}
	switch typ := jsontext.JsonString(m.typ); typ {
	case "message":
		readMessage(&m, base, r)
	case "tool_call":
		readToolCall(&m, base, r)
	case "tool_result":
		ev := base
		ev.Kind, ev.Role = parse.KindToolResult, parse.RoleTool
		ev.ToolID = rawID(m.id)
		ev.Text = rawTextOf(m.content)
		ev.IsError = rawResult(m.isError).Bool()
		r.add(ev, parse.SideTool)
	case "compaction":
		ev := base
		ev.Kind, ev.Role, ev.Origin, ev.Boundary = parse.KindBoundary, parse.RoleSystem, parse.OriginHarness, compaction(&m)
		r.add(ev, parse.SideBoundary)
	case "state":
		readState(&m, base, r)
	default:
		r.skip(parse.Warning, "unknown event type %q: skipped", typ)
	}
}

func readMessage(m *canonicalMembers, base parse.Event, r *canonicalRead) {
	role, ok := parse.ParseRole(jsontext.JsonString(m.role))
	if !ok || role == parse.RoleTool {
		r.skip(parse.Error, "message with role %q (want user, assistant, system or developer): skipped", jsontext.JsonString(m.role))
		return
	}
	ev := base
	ev.Kind, ev.Role, ev.Text = parse.KindMessage, role, jsontext.JsonString(m.content)
	ev.Origin = originField(m)
	r.add(ev, sideOf(role))
}

func readToolCall(m *canonicalMembers, base parse.Event, r *canonicalRead) {
	ev := base
	ev.Kind, ev.Role = parse.KindToolCall, parse.RoleAssistant
	ev.ToolID, ev.ToolName = rawID(m.id), jsontext.JsonString(m.name)
	if ev.ToolName == "" {
		r.skip(parse.Error, "tool_call without a name: skipped")
		return
	}
	ev.Args = jsontext.Arguments(rawResult(m.arguments).Raw)
	if se := rawResult(m.sideEffect); se.IsBool() {
		v := se.Bool()
		ev.SideEffect = &v
	}
	r.add(ev, parse.SideAssistant)
}

// compaction is a compaction record's boundary.
func compaction(m *canonicalMembers) *parse.Boundary {
	b := &parse.Boundary{Kind: parse.BoundaryCompact, Trigger: jsontext.JsonString(m.trigger),
		PreTokens: int(rawResult(m.preTokens).Int())}
	if s := rawResult(m.summary); s.Type == gjson.String {
		b.Summary, b.Readable = s.Str, true
	} else {
		b.Unreadable = "the summary is absent or null (opaque compaction)"
	}
	if k := jsontext.JsonString(m.kind); k == "microcompact" {
		b.Kind, b.Readable, b.Unreadable = parse.BoundaryMicrocompact, true, ""
	}
	for _, k := range rawResult(m.kept).Array() {
		if k.Type == gjson.Number {
			b.KeptTurns = append(b.KeptTurns, int(k.Int()))
		}
	}
	for _, n := range rawResult(m.notified).Array() {
		b.Notified = append(b.Notified, n.Str)
	}
	for _, c := range rawResult(m.cleared).Array() {
		b.ClearedToolIDs = append(b.ClearedToolIDs, idString(c))
	}
	return b
}

func readState(m *canonicalMembers, base parse.Event, r *canonicalRead) {
	op := jsontext.JsonString(m.op)
	if op != "read" && op != "write" {
		r.skip(parse.Error, "state event with op %q (want read or write): skipped", op)
		return
	}
	key := jsontext.JsonString(m.key)
	if key == "" {
		r.skip(parse.Error, "state event without a key: skipped")
		return
	}
	st := &parse.StateOp{Key: key, Value: valueString(m.value), PayloadHash: jsontext.JsonString(m.payloadHash)}
	if rv, ok := jsonInt(m.revision); ok {
		st.Revision, st.HasRevision = rv, true
	}
	if c, ok := jsonNumber(m.confidence); ok {
		st.Confidence, st.HasConf = c, true
	}
	ev := base
	ev.Kind, ev.Role, ev.State = parse.KindStateRead, parse.RoleAssistant, st
	if op == "write" {
		ev.Kind = parse.KindStateWrite
	}
	r.add(ev, parse.SideAssistant)
}

// readChat reads an OpenAI chat message: {role, content, tool_calls} or a
// tool message {role: tool, tool_call_id, content}. A chat message's turns
// are counted, whatever "turn" it carries.
func readChat(m *canonicalMembers, base parse.Event, r *canonicalRead) {
	roleName := jsontext.JsonString(m.role)
	if roleName == "function" {
		roleName = "tool"
	}
	role, ok := parse.ParseRole(roleName)
	if !ok {
		r.skip(parse.Error, "chat message with unknown role %q: skipped", roleName)
		return
	}
	text := rawTextOf(m.content)
	if role == parse.RoleTool {
		ev := base
		ev.Kind, ev.Role, ev.Text = parse.KindToolResult, parse.RoleTool, text
		ev.ToolID = rawID(m.toolCallID)
		ev.IsError = rawResult(m.isError).Bool()
		r.add(ev, parse.SideTool)
		return
	}
	if strings.TrimSpace(text) != "" {
		ev := base
		ev.Kind, ev.Role, ev.Text = parse.KindMessage, role, text
		ev.Origin = originField(m)
		r.add(ev, sideOf(role))
	}
	for _, c := range rawResult(m.toolCalls).Array() {
		ev := base
		ev.Kind, ev.Role = parse.KindToolCall, parse.RoleAssistant
		ev.ToolID = idString(c.Get("id"))
		ev.ToolName = c.Get("function.name").Str
		ev.Args = jsontext.Arguments(c.Get("function.arguments").Raw)
		r.add(ev, parse.SideAssistant)
	}
}

func (d *canonicalDecoder) Finish() {}

func sideOf(r parse.Role) parse.Side {
	if r == parse.RoleAssistant {
		return parse.SideAssistant
	}
	return parse.SideUser
}

// originField honours an explicit "origin" (rules or harness).
func originField(m *canonicalMembers) parse.Origin {
	switch jsontext.JsonString(m.origin) {
	case "rules":
		return parse.OriginRules
	case "harness":
		return parse.OriginHarness
	case "authored":
		return parse.OriginAuthored
	}
	return parse.OriginAuthored
}

// The readers of a member's raw value below read the common cases — a
// string, a small integer — without gjson, which every record of a run
// paid for several times; each reads what gjson's Result would.

// jsonNumber is the value of a raw JSON number, and false for any other
// value.
func jsonNumber(raw string) (float64, bool) {
	if !isNumber(raw) {
		return 0, false
	}
	f, _ := strconv.ParseFloat(raw, 64) // validated: the error is range only, as for gjson
	return f, true
}

// jsonInt is gjson's Int of a raw JSON number, and false for any other
// value.
func jsonInt(raw string) (int64, bool) {
	if !isNumber(raw) {
		return 0, false
	}
	if len(raw) <= 15 { // fewer digits than a float64 holds exactly
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return n, true
		}
	}
	return gjson.Parse(raw).Int(), true
}

// isNumber reports whether a raw JSON value is a number.
func isNumber(raw string) bool { return raw != "" && (raw[0] == '-' || jsontext.IsDigit(raw[0])) }

// rawID is idString of a raw value.
func rawID(raw string) string {
	if s, ok := jsontext.RawString(raw); ok {
		return s
	}
	return idString(rawResult(raw))
}

// rawTextOf is textOf of a raw value.
func rawTextOf(raw string) string {
	if s, ok := jsontext.RawString(raw); ok {
		return s
	}
	return textOf(rawResult(raw))
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
		return jsontext.PartsText(v.Raw)
	}
	if v.Exists() && v.Type != gjson.Null {
		return v.Raw
	}
	return ""
}

// valueString renders a state value: strings as they are, anything else as
// compact JSON.
func valueString(raw string) string {
	switch {
	case raw == "" || raw == "null":
		return ""
	case raw[0] == '"':
		return jsontext.JsonString(raw)
	}
	var buf json.RawMessage = []byte(raw)
	out, err := json.Marshal(buf)
	if err != nil {
		return raw
	}
	return string(out)
}
