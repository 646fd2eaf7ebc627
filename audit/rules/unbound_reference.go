package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
)

// UnboundReference reports a call using an identifier the agent could no
// longer see.
var UnboundReference = &audit.Rule{
	ID:       "unbound-reference",
	Title:    "A later side-effecting call uses an identifier it could no longer see",
	Severity: audit.SeverityWarning,
	Doc: `After a boundary, a side-effecting call uses an identifier — a URI, an absolute
path, a host, an id, a hash — that is not in the ledger, not in the summary or
the kept messages, and not in any turn since the boundary, but that did stand
in the original turns before it. The agent needed a span it no longer had.

Example: before the boundary git log showed 9f3e2a1 as the culprit; the
summary says "identified the culprit commit"; after it the agent runs git
revert 9f3e2a1 without looking again.

Why it matters: the value came from somewhere the agent could not see. It may
be right by luck or reconstructed wrong; either way the binding is gone.

Fix: rehydrate the original span from the transcript before the call; do not
let the model reconstruct it.`,
	Run: runUnboundReference,
}

func runUnboundReference(p *audit.Pass) {
	r := p.Replay
	for _, ref := range r.References().Of(replay.RefUnbound) {
		ev := ref.Event
		f := audit.TurnFinding(r, ref, "used", "unbound: "+ref.Token)
		f.Message = fmt.Sprintf("turn %d: %s uses %s, which stood only before %s and was not visible since",
			ev.Turn, ev.ToolName, ref.Token, audit.BoundaryName(r))
		f.Evidence.Chain = append([]audit.Step{{Kind: "boundary", File: r.File, Line: r.Line, Turn: r.Turn,
			Boundary: r.Index, Detail: "not in the summary or kept messages"}}, f.Evidence.Chain...)
		f.Key(ref.Token, ev.ToolName)
		p.Report(f)
	}
}
