package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
)

// WriteWithoutReread reports a write to an existing key its writer did not
// re-read.
var WriteWithoutReread = &audit.Rule{
	ID:       "write-without-reread",
	Title:    "An agent writes an existing key without reading it since its last compaction",
	Severity: audit.SeverityWarning,
	Scope:    audit.ScopeRun,
	Doc: `A summary is never a substitute for a read at write time. This rule reports a
write to a key that already exists when the writer has not read it since its
last compaction — or, for an agent that never compacted, has never read a key
that another agent wrote. Creating a new key needs no read, and a key no other
agent reads or writes is its writer's alone: what it last wrote is the truth.

Why it matters: the compacted agent's summary feels like a fresh read, so it
skips the read and writes from a compressed, possibly wrong, model of the
state.

Example: the executor compacts, then writes task/B = complete without reading
task/B, whose last value was failed.

Fix: demote a compacted agent to re-validate-before-write until it re-reads
the keys it writes.`,
	Run: runWriteWithoutReread,
}

func runWriteWithoutReread(p *audit.Pass) {
	// who touches each key over the whole run: a key no peer reads or
	// writes is the writer's alone, and what it last wrote is the truth.
	// A run has as many keys as tasks, so a key's agents are the first
	// and whether there are others, not a set per key, and each key's
	// facts sit in lists by its number (KeyNumber), not maps by key.
	keys := p.State.Keys()
	touchers := make([]agentsOf, keys)
	for i, op := range p.State.Ops.All() {
		touchers[p.State.KeyNumber(i)].add(op.Agent)
	}
	exists := make([]bool, keys)
	writers := make([]agentsOf, keys)
	read := map[string]map[int]int{} // agent → key number → last read index
	for i, op := range p.State.Ops.All() {
		if op.Private {
			continue
		}
		k := p.State.KeyNumber(i)
		if !op.Write {
			if read[op.Agent] == nil {
				read[op.Agent] = map[int]int{}
			}
			read[op.Agent][k] = op.Index
			if op.Value != "" {
				exists[k] = true
			}
			continue
		}
		w := &writers[k]
		if !exists[k] {
			exists[k] = true // creation needs no read
			w.add(op.Agent)
			continue
		}
		if !touchers[k].many {
			continue
		}
		lastRead, hasRead := read[op.Agent][k]
		c := p.State.LastCompaction(op.Agent, op.Index)
		var why string
		switch {
		case c != nil && (!hasRead || lastRead < c.Index):
			why = fmt.Sprintf("its last compaction was at turn %d and it has not read %s since", c.Turn, op.Key)
		case c == nil && !hasRead && !w.only(op.Agent):
			why = fmt.Sprintf("it never read %s, which another agent wrote", op.Key)
		}
		w.add(op.Agent)
		if why == "" {
			continue
		}
		f := audit.OpFinding(p.State, *op)
		f.Message = fmt.Sprintf("%s wrote %s without reading it: %s", op.Agent, op.Key, why)
		if prev, ok := p.State.LastValue(op.Key, op.Index); ok {
			f.Evidence.Chain = append(f.Evidence.Chain, audit.OpStep("last value", prev, ""))
		}
		if c != nil {
			f.Evidence.Chain = append(f.Evidence.Chain, audit.CompactionStep(c, p.State.CompactionNumber(op.Agent, c.Index+1), "no read of "+op.Key+" since"))
		}
		f.Evidence.Chain = append(f.Evidence.Chain, audit.OpStep("wrote", *op, "without a read"))
		f.Key(op.Key, op.Value, fmt.Sprint(op.Revision))
		p.Report(f)
	}
}

// agentsOf is which agents did something to a key: the first, and
// whether any other did.
type agentsOf struct {
	first     string
	any, many bool
}

func (a *agentsOf) add(agent string) {
	switch {
	case !a.any:
		a.first, a.any = agent, true
	case agent != a.first:
		a.many = true
	}
}

// only reports whether no agent but this one did it.
func (a agentsOf) only(agent string) bool { return !a.any || !a.many && a.first == agent }
