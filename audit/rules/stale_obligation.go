package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
)

// StaleObligation reports a summary restating a retracted or superseded
// value.
var StaleObligation = &audit.Rule{
	ID:       "stale-obligation",
	Title:    "The summary restates a retracted or superseded obligation",
	Severity: audit.SeverityWarning,
	Doc: `The ledger keeps history: when the user retracts a rule ("you can deploy to prod
now", "forget the coverage rule") or replaces a value ("use 9090 instead of
8080"), the old obligation is retired with the turn that ended it. This rule
reports a summary that states the old one as if it still held. A summary that
narrates the change ("switched from 8080 to 9090") is not reported.

Why it matters: a summarizer reading the whole history may weigh the first
statement as heavily as the correction, and the agent resumes on the old value.

Example: "serve it on port 8080" at turn 1, "use 9090 instead of 8080" at turn
3; the summary says "the dev server runs on port 8080".

Fix: summarize from the ledger's current state, not from the narrative.`,
	Run: runStaleObligation,
}

func runStaleObligation(p *audit.Pass) {
	r := p.Replay
	for _, o := range r.Retired {
		excerpt, ok := r.StaleRestatement(o, p.Ledger)
		if !ok {
			continue
		}
		if n := len(p.Boundaries); n >= 2 {
			if _, before := p.Boundaries[n-2].StaleRestatement(o, p.Ledger); before {
				continue // reported where it started
			}
		}
		ret := p.Ledger.Retraction(o.RetiredBy)
		how := "retracted"
		if o.Superseded {
			how = "superseded"
		}
		f := audit.Finding{File: r.File, Line: r.Line, Turn: r.Turn, Obligation: o, Offset: r.Offset}
		f.Message = fmt.Sprintf("the summary at %s restates %q (turn %d), %s at turn %d", audit.BoundaryName(r), o.Text,
			o.Origin.Turn, how, o.RetiredAt)
		f.Evidence.Chain = []audit.Step{audit.Stated(o)}
		if ret != nil {
			f.Evidence.Chain = append(f.Evidence.Chain, audit.Step{Kind: how, File: ret.Origin.File, Line: ret.Origin.Line,
				Turn: ret.Origin.Turn, Role: ret.Origin.Source.String(), Text: ret.Span.Text})
			if ret.Replacement != "" {
				f.Evidence.Use = ret.Replacement
			}
		}
		f.Evidence.Chain = append(f.Evidence.Chain, audit.Step{Kind: "boundary", File: r.File, Line: r.Line, Turn: r.Turn,
			Boundary: r.Index, Text: excerpt, Detail: "restated as current"})
		f.Evidence.Summary = excerpt
		p.Report(f)
	}
}
