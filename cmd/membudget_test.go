package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/scripts/gentranscript/multiagent"
)

// TestMemoryBudgetLimit: the limit stays at the floor while an audit holds
// up to 60% of it, and leaves room above what it holds past that.
func TestMemoryBudgetLimit(t *testing.T) {
	const mib = 1 << 20
	b := &memoryBudget{floor: 80 * mib}
	for _, c := range []struct{ held, want int64 }{
		{0, 80 * mib},
		{55 * mib, 80 * mib}, // a 1 GB transcript
		{60 * mib, 80 * mib},
		{100 * mib, 160 * mib},
		{400 * mib, 760 * mib},
	} {
		if got := b.limit(c.held); got != c.want {
			t.Errorf("limit(%d MiB) = %d MiB, want %d MiB", c.held/mib, got/mib, c.want/mib)
		}
	}
}

// TestMemoryBudgetHold: what an audit keeps to its end raises the floor
// by as much while it is held, and the limit comes back once it is let go.
func TestMemoryBudgetHold(t *testing.T) {
	const mib = 1 << 20
	b := &memoryBudget{floor: 80 * mib}
	b.hold(24 * mib) // a 26 MB multi-agent run's state ops
	for _, c := range []struct{ held, want int64 }{
		{0, 104 * mib},
		{58 * mib, 104 * mib}, // that run at its end
		{100 * mib, 160 * mib},
		{400 * mib, 760 * mib}, // past the raised floor, as before
	} {
		if got := b.limit(c.held); got != c.want {
			t.Errorf("holding 24 MiB: limit(%d MiB) = %d MiB, want %d MiB", c.held/mib, got/mib, c.want/mib)
		}
	}
	b.hold(-24 * mib)
	if got := b.limit(58 * mib); got != 80*mib {
		t.Errorf("let go: limit(58 MiB) = %d MiB, want the floor, 80 MiB", got/mib)
	}
}

// TestMemoryBudgetPercent: the heap may grow to 3x what an audit holds,
// and never needs to stay below 40 MiB: a streamed audit holding 3 MiB
// collects at 40 MiB, not at 9, whatever the results it keeps.
func TestMemoryBudgetPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		held int64
		goal int64 // the heap size that starts the next collection
	}{
		{0, 40 * mib}, // before the first collection: the runtime's 4 MiB
		{1 * mib, 40 * mib},
		{3 * mib, 40 * mib},
		{10 * mib, 40 * mib},
		{14 * mib, 42 * mib},
		{16 * mib, 48 * mib}, // the 100 MB session
		{55 * mib, 165 * mib},
	} {
		p := gcPercent(c.held)
		if p < 200 {
			t.Errorf("gcPercent(%d MiB) = %d, below 200", c.held/mib, p)
		}
		held := max(c.held, 4*mib)
		if goal := held + held*int64(p)/100; goal < c.goal-mib || goal > c.goal+mib {
			t.Errorf("gcPercent(%d MiB) = %d: next collection at %d MiB, want about %d", c.held/mib, p, goal/mib, c.goal/mib)
		}
	}
}

// TestMemoryBudgetFollowsHeap: after a collection, a budget whose floor is
// below what the process holds raises the soft limit above it; once
// stopped, it leaves the limit alone.
func TestMemoryBudgetFollowsHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	percent := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(percent) })
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = 1 // resident, not just reserved
	}
	b := &memoryBudget{floor: 8 << 20}
	debug.SetMemoryLimit(b.floor)
	b.watch()
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) <= 64<<20 {
		if time.Now().After(deadline) {
			t.Fatalf("soft limit still %d MiB with 64 MiB held", debug.SetMemoryLimit(-1)>>20)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	b.stopped.Store(true)
	runtime.GC()
	runtime.GC()
	debug.SetMemoryLimit(b.floor)
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != b.floor {
		t.Errorf("a stopped budget moved the limit to %d MiB", got>>20)
	}
	runtime.KeepAlive(held)
}

// TestAuditHoldingRaisesBudget: an audit's state ops, which a multi-agent
// run keeps to its end, raise the soft memory limit while it runs. Each
// side has a test of its own (TestMemoryBudgetHold; audit's
// TestHoldingCountsStateOps); this one holds the command to joining them.
// It runs in a process of its own: the budget sets the process's limit.
func TestAuditHoldingRaisesBudget(t *testing.T) {
	if os.Getenv("COMPAUDIT_TEST_HOLDING") != "" {
		holdingChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAuditHoldingRaisesBudget$", "-test.v")
	// enough Ps that the collections run beside the audit, not between
	// its time slices, however many CPUs the test has
	cmd.Env = append(withoutGCSettings(os.Environ()), "COMPAUDIT_TEST_HOLDING=1", "GOMAXPROCS=4")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var raised int64
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "raised: "); ok {
			raised, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	t.Logf("the limit rose by %d bytes", raised)
	// the run's ops fill about 20 pieces of 1,024; at least one must
	// have been counted when a collection ran
	if piece := int64(1024 * unsafe.Sizeof(audit.StateOp{})); raised < piece {
		t.Errorf("the limit rose by %d bytes during the audit, want at least a piece of ops (%d); child said:\n%s", raised, piece, out)
	}
}

// withoutGCSettings drops GOGC and GOMEMLIMIT, which turn the budget off,
// and GOMAXPROCS, which the child sets.
func withoutGCSettings(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "GOMEMLIMIT=") || strings.HasPrefix(kv, "GOMAXPROCS=")
	})
}

// holdingChild audits the bench's multi-agent run of 3,000 tasks (21,000
// state ops) while collecting over and over, and says how far the soft
// limit rose above where the audit set it.
func holdingChild(t *testing.T) {
	var b bytes.Buffer
	if err := multiagent.Write(&b, 3000); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	before := debug.SetMemoryLimit(-1)
	done := make(chan int)
	go func() {
		s := &Streams{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
		done <- Main([]string{"audit", "--format", "ndjson", path}, s)
	}()
	high := int64(0)
	for running := true; running; {
		select {
		case code := <-done:
			if code > ExitFindings {
				t.Fatalf("the audit exited %d", code)
			}
			running = false
		default:
			runtime.GC()
			time.Sleep(100 * time.Microsecond) // for the budget's cleanup to run
		}
		if l := debug.SetMemoryLimit(-1); l != before {
			high = max(high, l)
		}
	}
	if high == 0 {
		t.Fatal("the audit never set a memory limit")
	}
	// the floor the command set, for one transcript whose results stream
	set := setMemoryBudget(nil, 1, false)
	set.stop()
	fmt.Printf("raised: %d\n", high-set.floor)
}

// TestPrefaultSize: nothing for inputs the runtime's first heap holds,
// half the input above that, and never more than prefaultMax.
func TestPrefaultSize(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ input, want int64 }{
		{0, 0},
		{100 << 10, 0},
		{8*mib - 1, 0},
		{8 * mib, 4 * mib},
		{40 * mib, 20 * mib},
		{100 * mib, prefaultMax},
		{1 << 30, prefaultMax},
	} {
		if got := prefaultSize(c.input); got != c.want {
			t.Errorf("prefaultSize(%d) = %d, want %d", c.input, got, c.want)
		}
	}
}

// TestInputBytes: files count their size, a gzip file eight times its
// size, standard input and files gone nothing; the count stops at upTo.
func TestInputBytes(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, size int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	main, sub, gz := file("a.jsonl", 3000), file("agent-b.jsonl", 500), file("c.jsonl.gz", 100)
	ts := []parse.Transcript{
		{Path: main, Files: []parse.File{{Path: main}, {Path: sub}}},
		{Path: gz, Files: []parse.File{{Path: gz}}},
		{Path: "-", Files: []parse.File{{Path: "-"}}},
		{Path: "gone", Files: []parse.File{{Path: filepath.Join(dir, "gone.jsonl")}}},
	}
	if got := inputBytes(ts, 1<<20); got != 3000+500+800 {
		t.Errorf("inputBytes = %d, want %d", got, 3000+500+800)
	}
	if got := inputBytes(ts, 2000); got != 2000 {
		t.Errorf("inputBytes up to 2000 = %d, want 2000", got)
	}
}
