package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
)

// ThresholdBreach reports a side-effecting call past a live limit.
var ThresholdBreach = &audit.Rule{
	ID:       "threshold-breach",
	Title:    "A later side-effecting call goes past a live threshold",
	Severity: audit.SeverityError,
	Doc: `After a boundary, a side-effecting call sets or uses a value beyond a threshold
still in force: retries=8 or --retries 8 under "retries <= 3", --workers 8
under "at most 5 workers", a 120 s timeout under "under 30 seconds". A value
without a unit is read in the threshold's unit. Repeating the same failing
call counts as retrying it.

Example: "retry ≤ 3" decayed to "retries should be limited"; the next
deploy runs ./scripts/deploy.sh --retries 8.

Why it matters: thresholds decay across compactions ("a few retries", then
"retries should be limited"), and the agent acts on what is left.

Fix: check call arguments against the ledger's thresholds before executing.`,
	Run: runThresholdBreach,
}

func runThresholdBreach(p *audit.Pass) {
	r := p.Replay
	for _, ref := range r.References().Of(replay.RefBreach) {
		o := ref.Obligation
		ev := ref.Event
		t := o.Threshold
		f := audit.Finding{File: ev.File, Line: ev.Line, Turn: ev.Turn, Obligation: o, Offset: ev.Offset}
		f.Message = fmt.Sprintf("turn %d: %s sets %s, past %q (turn %d)", ev.Turn, ev.ToolName, ref.Token, o.Span.Text, o.Origin.Turn)
		p.RecentEvidence(o, &f.Evidence)
		f.Evidence.Chain = append(f.Evidence.Chain, audit.AtEvent("breached", ev,
			fmt.Sprintf("%s, limit %s %s %g", ref.Token, t.Subject, t.Comparator, t.Value)))
		f.QuoteCall(ev)
		f.Key(ref.Token, ev.ToolName)
		p.Report(f)
	}
}
