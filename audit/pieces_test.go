package audit

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/compaudit/compaudit/audit/sharedstate"
)

// TestPiecesKeepOrder: a list kept in pieces comes out whole and in the
// order it was added, across the pieces' edges.
func TestPiecesKeepOrder(t *testing.T) {
	for _, n := range []int{0, 1, sharedstate.PieceLen - 1, sharedstate.PieceLen, sharedstate.PieceLen + 1, 4*sharedstate.PieceLen + 1, 20000} {
		var l sharedstate.Pieces[int]
		var want []int
		for i := range n {
			l.Add(i * 3)
			want = append(want, i*3)
		}
		if got := l.Flat(); !slices.Equal(got, want) || l.Len() != n {
			t.Errorf("%d added: got %d back, out of order or short", n, len(got))
		}
	}
}

// TestInternShares: the ops of a run share one copy of each key and value
// they name, a copy of their own and not a piece of a record, and the
// table stops growing at maxInterned distinct strings.
func TestInternShares(t *testing.T) {
	c := sharedstate.NewStateCollector(nil, DefaultSideEffecting)
	line := `{"key":"task/7","value":"running"}`
	a, b := c.Intern(line[8:14]), c.Intern(strings.Clone(line[8:14]))
	if a != "task/7" || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("two ops naming task/7 hold two copies")
	}
	if unsafe.StringData(a) == unsafe.StringData(line[8:14]) {
		t.Errorf("the interned key is a piece of its record")
	}
	for i := range sharedstate.MaxInterned + 100 {
		c.Intern("value-" + strconv.Itoa(i))
	}
	if len(c.Strs) > sharedstate.MaxInterned {
		t.Errorf("the table holds %d strings, more than %d", len(c.Strs), sharedstate.MaxInterned)
	}
}
