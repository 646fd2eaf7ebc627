// Package rules holds compaudit's rules, one per file. Each is a value of
// audit.Rule; All returns them sorted by id.
package rules

import (
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit"
)

// All returns every rule, sorted by id.
func All() []*audit.Rule {
	list := []*audit.Rule{
		DroppedLiteral,
		ParaphrasedLiteral,
		SoftenedNegation,
		ThresholdDrift,
		StaleObligation,
		StatusInflation,
		LedgerShrink,
		ParaphraseReference,
		ForbiddenAction,
		ThresholdBreach,
		UnboundReference,
		StaleRevision,
		WriteWithoutReread,
		WriteBreadthCollapse,
		CitationDecay,
		FalseCompletion,
		ConfidenceInflation,
		SilentCompaction,
	}
	slices.SortFunc(list, func(a, b *audit.Rule) int { return strings.Compare(a.ID, b.ID) })
	return list
}

// Lookup returns a rule by id.
func Lookup(id string) *audit.Rule {
	for _, r := range All() {
		if r.ID == id {
			return r
		}
	}
	return nil
}
