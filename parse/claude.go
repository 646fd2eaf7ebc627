package parse

import (
	"encoding/json"
	"hash/maphash"
	"strings"

	"github.com/tidwall/gjson"
)

// claudeDecoder reads Claude Code session records.
type claudeDecoder struct {
	s     *sink
	turns turnCounter
	cwd   string

	// pending is a compact_boundary waiting for its summary record.
	pending *Event

	// recent maps the ids of recent records to their turns, to resolve a
	// boundary's logicalParentUuid and preserved segment without keeping an
	// index of the whole file.
	recent ring

	// seen holds hashes of conversation record ids, to report duplicates.
	seed maphash.Seed
	seen map[uint64]int
}

func newClaudeDecoder(s *sink) *claudeDecoder {
	return &claudeDecoder{s: s, seed: maphash.MakeSeed(), seen: map[uint64]int{}}
}

func (d *claudeDecoder) decode(rec gjson.Result, line int, off int64) {
	typ := rec.Get("type").Str
	switch typ {
	case "user", "assistant", "system":
	default:
		// progress, file-history-snapshot, queue-operation, summary titles and
		// any type a newer version adds are not conversation.
		return
	}
	if cwd := rec.Get("cwd").Str; cwd != "" {
		d.cwd = cwd
	}
	uuid := rec.Get("uuid").Str
	if uuid != "" {
		h := maphash.String(d.seed, uuid)
		if first, dup := d.seen[h]; dup {
			d.s.diag.add(Warning, line, "duplicate uuid %s (first at line %d): record skipped", uuid, first)
			return
		}
		d.seen[h] = line
	}
	agent := d.agentOf(rec)
	base := Event{Line: line, Offset: off, Agent: agent, Time: rec.Get("timestamp").Str, UUID: uuid, Cwd: d.cwd}

	switch typ {
	case "system":
		d.system(rec, base)
	case "user":
		if rec.Get("isCompactSummary").Bool() {
			d.summary(rec, base)
			return
		}
		d.flushPending(line)
		d.user(rec, base)
	case "assistant":
		d.flushPending(line)
		d.assistant(rec, base)
	}
}

func (d *claudeDecoder) agentOf(rec gjson.Result) string {
	if rec.Get("isSidechain").Bool() {
		if id := rec.Get("agentId").Str; id != "" {
			return id
		}
		if d.s.agent != "" && d.s.agent != MainAgent {
			return d.s.agent
		}
		return "sidechain"
	}
	return d.s.agent
}

func (d *claudeDecoder) system(rec gjson.Result, base Event) {
	switch rec.Get("subtype").Str {
	case "compact_boundary":
		d.flushPending(base.Line)
		meta := rec.Get("compactMetadata")
		b := &Boundary{
			Kind:       BoundaryCompact,
			Trigger:    meta.Get("trigger").Str,
			PreTokens:  int(meta.Get("preTokens").Int()),
			ParentUUID: rec.Get("logicalParentUuid").Str,
		}
		b.ReplacesThrough = d.turns.current(base.Agent)
		if t, ok := d.recent.turnOf(b.ParentUUID); ok {
			b.ReplacesThrough = t
		}
		d.kept(meta, b, base.Line)
		ev := base
		ev.Kind, ev.Role, ev.Origin, ev.Boundary = KindBoundary, RoleSystem, OriginHarness, b
		ev.Turn = d.turns.current(base.Agent)
		d.pending = &ev
	case "microcompact_boundary":
		d.flushPending(base.Line)
		meta := rec.Get("microcompactMetadata")
		b := &Boundary{
			Kind:            BoundaryMicrocompact,
			Trigger:         meta.Get("trigger").Str,
			PreTokens:       int(meta.Get("preTokens").Int()),
			Readable:        true, // nothing to read: it writes no summary
			ReplacesThrough: d.turns.current(base.Agent),
		}
		for _, id := range meta.Get("compactedToolIds").Array() {
			b.ClearedToolIDs = append(b.ClearedToolIDs, id.Str)
		}
		ev := base
		ev.Kind, ev.Role, ev.Origin, ev.Boundary = KindBoundary, RoleSystem, OriginHarness, b
		ev.Turn = d.turns.boundary(base.Agent)
		d.s.put(&ev)
	}
	// turn_duration, stop_hook_summary, local_command, api_error and the
	// rest are the harness's bookkeeping, not conversation.
}

// kept resolves what a compaction kept verbatim.
func (d *claudeDecoder) kept(meta gjson.Result, b *Boundary, line int) {
	if seg := meta.Get("preservedSegment"); seg.Exists() {
		head, tail := seg.Get("headUuid").Str, seg.Get("tailUuid").Str
		turns, ok := d.recent.turnsBetween(head, tail)
		if !ok {
			d.s.diag.add(Warning, line, "preserved segment %s..%s is not among the records read before the boundary; its messages are treated as not kept", head, tail)
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
		role, _ := ParseRole(m.Get("message.role").Str)
		if role == 0 {
			role, _ = ParseRole(m.Get("type").Str)
		}
		if text := claudeText(m.Get("message.content")); text != "" {
			b.Kept = append(b.Kept, KeptItem{Role: role, Text: text})
		}
	}
}

// summary attaches the summary record to its boundary.
func (d *claudeDecoder) summary(rec gjson.Result, base Event) {
	text := claudeText(rec.Get("message.content"))
	if d.pending == nil {
		d.s.diag.add(Warning, base.Line, "compaction summary with no compact_boundary record before it: treated as a boundary of its own")
		ev := base
		ev.Kind, ev.Role, ev.Origin = KindBoundary, RoleSystem, OriginHarness
		ev.Turn = d.turns.current(base.Agent)
		ev.Boundary = &Boundary{Kind: BoundaryCompact, ReplacesThrough: ev.Turn}
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
	d.s.diag.add(Warning, d.pending.Line, "compact_boundary with no summary record after it (next conversation record at line %d): audited as unreadable", line)
	d.pending.Boundary.Unreadable = "no summary record followed the boundary"
	d.emitPending()
}

func (d *claudeDecoder) emitPending() {
	ev := d.pending
	d.pending = nil
	ev.Turn = d.turns.boundary(ev.Agent)
	d.s.put(ev)
}

func (d *claudeDecoder) user(rec gjson.Result, base Event) {
	content := rec.Get("message.content")
	isMeta := rec.Get("isMeta").Bool()
	if content.Type == gjson.String {
		d.userText(content.Str, isMeta, base)
		return
	}
	for _, block := range content.Array() {
		switch block.Get("type").Str {
		case "text":
			d.userText(block.Get("text").Str, isMeta, base)
		case "tool_result":
			d.toolResult(block, base)
		}
	}
}

// userText emits the parts of a user record's text: the user's own words,
// the rules and notices in reminders, and slash-command envelopes.
func (d *claudeDecoder) userText(text string, isMeta bool, base Event) {
	if strings.HasPrefix(strings.TrimSpace(text), "<local-command-caveat>") {
		return // the harness's note about the records that follow
	}
	rest, reminders := splitReminders(text)
	origin := OriginAuthored
	if isMeta {
		origin = OriginHarness // skill bodies and other injected context
	}
	if _, ok := tagBody(rest, "command-name"); ok {
		// A slash command: its arguments are the user's words; the command
		// name is the harness's.
		args, _ := tagBody(rest, "command-args")
		rest = strings.TrimSpace(args)
	} else if isHarnessEnvelope(rest) {
		origin = OriginHarness
	} else if out, ok := tagBody(rest, "local-command-stdout"); ok {
		rest, origin = out, OriginHarness
	} else if out, ok := tagBody(rest, "bash-stdout"); ok {
		errOut, _ := tagBody(rest, "bash-stderr")
		rest, origin = strings.TrimSpace(out+"\n"+errOut), OriginHarness
	} else if in, ok := tagBody(rest, "bash-input"); ok {
		rest = "!" + in
	}
	for _, seg := range reminders {
		ev := base
		ev.Kind, ev.Role, ev.Origin, ev.Text = KindMessage, RoleSystem, seg.origin, seg.text
		ev.Turn = d.turns.next(base.Agent, sideUser, "")
		d.remember(&ev)
		d.s.put(&ev)
	}
	if strings.TrimSpace(rest) == "" {
		return
	}
	ev := base
	ev.Kind, ev.Role, ev.Origin, ev.Text = KindMessage, RoleUser, origin, rest
	ev.Turn = d.turns.next(base.Agent, sideUser, "")
	d.remember(&ev)
	d.s.put(&ev)
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

func (d *claudeDecoder) toolResult(block gjson.Result, base Event) {
	text := claudeText(block.Get("content"))
	rest, reminders := splitReminders(text)
	ev := base
	ev.Kind, ev.Role, ev.Text = KindToolResult, RoleTool, rest
	ev.ToolID = block.Get("tool_use_id").Str
	ev.IsError = block.Get("is_error").Bool()
	ev.Turn = d.turns.next(base.Agent, sideTool, "")
	d.remember(&ev)
	d.s.put(&ev)
	for _, seg := range reminders {
		r := base
		r.Kind, r.Role, r.Origin, r.Text = KindMessage, RoleSystem, seg.origin, seg.text
		r.Turn = ev.Turn
		d.s.put(&r)
	}
}

func (d *claudeDecoder) assistant(rec gjson.Result, base Event) {
	msgID := rec.Get("message.id").Str
	if msgID == "" {
		msgID = base.UUID
	}
	role, origin := RoleAssistant, OriginAuthored
	if rec.Get("isApiErrorMessage").Bool() {
		role, origin = RoleSystem, OriginHarness
	}
	content := rec.Get("message.content")
	if content.Type == gjson.String {
		d.assistantText(content.Str, role, origin, msgID, base)
		return
	}
	for _, block := range content.Array() {
		switch block.Get("type").Str {
		case "text":
			d.assistantText(block.Get("text").Str, role, origin, msgID, base)
		case "thinking":
			ev := base
			ev.Kind, ev.Role, ev.Text = KindReasoning, RoleAssistant, block.Get("thinking").Str
			ev.Turn = d.turns.next(base.Agent, sideAssistant, msgID)
			d.s.put(&ev)
		case "tool_use", "server_tool_use":
			ev := base
			ev.Kind, ev.Role = KindToolCall, RoleAssistant
			ev.ToolName, ev.ToolID = block.Get("name").Str, block.Get("id").Str
			if in := block.Get("input"); in.Exists() {
				ev.Args = json.RawMessage(in.Raw)
			}
			ev.Turn = d.turns.next(base.Agent, sideAssistant, msgID)
			d.remember(&ev)
			d.s.put(&ev)
		}
	}
}

func (d *claudeDecoder) assistantText(text string, role Role, origin Origin, msgID string, base Event) {
	if strings.TrimSpace(text) == "" {
		// Claude Code writes a "\n\n" text block before thinking; it still
		// opens the turn.
		d.turns.next(base.Agent, sideAssistant, msgID)
		return
	}
	ev := base
	ev.Kind, ev.Role, ev.Origin, ev.Text = KindMessage, role, origin, text
	ev.Turn = d.turns.next(base.Agent, sideAssistant, msgID)
	d.remember(&ev)
	d.s.put(&ev)
}

func (d *claudeDecoder) remember(ev *Event) {
	if ev.UUID != "" {
		d.recent.add(ev.UUID, ev.Turn)
	}
}

func (d *claudeDecoder) finish() {
	if d.pending != nil {
		d.s.diag.add(Warning, d.pending.Line, "compact_boundary at the end of the file with no summary after it: audited as unreadable")
		d.pending.Boundary.Unreadable = "no summary record followed the boundary"
		d.emitPending()
	}
}

// claudeText flattens message or tool_result content: a string, or blocks
// of which the text ones count.
func claudeText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	if !content.IsArray() {
		return ""
	}
	var parts []string
	for _, b := range content.Array() {
		if b.Type == gjson.String {
			parts = append(parts, b.Str)
			continue
		}
		if t := b.Get("text"); t.Type == gjson.String {
			parts = append(parts, t.Str)
		}
	}
	return strings.Join(parts, "\n")
}

// ring remembers the turns of the last ringSize record ids.
type ring struct {
	ids   [ringSize]string
	turns [ringSize]int
	n     int
}

const ringSize = 4096

func (r *ring) add(id string, turn int) {
	if r.n > 0 && r.ids[(r.n-1)%ringSize] == id {
		return // several events of one record
	}
	r.ids[r.n%ringSize], r.turns[r.n%ringSize] = id, turn
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
