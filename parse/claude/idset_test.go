package claude

import (
	"math/rand/v2"
	"testing"
)

// TestIDSet: after any number of additions, through every growth, the set
// holds exactly what was added, repeats counted once.
func TestIDSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s idSet
	added := map[uint64]bool{}
	if s.has(42) {
		t.Fatal("an empty set holds 42")
	}
	for i := range 200000 {
		h := r.Uint64()
		if i%7 == 0 && i > 0 {
			h = uint64(i) // small values, and repeats of them below
		}
		s.add(h)
		added[h] = true
		if i%3 == 0 {
			s.add(h) // a repeat changes nothing
		}
		if i%1000 == 0 {
			for k := range added {
				if !s.has(k) {
					t.Fatalf("after %d additions the set lost %#x", i+1, k)
				}
			}
		}
	}
	if s.n != len(added) {
		t.Errorf("the set counts %d, want %d", s.n, len(added))
	}
	if 4*s.n > 3*len(s.slots) {
		t.Errorf("the table is more than three quarters full: %d in %d slots", s.n, len(s.slots))
	}
	for range 100000 {
		if h := r.Uint64(); !added[h] && s.has(h) {
			t.Fatalf("the set holds %#x, never added", h)
		}
	}
}
