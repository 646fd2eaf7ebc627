package replay

import (
	"iter"
	"path"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/tag"
)

// nearMissIndexFrom squared is the number of tests of a token against a
// literal a window makes one by one before it looks its near misses up
// through a nearMissIndex: building it costs more than a few tests.
const nearMissIndexFrom = 32

// nearMissIndex finds the literals a token can be a near miss of without
// testing each: every new token of a call or of the agent's words is
// checked against every literal an instruction bound, and thousands of
// both cost their product. A near miss (nearMiss) shares a distinctive
// Part with the literal — the parts of the tails it compares are parts of
// the whole — and a path is one only of a path in the same folder.
type nearMissIndex struct {
	byPart map[string][]int // distinctive part → literal candidates, ascending
	byDir  map[string][]int // folder → path-like literal candidates, ascending
}

func NewNearMissIndex(cands []ledger.WindowObligation) *nearMissIndex {
	x := &nearMissIndex{byPart: map[string][]int{}, byDir: map[string][]int{}}
	for i, c := range cands {
		if !c.Lit {
			continue
		}
		nl := c.O.Normalized()
		if isPathLike(nl) {
			d := folderOf(nl)
			x.byDir[d] = append(x.byDir[d], i)
			continue
		}
		for _, p := range distinctParts(nl) {
			x.byPart[p] = append(x.byPart[p], i)
		}
	}
	return x
}

// Candidates are, ascending, the literal candidates the normalized token
// nt can be a near miss of.
func (x *nearMissIndex) Candidates(nt string) []int {
	if isPathLike(nt) {
		return x.byDir[folderOf(nt)]
	}
	var out []int
	for _, p := range distinctParts(nt) {
		out = append(out, x.byPart[p]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// inForce yields, in order, the literals in force that the normalized
// Token nt can be a near miss of: the ones live.list(live.lits) yields
// that nearMiss can accept.
func (x *nearMissIndex) inForce(live *ledger.InForce, nt string) iter.Seq[*ledger.Obligation] {
	return func(yield func(*ledger.Obligation) bool) {
		for _, i := range x.Candidates(nt) {
			if live.IsLit(i) && !yield(live.Cands[i].O) {
				return
			}
		}
	}
}

// distinctParts are the parts of s that nearMiss counts as significant:
// three bytes or more, not all digits; each once.
func distinctParts(s string) []string {
	var out []string
	for _, p := range identParts(s) {
		if len(p) >= 3 && !tag.AllDigits(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// folderOf is the folder nearMissPath compares.
func folderOf(s string) string {
	d, _ := path.Split(strings.TrimSuffix(s, "/"))
	return path.Clean(d)
}
