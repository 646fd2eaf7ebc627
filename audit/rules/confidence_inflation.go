package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

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
// write or in a message.
type confidence struct {
	index int
	key   string
	value float64
	step  func(kind, detail string) audit.Step
	find  func() audit.Finding
}

// confidences lists every confidence an agent stated, in run order: on
// writes, and in messages that name a key ("task/B done, confidence 0.9").
func confidences(st *audit.StateRun, agent string) []confidence {
	var out []confidence
	for _, op := range st.Ops {
		if op.Agent == agent && op.HasConf {
			op := op
			out = append(out, confidence{op.Index, op.Key, op.Confidence,
				func(k, d string) audit.Step { return audit.OpStep(k, op, d) },
				func() audit.Finding { return st.OpFinding(op) }})
		}
	}
	keys := map[string]bool{}
	for _, op := range st.Ops {
		keys[op.Key] = true
	}
	for _, m := range st.Messages {
		if m.Agent != agent || !m.HasConf {
			continue
		}
		for key := range keys {
			if !strings.Contains(m.Text, key) {
				continue
			}
			m := m
			out = append(out, confidence{m.Index, key, m.Confidence,
				func(k, d string) audit.Step { return audit.MessageStep(k, m, d) },
				func() audit.Finding {
					return audit.Finding{File: m.File, Line: m.Line, Turn: m.Turn, Agent: m.Agent, Offset: m.Offset,
						Boundary: st.CompactionNumber(m.Agent, m.Index)}
				}})
		}
	}
	slices.SortStableFunc(out, func(a, b confidence) int { return cmp.Compare(a.index, b.index) })
	return out
}

func runConfidenceInflation(p *audit.Pass) {
	st := p.State
	for _, c := range st.Compactions {
		cs := confidences(st, c.Agent)
		before := map[string]confidence{}
		for _, x := range cs {
			if x.index < c.Index {
				before[x.key] = x
			}
		}
		done := map[string]bool{}
		for _, x := range cs {
			if x.index < c.Index || done[x.key] {
				continue
			}
			if last := st.LastCompaction(c.Agent, x.index); last == nil || last.Index != c.Index {
				continue // after a later compaction: judged there
			}
			done[x.key] = true
			prev, ok := before[x.key]
			if !ok || x.value <= prev.value+0.05 || st.ReadBetween(c.Agent, x.key, c.Index, x.index) {
				continue
			}
			f := x.find()
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
