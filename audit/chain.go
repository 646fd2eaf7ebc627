package audit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/parse"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Stated is the first link of a chain: where the obligation was stated.
func Stated(o *ledger.Obligation) Step {
	text := o.Sentence
	if text == "" {
		text = o.Span.Text
	}
	return Step{Kind: "stated", File: o.Origin.File, Line: o.Origin.Line, Turn: o.Origin.Turn,
		Role: o.Origin.Source.String(), Text: lex.Clip(text, 300)}
}

// AtBoundary is what a boundary did to an obligation.
func AtBoundary(r *replay.BoundaryReplay, s *replay.Survival) Step {
	detail := s.State.String()
	if s.Detail != "" {
		detail += ": " + s.Detail
	}
	return Step{Kind: "boundary", File: r.File, Line: r.Line, Turn: r.Turn, Boundary: r.Index,
		Text: lex.Clip(s.Excerpt, 300), Detail: detail}
}

// AtEvent is a later turn in a chain.
func AtEvent(kind string, ev *replay.WindowEvent, detail string) Step {
	return Step{Kind: kind, File: ev.File, Line: ev.Line, Turn: ev.Turn, Role: ev.Source.String(),
		Text: eventExcerpt(ev), Detail: detail}
}

// eventExcerpt is what a chain quotes of an event.
func eventExcerpt(ev *replay.WindowEvent) string { return lex.Clip(EventText(ev), 300) }

// EventText is what an event says: a call's command or arguments, or its
// text.
func EventText(ev *replay.WindowEvent) string {
	if ev.Kind == parse.KindToolCall {
		if c := replay.CommandOfCall(ev); c != "" {
			return c
		}
		return ev.ToolName + " " + string(ev.Args)
	}
	return ev.Text
}

// Changed reports whether an obligation's state at this boundary differs
// from the previous boundary's, so a loss is reported once, where it
// happened, and not again at every later compaction that still lacks it.
func Changed(r *replay.BoundaryReplay, id string) bool {
	t := r.Owner.Trails[id]
	// the entry of this boundary, found from the end: rules ask right
	// after it closed
	i := len(t) - 1
	for i >= 0 && int(t[i].Boundary) > r.Index-1 {
		i--
	}
	if i < 1 || int(t[i].Boundary) != r.Index-1 {
		return true
	}
	prev, cur := t[i-1], t[i]
	if prev.Boundary != cur.Boundary-1 {
		// it was out of context in between (dormant) and a turn stated it
		// again: losing it now is a new loss
		return true
	}
	return prev.State != cur.State || prev.Judgement.Variant != cur.Judgement.Variant
}

// CharDiff is a character diff of an original against what replaced it.
func CharDiff(original, variant string) []DiffOp {
	dmp := diffmatchpatch.New()
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMain(original, variant, false))
	out := make([]DiffOp, 0, len(diffs))
	for _, d := range diffs {
		op := "equal"
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = "delete"
		case diffmatchpatch.DiffInsert:
			op = "insert"
		}
		out = append(out, DiffOp{Op: op, Text: d.Text})
	}
	return out
}

// Key sets what tells a finding apart from others of its rule on the same
// obligation: the token a later turn used, the tool it called.
func (f *Finding) Key(parts ...string) { f.key = strings.Join(parts, "\x00") }

// BoundaryName is "boundary 1 (turn 63)".
func BoundaryName(r *replay.BoundaryReplay) string {
	return fmt.Sprintf("boundary %d (turn %d)", r.Index, r.Turn)
}

// BoundaryFinding starts a finding about what a boundary did to an
// obligation: located at the boundary, with the chain from where the
// obligation was stated to the boundary's judgement.
func BoundaryFinding(r *replay.BoundaryReplay, s *replay.Survival) Finding {
	f := Finding{File: r.File, Line: r.Line, Turn: r.Turn, Obligation: s.Obligation, Offset: r.Offset}
	f.Evidence.Chain = []Step{Stated(s.Obligation), AtBoundary(r, s)}
	f.Evidence.Summary = s.Excerpt
	return f
}

// TurnFinding starts a finding about what a later turn did: located at the
// turn, with the chain from the obligation through the boundary to the turn.
func TurnFinding(r *replay.BoundaryReplay, ref replay.Reference, kind, detail string) Finding {
	ev := ref.Event
	f := Finding{File: ev.File, Line: ev.Line, Turn: ev.Turn, Obligation: ref.Obligation, Offset: ev.Offset}
	if o := ref.Obligation; o != nil {
		f.Evidence.Chain = append(f.Evidence.Chain, Stated(o))
		if s := r.Survival(o.ID); s != nil {
			f.Evidence.Chain = append(f.Evidence.Chain, AtBoundary(r, s))
			f.Evidence.Summary = s.Excerpt
		}
	}
	f.Evidence.Chain = append(f.Evidence.Chain, AtEvent(kind, ev, detail))
	if ev.Kind == parse.KindToolCall {
		f.QuoteCall(ev)
	}
	return f
}

// RecentEvidence gives a finding on o at the boundary under audit its
// recent trail (see recentFrom): the trail and how many earlier steps it
// leaves out, and a chain of the statement and each boundary of that trail.
func (p *Pass) RecentEvidence(o *ledger.Obligation, ev *Evidence) {
	var trail []replay.TrailStep
	if r := p.Replay; r.Owner != nil {
		entries := r.TrailUpTo(o.ID)
		from := replay.RecentFrom(entries)
		for _, e := range entries[from:] {
			trail = append(trail, r.Step(e))
		}
		ev.TrailOmitted = from
	}
	ev.Trail = trail
	ev.Chain = []Step{Stated(o)}
	boundaries := p.Boundaries
	if len(trail) > 0 {
		// in order, so those before the trail's first are passed by halving
		boundaries = boundaries[sort.Search(len(boundaries), func(i int) bool { return boundaries[i].Index >= trail[0].Boundary }):]
	}
	for _, b := range boundaries {
		if b.Index > p.Replay.Index {
			continue
		}
		if s := b.Survival(o.ID); s != nil {
			ev.Chain = append(ev.Chain, AtBoundary(b, s))
		}
	}
}

// QuoteCall puts a later call in the evidence: its tool and arguments.
func (f *Finding) QuoteCall(ev *replay.WindowEvent) {
	f.Evidence.Tool, f.Evidence.Arguments = ev.ToolName, string(ev.Args)
}
