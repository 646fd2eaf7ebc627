package ledger

import (
	"cmp"
	"iter"
	"math"
	"slices"
)

// WindowObligation is an obligation a window's reference checks may need: a
// candidate for its lists.
type WindowObligation struct {
	O             *Obligation
	Lit, LostLit  bool // a literal an instruction bound; one the summary lost
	Forbid, Limit bool // a prohibition; a threshold
	start, end    int  // in force from turn start until turn end
}

// InForce keeps, turn by turn through a window, the candidates in force,
// each list in candidate order. Drawing the lists up afresh at every turn
// walked the whole ledger once per turn, quadratic in a session whose
// Ledger keeps growing (26 s for a 7 MB session stating three obligations
// a turn). A window's turns come in order, so a new turn only adds what
// came into force and drops what retired; a turn that goes back draws the
// lists up again.
type InForce struct {
	Cands                           []WindowObligation
	Lits, LostLits, Forbids, Limits []int // candidate indices, ascending
	// the lits in force binding each normalized literal: a list through
	// next, from bindings' head; a map of slices cost a tenth of a
	// boundary's memory at 100,000 literals
	bindings           map[string]int32
	next               []int32
	byStart, byEnd     []int  // candidate indices in order of start, of end
	nextStart, nextEnd int    // the first of each not yet passed
	in                 []bool // in the lists
	turn               int
	started            bool
}

func NewInForce(cands []WindowObligation) *InForce {
	f := &InForce{Cands: cands, bindings: map[string]int32{}, in: make([]bool, len(cands)), next: make([]int32, len(cands))}
	for i := range cands {
		c := &cands[i]
		c.start, c.end = c.O.Origin.Turn, math.MaxInt
		if c.O.RetiredAt != 0 {
			c.end = c.O.RetiredAt
		}
		f.byStart, f.byEnd = append(f.byStart, i), append(f.byEnd, i)
	}
	slices.SortStableFunc(f.byStart, func(a, b int) int { return cmp.Compare(cands[a].start, cands[b].start) })
	slices.SortStableFunc(f.byEnd, func(a, b int) int { return cmp.Compare(cands[a].end, cands[b].end) })
	return f
}

// At moves the lists to a turn.
func (f *InForce) At(turn int) {
	if f.started && turn == f.turn {
		return
	}
	if !f.started || turn < f.turn {
		f.Lits, f.LostLits, f.Forbids, f.Limits = f.Lits[:0], f.LostLits[:0], f.Forbids[:0], f.Limits[:0]
		clear(f.bindings)
		clear(f.in)
		f.nextStart, f.nextEnd = 0, 0
	}
	f.started, f.turn = true, turn
	for ; f.nextEnd < len(f.byEnd) && f.Cands[f.byEnd[f.nextEnd]].end <= turn; f.nextEnd++ {
		if i := f.byEnd[f.nextEnd]; f.in[i] {
			f.drop(i)
		}
	}
	for ; f.nextStart < len(f.byStart) && f.Cands[f.byStart[f.nextStart]].start <= turn; f.nextStart++ {
		if i := f.byStart[f.nextStart]; f.Cands[i].end > turn {
			f.add(i)
		}
	}
}

// listsOf are the lists candidate i belongs in.
func (f *InForce) listsOf(i int) []*[]int {
	c, out := &f.Cands[i], make([]*[]int, 0, 4)
	for _, l := range []struct {
		in   bool
		list *[]int
	}{{c.LostLit, &f.LostLits}, {c.Lit, &f.Lits}, {c.Forbid, &f.Forbids}, {c.Limit, &f.Limits}} {
		if l.in {
			out = append(out, l.list)
		}
	}
	return out
}

func (f *InForce) add(i int) {
	f.in[i] = true
	for _, l := range f.listsOf(i) {
		*l = insertSorted(*l, i)
	}
	if f.Cands[i].Lit {
		k := f.Cands[i].O.Normalized()
		head, ok := f.bindings[k]
		if !ok {
			head = -1
		}
		f.next[i], f.bindings[k] = head, int32(i)
	}
}

func (f *InForce) drop(i int) {
	f.in[i] = false
	for _, l := range f.listsOf(i) {
		*l = deleteSorted(*l, i)
	}
	if f.Cands[i].Lit {
		k := f.Cands[i].O.Normalized()
		head := f.bindings[k]
		switch {
		case head == int32(i) && f.next[i] < 0:
			delete(f.bindings, k)
		case head == int32(i):
			f.bindings[k] = f.next[i]
		default:
			j := head
			for f.next[j] != int32(i) {
				j = f.next[j]
			}
			f.next[j] = f.next[i]
		}
	}
}

// FirstBinding is the earliest event binding a normalized literal among
// the literals in force.
func (f *InForce) FirstBinding(norm string) (int, bool) {
	i, ok := f.bindings[norm]
	if !ok {
		return 0, false
	}
	at := f.Cands[i].O.Origin.Event
	for i = f.next[i]; i >= 0; i = f.next[i] {
		at = min(at, f.Cands[i].O.Origin.Event)
	}
	return at, true
}

// IsLit reports a candidate in force on the list of literals.
func (f *InForce) IsLit(i int) bool { return f.in[i] && f.Cands[i].Lit }

// List yields the obligations of one of the lists.
func (f *InForce) List(l []int) iter.Seq[*Obligation] {
	return func(yield func(*Obligation) bool) {
		for _, i := range l {
			if !yield(f.Cands[i].O) {
				return
			}
		}
	}
}

func insertSorted(s []int, i int) []int {
	if n := len(s); n == 0 || s[n-1] < i {
		return append(s, i) // the common case: in force in candidate order
	}
	at, _ := slices.BinarySearch(s, i)
	return slices.Insert(s, at, i)
}

func deleteSorted(s []int, i int) []int {
	if at, ok := slices.BinarySearch(s, i); ok {
		return slices.Delete(s, at, at+1)
	}
	return s
}
