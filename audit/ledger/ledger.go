// Package ledger owns the obligations of each agent as of each turn:
// tagged from the turns as they were written (never from a summary),
// with their history — restatements, retractions, supersessions and
// states — kept, not overwritten. It turns what tag finds in an event
// into Obligations and knows nothing of boundaries, replays or findings.
package ledger

import (
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// Ledger holds the obligations of one agent, tagged from original turns as
// they were written, with their history: retracted and superseded ones stay,
// marked with the turn that ended them.
type Ledger struct {
	Agent       string
	Obligations []*Obligation // in the order they were tagged

	byKey map[obligationKey]*Obligation // live or retired, for deduplication
	// the first retraction with each id, for Retraction: RetiredBy names
	// one, and only one is ever looked up
	retractions map[string]*Obligation
	// the thresholds not yet known to be retired, by subject, for
	// supersedeThreshold, which drops the retired ones as it passes them:
	// walking every threshold ever held cost the square of a long list
	thresholds map[string][]*Obligation
	// each subject's latest state, by foldKey: setState keeps at most one
	// state of a subject live, and scanning the ledger for it on every
	// state cost the ledger's length each time
	states  map[string]*Obligation
	pending map[string]toolCall // calls waiting for their result
	Tagging Tagging             // patterns from configuration
	// since is the first turn after the agent's latest compaction: only the
	// first restatement since then is noted, so a literal a tool prints in
	// every turn does not grow the ledger with the file.
	since int
	// Overfull are the messages whose tagging stopped at
	// MaxMessageObligations, in the order they came.
	Overfull []Overfull

	copies copier // copies obligations' strings out of event text
}

// Compacted tells the ledger the agent's context was compacted; turn is the
// first turn after it.
func (l *Ledger) Compacted(turn int) { l.since = turn }

// Restated notes a later turn that stated an obligation again.
func (l *Ledger) restated(o *Obligation, turn int) {
	if n := len(o.Restated); n > 0 && o.Restated[n-1] >= l.since {
		return
	}
	o.Restated = append(o.Restated, turn)
}

// toolCall is what a run's result needs to know of its call. It is copied
// out of the call's record: a call whose result never comes would keep the
// whole record, arguments and all, for the rest of the audit.
type toolCall struct {
	command string // clipped, for the state's detail
	runs    runstate.RunSet
}

// MaxMessageObligations bounds the obligations one message adds. The
// longest instructions agents are given (a CLAUDE.md, an AGENTS.md) state
// a few hundred, and a user may paste a list of a few thousand names to
// hold to; a message with more is a pasted document (a log, a data dump),
// and tagging each of its million sentences made the ledger, and the
// audit's memory, grow with the paste (a 35 MB message: 3.7 GB). The rest
// of such a message is not tagged, and the file's diagnostics say so.
const MaxMessageObligations = 10000

// Overfull is a message that held more than MaxMessageObligations.
type Overfull struct {
	File       string
	Line, Turn int
	// From is the byte offset in the message's text where tagging stopped.
	From int
}

// NewLedger returns an empty ledger for an agent.
func NewLedger(agent string) *Ledger {
	return &Ledger{Agent: agent, byKey: map[obligationKey]*Obligation{}, retractions: map[string]*Obligation{}, pending: map[string]toolCall{}, thresholds: map[string][]*Obligation{}, states: map[string]*Obligation{}}
}

// Live returns the obligations in force as of a turn: stated at or before
// it and not retracted or superseded by then.
func (l *Ledger) Live(turn int) []*Obligation {
	var out []*Obligation
	for _, o := range l.Obligations {
		if o.LiveAt(turn) {
			out = append(out, o)
		}
	}
	return out
}

// LiveAt reports an obligation in force as of a turn.
func (o *Obligation) LiveAt(turn int) bool {
	return o.Kind != tag.KindRetraction && o.Origin.Turn <= turn && (o.RetiredAt == 0 || o.RetiredAt > turn)
}

// Retired returns the obligations retracted or superseded as of a turn.
func (l *Ledger) Retired(turn int) []*Obligation {
	var out []*Obligation
	for _, o := range l.Obligations {
		if o.RetiredAt != 0 && o.RetiredAt <= turn {
			out = append(out, o)
		}
	}
	return out
}

// Retraction returns the retraction an obligation's RetiredBy names.
func (l *Ledger) Retraction(id string) *Obligation { return l.retractions[id] }

// appendObligation adds o to the ledger's list and a retraction, when no
// earlier one has its id, to the index Retraction reads.
func (l *Ledger) appendObligation(o *Obligation) {
	l.Obligations = append(l.Obligations, o)
	if _, ok := l.retractions[o.ID]; !ok && o.Kind == tag.KindRetraction {
		l.retractions[o.ID] = o
	}
}

// Observe tags one original event and records what it binds. It returns the
// Obligations the event added or retired. Summaries never come here: the
// Ledger is built from what was said, not from what a summarizer kept.
func (l *Ledger) Observe(ev *parse.Event) []*Obligation { return l.ObserveRead(ev, nil) }

// Observe is Observe with what the reader prepared for the event, if anything.
func (l *Ledger) ObserveRead(ev *parse.Event, p *reading.Prepared) []*Obligation {
	if ev.Agent != l.Agent {
		return nil
	}
	switch ev.Kind {
	case parse.KindMessage:
		return l.message(ev, p)
	case parse.KindToolCall:
		return l.toolCall(ev, p)
	case parse.KindToolResult:
		var hits []tag.LiteralHit
		if p != nil {
			hits = p.ToolHits
		} else {
			hits = toolLiteralsFast(ev.Text, reading.MaxToolLiterals)
		}
		return l.toolResult(ev, hits)
	}
	return nil
}

// eventOrigin is the Origin of one event's obligations, made when the
// first is recorded: most events state none, and those that do share it.
type eventOrigin struct {
	ev *parse.Event
	o  *Origin
}

func originOf(ev *parse.Event) *eventOrigin { return &eventOrigin{ev: ev} }

func (e *eventOrigin) get() *Origin {
	if e.o == nil {
		ev := e.ev
		e.o = &Origin{File: ev.File, Line: ev.Line, Offset: ev.Offset, Turn: ev.Turn, Role: ev.Role,
			Agent: ev.Agent, Event: ev.Index, UUID: ev.UUID, ToolID: ev.ToolID, Source: reading.SourceOf(ev)}
	}
	return e.o
}

func (l *Ledger) message(ev *parse.Event, p *reading.Prepared) []*Obligation {
	m := &messageTags{l: l, ev: ev, origin: originOf(ev), standing: ev.Origin == parse.OriginRules}
	switch src := reading.SourceOf(ev); {
	case src.Instructive():
		m.instruction()
	case src == reading.SourceAssistant:
		m.assistant(p)
	default:
		hits := []tag.LiteralHit(nil)
		if p != nil {
			hits = p.ToolHits
		} else {
			hits = toolLiteralsFast(ev.Text, reading.MaxToolLiterals)
		}
		m.changed = append(m.changed, l.toolLiterals(ev.Text, hits, m.origin)...)
	}
	return m.changed
}

// messageTags is the tagging of one message into the ledger: what it
// changed, and how many obligations it added against
// MaxMessageObligations.
type messageTags struct {
	l        *Ledger
	ev       *parse.Event
	origin   *eventOrigin
	standing bool
	changed  []*Obligation
	tagged   int
}

// put records an obligation of the message.
func (m *messageTags) put(o *Obligation) {
	o.Origin, o.Standing = m.origin.get(), m.standing
	m.tagged++
	if got := m.l.record(o); got != nil {
		m.changed = append(m.changed, got)
	}
}

// full says whether the message has added all it may; the first time, it
// notes where tagging stopped.
func (m *messageTags) full(at int) bool {
	if m.tagged < MaxMessageObligations {
		return false
	}
	l, ev := m.l, m.ev
	if n := len(l.Overfull); n == 0 || l.Overfull[n-1].File != ev.File || l.Overfull[n-1].Line != ev.Line {
		l.Overfull = append(l.Overfull, Overfull{File: strings.Clone(ev.File), Line: ev.Line, Turn: ev.Turn, From: at})
	}
	return true
}

// instruction tags what a user, a rule file or the harness said: its
// literals, then sentence by sentence its retractions, directives,
// thresholds and states.
func (m *messageTags) instruction() {
	text := m.ev.Text
	sents := &lex.SentenceCursor{Text: text}
	for _, h := range m.l.literals(text) {
		if m.full(h.Start) {
			break
		}
		o := literalObligation(h, text)
		if s, ok := sents.Holding(h.Start); ok {
			o.Sentence = s.Around(h.Start-s.Start, h.End-s.Start)
		}
		m.put(o)
	}
	for i := 0; ; i++ {
		s, ok := sents.At(i)
		if !ok || m.full(s.Start) {
			break
		}
		m.sentence(s)
	}
}

func (m *messageTags) sentence(s lex.Sentence) {
	l := m.l
	if r, ok := tag.FindRetraction(s.Text); ok {
		m.changed = append(m.changed, l.retract(r, s, m.ev, m.origin)...)
	}
	for _, d := range append(tag.FindDirectives(s.Text), tag.CueDirectives(s.Text, l.Tagging.ProhibitionCues)...) {
		o := &Obligation{Kind: d.Kind, Polarity: d.Polarity, Object: tag.MakeObject(d.Object)}
		o.Span = Span{Text: s.Text[d.Start:d.End], Start: s.Start + d.Start, End: s.Start + d.End}
		o.Text, o.Sentence = o.Span.Text, s.Around(d.Start, d.End)
		if len(o.Object.Terms) == 0 && len(o.Object.Literals) == 0 {
			continue
		}
		m.put(o)
	}
	for _, th := range tag.FindThresholds(s.Text) {
		t := th.T
		start := subjectStart(s.Text, th.Start, t.Subject)
		end := subjectEnd(s.Text, th.End, t.Subject)
		o := &Obligation{Kind: tag.KindThreshold, Polarity: tag.PolarityRequire, Threshold: &t}
		o.Span = Span{Text: s.Text[start:end], Start: s.Start + start, End: s.Start + end}
		o.Text, o.Sentence = o.Span.Text, s.Around(start, end)
		m.changed = append(m.changed, l.supersedeThreshold(o, m.ev.Turn)...)
		m.put(o)
	}
	for _, st := range runstate.TextStatuses(s.Text) {
		m.changed = append(m.changed, l.state(st, s, m.ev, m.origin)...)
	}
}

// assistant tags what the agent said: its commitments and status claims.
func (m *messageTags) assistant(p *reading.Prepared) {
	var claims []reading.SentenceClaims
	if p != nil && p.ClaimsRead {
		claims = p.Claims
	} else {
		claims = reading.AssistantClaims(m.ev.Text)
	}
	for _, c := range claims {
		s := c.Sentence
		if c.HasCommit {
			d := c.Commit
			o := &Obligation{Kind: tag.KindCommitment, Polarity: d.Polarity, Object: tag.MakeObject(d.Object)}
			o.Span = Span{Text: s.Text[d.Start:d.End], Start: s.Start + d.Start, End: s.Start + d.End}
			o.Text = o.Span.Text
			m.put(o)
		}
		for _, st := range c.Statuses {
			// the agent saying a run passed does not undo the failed run
			// before it; only another run can
			if st.Value == runstate.StatusDone && m.l.runFailed(st.Subject) {
				continue
			}
			m.changed = append(m.changed, m.l.state(st, s, m.ev, m.origin)...)
		}
	}
}

// leadVerbs come before a limit's subject without being part of it.
var leadVerbs = lex.ToSet(`keep stay set leave hold limit cap allow actually also and ensure make let`)

// subjectStart widens a threshold's span back to its subject word, so
// "under 30s" is shown as "timeout under 30s".
func subjectStart(s string, start int, subject string) int {
	near, off := lex.NearBefore(s[:start])
	ws := lex.Words(near)
	for i := len(ws) - 1; i >= 0 && i >= len(ws)-4; i-- {
		if lex.Stem(ws[i].W) == subject {
			// a compound: "batch size", "p95 latency", "request timeout"
			if i > 0 {
				if p := lex.PlainWord(ws[i-1].W); p != "" && !lex.StopWords[p] && !lex.GenericVerbs[p] && !leadVerbs[p] &&
					!strings.ContainsAny(near[ws[i-1].End:ws[i].Start], ",;:") {
					return off + ws[i-1].Start
				}
			}
			return off + ws[i].Start
		}
	}
	return start
}

// subjectEnd widens a threshold's span forward to a subject that follows
// the number: "at least 80% coverage".
func subjectEnd(s string, end int, subject string) int {
	ws := lex.Words(lex.NearAfter(s[end:]))
	for i := 0; i < len(ws) && i < 3; i++ {
		if lex.Stem(ws[i].W) == subject {
			return end + ws[i].End
		}
		if lex.StopWords[lex.PlainWord(ws[i].W)] {
			break
		}
	}
	return end
}

func literalObligation(h tag.LiteralHit, text string) *Obligation {
	return &Obligation{Kind: tag.KindLiteral, Text: h.Value, Literal: h.Value, LiteralKind: h.Kind, Label: h.Label,
		Span: Span{Text: text[h.Start:h.End], Start: h.Start, End: h.End}}
}

func (l *Ledger) toolLiterals(text string, hits []tag.LiteralHit, origin *eventOrigin) []*Obligation {
	var changed []*Obligation
	n := 0
	for _, h := range hits {
		o := literalObligation(h, text)
		o.Origin = origin.get()
		if got := l.record(o); got != nil {
			changed = append(changed, got)
		}
		if n++; n >= reading.MaxToolLiterals {
			break
		}
	}
	return changed
}

func (l *Ledger) toolCall(ev *parse.Event, p *reading.Prepared) []*Obligation {
	var texts []string
	var lits [][]tag.LiteralHit
	cmd, runs := reading.RunOf(ev)
	if p != nil && p.Call != nil {
		texts, lits = p.Call.Texts, p.Call.Lits
	} else {
		texts = callStrings(ev.Args)
	}
	if ev.ToolID != "" && runs.Any() {
		// only the result of a run becomes a state
		l.pending[strings.Clone(ev.ToolID)] = toolCall{command: strings.Clone(lex.Clip(cmd, 80)), runs: runs}
	}
	origin := originOf(ev)
	var changed []*Obligation
	n := 0
	for i, text := range texts {
		var hits []tag.LiteralHit
		if lits != nil && len(l.Tagging.Literals) == 0 {
			hits = lits[i]
		} else {
			hits = l.literals(text)
		}
		for _, h := range hits {
			if !callLiteralKinds[h.Kind] || h.Kind == "name" && h.Label == "" {
				continue
			}
			o := literalObligation(h, text)
			o.Origin = origin.get()
			// the agent writing a literal is not the literal coming back
			// into its context: no restatement is noted for its own calls
			if got := l.recordQuiet(o); got != nil {
				changed = append(changed, got)
			}
			if n++; n >= reading.MaxToolLiterals {
				return changed
			}
		}
	}
	return changed
}

// Literals finds the literals of a text, with the configured patterns.
func (l *Ledger) literals(text string) []tag.LiteralHit {
	hits := tag.FindLiterals(text)
	for _, re := range l.Tagging.Literals {
		for _, m := range re.FindAllStringIndex(text, -1) {
			if m[1] > m[0] {
				hits = append(hits, tag.LiteralHit{Value: text[m[0]:m[1]], Kind: "pattern", Start: m[0], End: m[1]})
			}
		}
	}
	if len(l.Tagging.Literals) > 0 {
		hits = tag.DedupeHits(hits)
	}
	return hits
}

// callLiteralKinds are the literals a tool call's arguments bind later turns
// to: what it touched and where. Flags and versions are how, not what.
var callLiteralKinds = map[string]bool{"uri": true, "path": true, "email": true, "host": true, "id": true,
	"env": true, "port": true, "file": true, "name": true, "pattern": true}

// callStrings returns the argument strings of a call worth reading for
// Literals: the command line of a shell call, the paths of an edit, and
// the file headers of a patch.
func callStrings(args []byte) []string {
	_, texts, _ := tag.ReadCall(args)
	return texts
}

func (l *Ledger) toolResult(ev *parse.Event, hits []tag.LiteralHit) []*Obligation {
	origin := originOf(ev)
	changed := l.toolLiterals(ev.Text, hits, origin)
	call, ok := l.pending[ev.ToolID]
	if !ok {
		return changed
	}
	delete(l.pending, ev.ToolID)
	val, detail := reading.OutcomeOf(ev)
	for _, kind := range call.runs.OutcomeKinds(val, ev.IsError) {
		st := tag.Status{Subject: kind, Value: val, Detail: call.command + ": " + detail}
		o := &Obligation{Kind: tag.KindState, Status: &st, Text: kind + " " + val, Origin: origin.get(),
			Span: Span{Text: lex.Clip(detail, 160)}}
		changed = append(changed, l.setState(o, ev.Turn)...)
	}
	return changed
}

func (l *Ledger) state(st tag.Status, s lex.Sentence, ev *parse.Event, origin *eventOrigin) []*Obligation {
	o := &Obligation{Kind: tag.KindState, Status: &st, Text: st.Subject + " " + st.Value, Origin: origin.get(),
		Span: Span{Text: st.Detail, Start: s.Start + strings.Index(s.Text, st.Detail), End: s.Start + strings.Index(s.Text, st.Detail) + len(st.Detail)}}
	return l.setState(o, ev.Turn)
}

// runFailed reports whether subject's last state is a failed or pending
// result of a run, as a tool reported it.
func (l *Ledger) runFailed(subject string) bool {
	o := l.liveState(subject)
	return o != nil && o.Origin.Source == reading.SourceTool && o.Status.Value != runstate.StatusDone
}

// liveState is subject's state in force, or nil. Subjects are told apart
// as strings.EqualFold tells them.
func (l *Ledger) liveState(subject string) *Obligation {
	if o := l.states[lex.FoldKey(subject)]; o != nil && o.RetiredAt == 0 {
		return o
	}
	return nil
}

// setState records a new state of a subject and retires the one before.
func (l *Ledger) setState(o *Obligation, turn int) []*Obligation {
	var changed []*Obligation
	if prev := l.liveState(o.Status.Subject); prev != nil {
		if prev.Status.Value == o.Status.Value {
			l.restated(prev, turn)
			return nil
		}
		prev.RetiredAt, prev.Superseded = turn, true
		changed = append(changed, prev)
	}
	o.detach(&l.copies)
	o.ID = stableID(o.Origin.Agent, tag.KindState, o.key())
	l.appendObligation(o)
	l.states[lex.FoldKey(o.Status.Subject)] = o
	return append(changed, o)
}

// record adds an obligation, or notes a restatement of one already held.
// It returns the obligation when the ledger changed.
func (l *Ledger) record(o *Obligation) *Obligation { return l.add(o, true) }

// recordQuiet adds an obligation without noting a restatement of one held.
func (l *Ledger) recordQuiet(o *Obligation) *Obligation { return l.add(o, false) }

func (l *Ledger) add(o *Obligation, restate bool) *Obligation {
	k := o.mapKey()
	if prev, ok := l.byKey[k]; ok && prev.RetiredAt == 0 {
		if restate {
			l.restated(prev, o.Origin.Turn)
		}
		// An instruction outranks a tool's mention of the same literal.
		if o.Origin.Source.Instructive() && !prev.Origin.Source.Instructive() {
			o.detach(&l.copies)
			prev.Origin, prev.Span, prev.Standing = o.Origin, o.Span, o.Standing
			if o.Label != "" {
				prev.Label = o.Label
			}
			return prev
		}
		prev.Standing = prev.Standing || o.Standing
		return nil
	}
	o.detach(&l.copies)
	// the key's own text: a literal's is its normalized value, made again
	// from the copied literal; another's may be a piece of the event
	if k.kind == tag.KindLiteral {
		k.text = o.Normalized()
	} else {
		k.text = strings.Clone(k.text)
	}
	o.ID = stableID(o.Origin.Agent, o.Kind, keyText(k))
	l.byKey[k] = o
	l.appendObligation(o)
	if o.Kind == tag.KindThreshold {
		l.thresholds[o.Threshold.Subject] = append(l.thresholds[o.Threshold.Subject], o)
	}
	return o
}

// supersedeThreshold retires live thresholds on the same subject when a new
// value is stated: "actually, allow up to 5 retries".
func (l *Ledger) supersedeThreshold(o *Obligation, turn int) []*Obligation {
	var changed []*Obligation
	held := l.thresholds[o.Threshold.Subject]
	live := held[:0]
	key, dir := o.key(), Direction(o.Threshold.Comparator)
	for _, prev := range held {
		if prev.RetiredAt != 0 {
			continue // never live again
		}
		if prev.key() != key && Direction(prev.Threshold.Comparator) == dir {
			prev.RetiredAt, prev.Superseded = turn, true
			changed = append(changed, prev)
			continue
		}
		live = append(live, prev)
	}
	clear(held[len(live):])
	l.thresholds[o.Threshold.Subject] = live
	return changed
}

// Direction groups comparators into upper and lower limits.
func Direction(c tag.Comparator) int {
	switch c {
	case tag.CmpLE, tag.CmpLT:
		return 1
	case tag.CmpGE, tag.CmpGT:
		return -1
	}
	return 0
}
