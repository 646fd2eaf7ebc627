package audit_test

import (
	"fmt"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/replay"
)

// TestSurvivalLookup: a boundary finds each obligation's survival the same
// way before and after it indexes them (past 32 lookups of 32 survivals):
// the first survival of the obligation, as it holds it, or none.
func TestSurvivalLookup(t *testing.T) {
	r := &replay.BoundaryReplay{}
	for i := range 100 {
		// obligation 7 is judged twice: the first judgement is the one
		r.Survivals = append(r.Survivals, replay.Survival{Obligation: &ledger.Obligation{ID: fmt.Sprintf("o%d", min(i, 100-i+7)%100)}, RestoredAt: i})
	}
	for round := range 3 { // the first 32 lookups walk, the rest read the index
		for i, s := range r.Survivals {
			got := r.Survival(s.Obligation.ID)
			want := &r.Survivals[i]
			for k := range r.Survivals {
				if r.Survivals[k].Obligation.ID == s.Obligation.ID {
					want = &r.Survivals[k]
					break
				}
			}
			if got != want {
				t.Fatalf("round %d: the survival of %s is #%d, want #%d", round, s.Obligation.ID, got.RestoredAt, want.RestoredAt)
			}
		}
		if got := r.Survival("none"); got != nil {
			t.Fatalf("round %d: a survival for an obligation the boundary never judged: #%d", round, got.RestoredAt)
		}
	}
}
