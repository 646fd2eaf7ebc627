package ledger

import (
	"regexp"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/tag"
)

// Tagging extends what the tagger recognizes, from configuration.
type Tagging struct {
	// Literals are regular expressions whose matches in instructions and
	// tool calls are literals ("PAY-[0-9]+" for a team's ticket ids).
	Literals []*regexp.Regexp
	// ProhibitionCues are phrases that forbid what follows them ("strictly
	// no", "is a hard no for").
	ProhibitionCues []string
}

// toolLiteralsFast finds the literals worth holding a later turn to in tool
// output — URIs, ids, emails, hosts — without the full extractor: only
// tokens that could be one of them are classified.
func toolLiteralsFast(text string, limit int) []tag.LiteralHit {
	var hits reading.ToolHits
	reading.ScanClassed(text, func(tok string, start int, classes uint8) { hits.Consider(text, tok, start, classes, limit) })
	return hits.Done()
}

// PartSet is the stemmed alphanumeric parts of a token.
func PartSet(v string) map[string]bool {
	m := map[string]bool{}
	for _, p := range lex.SplitIdent(lex.FoldLower(v)) {
		if len(p) >= 3 && !tag.AllDigits(p) {
			m[lex.Stem(p)] = true
		}
	}
	return m
}

// LiveLiteral reports whether a literal is in force at a turn.
func (l *Ledger) LiveLiteral(v string, turn int) bool {
	n := NormLiteral(v)
	for _, o := range l.Obligations {
		if o.Kind == tag.KindLiteral && o.Normalized() == n && o.Origin.Turn <= turn && (o.RetiredAt == 0 || o.RetiredAt > turn) {
			return true
		}
	}
	return false
}

// HoldsLiteral reports whether any obligation of the ledger carries the
// Literal, whatever its state.
func (l *Ledger) HoldsLiteral(v string) bool {
	_, ok := l.byKey[obligationKey{tag.KindLiteral, NormLiteral(v)}]
	return ok
}
