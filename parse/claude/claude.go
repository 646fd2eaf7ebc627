// Package claude reads Claude Code session JSONL into parse's events: user,
// assistant, system and attachment records, the parent chain and duplicate
// records, compact_boundary with its summary record, system reminders and
// memory files. It knows Claude Code's records and nothing of other formats
// or of obligations.
package claude

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
	"time"

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
	return parse.TypeIn(rec, claudeTypes) && (rec.Get("uuid").Exists() || rec.Get("sessionId").Exists() ||
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
	// The record's own fields are kept apart from its line (a timestamp
	// lives on in the audit's history, the line must not), in one copy;
	// the working folder is mostly the record before's.
	r.cwd = d.lastCwd.keep(m.cwd)
	detach(&r.uuid, &r.timestamp, &r.agentID)
	r.kind = recordKindOf(r.typ)
	j := rec.Text() // not kept: the index is reused once the record is read
	switch r.typ {
	case "user":
		content := j.Member(m.message, "content")
		if r.compactSummary {
			r.summary = strings.Clone(claudeContentText(content))
			d.stamp(r)
			return r
		}
		r.userDrafts(j, content, m.isMeta)
	case "assistant":
		r.assistantDrafts(j, m.message, m.apiError, &d.lastMsg)
	case "system":
		r.sys = gjson.Parse(strings.Clone(rec.Raw)) // rare; kept whole
		d.stamp(r)
		return r
	case "attachment":
		if prompt, human := queuedPrompt(m.attachment); prompt != "" {
			r.userDrafts(j, prompt, !human)
			break
		}
		text, origin := attachedContext(m.attachment, r.cwd)
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

// detach copies the strings, so that none keeps the line it was read
// from.
func detach(ss ...*string) {
	for _, s := range ss {
		*s = strings.Clone(*s)
	}
}
