package ledger_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/tag"
)

// TestInForce holds the window's lists, turn by turn, to their definition:
// every candidate in force at the turn (Obligation.liveAt), in candidate
// order. Turns mostly go forward, and sometimes back.
func TestInForce(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 2))
		var cands []ledger.WindowObligation
		for range rng.IntN(40) {
			o := &ledger.Obligation{Kind: tag.KindLiteral, Literal: fmt.Sprintf("s3://b-%d/", rng.IntN(6))}
			o.Origin = &ledger.Origin{Turn: rng.IntN(30), Event: rng.IntN(100)}
			if rng.IntN(3) == 0 {
				o.RetiredAt = o.Origin.Turn + rng.IntN(20) - 3
			}
			c := ledger.WindowObligation{O: o}
			switch rng.IntN(4) {
			case 0:
				c.Lit = true
			case 1:
				c.Lit, c.LostLit = true, rng.IntN(2) == 0
			case 2:
				c.Forbid = true
			default:
				c.Limit = true
			}
			cands = append(cands, c)
		}
		f := ledger.NewInForce(cands)
		turn := rng.IntN(10)
		for step := range 60 {
			f.At(turn)
			check := func(name string, got []int, want func(ledger.WindowObligation) bool) {
				t.Helper()
				var w []int
				for i, c := range cands {
					if want(c) && c.O.LiveAt(turn) {
						w = append(w, i)
					}
				}
				if !slices.Equal(got, w) {
					t.Fatalf("seed %d step %d turn %d: %s = %v, want %v", seed, step, turn, name, got, w)
				}
			}
			check("lits", f.Lits, func(c ledger.WindowObligation) bool { return c.Lit })
			check("lostLits", f.LostLits, func(c ledger.WindowObligation) bool { return c.LostLit })
			check("forbids", f.Forbids, func(c ledger.WindowObligation) bool { return c.Forbid })
			check("limits", f.Limits, func(c ledger.WindowObligation) bool { return c.Limit })
			for b := range 6 {
				norm := ledger.NormLiteral(fmt.Sprintf("s3://b-%d/", b))
				want, found := 0, false
				for _, c := range cands {
					if c.Lit && c.O.LiveAt(turn) && c.O.Normalized() == norm && (!found || c.O.Origin.Event < want) {
						want, found = c.O.Origin.Event, true
					}
				}
				if got, ok := f.FirstBinding(norm); ok != found || got != want {
					t.Fatalf("seed %d step %d turn %d: firstBinding(%s) = %d %v, want %d %v", seed, step, turn, norm, got, ok, want, found)
				}
			}
			if rng.IntN(10) == 0 {
				turn -= rng.IntN(8)
			} else {
				turn += rng.IntN(3)
			}
		}
	}
}
