package rules

import (
	"fmt"
	"slices"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/sharedstate"
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
// write or in a message. It holds no pointers, only the key's number and
// where its op or message is: a long run states hundreds of thousands, and
// lists of them grew through the collector's write barriers when they did.
type confidence struct {
	index int
	value float64
	key   int32 // KeyNumber
	at    int32 // the op's position in Ops, or the message's in Messages
	byMsg bool
}

func (c confidence) step(st *sharedstate.StateRun, kind, detail string) audit.Step {
	if !c.byMsg {
		return audit.OpStep(kind, *st.Ops.At(int(c.at)), detail)
	}
	return audit.MessageStep(kind, st.Messages[c.at], detail)
}

func (c confidence) finding(st *sharedstate.StateRun) audit.Finding {
	if !c.byMsg {
		return audit.OpFinding(st, *st.Ops.At(int(c.at)))
	}
	m := &st.Messages[c.at]
	return audit.Finding{File: m.File, Line: m.Line, Turn: m.Turn, Agent: m.Agent, Offset: m.Offset,
		Boundary: st.CompactionNumber(m.Agent, m.Index)}
}

// confidences lists every confidence an agent stated, in run order: on
// writes, and in messages that name a key ("task/B done, confidence 0.9").
// Both come in run order, so they are merged, a write before a message at
// the same place.
//
// The list is sized before it is filled: a long run's agent states
// hundreds of thousands, and each doubling of lists that large was a fresh
// allocation near the memory limit, which the runtime met by handing pages
// back to the kernel and faulting them in again (a tenth of a 25 MB
// run's audit). So the keys the messages name are found first, into one
// list of numbers.
func confidences(st *sharedstate.StateRun, agent string, keys keyFinder) []confidence {
	ops := 0
	for _, op := range st.AgentOps(agent) {
		if op.HasConf {
			ops++
		}
	}
	var named, perMessage []int32 // each message's keys, one message after another
	for _, m := range st.AgentMessages(agent) {
		if m.HasConf {
			n := len(named)
			named = keys.appendIn(named, m.Text)
			perMessage = append(perMessage, int32(len(named)-n))
		}
	}
	byOps := make([]confidence, 0, ops)
	for i, op := range st.AgentOps(agent) {
		if op.HasConf {
			byOps = append(byOps, confidence{index: op.Index, value: op.Confidence, key: int32(st.KeyNumber(i)), at: int32(i)})
		}
	}
	out := make([]confidence, 0, ops+len(named))
	for i, m := range st.AgentMessages(agent) {
		if !m.HasConf {
			continue
		}
		n := perMessage[0]
		perMessage = perMessage[1:]
		for len(byOps) > 0 && byOps[0].index <= m.Index {
			out, byOps = append(out, byOps[0]), byOps[1:]
		}
		for _, key := range named[:n] {
			out = append(out, confidence{index: m.Index, value: m.Confidence, key: key, at: int32(i), byMsg: true})
		}
		named = named[n:]
	}
	return append(out, byOps...)
}

// keyFinder finds the run's keys in a message: a run has thousands of
// keys, so a message is read once per key length rather than searched once
// per key, and a place is tried only where some key of four bytes or more
// starts with the four bytes there (heads), which most places of a message
// are not.
type keyFinder struct {
	byLen map[int]map[string]int32 // key length → key → its number (KeyNumber)
	names []string                 // each number's key
	long  []int                    // the lengths of four bytes and more, ascending
	short []int                    // the shorter ones
	heads []uint64                 // a bit per headSlot of the longer keys' first four bytes
}

// headSlot is where four bytes fall in keyFinder.heads.
func headSlot(s string) uint32 {
	h := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	return (h * 0x9E3779B1) >> 16
}

func newKeyFinder(st *sharedstate.StateRun) keyFinder {
	kf := keyFinder{byLen: map[int]map[string]int32{}, names: make([]string, st.Keys()), heads: make([]uint64, 1<<16/64)}
	seen := make([]bool, st.Keys())
	for i, op := range st.Ops.All() {
		// a run has several ops a key: each key is entered once
		number := int32(st.KeyNumber(i))
		if seen[number] {
			continue
		}
		seen[number] = true
		n := len(op.Key)
		if kf.byLen[n] == nil {
			kf.byLen[n] = map[string]int32{}
			if n >= 4 {
				kf.long = append(kf.long, n)
			} else {
				kf.short = append(kf.short, n)
			}
		}
		kf.byLen[n][op.Key], kf.names[number] = number, op.Key
		if n >= 4 {
			h := headSlot(op.Key)
			kf.heads[h/64] |= 1 << (h % 64)
		}
	}
	slices.Sort(kf.long)
	return kf
}

// appendIn appends to dst the numbers of the keys that occur in text, in
// order (which is the keys' string order).
func (kf keyFinder) appendIn(dst []int32, text string) []int32 {
	start := len(dst)
	add := func(k string, n int) {
		if number, ok := kf.byLen[n][k]; ok && !slices.Contains(dst[start:], number) {
			dst = append(dst, number)
		}
	}
	if len(kf.long) > 0 {
		for i := 0; i+kf.long[0] <= len(text); i++ {
			if h := headSlot(text[i:]); kf.heads[h/64]&(1<<(h%64)) == 0 {
				continue
			}
			for _, n := range kf.long {
				if i+n > len(text) {
					break
				}
				add(text[i:i+n], n)
			}
		}
	}
	for _, n := range kf.short {
		for i := 0; i+n <= len(text); i++ {
			add(text[i:i+n], n)
		}
	}
	slices.Sort(dst[start:])
	return dst
}

// agentConfidences follows one agent's confidences through its
// compactions, which come in order.
type agentConfidences struct {
	all    []confidence
	next   int                  // the first not before the current compaction
	before map[int32]confidence // the latest on each key before it, by key number
}

func runConfidenceInflation(p *audit.Pass) {
	st := p.State
	keys := newKeyFinder(st)
	agents := map[string]*agentConfidences{}
	for _, c := range st.Compactions {
		a := agents[c.Agent]
		if a == nil {
			a = &agentConfidences{all: confidences(st, c.Agent, keys), before: map[int32]confidence{}}
			agents[c.Agent] = a
		}
		for ; a.next < len(a.all) && a.all[a.next].index < c.Index; a.next++ {
			a.before[a.all[a.next].key] = a.all[a.next]
		}
		// what the agent stated after this compaction and before its next
		end := st.NextCompaction(c.Agent, c.Index)
		done := map[int32]bool{}
		for _, x := range a.all[a.next:] {
			if x.index >= end {
				break
			}
			if x.index == c.Index || done[x.key] {
				continue
			}
			done[x.key] = true
			key := keys.names[x.key]
			prev, ok := a.before[x.key]
			if !ok || x.value <= prev.value+0.05 || st.ReadBetween(c.Agent, key, c.Index, x.index) {
				continue
			}
			f := x.finding(st)
			f.Message = fmt.Sprintf("%s's confidence on %s rose from %.2f to %.2f after its compaction at turn %d, with no read of it",
				c.Agent, key, prev.value, x.value, c.Turn)
			f.Evidence.Chain = []audit.Step{prev.step(st, "before", fmt.Sprintf("confidence %.2f", prev.value)),
				audit.CompactionStep(&c, st.CompactionNumber(c.Agent, c.Index+1), ""),
				x.step(st, "after", fmt.Sprintf("confidence %.2f, no read since the compaction", x.value))}
			f.Key(key, fmt.Sprint(c.Turn))
			p.Report(f)
		}
	}
}
