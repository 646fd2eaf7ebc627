package lex_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/compaudit/compaudit/audit/lex"
)

// TestTermIndex holds the index to the walk it replaces: for every term,
// the sentences whose sets hold it, in order, and none for a term no
// sentence holds.
func TestTermIndex(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 7))
		sets := make([]lex.TermSet, rng.IntN(50))
		for i := range sets {
			var words []string
			for range rng.IntN(8) {
				words = append(words, fmt.Sprintf("w%d", rng.IntN(20)))
			}
			slices.Sort(words)
			sets[i] = slices.Compact(words)
		}
		x := lex.NewTermIndex(sets)
		for w := range 22 {
			term := fmt.Sprintf("w%d", w)
			var want []int32
			for i, s := range sets {
				if s.Has(term) {
					want = append(want, int32(i))
				}
			}
			if got := x.Holding(term); !slices.Equal(got, want) {
				t.Fatalf("seed %d: %s held by %v, want %v", seed, term, got, want)
			}
		}
	}
}
