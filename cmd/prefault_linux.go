package cmd

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// prefaultHeap readies heap for an audit of input bytes before the audit
// first touches it. On the VMs CI runs on, each first touch of a 4 KB
// page costs about 10 µs — a fault in the guest and another in its host —
// and the 11,000 of an audit of 100 MB were 13% of its samples. The
// region is a slice the runtime has just mapped; once it is collected the
// page allocator, which takes the lowest free pages first, builds the
// heap in it.
//
// Where the kernel gives huge pages on request, hugeRegion is advised
// MADV_HUGEPAGE and left untouched: the heap's first touch of each 2 MB
// then takes one fault instead of 512, on whichever goroutine makes it.
// On the thirty-third round's VM, whose hypervisor keeps the page tables,
// even a page backed in advance cost about 5 µs at its first write; this
// took a tenth off the session's CPU and a quarter off a multi-agent
// run's (docs/performance.md). Elsewhere, MADV_POPULATE_WRITE (Linux
// 5.14) backs prefaultSize(input) bytes in one call, at under 1 µs a
// page; where the kernel refuses both, or has no huge page free when one
// is first touched, the audit takes the faults it would have taken anyway.
//
// Only what the heap does not hold yet is readied: in a process that has
// audited before (the tests, a program calling Main again), the heap
// already spans the memory, and a new region would only be collected and
// handed back (the audits after the first took 190-300 ms in process
// where they had taken 150).
func prefaultHeap(input int64) {
	backed := prefaultSize(input)
	if backed == 0 {
		return
	}
	huge := hugePagesOnRequest()
	size := backed
	if huge {
		size = hugeRegion
	}
	size -= heapBacked()
	if size < 4<<20 {
		return
	}
	// the region is past the first cycle's goal: without this, making it
	// would start a collection, just before the one below
	percent := debug.SetGCPercent(-1)
	b := make([]byte, size)
	if !huge || adviseHuge(b) != nil {
		_ = populate(b[:min(size, backed)])
	}
	runtime.KeepAlive(b)
	b = nil
	debug.SetGCPercent(percent)
	runtime.GC()
}

// hugePage is the size of a transparent huge page on the platforms Go
// runs Linux on with 4 KB pages.
const hugePage = 2 << 20

// hugePagesOnRequest reports whether the kernel backs a region advised
// MADV_HUGEPAGE with huge pages: transparent huge pages set to "always"
// or "madvise", and not turned off for this process (a container may).
func hugePagesOnRequest() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !hugeOnRequest(mode) {
		return false
	}
	off, err := unix.PrctlRetInt(unix.PR_GET_THP_DISABLE, 0, 0, 0, 0)
	return err == nil && off == 0
}

// hugeOnRequest reads the kernel's transparent huge page setting, which
// brackets the mode in force: "always [madvise] never".
func hugeOnRequest(mode []byte) bool {
	return bytes.Contains(mode, []byte("[always]")) || bytes.Contains(mode, []byte("[madvise]"))
}

// adviseHuge advises the whole huge pages inside b MADV_HUGEPAGE. Only
// those inside: the pages around b may hold other objects, or not be
// the heap at all.
func adviseHuge(b []byte) error {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	end := start + uintptr(len(b))
	first, last := (start+hugePage-1)&^(hugePage-1), end&^(hugePage-1)
	if last <= first {
		return unix.EINVAL
	}
	return unix.Madvise(b[first-start:last-start], unix.MADV_HUGEPAGE)
}

// heapBacked is the heap memory the runtime holds backed: its objects,
// its free pages not handed back, and its spans' unused parts.
func heapBacked() int64 {
	n, _ := metricSum("/memory/classes/heap/objects:bytes", "/memory/classes/heap/free:bytes", "/memory/classes/heap/unused:bytes")
	return n
}

// populate backs b's pages with memory, without changing what they hold.
func populate(b []byte) error { return unix.Madvise(b, unix.MADV_POPULATE_WRITE) }
