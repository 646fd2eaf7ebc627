package replay

import (
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
)

// changeWords narrate a change rather than restate an old value.
var changeWords = []string{"instead", "previously", "was ", "were ", "changed", "switched", "replaced", "no longer",
	"not ", "old ", "from ", "formerly", "moved", "superseded", "lifted", "retracted", "dropped the", "used to",
	"originally", "earlier"}

// StaleRestatement reports whether the post-boundary context restates a
// retracted or superseded obligation as if it still held, and the sentence
// that does.
func (r *BoundaryReplay) StaleRestatement(o *ledger.Obligation, l *ledger.Ledger) (string, bool) {
	if o.RetiredAt == 0 || o.RetiredAt > r.Turn {
		return "", false
	}
	narrates := func(sent string) bool { return narratesChange(sent, l.Retraction(o.RetiredBy)) }
	switch o.Kind {
	case tag.KindLiteral:
		if l.LiveLiteral(o.Literal, r.Turn) {
			return "", false // stated again as current since
		}
		for _, s := range r.Context.sentences {
			if containsLiteral(s.Text, o.Literal) && !narrates(s.Text) {
				return s.Text, true
			}
		}
	case tag.KindProhibition:
		force, excerpt, found := objectForce(r.Context.sentences, o.Object)
		if found && force == ForceForbid && !narrates(excerpt) && !permits(excerpt) {
			return excerpt, true
		}
	case tag.KindThreshold:
		return r.staleLimit(*o.Threshold, narrates)
	}
	return "", false
}

// narratesChange reports whether a sentence tells of the change rather
// than restating the old rule: a word of change ("was", "instead"), or
// what the retraction put in its place.
func narratesChange(sent string, ret *ledger.Obligation) bool {
	low := " " + lex.FoldLower(sent) + " "
	for _, w := range changeWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	if ret == nil || ret.Replacement == "" {
		return false
	}
	for _, h := range tag.FindLiterals(ret.Replacement) {
		if containsLiteral(sent, h.Value) {
			return true
		}
	}
	for _, f := range strings.Fields(ret.Replacement) {
		if tag.AllDigits(strings.Trim(f, ".,;:")) && strings.Contains(sent, strings.Trim(f, ".,;:")) {
			return true
		}
	}
	return false
}

// staleLimit is the first sentence after the boundary that states a
// retired limit as if it held.
func (r *BoundaryReplay) staleLimit(t tag.Threshold, narrates func(string) bool) (string, bool) {
	stale := func(h tag.Threshold, sent string) bool {
		return sameThresholdSubject(h, t) && equivalentThreshold(h, t) && !narrates(sent)
	}
	if f := r.Context.Folded; f != nil {
		// only the limits that could be on its subject, in order
		for at := range f.limitsFor(t.Subject) {
			if sent := f.Sentences[at.sentence].Text; stale(at.hit.T, sent) {
				return sent, true
			}
		}
		return "", false
	}
	for _, s := range r.Context.sentences {
		for _, h := range tag.FindThresholds(s.Text) {
			if stale(h.T, s.Text) {
				return s.Text, true
			}
		}
	}
	return "", false
}

// permits reports a sentence that says something is now allowed.
func permits(s string) bool {
	low := lex.FoldLower(s)
	for _, w := range []string{"now allowed", "allowed now", "can now", "may now", "permitted", "ok to", "okay to", "is fine"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
