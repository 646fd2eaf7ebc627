package cmd

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePage = 2 << 20

// preferHugePages asks Linux to back the heap an audit is about to fill
// with 2 MB pages. Go's runtime does not ask for them, and where the
// kernel gives them only on request (transparent_hugepage=madvise, as on
// the CI machines) every first touch of a 4 KB page is a fault: on a VM
// that is about 12 µs, and the 14,000 of an audit of 100 MB were a fifth
// of its CPU (docs/performance.md). The advice goes on a region the
// runtime has just mapped for a large slice; once the slice is collected,
// the page allocator, which takes the lowest free pages first, builds the
// heap from it. It is a hint: a kernel that refuses it, or a heap that
// grows past the region, only takes the small pages it would have taken
// anyway.
func preferHugePages(size int) {
	b := make([]byte, size)
	_ = adviseHugePages(b)
	runtime.KeepAlive(b)
	runtime.GC()
}

// adviseHugePages advises the 2 MB-aligned pages inside b, which must
// come from the heap, so the runtime has mapped all of it.
func adviseHugePages(b []byte) error {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	off := int((hugePage - addr%hugePage) % hugePage)
	if off >= len(b) {
		return nil
	}
	n := (len(b) - off) &^ (hugePage - 1)
	if n == 0 {
		return nil
	}
	return unix.Madvise(b[off:off+n], unix.MADV_HUGEPAGE)
}
