package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/compaudit/compaudit/parse"
)

// An audit tells Options.Holding of the state ops it keeps, a full piece
// at a time, and takes all of it back when it returns. The agents'
// messages, which a session holds too, are not told of.
func TestHoldingCountsStateOps(t *testing.T) {
	var b strings.Builder
	const tasks = 300 // 2,100 ops: two full pieces and part of a third
	for n := range tasks {
		for _, op := range [][2]string{{"planner", "write"}, {"executor", "read"}, {"executor", "write"},
			{"executor", "write"}, {"executor", "write"}, {"executor", "write"}, {"verifier", "read"}} {
			fmt.Fprintf(&b, `{"type":"state","agent":%q,"op":%q,"key":"task/%d","value":"v"}`+"\n", op[0], op[1], n)
		}
		fmt.Fprintf(&b, `{"type":"message","role":"assistant","agent":"executor","content":"task/%d done"}`+"\n", n)
		fmt.Fprintf(&b, `{"type":"message","role":"assistant","agent":"verifier","content":"task/%d checked"}`+"\n", n)
		fmt.Fprintf(&b, `{"type":"message","role":"assistant","agent":"planner","content":"task/%d next"}`+"\n", n)
		fmt.Fprintf(&b, `{"type":"message","role":"assistant","agent":"planner","content":"task/%d queued"}`+"\n", n)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var told []int64
	res, err := Audit(parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}, parse.Options{Format: parse.FormatCanonical},
		Options{Holding: func(n int64) { told = append(told, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.State.Ops.Len() != 7*tasks || len(res.State.Messages) != 4*tasks {
		t.Fatalf("the run has %d ops and %d messages, want %d and %d", res.State.Ops.Len(), len(res.State.Messages), 7*tasks, 4*tasks)
	}
	piece := int64(pieceLen * unsafe.Sizeof(StateOp{}))
	if want := []int64{piece, piece, -2 * piece}; !slices.Equal(told, want) {
		t.Errorf("Holding was told %v, want %v", told, want)
	}
}
