// Package sharedstate owns the state that the agents of a multi-agent
// run share: the reads and writes of keys (through the canonical format's
// state records, or tool calls mapped to them), their revisions and
// payload hashes, each agent's compactions and outbound messages, and an
// index that answers the state rules' questions without walking the run.
// It knows nothing of one agent's ledger or boundary replay, nor of
// findings.
package sharedstate

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
	"github.com/tidwall/gjson"
)

// StateOp is one read or write of shared working state.
type StateOp struct {
	Index       int // position in the run's order (time order across files)
	Time        string
	File        string
	Line        int
	Offset      int64
	Turn        int
	Agent       string
	Key         string
	Value       string
	Revision    int64
	PayloadHash string
	Confidence  float64
	// Via names what the op came from: a state event, or the tool mapped.
	Via string
	// The flags sit together: a run holds hundreds of thousands of ops.
	Write       bool
	HasRevision bool
	HasConf     bool
	// Private state belongs to one agent (Claude Code's todo list): no peer
	// reads or writes it, so concurrency rules leave it alone.
	Private bool
}

// Compaction is a boundary as the state rules see it.
type Compaction struct {
	Agent       string
	Index       int
	Time        string
	File        string
	Line        int
	Turn        int
	Notified    []string
	HasNotified bool
}

// Message is an agent's outbound message, with the identifiers it cites.
type Message struct {
	Agent  string
	Index  int
	Time   string
	File   string
	Line   int
	Offset int64
	Turn   int
	// MessageContent is what the message cites and claims. Most of an
	// Agent's messages cite nothing: those share one empty content, so a
	// long run's history stays small.
	*reading.MessageContent
}

// RunOutcome is the result of a test run, for todos that depend on it.
type RunOutcome struct {
	Agent string
	Index int
	Time  string
	Turn  int
	Value string // failed or done
}

// StateRun is the shared-state history of a multi-agent run, in stream
// Order: small enough to keep whole, it is what the state rules walk.
type StateRun struct {
	// All five lists are in run order (Index) once the run is read.
	Ops         OpList
	Compactions []Compaction
	Messages    []Message
	Tests       []RunOutcome
	// Work marks the side-effecting calls: what an agent did, as opposed to
	// what it said it did. Of a run of calls with no op or compaction
	// between them, only the first is kept.
	Work   []RunOutcome
	Agents []string

	indexOnce sync.Once
	ix        *stateIndex // built on the first question (stateindex.go)
}

// StateCollector builds the StateRun as events stream past.
type StateCollector struct {
	run      *StateRun
	isEffect func(parse.Format, *parse.Event) bool
	mappings map[string][]StateMapping
	pending  map[string]pendingCall
	agents   map[string]string // each agent's name, as the run keeps it
	// workMarks is, per agent, how many ops and compactions the run had
	// when its last side-effecting call was noted: more calls before the
	// next op or compaction say nothing WorkedBetween could ask.
	workMarks map[string]int
	// the run's messages as they come (finish makes the list)
	messages Pieces[Message]
	Strs     map[string]string // see intern
}

type pendingCall struct {
	ev       *parse.Event // only when a mapping reads the result
	mappings []StateMapping
	runs     runstate.RunSet // what the call runs
}

func NewStateCollector(mappings []StateMapping, isEffect func(parse.Format, *parse.Event) bool) *StateCollector {
	c := &StateCollector{run: &StateRun{}, isEffect: isEffect, mappings: map[string][]StateMapping{}, pending: map[string]pendingCall{}, agents: map[string]string{}, workMarks: map[string]int{}}
	for _, m := range mappings {
		c.mappings[m.Tool] = append(c.mappings[m.Tool], m)
	}
	return c
}

// Agent returns the run's copy of an agent's name, adding the agent when
// it is new. Whatever the run keeps of an event is copied: an event's
// strings are pieces of its record, and one kept piece would keep the
// whole record — a call's megabyte of arguments — for the rest of the run.
func (c *StateCollector) agent(name string) string {
	if kept, ok := c.agents[name]; ok {
		return kept
	}
	kept := strings.Clone(name)
	c.agents[kept] = kept
	c.run.Agents = append(c.run.Agents, kept)
	return kept
}

func (c *StateCollector) Observe(ev *parse.Event) {
	agent, clone := c.agent(ev.Agent), strings.Clone
	switch ev.Kind {
	case parse.KindStateRead, parse.KindStateWrite:
		st := ev.State
		c.addOp(StateOp{Index: ev.Index, Time: clone(ev.Time), File: ev.File, Line: ev.Line, Offset: ev.Offset, Turn: ev.Turn,
			Agent: agent, Write: ev.Kind == parse.KindStateWrite, Key: c.Intern(st.Key), Value: c.Intern(st.Value), Revision: st.Revision,
			HasRevision: st.HasRevision, PayloadHash: clone(st.PayloadHash), Confidence: st.Confidence, HasConf: st.HasConf, Via: "state"})
	case parse.KindBoundary:
		c.run.Compactions = append(c.run.Compactions, Compaction{Agent: agent, Index: ev.Index, Time: clone(ev.Time), File: ev.File, Line: ev.Line,
			Turn: ev.Turn, Notified: ev.Boundary.Notified, HasNotified: ev.Boundary.Notified != nil})
	case parse.KindMessage:
		if ev.Role == parse.RoleAssistant && ev.Origin == parse.OriginAuthored {
			var content *reading.MessageContent
			if p, ok := ev.Prepared.(*reading.Prepared); ok {
				content = p.Message
			}
			m := messageOf(ev, content)
			m.Agent, m.Time = agent, clone(m.Time)
			c.messages.Add(m)
		}
	case parse.KindToolCall:
		if c.isEffect(ev.Format, ev) && ev.ToolName != "TodoWrite" {
			marks := c.run.Ops.Len() + len(c.run.Compactions)
			if last, ok := c.workMarks[agent]; !ok || last != marks {
				c.workMarks[agent] = marks
				c.run.Work = append(c.run.Work, RunOutcome{Agent: agent, Index: ev.Index, Time: clone(ev.Time), Turn: ev.Turn})
			}
		}
		if ev.Format == parse.FormatClaudeCode && ev.ToolName == "TodoWrite" {
			c.todoWrite(ev)
		}
		ms := c.mappings[ev.ToolName]
		_, runs := reading.RunOf(ev)
		if len(ms) > 0 || runs.Has("tests") {
			p := pendingCall{mappings: ms, runs: runs}
			if slices.ContainsFunc(ms, StateMapping.usesResult) {
				// the event is the emitter's: kept as it is now
				kept := *ev
				p.ev = &kept
			}
			c.pending[strings.Clone(ev.ToolID)] = p
		}
		for _, m := range ms {
			if !m.usesResult() {
				c.mapped(ev, nil, m)
			}
		}
	case parse.KindToolResult:
		p, ok := c.pending[ev.ToolID]
		if !ok {
			return
		}
		delete(c.pending, ev.ToolID)
		for _, m := range p.mappings {
			if m.usesResult() {
				c.mapped(p.ev, ev, m)
			}
		}
		if p.runs.Has("tests") {
			if val, _ := reading.OutcomeOf(ev); p.runs.SpeaksFor("tests", val, ev.IsError) {
				c.run.Tests = append(c.run.Tests, RunOutcome{Agent: agent, Index: ev.Index, Time: clone(ev.Time), Turn: ev.Turn, Value: val})
			}
		}
	}
}

// addOp adds an op to the run.
func (c *StateCollector) addOp(op StateOp) { c.run.Ops.Add(op) }

// Finish emits mapped calls that never got a result, with what the call
// alone says.
func (c *StateCollector) Finish() *StateRun {
	for _, p := range c.pending {
		for _, m := range p.mappings {
			if m.usesResult() {
				c.mapped(p.ev, nil, m)
			}
		}
	}
	c.run.Messages = c.messages.Flat()
	c.messages, c.Strs = Pieces[Message]{}, nil
	c.run.Order()
	return c.run
}

// MaxInterned bounds the strings a run shares among its ops: keys and
// values repeat (a task's key is written four times, its status is one of
// a handful), but a run of distinct values should not keep a table of
// them besides.
const MaxInterned = 1 << 16

// Intern returns the run's copy of s, shared by every op that names it.
func (c *StateCollector) Intern(s string) string {
	if v, ok := c.Strs[s]; ok {
		return v
	}
	v := strings.Clone(s)
	if len(c.Strs) < MaxInterned {
		if c.Strs == nil {
			c.Strs = map[string]string{}
		}
		c.Strs[v] = v
	}
	return v
}

// Order puts the run in time order. A session's subagents are separate
// files read one after the other, so stream position is not time across
// Agents; when every item carries a timestamp the items are renumbered in
// Time order, stream position breaking ties. Without timestamps the stream
// Order stands.
func (r *StateRun) Order() {
	if r.timed() {
		r.renumberByTime()
	}
	r.Ops.ByIndex()
	byIndex(r.Compactions, func(c *Compaction) int { return c.Index })
	byIndex(r.Messages, func(m *Message) int { return m.Index })
	byIndex(r.Tests, func(t *RunOutcome) int { return t.Index })
	byIndex(r.Work, func(t *RunOutcome) int { return t.Index })
}

// timed reports whether every item of the run carries a timestamp.
func (r *StateRun) timed() bool {
	for _, op := range r.Ops.All() {
		if op.Time == "" {
			return false
		}
	}
	for i := range r.Compactions {
		if r.Compactions[i].Time == "" {
			return false
		}
	}
	for i := range r.Messages {
		if r.Messages[i].Time == "" {
			return false
		}
	}
	for _, list := range [][]RunOutcome{r.Tests, r.Work} {
		for i := range list {
			if list[i].Time == "" {
				return false
			}
		}
	}
	return true
}

// renumberByTime numbers the items in time order, stream position
// breaking ties. An item is named by its list and place rather than by a
// closure that sets it: a run has hundreds of thousands of them.
func (r *StateRun) renumberByTime() {
	type item struct {
		time  string
		index int
		list  uint8
		at    int32
	}
	outcomes := [][]RunOutcome{r.Tests, r.Work}
	items := make([]item, 0, r.Ops.Len()+len(r.Compactions)+len(r.Messages)+len(r.Tests)+len(r.Work))
	for i, op := range r.Ops.All() {
		items = append(items, item{op.Time, op.Index, 0, int32(i)})
	}
	for i := range r.Compactions {
		items = append(items, item{r.Compactions[i].Time, r.Compactions[i].Index, 1, int32(i)})
	}
	for i := range r.Messages {
		items = append(items, item{r.Messages[i].Time, r.Messages[i].Index, 2, int32(i)})
	}
	for l, list := range outcomes {
		for i := range list {
			items = append(items, item{list[i].Time, list[i].Index, uint8(3 + l), int32(i)})
		}
	}
	byTime := func(a, b item) int { return cmp.Or(strings.Compare(a.time, b.time), cmp.Compare(a.index, b.index)) }
	if !slices.IsSortedFunc(items, byTime) { // one file, written as it ran, is
		slices.SortStableFunc(items, byTime)
	}
	for n, it := range items {
		switch it.list {
		case 0:
			r.Ops.At(int(it.at)).Index = n
		case 1:
			r.Compactions[it.at].Index = n
		case 2:
			r.Messages[it.at].Index = n
		default:
			outcomes[it.list-3][it.at].Index = n
		}
	}
}

// todoWrite maps Claude Code's TodoWrite: each todo, by its content, is a
// Key of the agent's own state and its status the value.
func (c *StateCollector) todoWrite(ev *parse.Event) {
	for _, t := range gjson.GetBytes(ev.Args, "todos").Array() {
		content := strings.TrimSpace(t.Get("content").String())
		if content == "" {
			continue
		}
		c.addOp(StateOp{Index: ev.Index, Time: strings.Clone(ev.Time), File: ev.File, Line: ev.Line, Offset: ev.Offset, Turn: ev.Turn,
			Agent: c.agent(ev.Agent), Write: true, Key: c.Intern("todo: " + content), Value: c.Intern(t.Get("status").String()), Private: true, Via: "TodoWrite"})
	}
}

// messageOf reads what an outbound message cites and claims.
func messageOf(ev *parse.Event, content *reading.MessageContent) Message {
	if content == nil {
		content = reading.ReadMessageContent(ev.Text, tag.FindLiterals(ev.Text), reading.AssistantClaims(ev.Text))
	}
	return Message{Agent: ev.Agent, Index: ev.Index, Time: ev.Time, File: ev.File, Line: ev.Line, Offset: ev.Offset, Turn: ev.Turn,
		MessageContent: content}
}

// completionWords are values that assert a key is done.
var completionWords = lex.ToSet(`complete completed done finished succeeded success passed resolved closed merged shipped ok`)

// failureOrPending are values a completion must not paper over.
var failureOrPending = lex.ToSet(`failed failure failing error errored pending blocked retry retrying queued todo open in_progress in-progress incomplete`)

// IsCompletion reports a value that asserts completion.
func IsCompletion(v string) bool { return completionWords[lex.FoldLower(strings.Trim(v, `"' `))] }

// IsFailedOrPending reports a value recording failure or pending work.
func IsFailedOrPending(v string) bool {
	l := lex.FoldLower(strings.Trim(v, `"' `))
	if failureOrPending[l] {
		return true
	}
	return strings.Contains(l, "fail") || strings.Contains(l, "pending") || strings.Contains(l, "retry")
}

// KeyMatches ties a message's "task B" to a key like "task/B" or "tasks.B".
func KeyMatches(key, subject string) bool {
	k := lex.FoldLower(key)
	s := lex.FoldLower(subject)
	if k == s {
		return true
	}
	parts := strings.Fields(s)
	if len(parts) != 2 {
		return false
	}
	id := parts[1]
	for _, sep := range []string{"/", ".", ":", "-", "_", " "} {
		if strings.HasSuffix(k, sep+id) && strings.Contains(k, strings.TrimSuffix(parts[0], "s")) {
			return true
		}
	}
	return false
}

// TurnBreadth is how many distinct shared keys an agent wrote in one turn.
type TurnBreadth struct {
	Turn       int
	Keys       int
	FirstIndex int
	File       string
	Line       int
	Offset     int64
}
