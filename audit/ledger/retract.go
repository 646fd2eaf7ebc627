package ledger

import (
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// retract applies a retraction or supersession and records it when it ended
// something. A permission that lifts nothing is not a retraction.
func (l *Ledger) retract(r tag.Directive, s lex.Sentence, ev *parse.Event, origin *eventOrigin) []*Obligation {
	ret := &Obligation{Kind: tag.KindRetraction, Retracts: r.Retracts, Replacement: r.Replacement, Origin: origin.get(),
		Span: Span{Text: s.Text, Start: s.Start, End: s.Start + len(s.Text)}, Text: s.Text}
	ret.ID = stableID(origin.get().Agent, tag.KindRetraction, ret.key())
	var targets []*Obligation
	switch {
	case r.Replacement != "" || !r.Lift && r.Retracts != "":
		targets = l.supersessionTargets(r)
		for _, t := range targets {
			t.Superseded = true
		}
	case r.Retracts == "the previous instruction":
		targets = l.lastInstruction(ev.Turn)
	default:
		targets = l.liftTargets(r)
	}
	if len(targets) == 0 {
		return nil
	}
	changed := []*Obligation{ret}
	for _, t := range targets {
		t.RetiredAt, t.RetiredBy = ev.Turn, ret.ID
		changed = append(changed, t)
	}
	ret.detach(&l.copies)
	l.appendObligation(ret)
	changed = append(changed, l.replacementLiterals(r, targets, s, origin)...)
	return changed
}

// replacementLiterals records a bare new value as the literal it replaces:
// in "use 9090 instead of 8080" the 9090 is a port because 8080 was.
func (l *Ledger) replacementLiterals(r tag.Directive, targets []*Obligation, s lex.Sentence, origin *eventOrigin) []*Obligation {
	if len(tag.FindLiterals(r.Replacement)) > 0 {
		return nil // the literal pass already tagged it
	}
	var changed []*Obligation
	for _, t := range targets {
		if t.Kind != tag.KindLiteral {
			continue
		}
		for _, f := range strings.Fields(r.Replacement) {
			f = strings.Trim(f, ".,;:`'\"")
			if f == "" || !tag.AllDigits(f) && t.LiteralKind != "name" {
				continue
			}
			at := strings.Index(s.Text, f)
			o := &Obligation{Kind: tag.KindLiteral, Text: f, Literal: f, LiteralKind: t.LiteralKind, Label: t.Label,
				Origin: origin.get(), Span: Span{Text: f, Start: s.Start + at, End: s.Start + at + len(f)}}
			if got := l.record(o); got != nil {
				changed = append(changed, got)
			}
			break
		}
	}
	return changed
}

// supersessionTargets finds what "use Y instead of X" replaces: literals
// equal to X, or, when X is not said, the latest live literal of Y's kind.
func (l *Ledger) supersessionTargets(r tag.Directive) []*Obligation {
	var targets []*Obligation
	oldLits := tag.FindLiterals(r.Retracts)
	oldVals := map[string]bool{}
	for _, h := range oldLits {
		oldVals[NormLiteral(h.Value)] = true
	}
	if r.Retracts != "" && len(oldLits) == 0 {
		// a bare value: "instead of 8080"
		oldVals[NormLiteral(strings.Fields(r.Retracts)[0])] = true
	}
	newLits := tag.FindLiterals(r.Replacement)
	newVals := map[string]bool{}
	for _, h := range newLits {
		newVals[NormLiteral(h.Value)] = true
	}
	if len(oldVals) > 0 {
		for _, o := range l.Obligations {
			if o.RetiredAt != 0 || o.Kind == tag.KindRetraction {
				continue
			}
			switch o.Kind {
			case tag.KindLiteral:
				if oldVals[o.Normalized()] {
					targets = append(targets, o)
				}
			case tag.KindRequirement, tag.KindProhibition:
				for _, lit := range o.Object.Literals {
					if oldVals[NormLiteral(lit)] {
						targets = append(targets, o)
						break
					}
				}
			}
		}
		return targets
	}
	// "use port 9090 instead": the latest live literal of the same kind and label
	for _, h := range newLits {
		for i := len(l.Obligations) - 1; i >= 0; i-- {
			o := l.Obligations[i]
			if o.Kind != tag.KindLiteral || o.RetiredAt != 0 || newVals[o.Normalized()] {
				continue
			}
			if o.LiteralKind == h.Kind && (h.Label == "" || o.Label == h.Label) && SameScheme(o.Literal, h.Value) {
				targets = append(targets, o)
				break
			}
		}
	}
	return targets
}

func SameScheme(a, b string) bool {
	ia, ib := strings.Index(a, "://"), strings.Index(b, "://")
	if ia < 0 || ib < 0 {
		return ia == ib
	}
	return strings.EqualFold(a[:ia], b[:ib])
}

// liftTargets finds the rules a permission or "forget the X rule" ends:
// prohibitions (and, for "forget", requirements and thresholds) whose
// Object the retraction names.
func (l *Ledger) liftTargets(r tag.Directive) []*Obligation {
	terms := lex.TermsOf(r.Retracts)
	lits := tag.FindLiterals(r.Retracts)
	var targets []*Obligation
	for _, o := range l.Obligations {
		if o.RetiredAt != 0 {
			continue
		}
		switch o.Kind {
		case tag.KindProhibition, tag.KindRequirement:
			if o.Kind == tag.KindRequirement && r.Lift && strings.Contains(lex.FoldLower(r.Retracts), "allowed") {
				continue
			}
			if objectNamed(o.Object, terms, lits) {
				targets = append(targets, o)
			}
		case tag.KindThreshold:
			if terms.Has(o.Threshold.Subject) {
				targets = append(targets, o)
			}
		}
	}
	return targets
}

// objectNamed reports whether a retraction's words name an object: all of
// its terms, or one of its literals.
func objectNamed(obj *tag.Object, terms lex.TermSet, lits []tag.LiteralHit) bool {
	for _, h := range lits {
		for _, ol := range obj.Literals {
			if NormLiteral(h.Value) == NormLiteral(ol) {
				return true
			}
		}
	}
	return terms.HasAll(obj.Terms)
}

// lastInstruction is what "scratch that" ends: the obligations of the
// latest earlier user turn.
func (l *Ledger) lastInstruction(turn int) []*Obligation {
	last := 0
	for _, o := range l.Obligations {
		if o.Origin.Source == reading.SourceUser && o.Origin.Turn < turn && o.Kind != tag.KindRetraction {
			last = max(last, o.Origin.Turn)
		}
	}
	var out []*Obligation
	for _, o := range l.Obligations {
		if o.Origin.Turn == last && last > 0 && o.RetiredAt == 0 && o.Origin.Source == reading.SourceUser && o.Kind != tag.KindRetraction {
			out = append(out, o)
		}
	}
	return out
}
