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

// TestLargeInput: files count by size; standard input and gzip files
// count as large whatever their size.
func TestLargeInput(t *testing.T) {
	dir := t.TempDir()
	transcript := func(name string, size int) parse.Transcript {
		p := "-"
		if name != "-" {
			p = dir + "/" + name
			if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return parse.Transcript{Path: p, Files: []parse.File{{Path: p, Agent: parse.MainAgent}}}
	}
	small, big := transcript("small.jsonl", 1000), transcript("big.jsonl", hugeHeapInput-999)
	for _, c := range []struct {
		name string
		ts   []parse.Transcript
		want bool
	}{
		{"one small file", []parse.Transcript{small}, false},
		{"two files that come to the mark", []parse.Transcript{small, big}, true},
		{"one of them", []parse.Transcript{big}, false},
		{"standard input", []parse.Transcript{small, transcript("-", 0)}, true},
		{"a small gzip file", []parse.Transcript{transcript("s.jsonl.gz", 1000)}, true},
	} {
		if got := largeInput(c.ts); got != c.want {
			t.Errorf("%s: largeInput = %v, want %v", c.name, got, c.want)
		}
	}
}
