package cmd

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// prefaultHeap has Linux back size bytes of heap with memory before the
// audit first touches it. On the VMs CI runs on, each first touch of a
// 4 KB page costs about 10 µs — a fault in the guest and another in its
// host — and the 11,000 of an audit of 100 MB were 13% of its samples.
// MADV_POPULATE_WRITE (Linux 5.14) takes the guest's faults for a whole
// region in one call, at under 1 µs a page. The region is a slice the
// runtime has just mapped; once it is collected the page allocator, which
// takes the lowest free pages first, builds the heap in it. Where the
// kernel refuses, the audit takes the faults it would have taken anyway.
//
// Only what the heap does not hold yet is backed: in a process that has
// audited before (the tests, a program calling Main again), the heap
// already spans the memory, and a new region would only be collected and
// handed back (the audits after the first took 190-300 ms in process
// where they had taken 150).
func prefaultHeap(size int64) {
	size -= heapBacked()
	if size < 4<<20 {
		return
	}
	b := make([]byte, size)
	_ = populate(b)
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

// heapBacked is the heap memory the runtime holds backed: its objects,
// its free pages not handed back, and its spans' unused parts.
func heapBacked() int64 {
	n, _ := metricSum("/memory/classes/heap/objects:bytes", "/memory/classes/heap/free:bytes", "/memory/classes/heap/unused:bytes")
	return n
}

// populate backs b's pages with memory, without changing what they hold.
func populate(b []byte) error { return unix.Madvise(b, unix.MADV_POPULATE_WRITE) }
