package cmd

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
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

// TestMemoryBudgetFollowsHeap: after a collection, a budget whose floor is
// below what the process holds raises the soft limit above it; once
// stopped, it leaves the limit alone.
func TestMemoryBudgetFollowsHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
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
