package parse_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/linereader"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// Reading with workers must yield exactly the events and diagnostics of
// reading on one goroutine, in the same order.
func TestParallelReadSameEvents(t *testing.T) {
	// small chunks, so every file is cut into many that are released and
	// reused while its events are still held here: a piece of a line kept
	// by mistake would read as the NULs a released chunk is cleared to;
	// and a chunk in one batch, then in many, each of which must leave it
	// in place until the last is applied
	defer parse.ReadInSmallPieces(4 << 10)()
	defer func(lines int) { *parse.BatchLines = lines }(*parse.BatchLines)
	for _, lines := range []int{2048, 3} {
		*parse.BatchLines = lines
		readAllWays(t)
	}
}

// readAllWays reads every shipped and corpus transcript with 1, 2, 3 and
// 8 workers, and holds the others to the first.
func readAllWays(t *testing.T) {
	t.Helper()
	files := parsetest.Transcripts(t)
	read := func(path string, workers int) ([]parse.Event, parse.FileResult) {
		var evs []parse.Event
		res, err := parse.ReadFile(parse.File{Path: path}, parse.Options{Workers: workers}, 0, func(ev *parse.Event) error {
			evs = append(evs, *ev)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return evs, res
	}
	for _, path := range files {
		seq, seqRes := read(path, 1)
		for _, w := range []int{2, 3, 8} {
			par, parRes := read(path, w)
			if !reflect.DeepEqual(seq, par) {
				t.Errorf("%s: %d workers read different events than one", path, w)
			}
			if !reflect.DeepEqual(seqRes, parRes) {
				t.Errorf("%s: %d workers report %+v, one reports %+v", path, w, parRes, seqRes)
			}
		}
	}
}

// TestNoReasoningText: with Options.NoReasoningText every reasoning event
// comes without its text, and the read is otherwise the same — every
// other event, every diagnostic, sequential and with workers.
func TestNoReasoningText(t *testing.T) {
	read := func(path string, opts parse.Options) ([]parse.Event, parse.FileResult) {
		var evs []parse.Event
		res, err := parse.ReadFile(parse.File{Path: path}, opts, 0, func(ev *parse.Event) error {
			evs = append(evs, *ev)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return evs, res
	}
	thought := 0
	for _, path := range parsetest.Transcripts(t) {
		for _, workers := range []int{1, 2} {
			want, wantRes := read(path, parse.Options{Workers: workers})
			got, gotRes := read(path, parse.Options{Workers: workers, NoReasoningText: true})
			for i := range want {
				if want[i].Kind == parse.KindReasoning {
					if want[i].Text != "" {
						thought++
					}
					want[i].Text = ""
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %d workers: the events differ in more than reasoning's text", path, workers)
			}
			if !reflect.DeepEqual(gotRes, wantRes) {
				t.Errorf("%s, %d workers: %+v, reading reasoning %+v", path, workers, gotRes, wantRes)
			}
		}
	}
	if thought == 0 {
		t.Fatal("no reasoning with text was read: the test holds nothing")
	}
}

// TestParallelEmitErrorStops stops the consumer part way through each file
// with several workers and small batches: the read hands the consumer's
// error back, no event comes after it, and the batches already read and
// being prepared are drained rather than left holding the read (a
// goroutine left waiting would hang the test).
func TestParallelEmitErrorStops(t *testing.T) {
	defer parse.ReadInSmallPieces(4 << 10)()
	defer func(lines int) { *parse.BatchLines = lines }(*parse.BatchLines)
	*parse.BatchLines = 3
	stop := errors.New("stop")
	stopped := 0
	for _, path := range parsetest.Transcripts(t) {
		var all int
		if _, err := parse.ReadFile(parse.File{Path: path}, parse.Options{Workers: 1}, 0, func(*parse.Event) error { all++; return nil }); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, at := range []int{1, all / 2, all} {
			if at == 0 {
				continue
			}
			for _, w := range []int{2, 3, 8} {
				n := 0
				_, err := parse.ReadFile(parse.File{Path: path}, parse.Options{Workers: w}, 0, func(*parse.Event) error {
					n++
					if n == at {
						return stop
					}
					return nil
				})
				if !errors.Is(err, stop) || n != at {
					t.Errorf("%s, %d workers, stopped at event %d: err %v after %d events", path, w, at, err, n)
				}
				stopped++
			}
		}
	}
	if stopped == 0 {
		t.Fatal("no file had an event to stop at: the test holds nothing")
	}
}

// TestParallelLongFirstRecords: read with workers, a file is buffered
// only as far as a peek (peekBufSize) before its chunks are read; records
// longer than that at its start, where the format is detected, are read
// whole, as on one goroutine.
func TestParallelLongFirstRecords(t *testing.T) {
	defer parse.ReadInSmallPieces(64 << 10)()
	long := strings.Repeat("ok\\tpkg/x 0.01s\\n", 3*linereader.PeekBufSize/16)
	var b strings.Builder
	for i := range 6 {
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%d","parentUuid":null,"timestamp":"2026-11-29T10:00:0%dZ","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`+"\n", i, i, i, long)
	}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(workers int) []parse.Event {
		var evs []parse.Event
		res, err := parse.ReadFile(parse.File{Path: path}, parse.Options{Workers: workers}, 0, func(ev *parse.Event) error {
			evs = append(evs, *ev)
			return nil
		})
		if err != nil || res.Format != parse.FormatClaudeCode || len(res.Diagnostics) > 0 {
			t.Fatalf("%d workers: %v, format %q, %v", workers, err, res.Format, res.Diagnostics)
		}
		return evs
	}
	one, two := read(1), read(2)
	if len(one) != 6 || !reflect.DeepEqual(one, two) {
		t.Fatalf("one goroutine read %d events, two workers %d; the same: %v", len(one), len(two), reflect.DeepEqual(one, two))
	}
	for _, ev := range two {
		if len(ev.Text) < 3*linereader.PeekBufSize/2 {
			t.Errorf("line %d: %d bytes of tool output read, want the whole", ev.Line, len(ev.Text))
		}
	}
}
