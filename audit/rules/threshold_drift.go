package rules

import (
	"fmt"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
)

// ThresholdDrift reports a numeric limit that changed or decayed.
var ThresholdDrift = &audit.Rule{
	ID:       "threshold-drift",
	Title:    "A threshold changed value, weakened, became vague, or vanished",
	Severity: audit.SeverityWarning,
	Doc: `A numeric limit in the ledger did not come through the boundary as it was: its
value changed, its comparator weakened, it became vague ("a few retries") or
qualitative ("retries should be limited"), or it vanished. The finding shows
the trail across boundaries since the limit last came through intact,
because repeated compaction compounds: each summary is written from the
previous one, so "retry ≤ 3" → "a few retries" → "retries should be
limited" is one trail, each step defensible, the whole not. Earlier rounds
of decay, undone by a restatement, are counted rather than shown, and at
most the last ten boundaries are; compaudit replay shows every one.
The same limit in other words ("no more than 3 retries" for "retry ≤ 3",
"below 30 seconds" for "under 30s") is preserved.

Example: "retry ≤ 3" at turn 41; the first summary keeps "no more than 3
retries", the second says "a few retries", the third "retries should be
limited".

Why it matters: a vague limit is no limit. The agent retries eight times, or
sets a 120 s timeout, and believes it complied.

Fix: copy thresholds verbatim — subject, comparator, value, unit — into what
survives compaction.`,
	Run: runThresholdDrift,
}

func runThresholdDrift(p *audit.Pass) {
	r := p.Replay
	for i := range r.Survivals {
		s := &r.Survivals[i]
		o := s.Obligation
		if o.Kind != tag.KindThreshold || (s.State != replay.Drifted && s.State != replay.Dropped) || !audit.Changed(r, o.ID) {
			continue
		}
		f := audit.Finding{File: r.File, Line: r.Line, Turn: r.Turn, Obligation: o, Offset: r.Offset}
		p.RecentEvidence(o, &f.Evidence)
		f.Evidence.Drift = s.Drift
		f.Evidence.Summary = s.Excerpt
		var path []string
		path = append(path, fmt.Sprintf("%q", o.Span.Text))
		if n := f.Evidence.TrailOmitted; n > 0 {
			path = append(path, fmt.Sprintf("(%d earlier boundaries)", n))
		}
		for _, t := range f.Evidence.Trail {
			switch {
			case t.State == replay.Preserved:
				path = append(path, "preserved")
			case t.Variant != "":
				path = append(path, fmt.Sprintf("%q", t.Variant))
			default:
				path = append(path, t.State.String())
			}
		}
		what := map[string]string{"value": "changed value", "comparator": "changed comparator", "vague": "became vague",
			"qualitative": "became qualitative", "vanished": "vanished"}[s.Drift]
		f.Message = fmt.Sprintf("threshold %q (turn %d) %s at %s: %s", o.Span.Text, o.Origin.Turn, what,
			audit.BoundaryName(r), strings.Join(path, " → "))
		if s.Variant != "" {
			f.Evidence.Original, f.Evidence.Variant = o.Span.Text, s.Variant
			f.Evidence.Diff = audit.CharDiff(o.Span.Text, s.Variant)
		}
		p.Report(f)
	}
}
