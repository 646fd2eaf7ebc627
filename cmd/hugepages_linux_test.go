package cmd

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/compaudit/compaudit/parse"
)

// TestAdviseHugePages: the kernel marks the aligned inside of a slice for
// huge pages (VmFlags "hg" in /proc/self/smaps), and only that. The slice
// is mapped afresh: heap memory may carry the advice of an audit run
// earlier in this process.
func TestAdviseHugePages(t *testing.T) {
	if mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages are off on this kernel")
	}
	m, err := unix.Mmap(-1, 0, 6*hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer unix.Munmap(m)
	// start one small page past a huge page boundary, so the head is not aligned
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	skip := int((hugePage-addr%hugePage)%hugePage) + 4096
	b := m[skip : skip+4*hugePage]
	if err := adviseHugePages(b); err != nil {
		t.Fatal(err)
	}
	addr = uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	inside := (addr + hugePage - 1) &^ (hugePage - 1)
	if !advisedAt(t, inside) || !advisedAt(t, inside+2*hugePage) {
		t.Errorf("the aligned inside of the slice is not advised")
	}
	if advisedAt(t, addr) || advisedAt(t, inside+3*hugePage) {
		t.Errorf("the unaligned head or tail of the slice is advised too")
	}
}

// advisedAt reports whether the mapping holding addr carries the huge page
// advice.
func advisedAt(t *testing.T, addr uintptr) bool {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Contains(line+" ", " hg ")
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return false
}

// mappingRange reads the address range that heads a mapping in smaps.
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	r, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(r, "-")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}

// TestInputBytes: files count by size; standard input and gzip files count
// as large.
func TestInputBytes(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/s.jsonl"
	if err := os.WriteFile(p, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	one := []parse.Transcript{{Path: p, Files: []parse.File{{Path: p, Agent: parse.MainAgent}}}}
	if got := inputBytes(one); got != 1000 {
		t.Errorf("inputBytes(file of 1000 bytes) = %d", got)
	}
	stdin := parse.Transcript{Path: "-", Files: []parse.File{{Path: "-", Agent: parse.MainAgent}}}
	if got := inputBytes(append(one, stdin)); got < hugeHeapInput {
		t.Errorf("inputBytes(with stdin) = %d, want large", got)
	}
	gz := parse.Transcript{Path: p + ".gz", Files: []parse.File{{Path: p + ".gz", Agent: parse.MainAgent}}}
	if err := os.WriteFile(gz.Path, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := inputBytes(append(one, gz)); got < hugeHeapInput {
		t.Errorf("inputBytes(with a gzip file) = %d, want large", got)
	}
}
