package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
)

// SoftenedNegation reports a prohibition the summary weakened.
var SoftenedNegation = &audit.Rule{
	ID:       "softened-negation",
	Title:    "A prohibition was softened to a preference, dropped, or inverted",
	Severity: audit.SeverityError,
	Doc: `A "never", "do not" or "must not" in the ledger came through the boundary
weaker: as a preference ("User prefers staging environment over production"),
not at all, or inverted ("enable X" for "do not enable X"). The finding's
change field says which: softened, dropped or inverted. A restatement with the
same force in other words ("must never", "off-limits, do not modify") is
preserved and not reported.

Why it matters: this is the most common collapse. An agent reads a preference as
a ranking, not a rule, and when the preferred option fails it takes the other.

Example: "use the staging bucket s3://acme-stage-07/, never prod" at turn 41;
summary: "User prefers staging environment over production"; turn 98 deploys
to s3://acme-prod/.

Fix: treat negations as first-class in compaction: copy them verbatim, with
their object, into what survives.`,
	Run: runSoftenedNegation,
}

func runSoftenedNegation(p *audit.Pass) {
	r := p.Replay
	for i := range r.Survivals {
		s := &r.Survivals[i]
		o := s.Obligation
		if o.Kind != tag.KindProhibition || !audit.Changed(r, o.ID) {
			continue
		}
		if s.State != replay.Softened && s.State != replay.Dropped && s.State != replay.Inverted {
			continue
		}
		f := audit.BoundaryFinding(r, s)
		how := map[string]string{"softened": "softened to a preference", "dropped": "dropped", "inverted": "inverted"}[s.Change]
		f.Message = fmt.Sprintf("%q (turn %d) was %s at %s", o.Text, o.Origin.Turn, how, audit.BoundaryName(r))
		f.Evidence.Change = s.Change
		if s.Excerpt != "" {
			f.Evidence.Original, f.Evidence.Variant = o.Span.Text, s.Excerpt
			f.Evidence.Diff = audit.CharDiff(o.Span.Text, s.Excerpt)
		}
		for _, ref := range r.References().For(o.ID) {
			if ref.Kind == replay.RefTouch {
				f.Evidence.Chain = append(f.Evidence.Chain, audit.AtEvent("violated", ref.Event, "touched "+ref.Token))
			}
		}
		p.Report(f)
	}
}
