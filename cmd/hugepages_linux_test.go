package cmd

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
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

// TestMemoryBudgetAdvisesHeap: an audit of a large input leaves part of
// the heap advised for huge pages, and one of a small input none. Each
// runs in a process of its own, whose memory no earlier audit touched.
func TestMemoryBudgetAdvisesHeap(t *testing.T) {
	if input := os.Getenv("COMPAUDIT_TEST_BUDGET_INPUT"); input != "" {
		budgetChild(t, input)
		return
	}
	if mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages are off on this kernel")
	}
	for input, want := range map[string]string{"-": "advised", "small": "none advised"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryBudgetAdvisesHeap$", "-test.v")
		cmd.Env = append(os.Environ(), "COMPAUDIT_TEST_BUDGET_INPUT="+input)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("input %s: %v\n%s", input, err, out)
		}
		if !strings.Contains(string(out), "heap: "+want+"\n") {
			t.Errorf("input %s: want the heap %s, child said:\n%s", input, want, out)
		}
	}
}

// budgetChild sets the memory budget for standard input ("-") or a small
// file and says whether any mapping of the process is advised after.
func budgetChild(t *testing.T, input string) {
	if countAdvised(t) != 0 {
		t.Fatal("a fresh process already has advised mappings")
	}
	path := input
	if input == "small" {
		path = t.TempDir() + "/s.jsonl"
		if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	budget := setMemoryBudget([]parse.Transcript{{Path: path, Files: []parse.File{{Path: path, Agent: parse.MainAgent}}}}, 1, false)
	budget.stop()
	if countAdvised(t) > 0 {
		fmt.Println("heap: advised")
	} else {
		fmt.Println("heap: none advised")
	}
}

// countAdvised counts the mappings that carry the huge page advice.
func countAdvised(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmFlags:") && strings.Contains(line+" ", " hg ") {
			n++
		}
	}
	return n
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

// TestInputBytes: files count by size; standard input and gzip files
// count as hugeHeapInput whatever their size; the count stops at its bound.
func TestInputBytes(t *testing.T) {
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
		upTo int64
		want int64
	}{
		{"one small file", []parse.Transcript{small}, maxAdvised, 1000},
		{"two files that come to the mark", []parse.Transcript{small, big}, maxAdvised, hugeHeapInput + 1},
		{"one of them", []parse.Transcript{big}, maxAdvised, hugeHeapInput - 999},
		{"standard input", []parse.Transcript{small, transcript("-", 0)}, maxAdvised, 1000 + hugeHeapInput},
		{"a small gzip file", []parse.Transcript{transcript("s.jsonl.gz", 1000)}, maxAdvised, hugeHeapInput},
		{"past the bound", []parse.Transcript{small, big, big}, hugeHeapInput, hugeHeapInput},
	} {
		if got := inputBytes(c.ts, c.upTo); got != c.want {
			t.Errorf("%s: inputBytes = %d, want %d", c.name, got, c.want)
		}
	}
}
