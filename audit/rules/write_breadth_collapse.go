package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/sharedstate"
)

// WriteBreadthCollapse reports an agent writing far fewer keys per turn
// after its compaction.
var WriteBreadthCollapse = &audit.Rule{
	ID:       "write-breadth-collapse",
	Title:    "After a compaction an agent writes under half as many keys per turn as before",
	Severity: audit.SeverityWarning,
	Scope:    audit.ScopeRun,
	Doc: `Compaction correlates with a drop in the distinct keys an agent touches per
turn: it is operating from a compressed model of the state. This rule takes the
agent's trailing baseline — the mean distinct shared keys written per writing
turn over its last five writing turns before a compaction — and reports when,
after the compaction, two consecutive writing turns each fall below 50% of it.

Why it matters: it is the earliest structural signal, visible before any value
is wrong.

Example: the executor wrote 4 to 6 keys per turn before its compaction and 1
per turn after it.

Fix: audit the agent's compaction; require a full re-read of the state it
owns.`,
	Run: runWriteBreadthCollapse,
}

// BreadthBaselineTurns is how many writing turns the trailing baseline
// averages.
const BreadthBaselineTurns = 5

func runWriteBreadthCollapse(p *audit.Pass) {
	for _, agent := range p.State.Agents {
		turns := sharedstate.WriteBreadth(p.State, agent)
		for _, c := range p.State.AgentCompactions(agent) {
			base, n := sharedstate.Baseline(turns, c.Index, BreadthBaselineTurns)
			if n < 2 || base < 2 {
				continue
			}
			next := p.State.NextCompaction(agent, c.Index)
			run := 0
			for _, t := range sharedstate.TurnsFrom(turns, c.Index) {
				if t.FirstIndex > next {
					break
				}
				if float64(t.Keys) < base*0.5 {
					run++
				} else {
					run = 0
				}
				if run == 2 {
					f := audit.Finding{File: t.File, Line: t.Line, Turn: t.Turn, Agent: agent, Offset: t.Offset,
						Boundary: p.State.CompactionNumber(agent, t.FirstIndex)}
					f.Message = fmt.Sprintf("%s wrote %d key(s) per turn in two consecutive turns after its compaction at turn %d, under half its baseline of %.1f",
						agent, t.Keys, c.Turn, base)
					f.Evidence.Chain = []audit.Step{
						{Kind: "baseline", Role: agent, Detail: fmt.Sprintf("%.1f keys per writing turn over %d turns before turn %d", base, n, c.Turn)},
						audit.CompactionStep(&c, p.State.CompactionNumber(agent, c.Index+1), ""),
						{Kind: "collapsed", File: t.File, Line: t.Line, Turn: t.Turn, Role: agent, Detail: fmt.Sprintf("%d key(s) this turn and the writing turn before", t.Keys)},
					}
					f.Key(fmt.Sprint(c.Turn))
					p.Report(f)
					break
				}
			}
		}
	}
}
