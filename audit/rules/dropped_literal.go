package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
)

// DroppedLiteral reports a literal the summary lost.
var DroppedLiteral = &audit.Rule{
	ID:       "dropped-literal",
	Title:    "A literal obligation is absent from the post-boundary context",
	Severity: audit.SeverityWarning,
	Doc: `A literal a later turn could be held to verbatim — a bucket, a path, a branch, an
id, a port — is in the ledger before the boundary but nowhere after it: not in
the summary, not in what was kept verbatim, not restated before it was needed.

Why it matters: the agent cannot use what it cannot see. It reconstructs the
value from the summary's wording, and a reconstructed bucket name is a deploy
to the wrong bucket.

Severity: error when a later turn needed it (it used a near miss, a call failed
without it, or the agent asked for it again); warning when it came from the
user, the system or the developer; note when only the agent's own tool calls
or their output held it.

Example: the user says "use the staging bucket s3://acme-stage-07/" at turn 41;
the summary at turn 63 says "User prefers staging environment over
production"; at turn 97 the agent deploys to s3://acme-staging/.

Fix: carry literals verbatim across compaction — a side ledger the summarizer
cannot rewrite, or a compaction prompt that copies every identifier — and
rehydrate from the transcript when a later turn needs one.`,
	Run: runDroppedLiteral,
}

func runDroppedLiteral(p *audit.Pass) {
	r := p.Replay
	refs := r.References()
	for i := range r.Survivals {
		s := &r.Survivals[i]
		o := s.Obligation
		if o.Kind != tag.KindLiteral || s.State != replay.Dropped || !audit.Changed(r, o.ID) {
			continue
		}
		f := audit.BoundaryFinding(r, s)
		need := refs.For(o.ID)
		var needed []replay.Reference
		for _, n := range need {
			if n.Kind == replay.RefNearMiss || n.Kind == replay.RefFailed || n.Kind == replay.RefReask {
				needed = append(needed, n)
			}
		}
		switch {
		case len(needed) > 0:
			f.Severity = audit.SeverityError
			n := needed[0]
			how := map[replay.RefKind]string{
				replay.RefNearMiss: "used " + n.Token + " in its place",
				replay.RefFailed:   "a call failed without it",
				replay.RefReask:    "the agent asked for it again",
			}[n.Kind]
			f.Message = fmt.Sprintf("%s (stated at turn %d) is not in the context after %s, and turn %d needed it: %s",
				o.Literal, o.Origin.Turn, audit.BoundaryName(r), n.Event.Turn, how)
			// one link per event, saying every way it needed the literal
			var last *replay.WindowEvent
			for _, n := range needed {
				what := map[replay.RefKind]string{replay.RefNearMiss: "used the near miss " + n.Token,
					replay.RefFailed: "failed: " + n.Detail, replay.RefReask: "asked: " + n.Detail}[n.Kind]
				if n.Event == last {
					c := &f.Evidence.Chain[len(f.Evidence.Chain)-1]
					c.Detail += "; " + what
					continue
				}
				f.Evidence.Chain = append(f.Evidence.Chain, audit.AtEvent("needed", n.Event, what))
				last = n.Event
			}
		case o.Origin.Source.Instructive():
			f.Message = fmt.Sprintf("%s (stated by the %s at turn %d) is not in the context after %s",
				o.Literal, o.Origin.Source, o.Origin.Turn, audit.BoundaryName(r))
		default:
			f.Severity = audit.SeverityNote
			f.Message = fmt.Sprintf("%s (from the agent's own tool use at turn %d) is not in the context after %s",
				o.Literal, o.Origin.Turn, audit.BoundaryName(r))
		}
		p.Report(f)
	}
}
