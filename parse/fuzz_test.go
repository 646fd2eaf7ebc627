package parse_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// Fuzz targets, one per reader: go test ./parse -run XXX -fuzz FuzzClaude
// (FuzzCodex, FuzzCanonical, FuzzChat). Each is seeded from the
// transcripts in testdata; an input that fails is kept by the fuzzer in
// testdata/fuzz/<target>/ and replayed by every go test from then on.

// seedReader adds every testdata file of a format, whole and cut into its
// first lines, to a fuzz corpus.
func seedReader(f *testing.F, match func(name, body string) bool) {
	f.Helper()
	add := func(name string, data []byte) {
		if !match(name, string(data)) {
			return
		}
		f.Add(data)
		if lines := bytes.SplitAfter(data, []byte("\n")); len(lines) > 6 {
			f.Add(bytes.Join(lines[:6], nil))
		}
	}
	root := filepath.Join("..", "testdata", "transcripts")
	for name, data := range parsetest.Files(root, filepath.Join(root, "parse"), filepath.Join(root, "audit"), filepath.Join(root, "ledger")) {
		add(name, data)
	}
}

// fuzzRead reads data as a transcript of a format and checks what any
// input must respect: no panic, events numbered in order with lines and
// offsets inside the input, valid UTF-8 text, diagnostics with lines.
func fuzzRead(t *testing.T, data []byte, format parse.Format, workers int) {
	defer func(n int64) { *parse.ParallelMin = n }(*parse.ParallelMin)
	*parse.ParallelMin = 0
	lines := bytes.Count(data, []byte("\n")) + 1
	next := 0
	res, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Format: format, Stdin: bytes.NewReader(data), Workers: workers}, 0, func(ev *parse.Event) error {
		if ev.Index != next {
			t.Fatalf("event %d numbered %d", next, ev.Index)
		}
		next++
		if ev.Line < 1 || ev.Line > lines {
			t.Fatalf("event at line %d of a %d-line input", ev.Line, lines)
		}
		if ev.Offset < 0 || ev.Offset > int64(len(data)) {
			t.Fatalf("event at offset %d of a %d-byte input", ev.Offset, len(data))
		}
		if !utf8.ValidString(ev.Text) {
			t.Fatalf("event text is not valid UTF-8: %q", ev.Text)
		}
		if ev.Kind == parse.KindBoundary && ev.Boundary == nil {
			t.Fatal("boundary event without its boundary")
		}
		return nil
	})
	if err != nil {
		var ie *parse.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("error that is not an input error: %v", err)
		}
		return
	}
	if res.Events != next {
		t.Fatalf("result counts %d events, emitted %d", res.Events, next)
	}
	// every line skipped is counted, whether its message is shown or capped
	shown, capped := 0, false
	for _, d := range res.Diagnostics {
		if d.Line < 0 || d.Line > lines+1 || d.Message == "" {
			t.Fatalf("diagnostic without a place or a message: %+v", d)
		}
		switch {
		case d.Line == 0 && strings.Contains(d.Message, " more like "):
			capped = true
		case d.Severity == parse.Error && strings.HasSuffix(d.Message, "; skipped"):
			shown++
		}
	}
	if res.Skipped < shown || !capped && res.Skipped != shown {
		t.Fatalf("%d lines counted as skipped, %d shown (capped: %v)", res.Skipped, shown, capped)
	}
}

func FuzzClaude(f *testing.F) {
	seedReader(f, func(name, body string) bool {
		return strings.Contains(body, `"sessionId"`) || strings.Contains(name, "claude")
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, parse.FormatClaudeCode, 1)
		fuzzRead(t, data, parse.FormatClaudeCode, 2)
		samePieces(t, data, parse.FormatClaudeCode)
	})
}

// samePieces reads data on one goroutine and again by two workers in
// chunks of 256 bytes, cleared once their batch is applied, and holds each
// event as emitted to the other read's: an event that kept a piece of a
// chunk would read NULs.
func samePieces(t *testing.T, data []byte, format parse.Format) {
	read := func(workers int) []string {
		var got []string
		_, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Format: format, Stdin: bytes.NewReader(data), Workers: workers}, 0, func(ev *parse.Event) error {
			// every field, the boundary's and the state operation's
			// included; the arguments as written, which need not be valid
			// JSON
			b, err := json.Marshal(struct {
				*parse.Event
				Args string
			}{ev, string(ev.Args)})
			if err != nil {
				t.Fatalf("event %d: %v", ev.Index, err)
			}
			got = append(got, string(b))
			return nil
		})
		if err != nil {
			return []string{err.Error()}
		}
		return got
	}
	own := read(1)
	restore := parse.ReadInSmallPieces(256)
	pieces := read(2)
	restore()
	if !slices.Equal(own, pieces) {
		i := 0
		for i < min(len(own), len(pieces)) && own[i] == pieces[i] {
			i++
		}
		t.Fatalf("read in pieces, event %d of %d differs:\n%v\nnot\n%v", i, len(own), pieces[i:min(i+1, len(pieces))], own[i:min(i+1, len(own))])
	}
}

func FuzzCodex(f *testing.F) {
	seedReader(f, func(name, body string) bool {
		return strings.Contains(body, `"response_item"`) || strings.Contains(name, "codex")
	})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, parse.FormatCodex, 1) })
}

func FuzzCanonical(f *testing.F) {
	seedReader(f, func(name, body string) bool {
		return strings.Contains(body, `"type":"message"`) || strings.Contains(name, "canonical")
	})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, parse.FormatCanonical, 1) })
}

func FuzzChat(f *testing.F) {
	seedReader(f, func(name, body string) bool {
		return strings.Contains(name, "chat") || strings.Contains(body, `"role"`)
	})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, parse.FormatChat, 1) })
}

// FuzzDetect reads with the format left to detection.
func FuzzDetect(f *testing.F) {
	seedReader(f, func(string, string) bool { return true })
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, "", 1) })
}
