package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/sharedstate"
)

// StaleRevision reports a write at a revision already passed.
var StaleRevision = &audit.Rule{
	ID:       "stale-revision",
	Title:    "A write carries a revision at or below the last one observed for its key",
	Severity: audit.SeverityError,
	Scope:    audit.ScopeRun,
	Doc: `Shared state that carries a monotonically increasing revision lets every writer
prove it wrote from the latest version. This rule reports a write whose revision
is less than or equal to the last revision any agent observed for that key (by
reading or writing it): the writer's model of the state is stale. An
idempotent retry — the same key, revision and payload hash as a write already
seen — is safe and not reported.

Why it matters: a compacted agent's summary rarely keeps revisions, so its next
write carries a stale or made-up one. A peer enforcing monotonic revisions
would reject it; most systems treat revisions as advisory and merge it.

Example: the executor read task/B at revision 3 (failed, retry pending),
compacted, and wrote task/B = complete at revision 3.

Fix: reject non-advancing revisions at the store; make a compacted agent
re-read before it writes.`,
	Run: runStaleRevision,
}

func runStaleRevision(p *audit.Pass) {
	// a write repeating an earlier one's revision and payload is a retry
	type seenWrite struct {
		key  int // KeyNumber
		rev  int64
		hash string
	}
	// the op of each key's highest revision, by key number: the run's own
	maxRev := make([]*sharedstate.StateOp, p.State.Keys())
	writes := map[seenWrite]bool{}
	for i, op := range p.State.Ops.All() {
		if op.Private || !op.HasRevision {
			continue
		}
		k := p.State.KeyNumber(i)
		prev := maxRev[k]
		observed := prev != nil
		if op.Write {
			if op.PayloadHash != "" && writes[seenWrite{k, op.Revision, op.PayloadHash}] {
				continue
			}
			if observed && op.Revision <= prev.Revision {
				f := audit.OpFinding(p.State, *op)
				f.Obligation = nil
				f.Message = fmt.Sprintf("%s wrote %s at revision %d, but revision %d was already observed (%s, turn %d)",
					op.Agent, op.Key, op.Revision, prev.Revision, prev.Agent, prev.Turn)
				f.Evidence.Chain = []audit.Step{audit.OpStep("observed", *prev, fmt.Sprintf("revision %d", prev.Revision))}
				if c := p.State.LastCompaction(op.Agent, op.Index); c != nil {
					f.Evidence.Chain = append(f.Evidence.Chain, audit.CompactionStep(c, p.State.CompactionNumber(op.Agent, c.Index+1), ""))
				}
				f.Evidence.Chain = append(f.Evidence.Chain, audit.OpStep("wrote", *op, fmt.Sprintf("revision %d ≤ %d", op.Revision, prev.Revision)))
				f.Key(op.Key, fmt.Sprint(op.Revision))
				p.Report(f)
			}
			writes[seenWrite{k, op.Revision, op.PayloadHash}] = true
		}
		if !observed || op.Revision > prev.Revision {
			maxRev[k] = op
		}
	}
}
