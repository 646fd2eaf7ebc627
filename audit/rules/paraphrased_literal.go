package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
)

// ParaphrasedLiteral reports a literal the summary replaced with a near
// variant.
var ParaphrasedLiteral = &audit.Rule{
	ID:       "paraphrased-literal",
	Title:    "A literal was replaced by a near variant in the summary",
	Severity: audit.SeverityWarning,
	Doc: `The literal is absent verbatim from the post-boundary context, but a near variant
stands in its place: acme-staging for acme-stage-07, or a relative path that,
against the session's working directory, no longer resolves to the absolute
path it replaced. (A relative path that does resolve to it is preserved.) The
finding carries a character diff of the two.

Why it matters: a near variant reads as the real thing. The agent will use it
with confidence, and the call fails or, worse, succeeds somewhere else.

Severity: warning when the literal came from the user, the system or the
developer; note when only the agent's own tool use held it.

Example: ledger "/home/dev/acme-web/src/checkout/total.ts", summary
"src/checkout/totals.ts".

Fix: make the summarizer copy identifiers verbatim; audit summaries for
near-miss identifiers before the agent resumes.`,
	Run: runParaphrasedLiteral,
}

func runParaphrasedLiteral(p *audit.Pass) {
	r := p.Replay
	for i := range r.Survivals {
		s := &r.Survivals[i]
		o := s.Obligation
		if o.Kind != tag.KindLiteral || s.State != replay.Paraphrased || !audit.Changed(r, o.ID) {
			continue
		}
		f := audit.BoundaryFinding(r, s)
		f.Message = fmt.Sprintf("%s (stated at turn %d) became %s in the summary at %s",
			o.Literal, o.Origin.Turn, s.Variant, audit.BoundaryName(r))
		if !o.Origin.Source.Instructive() {
			// a fact of the agent's own tool use, not an instruction
			f.Severity = audit.SeverityNote
		}
		f.Evidence.Original, f.Evidence.Variant = o.Literal, s.Variant
		f.Evidence.Diff = audit.CharDiff(o.Literal, s.Variant)
		f.Evidence.Use = o.Literal
		f.Key(s.Variant)
		p.Report(f)
	}
}
