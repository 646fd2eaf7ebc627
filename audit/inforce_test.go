package audit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/compaudit/compaudit/audit/tag"
)

// TestInForce holds the window's lists, turn by turn, to their definition:
// every candidate in force at the turn (Obligation.liveAt), in candidate
// order. Turns mostly go forward, and sometimes back.
func TestInForce(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 2))
		var cands []windowObligation
		for range rng.IntN(40) {
			o := &Obligation{Kind: tag.KindLiteral, Literal: fmt.Sprintf("s3://b-%d/", rng.IntN(6))}
			o.Origin.Turn, o.Origin.Event = rng.IntN(30), rng.IntN(100)
			if rng.IntN(3) == 0 {
				o.RetiredAt = o.Origin.Turn + rng.IntN(20) - 3
			}
			c := windowObligation{o: o}
			switch rng.IntN(4) {
			case 0:
				c.lit = true
			case 1:
				c.lit, c.lostLit = true, rng.IntN(2) == 0
			case 2:
				c.forbid = true
			default:
				c.limit = true
			}
			cands = append(cands, c)
		}
		f := newInForce(cands)
		turn := rng.IntN(10)
		for step := range 60 {
			f.at(turn)
			check := func(name string, got []int, want func(windowObligation) bool) {
				t.Helper()
				var w []int
				for i, c := range cands {
					if want(c) && c.o.liveAt(turn) {
						w = append(w, i)
					}
				}
				if !slices.Equal(got, w) {
					t.Fatalf("seed %d step %d turn %d: %s = %v, want %v", seed, step, turn, name, got, w)
				}
			}
			check("lits", f.lits, func(c windowObligation) bool { return c.lit })
			check("lostLits", f.lostLits, func(c windowObligation) bool { return c.lostLit })
			check("forbids", f.forbids, func(c windowObligation) bool { return c.forbid })
			check("limits", f.limits, func(c windowObligation) bool { return c.limit })
			for b := range 6 {
				norm := normLiteral(fmt.Sprintf("s3://b-%d/", b))
				want, found := 0, false
				for _, c := range cands {
					if c.lit && c.o.liveAt(turn) && c.o.normalized() == norm && (!found || c.o.Origin.Event < want) {
						want, found = c.o.Origin.Event, true
					}
				}
				if got, ok := f.firstBinding(norm); ok != found || got != want {
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
