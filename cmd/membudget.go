package cmd

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"

	"github.com/compaudit/compaudit/parse"
)

// setMemoryBudget tunes the garbage collector for an audit, unless GOGC or
// GOMEMLIMIT says otherwise, and returns what stops the tuning. An audit
// holds a small heap and streams a large one through it: collecting at 3x
// what it holds, under a soft limit of 80 MiB plus room for the results
// kept, spends less time collecting than Go's default on a folder of
// sessions and keeps a 1 GB transcript under 100 MB (docs/performance.md
// has the figures).
//
// The limit is a floor, not a ceiling: an audit that holds more than it (a
// long multi-agent run's history, tens of thousands of findings) would
// otherwise collect without pause once its heap reached the limit, which
// made a 26 MB multi-agent run 2.2 times slower. After every collection
// the limit is raised to twice what the heap still holds, less half the
// floor: it stays at the floor while the audit holds up to 60% of it (a 1
// GB transcript holds about 55 MiB) and leaves ever more room above that.
//
// What an audit keeps to its end however it streams (a multi-agent run's
// state operations, audit.Options.Holding) is told to the budget's hold and
// raises the floor by as much: a 26 MB multi-agent run holds about 60 MiB
// at its end, three quarters of the floor, where the limit left the heap
// 20 MiB to grow in and the collector ran every few milliseconds (2.3 s
// against 1.7 s with the floor raised).
//
// An audit of a large input also has its heap prefaulted (prefaultHeap),
// under the same tuning — with GOGC or GOMEMLIMIT set, the memory is the
// user's to manage.
//
// held is how many results are held at once: every transcript's when the
// results are kept to the end, fewer when they are streamed.
func setMemoryBudget(transcripts []parse.Transcript, held int, full bool) *memoryBudget {
	perResult := int64(64 << 10) // findings and counts
	if full {
		perResult = 4 << 20 // survivals, trails and ledgers too
	}
	b := &memoryBudget{floor: 80<<20 + int64(held)*perResult}
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return b
	}
	debug.SetGCPercent(gcPercent(0))
	debug.SetMemoryLimit(b.floor)
	prefaultHeap(inputBytes(transcripts, 2*prefaultMax))
	b.watch()
	return b
}

// prefaultMax bounds the heap backed ahead in small pages: 16 and 24
// MiB saved less, 40 and 48 MiB no more (docs/performance.md).
const prefaultMax = 32 << 20

// hugeRegion is the heap advised into huge pages, whatever the input's
// size: a page is backed only when first touched, so a region larger than
// the audit's heap costs nothing but the runtime's handing the rest back.
// The session's heap spans about 44 MiB at its peak, and 32 or 36 MiB
// left its top in small pages (1,000 more faults a run); a multi-agent
// run's grows to 106 MB, and 64 MiB took a quarter off its CPU (96 MiB
// no more, for 4 MB more on a 1 GB session).
const hugeRegion = 64 << 20

// prefaultMin is the input from which the heap is prefaulted: less, the
// runtime's first few megabytes hold.
const prefaultMin = 8 << 20

// prefaultSize is the heap to back ahead in small pages for input bytes of
// transcripts: about what an audit of them allocates before its first
// collection (an audit allocates about 0.6 bytes a byte read), nothing
// below prefaultMin.
func prefaultSize(input int64) int64 {
	if input < prefaultMin {
		return 0
	}
	return min(input/2, prefaultMax)
}

// inputBytes is the size of the transcripts' files, counted up to upTo.
// A gzip file counts eight times its size (JSONL shrinks about tenfold);
// standard input, whose size is not known, counts nothing.
func inputBytes(transcripts []parse.Transcript, upTo int64) int64 {
	var n int64
	for _, t := range transcripts {
		for _, f := range t.Files {
			if f.Path == "-" {
				continue
			}
			if fi, err := os.Stat(f.Path); err == nil {
				size := fi.Size()
				if strings.HasSuffix(f.Path, ".gz") {
					size *= 8
				}
				n += size
			}
			if n >= upTo {
				return upTo
			}
		}
	}
	return n
}

// memoryBudget follows the heap from one collection to the next.
type memoryBudget struct {
	floor   int64
	holding atomic.Int64 // what the audits running keep to their ends (hold)
	stopped atomic.Bool
}

// stop ends the tuning.
func (b *memoryBudget) stop() { b.stopped.Store(true) }

// hold is audit.Options.Holding: it counts what an audit keeps to its end,
// by which the floor rises from the next collection on.
func (b *memoryBudget) hold(bytes int64) { b.holding.Add(bytes) }

// watch runs afterGC once the next collection has run: the cleanup of an
// object nothing refers to runs after the cycle that found it unreachable.
func (b *memoryBudget) watch() {
	runtime.AddCleanup(new([64]byte), func(b *memoryBudget) { b.afterGC() }, b)
}

// limit is the soft memory limit for an audit holding held bytes.
func (b *memoryBudget) limit(held int64) int64 {
	return max(b.floor+max(b.holding.Load(), 0), 2*held-b.floor/2)
}

// minHeapGoal is the heap an audit may reach before it collects, however
// little it holds: half the smallest floor.
const minHeapGoal = 40 << 20

// gcPercent is the GC percentage for an audit holding held bytes: the heap
// may grow to 3x what it holds, and to at least minHeapGoal. An audit
// that streams its results holds only a few megabytes; collecting each
// time it allocated twice that ran five times as many collections over a
// folder of sessions, and between them the runtime handed the freed pages
// back to the kernel only to fault them in again (3.4x the page faults).
func gcPercent(held int64) int {
	held = max(held, 4<<20) // the runtime's own smallest heap
	return max(200, int(minHeapGoal*100/held)-100)
}

func (b *memoryBudget) afterGC() {
	if b.stopped.Load() {
		return
	}
	if held, ok := metricSum("/gc/heap/live:bytes"); ok {
		debug.SetMemoryLimit(b.limit(held))
		debug.SetGCPercent(gcPercent(held))
	}
	b.watch()
}

// metricSum reads runtime metrics of integer value and adds them up; ok is
// false when this runtime does not have one of them.
func metricSum(names ...string) (sum int64, ok bool) {
	samples := make([]metrics.Sample, len(names))
	for i, name := range names {
		samples[i].Name = name
	}
	metrics.Read(samples)
	for _, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return 0, false
		}
		sum += int64(s.Value.Uint64())
	}
	return sum, true
}
