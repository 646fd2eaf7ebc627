package rules

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/compaudit/compaudit/audit"
)

// ConfidenceInflation reports confidence that rose across a compaction
// with nothing new read.
var ConfidenceInflation = &audit.Rule{
	ID:       "confidence-inflation",
	Title:    "An agent's confidence on a key rises after its compaction with no new read of it",
	Severity: audit.SeverityWarning,
	Scope:    audit.ScopeRun,
	Doc: `Where writes or messages carry a confidence (a message's counts for the keys
it names), this rule compares the last confidence an agent gave a key before
its compaction with the first it gives after it, and reports a rise when the
agent has not read the key since the compaction.

Why it matters: summarization smooths; a compacted agent asserts more
confidence on fields it summarized than it held when it had the facts.

Example: the executor wrote task/B with confidence 0.6 before its compaction
and 0.95 after it, reading nothing in between.

Fix: reset confidence to the last value read from the store after
compaction.`,
	Run: runConfidenceInflation,
}

// confidence is one statement of an agent's confidence on a key, by a
// write or in a message. It points at its op or message rather than
// closing over it: a long run states hundreds of thousands.
type confidence struct {
	index int
	key   string
	value float64
	op    *audit.StateOp // the write that stated it, or
	msg   *audit.Message // the message
}

func (c confidence) step(kind, detail string) audit.Step {
	if c.op != nil {
		return audit.OpStep(kind, *c.op, detail)
	}
	return audit.MessageStep(kind, *c.msg, detail)
}

func (c confidence) finding(st *audit.StateRun) audit.Finding {
	if c.op != nil {
		return st.OpFinding(*c.op)
	}
	m := c.msg
	return audit.Finding{File: m.File, Line: m.Line, Turn: m.Turn, Agent: m.Agent, Offset: m.Offset,
		Boundary: st.CompactionNumber(m.Agent, m.Index)}
}

// confidences lists every confidence an agent stated, in run order: on
// writes, and in messages that name a key ("task/B done, confidence 0.9").
func confidences(st *audit.StateRun, agent string, keys keyFinder) []confidence {
	var out []confidence
	for op := range st.AgentOps(agent) {
		if op.HasConf {
			out = append(out, confidence{index: op.Index, key: op.Key, value: op.Confidence, op: op})
		}
	}
	ms := st.MessagesBetween(agent, -1, audit.EndOfRun)
	for i := range ms {
		m := &ms[i]
		if !m.HasConf {
			continue
		}
		for _, key := range keys.in(m.Text) {
			out = append(out, confidence{index: m.Index, key: key, value: m.Confidence, msg: m})
		}
	}
	slices.SortStableFunc(out, func(a, b confidence) int { return cmp.Compare(a.index, b.index) })
	return out
}

// keyFinder finds the run's keys in a message: a run has thousands of
// keys, so a message is read once per key length rather than searched once
// per key.
type keyFinder map[int]map[string]bool // key length → keys

func newKeyFinder(st *audit.StateRun) keyFinder {
	kf := keyFinder{}
	for _, op := range st.Ops.All() {
		if kf[len(op.Key)] == nil {
			kf[len(op.Key)] = map[string]bool{}
		}
		kf[len(op.Key)][op.Key] = true
	}
	return kf
}

// in lists the keys that occur in text, sorted.
func (kf keyFinder) in(text string) []string {
	var out []string
	for n, keys := range kf {
		for i := 0; i+n <= len(text); i++ {
			if k := text[i : i+n]; keys[k] && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// agentConfidences follows one agent's confidences through its
// compactions, which come in order.
type agentConfidences struct {
	all    []confidence
	next   int                   // the first not before the current compaction
	before map[string]confidence // the latest on each key before it
}

func runConfidenceInflation(p *audit.Pass) {
	st := p.State
	keys := newKeyFinder(st)
	agents := map[string]*agentConfidences{}
	for _, c := range st.Compactions {
		a := agents[c.Agent]
		if a == nil {
			a = &agentConfidences{all: confidences(st, c.Agent, keys), before: map[string]confidence{}}
			agents[c.Agent] = a
		}
		for ; a.next < len(a.all) && a.all[a.next].index < c.Index; a.next++ {
			a.before[a.all[a.next].key] = a.all[a.next]
		}
		// what the agent stated after this compaction and before its next
		end := st.NextCompaction(c.Agent, c.Index)
		done := map[string]bool{}
		for _, x := range a.all[a.next:] {
			if x.index >= end {
				break
			}
			if x.index == c.Index || done[x.key] {
				continue
			}
			done[x.key] = true
			prev, ok := a.before[x.key]
			if !ok || x.value <= prev.value+0.05 || st.ReadBetween(c.Agent, x.key, c.Index, x.index) {
				continue
			}
			f := x.finding(st)
			f.Message = fmt.Sprintf("%s's confidence on %s rose from %.2f to %.2f after its compaction at turn %d, with no read of it",
				c.Agent, x.key, prev.value, x.value, c.Turn)
			f.Evidence.Chain = []audit.Step{prev.step("before", fmt.Sprintf("confidence %.2f", prev.value)),
				audit.CompactionStep(&c, st.CompactionNumber(c.Agent, c.Index+1), ""),
				x.step("after", fmt.Sprintf("confidence %.2f, no read since the compaction", x.value))}
			f.Key(x.key, fmt.Sprint(c.Turn))
			p.Report(f)
		}
	}
}
