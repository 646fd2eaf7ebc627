package claude

import (
	"math"
	"strings"
	"time"

	"github.com/compaudit/compaudit/parse"
	"github.com/tidwall/gjson"
)

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
