package audit

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/sharedstate"
)

// TestRunOrder holds order to its definition on random runs: with every
// item timed, all items renumbered in time order, stream position breaking
// ties; with any untimed, stream order; and each list then by Index.
func TestRunOrder(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 2))
		n := 300
		if seed%3 == 0 {
			n = 6000 // ops in several pieces
		}
		r := randomRunOf(rng, n)
		untimed := seed%4 == 0
		stamp := func() string {
			if untimed && rng.IntN(50) == 0 {
				return ""
			}
			// few distinct times, so ties are common; files read one
			// after another put later times before earlier ones
			return fmt.Sprintf("2026-11-30T10:%02d:00Z", rng.IntN(20))
		}
		for _, op := range r.Ops.All() {
			op.Time = stamp()
		}
		for i := range r.Compactions {
			r.Compactions[i].Time = stamp()
		}
		for i := range r.Messages {
			r.Messages[i].Time = stamp()
		}
		for i := range r.Tests {
			r.Tests[i].Time = stamp()
		}
		for i := range r.Work {
			r.Work[i].Time = stamp()
		}
		if seed%5 == 1 { // already in time order: one file written as it ran
			r = timeSorted(r)
		}
		want := referenceOrder(r)
		r.Order()
		if got := describeRun(r); got != want {
			t.Fatalf("seed %d: order gave\n%s\nwant\n%s", seed, got, want)
		}
	}
}

// timeSorted gives every item of r a time that rises with its Index.
func timeSorted(r *sharedstate.StateRun) *sharedstate.StateRun {
	at := func(i int) string { return fmt.Sprintf("2026-11-30T10:%04d", i) }
	for _, op := range r.Ops.All() {
		op.Time = at(op.Index)
	}
	for i := range r.Compactions {
		r.Compactions[i].Time = at(r.Compactions[i].Index)
	}
	for i := range r.Messages {
		r.Messages[i].Time = at(r.Messages[i].Index)
	}
	for i := range r.Tests {
		r.Tests[i].Time = at(r.Tests[i].Index)
	}
	for i := range r.Work {
		r.Work[i].Time = at(r.Work[i].Index)
	}
	return r
}

// referenceOrder orders a copy of r the plain way and describes it.
func referenceOrder(r *sharedstate.StateRun) string {
	ops := opsOf(r)
	c := &sharedstate.StateRun{Compactions: slices.Clone(r.Compactions),
		Messages: slices.Clone(r.Messages), Tests: slices.Clone(r.Tests), Work: slices.Clone(r.Work)}
	type item struct {
		time  string
		index int
		set   *int
	}
	var items []item
	for i := range ops {
		items = append(items, item{ops[i].Time, ops[i].Index, &ops[i].Index})
	}
	for i := range c.Compactions {
		items = append(items, item{c.Compactions[i].Time, c.Compactions[i].Index, &c.Compactions[i].Index})
	}
	for i := range c.Messages {
		items = append(items, item{c.Messages[i].Time, c.Messages[i].Index, &c.Messages[i].Index})
	}
	for i := range c.Tests {
		items = append(items, item{c.Tests[i].Time, c.Tests[i].Index, &c.Tests[i].Index})
	}
	for i := range c.Work {
		items = append(items, item{c.Work[i].Time, c.Work[i].Index, &c.Work[i].Index})
	}
	if !slices.ContainsFunc(items, func(it item) bool { return it.time == "" }) {
		slices.SortStableFunc(items, func(a, b item) int {
			return cmp.Or(strings.Compare(a.time, b.time), cmp.Compare(a.index, b.index))
		})
		for n, it := range items {
			*it.set = n
		}
	}
	slices.SortStableFunc(ops, func(a, b sharedstate.StateOp) int { return cmp.Compare(a.Index, b.Index) })
	for _, op := range ops {
		c.Ops.Add(op)
	}
	slices.SortStableFunc(c.Compactions, func(a, b sharedstate.Compaction) int { return cmp.Compare(a.Index, b.Index) })
	slices.SortStableFunc(c.Messages, func(a, b sharedstate.Message) int { return cmp.Compare(a.Index, b.Index) })
	slices.SortStableFunc(c.Tests, func(a, b sharedstate.RunOutcome) int { return cmp.Compare(a.Index, b.Index) })
	slices.SortStableFunc(c.Work, func(a, b sharedstate.RunOutcome) int { return cmp.Compare(a.Index, b.Index) })
	return describeRun(c)
}

func describeRun(r *sharedstate.StateRun) string {
	var b strings.Builder
	for _, op := range r.Ops.All() {
		fmt.Fprintf(&b, "op %d %s %s %s\n", op.Index, op.Time, op.Agent, op.Key)
	}
	for _, c := range r.Compactions {
		fmt.Fprintf(&b, "compaction %d %s %s\n", c.Index, c.Time, c.Agent)
	}
	for _, m := range r.Messages {
		fmt.Fprintf(&b, "message %d %s %s\n", m.Index, m.Time, m.Agent)
	}
	for _, x := range r.Tests {
		fmt.Fprintf(&b, "test %d %s %s\n", x.Index, x.Time, x.Agent)
	}
	for _, x := range r.Work {
		fmt.Fprintf(&b, "work %d %s %s\n", x.Index, x.Time, x.Agent)
	}
	return b.String()
}

// TestOpList holds the pieces to one list: positions, order, and sorting
// by Index across pieces.
func TestOpList(t *testing.T) {
	for _, n := range []int{0, 1, sharedstate.PieceLen - 1, sharedstate.PieceLen, sharedstate.PieceLen + 1, 3*sharedstate.PieceLen + 17} {
		var l sharedstate.OpList
		var want []sharedstate.StateOp
		rng := rand.New(rand.NewPCG(uint64(n), 4))
		for i := range n {
			op := sharedstate.StateOp{Index: rng.IntN(n/2 + 1), Key: fmt.Sprint("k", i)}
			l.Add(op)
			want = append(want, op)
		}
		if l.Len() != n {
			t.Fatalf("n=%d: Len = %d", n, l.Len())
		}
		i := 0
		for at, op := range l.All() {
			if at != i || op != l.At(i) || *op != want[i] {
				t.Fatalf("n=%d: All yields %d %v at %d, want %v", n, at, *op, i, want[i])
			}
			i++
		}
		if i != n {
			t.Fatalf("n=%d: All yields %d ops", n, i)
		}
		l.ByIndex()
		slices.SortStableFunc(want, func(a, b sharedstate.StateOp) int { return cmp.Compare(a.Index, b.Index) })
		for i := range n {
			if *l.At(i) != want[i] {
				t.Fatalf("n=%d: after byIndex, op %d is %v, want %v", n, i, *l.At(i), want[i])
			}
		}
	}
}
