package sharedstate

import (
	"cmp"
	"iter"
	"slices"
)

// OpList is a run's state operations, in order. A multi-agent run holds
// hundreds of thousands of them, so they stay in pieces (see pieces).
type OpList struct{ Pieces[StateOp] }

// Pieces is a long list kept in pieces of pieceLen, never copied whole:
// appending to one slice copied all of a run's ops at each growth (a third
// of the audit of a 100 MB run), and making one list of collected pieces
// once the run was read took about a tenth of it.
type Pieces[T any] struct {
	parts [][]T
	n     int
}

// PieceLen is the items of a full piece: 170 KB of ops.
const PieceLen = 1024

// Len is the number of items.
func (l *Pieces[T]) Len() int { return l.n }

// At is the i-th item.
func (l *Pieces[T]) At(i int) *T { return &l.parts[i/PieceLen][i%PieceLen] }

// Add appends an item. The first piece grows as a slice does, so a short
// list holds little; later ones are made whole.
func (l *Pieces[T]) Add(v T) {
	if len(l.parts) == 0 || len(l.parts[len(l.parts)-1]) == PieceLen {
		var p []T
		if len(l.parts) > 0 {
			p = make([]T, 0, PieceLen)
		}
		l.parts = append(l.parts, p)
	}
	last := &l.parts[len(l.parts)-1]
	*last = append(*last, v)
	l.n++
}

// All yields the items in order with their positions.
func (l *Pieces[T]) All() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		i := 0
		for _, p := range l.parts {
			for j := range p {
				if !yield(i, &p[j]) {
					return
				}
				i++
			}
		}
	}
}

// Flat is a copy of the list as one slice, nil when it is empty.
func (l *Pieces[T]) Flat() []T {
	if l.n == 0 {
		return nil
	}
	out := make([]T, 0, l.n)
	for _, p := range l.parts {
		out = append(out, p...)
	}
	return out
}

// ByIndex sorts a list by Index, keeping the order of equals, unless it
// already is (it is unless times reordered it). The check reads the items
// in place: through slices.IsSortedFunc each comparison took two copies,
// which index's pointer put on the heap.
func byIndex[T any](list []T, index func(*T) int) {
	for i := 1; i < len(list); i++ {
		if index(&list[i]) < index(&list[i-1]) {
			slices.SortStableFunc(list, func(a, b T) int { return cmp.Compare(index(&a), index(&b)) })
			return
		}
	}
}

// ByIndex sorts the ops by Index, keeping the order of equals, unless
// they already are. Only a run that times reordered needs it, and it
// sorts a copy and puts it back piece by piece.
func (l *OpList) ByIndex() {
	for i := 1; i < l.n; i++ {
		if l.At(i).Index < l.At(i-1).Index {
			all := l.Flat()
			slices.SortStableFunc(all, func(a, b StateOp) int { return cmp.Compare(a.Index, b.Index) })
			for _, p := range l.parts {
				all = all[copy(p, all):]
			}
			return
		}
	}
}
