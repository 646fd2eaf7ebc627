// Package claude reads Claude Code session JSONL into parse's events: user,
// assistant, system and attachment records, the parent chain and duplicate
// records, compact_boundary with its summary record, system reminders and
// memory files. It knows Claude Code's records and nothing of other formats
// or of obligations.
package claude

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/tidwall/gjson"
)

// Reader reads Claude Code sessions.
var Reader = parse.FormatReader{
	Info: parse.FormatInfo{
		Name:      parse.FormatClaudeCode,
		Title:     "Claude Code session JSONL",
		Location:  "~/.claude/projects/<encoded-cwd>/<session>.jsonl, subagents in <session>/subagents/agent-*.jsonl",
		Detection: `records with "type" user, assistant, system, attachment, progress, file-history-snapshot, queue-operation, custom-title or summary and a "uuid", "sessionId" or "message" field`,
		Boundary:  `system record subtype compact_boundary followed by the user record with isCompactSummary; system subtype microcompact_boundary`,
	},
	Aliases:    []string{"claude", "claudecode"},
	Claims:     claimsClaude,
	NewDecoder: func(s *parse.Sink) parse.Decoder { return newClaudeDecoder(s) },
	OwnClock:   true, // each record is checked against its parent (chain)
}

var claudeTypes = []string{"user", "assistant", "system", "summary", "progress",
	"file-history-snapshot", "queue-operation", "attachment", "custom-title"}

// claimsClaude: a record type of Claude Code's with one of the fields its
// records carry.
func claimsClaude(rec gjson.Result) bool {
	typ := rec.Get("type")
	return typ.Type == gjson.String && slices.Contains(claudeTypes, typ.Str) &&
		(rec.Get("uuid").Exists() || rec.Get("sessionId").Exists() ||
			rec.Get("message").Exists() || rec.Get("snapshot").Exists() || rec.Get("leafUuid").Exists())
}

// claudeDecoder reads Claude Code session records.
type claudeDecoder struct {
	s       *parse.Sink
	turns   parse.Turns
	cwd     string
	lastCwd lastCopy
	lastMsg lastCopy // an assistant message's id

	// pending is a compact_boundary waiting for its summary record.
	pending *parse.Event

	// recent maps the ids of recent records to their turns, to resolve a
	// boundary's logicalParentUuid and preserved segment without keeping an
	// index of the whole file.
	recent ring

	// seen holds hashes of recent conversation record ids with where they
	// were written, for the parent chain and to report a duplicate with
	// its first line: a record written twice mostly lands near its first
	// copy, and a bounded window keeps memory flat on a long session.
	// Ids that leave the window go to older, hashes only, so a duplicate
	// is still found after that (a session concatenated with itself).
	seed     maphash.Seed
	seen     map[uint64]recordMark
	older    idSet
	wanted   map[uint64]bool // parents named before they were written
	seenRing []uint64        // grows to seenWindow, then wraps
	seenN    int
}

// seenWindow is how many recent record ids are kept with their lines.
const seenWindow = 1 << 16

func newClaudeDecoder(s *parse.Sink) *claudeDecoder {
	return &claudeDecoder{s: s, seed: maphash.MakeSeed(), seen: map[uint64]recordMark{}, wanted: map[uint64]bool{}}
}

// claudeRecord is one record read on its own, before the decoder's state
// (turns, the pending boundary, duplicate ids) applies: reading it is the
// costly part and runs on several records at once.
type claudeRecord struct {
	typ            string
	kind           recordKind // typ, for the ordered goroutine (apply)
	cwd, uuid      string
	parentUUID     string
	timestamp      string
	sidechain      bool
	agentID        string
	compactSummary bool
	msgID          string // assistant message id, or the record's uuid
	summary        string // the text of a compaction summary
	invalidUTF8    bool   // text that was not UTF-8 was replaced
	sys            gjson.Result
	drafts         []draft
	noReasoning    bool // thinking is not read (Options.NoReasoningText)
	// read off uuid, parentUUID and timestamp by the reading workers
	// (stamp), not by the one goroutine that applies records in order
	uuidHash, parentHash uint64 // 0 for none
	millis               int64  // the timestamp, when timeRead
	timeRead             bool
}

// draft is an event of a record without its place in the stream.
type draft struct {
	ev       parse.Event
	side     parse.Side
	sameTurn bool // a reminder riding on the tool result before it
	turnOnly bool // opens the turn and emits nothing
	remember bool // its uuid can be named by a later boundary
}

// Prepare reads a Claude Code record. It keeps no state, and reads the
// record in one pass: the tool output Claude Code duplicates under
// toolUseResult, and the data of progress records, are skipped unread.
func (d *claudeDecoder) Prepare(rec parse.Record, annotate func(*parse.Event)) any {
	r := &claudeRecord{noReasoning: rec.NoReasoning}
	m := r.readMembers(rec)
	message, attachment, isMeta, apiError := m.message, m.attachment, m.isMeta, m.apiError
	cwd := m.cwd
	// The record's own fields are kept apart from its line (a timestamp
	// lives on in the audit's history, the line must not), in one copy;
	// the working folder is mostly the record before's.
	r.cwd = d.lastCwd.keep(cwd)
	detach(&r.uuid, &r.timestamp, &r.agentID)
	r.kind = recordKindOf(r.typ)
	j := rec.Text() // not kept: the index is reused once the record is read
	switch r.typ {
	case "user":
		content := j.Member(message, "content")
		if r.compactSummary {
			r.summary = strings.Clone(claudeContentText(content))
			d.stamp(r)
			return r
		}
		r.userDrafts(j, content, isMeta)
	case "assistant":
		r.assistantDrafts(j, message, apiError, &d.lastMsg)
	case "system":
		r.sys = gjson.Parse(strings.Clone(rec.Raw)) // rare; kept whole
		d.stamp(r)
		return r
	case "attachment":
		if prompt, human := queuedPrompt(attachment); prompt != "" {
			r.userDrafts(j, prompt, !human)
			break
		}
		text, origin := attachedContext(attachment, r.cwd)
		if text == "" {
			return nil // a file's contents, a todo or plan reminder, a listing
		}
		// read with the tool result or prompt before it, in its turn
		r.drafts = append(r.drafts, draft{ev: parse.Event{Kind: parse.KindMessage, Role: parse.RoleSystem, Origin: origin, Text: text}, side: parse.SideTool, remember: true})
	default:
		// progress, file-history-snapshot, queue-operation, summary titles
		// and any type a newer version adds are not conversation.
		return nil
	}
	for i := range r.drafts {
		if r.drafts[i].turnOnly {
			continue // never emitted
		}
		ev := &r.drafts[i].ev
		if parse.Within(ev.Text, rec.Raw) {
			// a text with no escapes is a piece of the line; the audit keeps
			// pieces of it, which must not hold the line's read chunk
			ev.Text = strings.Clone(ev.Text)
		}
		if parse.Settle(ev, rec.ValidUTF8, annotate) {
			r.invalidUTF8 = true
		}
	}
	d.stamp(r)
	return r
}

// recordMembers are the members of a record Prepare reads beside those
// it puts in the record itself.
type recordMembers struct {
	message, attachment, cwd string
	isMeta, apiError         bool
}

// readMembers reads a record's top-level members in one pass.
func (r *claudeRecord) readMembers(rec parse.Record) (m recordMembers) {
	for _, f := range rec.Fields {
		k, v := rec.Raw[f.K0:f.K1], rec.Raw[f.V0:f.V1]
		switch k {
		case "type":
			r.typ = jsontext.JsonString(v)
		case "cwd":
			m.cwd = jsontext.JsonString(v)
		case "uuid":
			r.uuid = jsontext.JsonString(v)
		case "parentUuid":
			r.parentUUID = jsontext.JsonString(v)
		case "timestamp":
			r.timestamp = jsontext.JsonString(v)
		case "isSidechain":
			r.sidechain = jsontext.JsonBool(v)
		case "agentId":
			r.agentID = jsontext.JsonString(v)
		case "isCompactSummary":
			r.compactSummary = jsontext.JsonBool(v)
		case "isMeta":
			m.isMeta = jsontext.JsonBool(v)
		case "isApiErrorMessage":
			m.apiError = jsontext.JsonBool(v)
		case "message":
			m.message = v
		case "attachment":
			m.attachment = v
		}
	}
	return m
}

// recordKind is a record's type as the ordered goroutine tells it: typ is
// a piece of the line, which by then has mostly left the cache, and
// comparing it was a cache miss a record.
type recordKind uint8

const (
	recordOther recordKind = iota
	recordUser
	recordAssistant
	recordSystem
	recordAttachment
)

func recordKindOf(typ string) recordKind {
	switch typ {
	case "user":
		return recordUser
	case "assistant":
		return recordAssistant
	case "system":
		return recordSystem
	case "attachment":
		return recordAttachment
	}
	return recordOther
}

// stamp reads what chain needs of a record kept for applying: its id's
// and its parent's hashes and its time. d.seed is set once, so the
// workers may read it together.
func (d *claudeDecoder) stamp(r *claudeRecord) {
	if r.uuid != "" {
		r.uuidHash = maphash.String(d.seed, r.uuid)
	}
	if r.parentUUID != "" {
		r.parentHash = maphash.String(d.seed, r.parentUUID)
	}
	if t, err := time.Parse(time.RFC3339Nano, r.timestamp); err == nil {
		r.millis, r.timeRead = t.UnixMilli(), true
	}
}

// Skips names the records that are not conversation — progress, file
// snapshots, queue operations, titles — a large share of a session's bytes.
// Detaches: Prepare copies out every string a record's events keep (ids,
// names, times are cloned as read; texts below), so a line is read in place.
func (*claudeDecoder) Detaches() {}

// what the reader asks of a decoder beyond parse.Decoder, checked here
// because it asks by type assertion
var (
	_ parse.Skipper  = (*claudeDecoder)(nil)
	_ parse.Detacher = (*claudeDecoder)(nil)
)

func (d *claudeDecoder) Skips(typ string) bool {
	switch typ {
	case "progress", "file-history-snapshot", "queue-operation", "summary", "custom-title", "tag", "agent-name", "last-prompt":
		return true
	}
	return false
}

func (d *claudeDecoder) Apply(p any, line int, off int64) {
	r, _ := p.(*claudeRecord)
	if r == nil {
		return
	}
	if r.cwd != "" {
		d.cwd = r.cwd
	}
	if r.uuid != "" {
		h := r.uuidHash
		if first, dup := d.seen[h]; dup {
			d.s.Report(parse.Warning, line, "duplicate uuid %s (first at line %d): record skipped", r.uuid, first.line)
			return
		}
		if d.older.has(h) {
			d.s.Report(parse.Warning, line, "duplicate uuid %s (first more than %d records earlier): record skipped", r.uuid, seenWindow)
			return
		}
		d.chain(r, h, line)
	}
	if r.invalidUTF8 {
		d.s.Report(parse.Warning, line, parse.InvalidUTF8Msg)
	}
	agent := d.agentOf(r)
	base := parse.Event{Line: line, Offset: off, Agent: agent, Time: r.timestamp, UUID: r.uuid, Cwd: d.cwd}
	switch r.kind {
	case recordSystem:
		d.system(r.sys, base)
		return
	case recordUser:
		if r.compactSummary {
			d.summary(r.summary, base)
			return
		}
	}
	d.flushPending(line)
	turn := 0
	for i := range r.drafts {
		dr := &r.drafts[i]
		msgID := ""
		if dr.side == parse.SideAssistant {
			msgID = r.msgID
		}
		if !dr.sameTurn {
			turn = d.turns.Next(agent, dr.side, msgID)
		}
		if dr.turnOnly {
			continue
		}
		// the draft's own event goes out: the record is done with once
		// applied, and a copy was an allocation per event
		ev := &dr.ev
		ev.Line, ev.Offset, ev.Agent, ev.Time, ev.UUID, ev.Cwd = base.Line, base.Offset, base.Agent, base.Time, base.UUID, base.Cwd
		ev.Turn = turn
		if dr.remember {
			d.remember(ev)
		}
		d.s.Put(ev)
	}
}

// recordMark is what the decoder remembers of a recent record.
type recordMark struct {
	line   int32
	parent uint64 // hash of its parentUuid; 0 for none
	millis int64  // its timestamp; 0 when unknown
	// relinked marks a compaction record, and the earlier-stamped records
	// Claude Code re-links under it (kept and queued messages keep their
	// own times)
	relinked bool
}

// chain remembers a record among the recent ones and checks its link to its
// parent: a parentUuid that leads back to the record itself (a cycle), or a
// record stamped well before its parent. Claude Code stamps a tool result
// before the records written while the tool ran, so file order alone says
// nothing; a child before its parent does.
func (d *claudeDecoder) chain(r *claudeRecord, h uint64, line int) {
	m := recordMark{line: int32(min(line, math.MaxInt32))}
	if r.timeRead {
		m.millis = r.millis
	} else if r.timestamp != "" {
		// Claude Code writes RFC 3339 in UTC; anything else is damage, and a
		// postmortem reads times off the report
		d.s.Report(parse.Warning, line, "unreadable timestamp: %q is not an RFC 3339 time; the record is audited, its order against its parent is not checked", parse.Preview(r.timestamp, 40))
	}
	m.parent = r.parentHash
	switch {
	case m.parent == h:
		d.s.Report(parse.Warning, line, "parentUuid cycle: record %s names itself as its parent; the conversation is read in file order", r.uuid)
	case d.wanted[h]:
		// an earlier record named this one as its parent before it was
		// written: follow the parents and see whether they come back
		delete(d.wanted, h)
		for cur, steps := m.parent, 0; cur != 0 && steps < seenWindow; steps++ {
			if cur == h {
				d.s.Report(parse.Warning, line, "parentUuid cycle: record %s is its own ancestor (an earlier record names it as its parent); the conversation is read in file order", r.uuid)
				break
			}
			pm, ok := d.seen[cur]
			if !ok {
				break
			}
			cur = pm.parent
		}
	}
	if m.parent != 0 {
		if pm, ok := d.seen[m.parent]; !ok {
			if len(d.wanted) >= seenWindow {
				clear(d.wanted) // names of records never written; keep it bounded
			}
			d.wanted[m.parent] = true
		} else if m.millis != 0 && pm.millis != 0 && pm.millis-m.millis > int64(clockSlack/time.Millisecond) {
			if pm.relinked {
				m.relinked = true
			} else if r.kind != recordAttachment {
				// a queued prompt's attachment is stamped when the user typed
				// it, before the records written while it waited
				d.s.Report(parse.Warning, line, "out-of-order timestamp: %s is %s earlier than its parent's at line %d; the conversation is read in file order",
					r.timestamp, (time.Duration(pm.millis-m.millis) * time.Millisecond).String(), pm.line)
			}
		}
	}
	if r.compactSummary || r.kind == recordSystem && r.sys.Get("subtype").Str == "compact_boundary" {
		m.relinked = true
	}
	if len(d.seenRing) < seenWindow {
		d.seenRing = append(d.seenRing, h)
	} else {
		gone := d.seenRing[d.seenN%seenWindow]
		delete(d.seen, gone)
		d.older.add(gone)
		d.seenRing[d.seenN%seenWindow] = h
	}
	d.seenN++
	d.seen[h] = m
}

// clockSlack is how much earlier than its parent a record may be stamped
// before it is reported: writers stamp on different threads.
const clockSlack = time.Second

func (d *claudeDecoder) agentOf(r *claudeRecord) string {
	if r.sidechain {
		if r.agentID != "" {
			return r.agentID
		}
		if d.s.FileAgent() != "" && d.s.FileAgent() != parse.MainAgent {
			return d.s.FileAgent()
		}
		return "sidechain"
	}
	return d.s.FileAgent()
}

func (d *claudeDecoder) system(rec gjson.Result, base parse.Event) {
	switch rec.Get("subtype").Str {
	case "compact_boundary":
		d.flushPending(base.Line)
		meta := rec.Get("compactMetadata")
		b := &parse.Boundary{
			Kind:       parse.BoundaryCompact,
			Trigger:    meta.Get("trigger").Str,
			PreTokens:  int(meta.Get("preTokens").Int()),
			ParentUUID: rec.Get("logicalParentUuid").Str,
		}
		b.ReplacesThrough = d.turns.Current(base.Agent)
		if t, ok := d.recent.turnOf(b.ParentUUID); ok {
			b.ReplacesThrough = t
		}
		d.kept(meta, b, base.Line)
		ev := base
		ev.Kind, ev.Role, ev.Origin, ev.Boundary = parse.KindBoundary, parse.RoleSystem, parse.OriginHarness, b
		ev.Turn = d.turns.Current(base.Agent)
		d.pending = &ev
	case "microcompact_boundary":
		d.flushPending(base.Line)
		meta := rec.Get("microcompactMetadata")
		b := &parse.Boundary{
			Kind:            parse.BoundaryMicrocompact,
			Trigger:         meta.Get("trigger").Str,
			PreTokens:       int(meta.Get("preTokens").Int()),
			Readable:        true, // nothing to read: it writes no summary
			ReplacesThrough: d.turns.Current(base.Agent),
		}
		for _, id := range meta.Get("compactedToolIds").Array() {
			b.ClearedToolIDs = append(b.ClearedToolIDs, id.Str)
		}
		ev := base
		ev.Kind, ev.Role, ev.Origin, ev.Boundary = parse.KindBoundary, parse.RoleSystem, parse.OriginHarness, b
		ev.Turn = d.turns.Boundary(base.Agent)
		d.s.Put(&ev)
	}
	// turn_duration, stop_hook_summary, local_command, api_error and the
	// rest are the harness's bookkeeping, not conversation.
}

// kept resolves what a compaction kept verbatim.
func (d *claudeDecoder) kept(meta gjson.Result, b *parse.Boundary, line int) {
	if seg := meta.Get("preservedSegment"); seg.Exists() {
		head, tail := seg.Get("headUuid").Str, seg.Get("tailUuid").Str
		turns, ok := d.recent.turnsBetween(head, tail)
		if !ok {
			d.s.Report(parse.Warning, line, "preserved segment %s..%s is not among the records read before the boundary; its messages are treated as not kept", head, tail)
		}
		b.KeptUUIDs = append(b.KeptUUIDs, head, tail)
		b.KeptTurns = append(b.KeptTurns, turns...)
	}
	for _, m := range meta.Get("preservedMessages").Array() {
		if m.Type == gjson.String {
			b.KeptUUIDs = append(b.KeptUUIDs, m.Str)
			if t, ok := d.recent.turnOf(m.Str); ok {
				b.KeptTurns = append(b.KeptTurns, t)
			}
			continue
		}
		role, _ := parse.ParseRole(m.Get("message.role").Str)
		if role == 0 {
			role, _ = parse.ParseRole(m.Get("type").Str)
		}
		if text := claudeText(m.Get("message.content")); text != "" {
			b.Kept = append(b.Kept, parse.KeptItem{Role: role, Text: text})
		}
	}
}

// summary attaches the summary record to its boundary.
func (d *claudeDecoder) summary(text string, base parse.Event) {
	if d.pending == nil {
		d.s.Report(parse.Warning, base.Line, "compaction summary with no compact_boundary record before it: treated as a boundary of its own")
		ev := base
		ev.Kind, ev.Role, ev.Origin = parse.KindBoundary, parse.RoleSystem, parse.OriginHarness
		ev.Turn = d.turns.Current(base.Agent)
		ev.Boundary = &parse.Boundary{Kind: parse.BoundaryCompact, ReplacesThrough: ev.Turn}
		d.pending = &ev
	}
	b := d.pending.Boundary
	b.Summary, b.Readable, b.SummaryLine = text, strings.TrimSpace(text) != "", base.Line
	if !b.Readable {
		b.Unreadable = "the summary record is empty"
	}
	d.emitPending()
}

// flushPending emits a boundary that never got its summary.
func (d *claudeDecoder) flushPending(line int) {
	if d.pending == nil {
		return
	}
	d.s.Report(parse.Warning, d.pending.Line, "compact_boundary with no summary record after it (next conversation record at line %d): audited as unreadable", line)
	d.pending.Boundary.Unreadable = "no summary record followed the boundary"
	d.emitPending()
}

func (d *claudeDecoder) emitPending() {
	ev := d.pending
	d.pending = nil
	ev.Turn = d.turns.Boundary(ev.Agent)
	d.s.Put(ev)
}

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

// lastCopy keeps a string apart from its line for the records that
// repeat it one after another: the working folder, the id of a message
// Claude Code writes a block per record. Records are prepared on several
// workers at once, so the copy is shared through an atomic pointer.
type lastCopy struct{ p atomic.Pointer[string] }

// keep returns a copy of s, the one kept before when it is the same.
func (c *lastCopy) keep(s string) string {
	if s == "" {
		return ""
	}
	if last := c.p.Load(); last != nil && *last == s {
		return *last
	}
	kept := strings.Clone(s)
	c.p.Store(&kept)
	return kept
}

// detach copies the strings into one allocation of their own, so that
// none keeps the line it was read from.
func detach(ss ...*string) {
	n := 0
	for _, s := range ss {
		n += len(*s)
	}
	if n == 0 {
		return
	}
	b := make([]byte, 0, n)
	for _, s := range ss {
		at := len(b)
		b = append(b, *s...)
		*s = unsafe.String(unsafe.SliceData(b[at:]), len(*s)) // b is not written again where *s lies
	}
}

func (d *claudeDecoder) remember(ev *parse.Event) {
	if ev.UUID != "" {
		d.recent.add(ev.UUID, ev.Turn)
	}
}

func (d *claudeDecoder) Finish() {
	if d.pending != nil {
		d.s.Report(parse.Warning, d.pending.Line, "compact_boundary at the end of the file with no summary after it: audited as unreadable")
		d.pending.Boundary.Unreadable = "no summary record followed the boundary"
		d.emitPending()
	}
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

// ring remembers the turns of the last ringSize record ids. It grows to
// its size as records come, so a short session does not pay for a long one.
type ring struct {
	ids   []string
	turns []int
	n     int
}

const ringSize = 4096

func (r *ring) add(id string, turn int) {
	if r.n > 0 && r.ids[(r.n-1)%ringSize] == id {
		return // several events of one record
	}
	if len(r.ids) < ringSize {
		r.ids, r.turns = append(r.ids, id), append(r.turns, turn)
	} else {
		r.ids[r.n%ringSize], r.turns[r.n%ringSize] = id, turn
	}
	r.n++
}

func (r *ring) index(id string) int {
	if id == "" {
		return -1
	}
	for i := r.n - 1; i >= 0 && i >= r.n-ringSize; i-- {
		if r.ids[i%ringSize] == id {
			return i
		}
	}
	return -1
}

func (r *ring) turnOf(id string) (int, bool) {
	i := r.index(id)
	if i < 0 {
		return 0, false
	}
	return r.turns[i%ringSize], true
}

// turnsBetween lists the distinct turns of the records from head to tail.
func (r *ring) turnsBetween(head, tail string) ([]int, bool) {
	h, t := r.index(head), r.index(tail)
	if h < 0 || t < 0 || t < h {
		return nil, false
	}
	var out []int
	for i := h; i <= t; i++ {
		turn := r.turns[i%ringSize]
		if len(out) == 0 || out[len(out)-1] != turn {
			out = append(out, turn)
		}
	}
	return out, true
}
