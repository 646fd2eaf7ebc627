package cmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/compaudit/compaudit/parse"
)

// TestPopulate: the kernel backs every page of a fresh region, and what a
// page held stays.
func TestPopulate(t *testing.T) {
	const size = 4 << 20
	m := freshRegion(t, size)
	page := os.Getpagesize()
	m[3*page+5] = 42
	if n := resident(t, m); n != 1 {
		t.Fatalf("before: %d pages resident, want the one written", n)
	}
	if err := populate(m); unsupported(err) {
		t.Skipf("MADV_POPULATE_WRITE: %v (it needs Linux 5.14, and a sandbox may refuse it)", err)
	} else if err != nil {
		t.Fatal(err)
	}
	if n, want := resident(t, m), size/page; n != want {
		t.Errorf("after: %d pages resident, want all %d", n, want)
	}
	if m[3*page+5] != 42 {
		t.Errorf("populating changed a page's contents")
	}
}

// TestAdviseHuge: the huge pages wholly inside a region are advised, and
// nothing around them — the memory on either side of a heap slice may be
// another object's. The kernel marks an advised mapping "hg" in its flags.
func TestAdviseHuge(t *testing.T) {
	const size = 8 << 20
	m := freshRegion(t, size)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	// a region that starts and ends 12 KB off the huge pages' bounds
	first := (base+hugePage)&^(hugePage-1) - 12<<10
	b := m[first-base : first-base+4<<20]
	if err := adviseHuge(b); unsupported(err) {
		t.Skipf("MADV_HUGEPAGE: %v (a kernel without transparent huge pages)", err)
	} else if err != nil {
		t.Fatal(err)
	}
	inside := (first + hugePage - 1) &^ (hugePage - 1)
	flags := mappingFlags(t)
	for _, c := range []struct {
		name string
		at   uintptr
		want bool
	}{
		{"the region's first 12 KB", first, false},
		{"its first whole huge page", inside, true},
		{"its last byte", first + 4<<20 - 1, false},
		{"the memory before it", base, false},
	} {
		f, ok := flags(c.at)
		if !ok {
			t.Fatalf("%s (%#x): no mapping in /proc/self/smaps", c.name, c.at)
		}
		if got := slices.Contains(f, "hg"); got != c.want {
			t.Errorf("%s: advised %v, want %v (flags %v)", c.name, got, c.want, f)
		}
	}
	if hugePagesOnRequest() {
		t.Log("this kernel gives huge pages on request")
	}
}

// TestHugeOnRequest: the mode in brackets is the one in force; "never"
// gives no huge pages, whatever else the line names.
func TestHugeOnRequest(t *testing.T) {
	for mode, want := range map[string]bool{
		"always [madvise] never\n": true,
		"[always] madvise never\n": true,
		"always madvise [never]\n": false,
		"":                         false,
	} {
		if got := hugeOnRequest([]byte(mode)); got != want {
			t.Errorf("hugeOnRequest(%q) = %v, want %v", mode, got, want)
		}
	}
}

// mappingFlags reads /proc/self/smaps and returns a lookup of the VmFlags
// of the mapping that holds an address.
func mappingFlags(t *testing.T) func(uintptr) ([]string, bool) {
	t.Helper()
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	type mapping struct {
		start, end uintptr
		flags      []string
	}
	var maps []mapping
	for _, line := range strings.Split(string(data), "\n") {
		if f, ok := strings.CutPrefix(line, "VmFlags:"); ok && len(maps) > 0 {
			maps[len(maps)-1].flags = strings.Fields(f)
			continue
		}
		span, _, _ := strings.Cut(line, " ")
		lo, hi, ok := strings.Cut(span, "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 == nil && err2 == nil {
			maps = append(maps, mapping{start: uintptr(start), end: uintptr(end)})
		}
	}
	return func(at uintptr) ([]string, bool) {
		for _, m := range maps {
			if m.start <= at && at < m.end {
				return m.flags, true
			}
		}
		return nil, false
	}
}

// freshRegion maps size bytes of anonymous memory no page of which is
// backed yet, unmapped when the test ends.
func freshRegion(t *testing.T, size int) []byte {
	t.Helper()
	m, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { unix.Munmap(m) })
	return m
}

// forcedCycles counts the collections forced so far: prefaultHeap forces
// one when it readies a region.
func forcedCycles() int64 {
	n, _ := metricSum("/gc/cycles/forced:gc-cycles")
	return n
}

// unsupported says err is a kernel's or a sandbox's refusal of the advice.
func unsupported(err error) bool {
	return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.ENOSYS)
}

// TestPrefaultSkipsBackedHeap: a heap that already holds the memory is
// not given a region more, which it would only collect and hand back.
// prefaultHeap forces a collection when it readies a region, so the
// forced cycles count tell.
func TestPrefaultSkipsBackedHeap(t *testing.T) {
	held := make([]byte, max(hugeRegion, prefaultMax)+16<<20)
	for i := 0; i < len(held); i += 4096 {
		held[i] = 1
	}
	before := forcedCycles()
	prefaultHeap(100 << 20)
	if n := forcedCycles() - before; n != 0 {
		t.Errorf("with %d MiB of heap backed, prefaultHeap for 100 MB of input collected %d times, want none", heapBacked()>>20, n)
	}
	runtime.KeepAlive(held)
}

// TestPrefaultSmallInput: an input the runtime's first heap holds gets no
// region, in huge pages or small. Each input is tried in a process of its
// own: in this one, an earlier test's heap already spans any region, and
// prefaultHeap would skip it whatever the input. An input of 100 MB, which
// gets one, shows the measure can tell.
func TestPrefaultSmallInput(t *testing.T) {
	if input := os.Getenv("COMPAUDIT_TEST_PREFAULT_INPUT"); input != "" {
		n, _ := strconv.ParseInt(input, 10, 64)
		before := forcedCycles()
		prefaultHeap(n)
		fmt.Printf("forced: %d\n", forcedCycles()-before)
		return
	}
	for _, c := range []struct {
		input int64
		want  string
	}{{prefaultMin - 1, "forced: 0"}, {100 << 20, "forced: 1"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPrefaultSmallInput$")
		cmd.Env = append(withoutGCSettings(os.Environ()), fmt.Sprint("COMPAUDIT_TEST_PREFAULT_INPUT=", c.input))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !strings.Contains(string(out), c.want+"\n") {
			t.Errorf("prefaultHeap for %d bytes of input in a fresh process: want %q (collections forced making a region), got:\n%s", c.input, c.want, out)
		}
	}
}

// resident counts the pages of b in memory.
func resident(t *testing.T, b []byte) int {
	t.Helper()
	vec := make([]byte, (len(b)+os.Getpagesize()-1)/os.Getpagesize())
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), uintptr(unsafe.Pointer(unsafe.SliceData(vec))))
	if errno != 0 {
		t.Fatal(errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestPrefaultHeapBacksLaterAllocations: after prefaultHeap, the heap an
// audit goes on to allocate comes from the region it backed, so touching
// it takes few page faults; without it, one a page. Each side runs in a
// process of its own, whose heap nothing touched before.
func TestPrefaultHeapBacksLaterAllocations(t *testing.T) {
	if mode := os.Getenv("COMPAUDIT_TEST_PREFAULT"); mode != "" {
		prefaultChild(mode == "on")
		return
	}
	if raceDetector {
		t.Skip("the race detector's shadow memory faults on every heap page touched")
	}
	faults := map[string]int{}
	for _, mode := range []string{"on", "off"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPrefaultHeapBacksLaterAllocations$")
		cmd.Env = append(withoutGCSettings(os.Environ()), "COMPAUDIT_TEST_PREFAULT="+mode)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(line, "faults: "); ok {
				faults[mode], _ = strconv.Atoi(v)
			}
			if strings.HasPrefix(line, "unsupported") {
				t.Skip("MADV_POPULATE_WRITE is refused here")
			}
		}
	}
	t.Logf("page faults touching 24 MiB of new heap: %d prefaulted, %d not", faults["on"], faults["off"])
	pages := 24 << 20 / os.Getpagesize()
	if faults["off"] < pages/2 {
		t.Fatalf("without prefaulting, %d faults for %d new pages: the measure does not count first touches", faults["off"], pages)
	}
	// typically 100-550: the runtime's own bookkeeping, and pages the
	// allocator took past the region (a huge page's first touch is one
	// fault)
	if faults["on"] > pages/4 {
		t.Errorf("prefaulted, %d faults for %d pages, want under a quarter", faults["on"], pages)
	}
}

// prefaultChild sets the memory budget for a 100 MB input, which
// prefaults the heap, or for none, then allocates 24 MiB as an audit
// does, in small objects and large, and prints the page faults its first
// touches took. The input is a sparse file: only its size is read.
func prefaultChild(on bool) {
	probe := make([]byte, 1<<20)
	if err := populate(probe); unsupported(err) {
		fmt.Println("unsupported")
		return
	}
	var ts []parse.Transcript
	if on {
		f, err := os.CreateTemp("", "compaudit-prefault-*.jsonl")
		if err != nil {
			panic(err)
		}
		defer os.Remove(f.Name())
		if err := f.Truncate(100 << 20); err != nil {
			panic(err)
		}
		f.Close()
		ts = []parse.Transcript{{Path: f.Name(), Files: []parse.File{{Path: f.Name()}}}}
	}
	defer setMemoryBudget(ts, 1, false).stop()
	before := minorFaults()
	var keep [][]byte
	for range 12 << 10 { // 12 MiB in 1 KiB records
		keep = append(keep, make([]byte, 1<<10))
	}
	for range 12 { // 12 MiB in 1 MiB read chunks
		keep = append(keep, make([]byte, 1<<20))
	}
	for _, b := range keep {
		for i := 0; i < len(b); i += 512 {
			b[i] = 1
		}
	}
	fmt.Printf("faults: %d\n", minorFaults()-before)
}

func minorFaults() int {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return int(ru.Minflt)
}
