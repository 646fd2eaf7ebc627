package parse_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// TestRereadSameEvents reads every event of every transcript at hand back
// by its spot, plain and gzipped, and wants the content it had the first
// time: the testdata transcripts, every file of the parse cases (bad input
// included) and, when present, the real corpus.
func TestRereadSameEvents(t *testing.T) {
	files := parsetest.Transcripts(t)
	cases, _ := filepath.Glob("../testdata/transcripts/parse/*.txtar")
	for _, c := range cases {
		_, dir, _ := writeCase(t, c)
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	gz := t.TempDir()
	for i, p := range files[:3] {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		zp := filepath.Join(gz, filepath.Base(p)+itoaTest(i)+".gz")
		if err := os.WriteFile(zp, gzipped(data, false), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, zp)
	}
	total := 0
	for _, path := range files {
		var evs []parse.Event
		res, _ := parse.ReadFile(parse.File{Path: path}, parse.Options{}, 0, func(ev *parse.Event) error {
			if ev.Kind != parse.KindBoundary { // a boundary is its record and the summary after it
				evs = append(evs, *ev)
			}
			return nil
		})
		if len(evs) == 0 {
			continue
		}
		spots := make([]parse.Spot, len(evs))
		for i, ev := range evs {
			spots[len(evs)-1-i] = parse.Spot{Offset: ev.Offset, Part: ev.Part} // asked out of order
		}
		back := make([]*parse.Event, len(spots))
		last := int64(-1)
		err := parse.Reread(path, res.Format, spots, func(i int, ev *parse.Event) {
			if spots[i].Offset < last {
				t.Errorf("%s: offset %d read back after %d", path, spots[i].Offset, last)
			}
			last = spots[i].Offset
			if ev != nil {
				c := *ev
				back[i] = &c
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, ev := range evs {
			got := back[len(evs)-1-i]
			if got == nil {
				t.Errorf("%s line %d part %d: not read back", path, ev.Line, ev.Part)
				continue
			}
			if !sameContent(got, &ev) {
				t.Errorf("%s line %d part %d: read back\n%+v\nfirst read\n%+v", path, ev.Line, ev.Part, *got, ev)
			}
		}
		total += len(evs)
	}
	if total < 1000 {
		t.Fatalf("only %d events read back; the transcripts went missing", total)
	}
}

func sameContent(a, b *parse.Event) bool {
	return a.Kind == b.Kind && a.Role == b.Role && a.Origin == b.Origin && a.Text == b.Text &&
		a.ToolName == b.ToolName && a.ToolID == b.ToolID && string(a.Args) == string(b.Args) &&
		a.IsError == b.IsError && reflect.DeepEqual(a.SideEffect, b.SideEffect) &&
		reflect.DeepEqual(a.State, b.State) && a.Offset == b.Offset && a.Part == b.Part
}

func itoaTest(i int) string { return string(rune('a' + i)) }

// TestRereadChangedFile: a spot the file no longer holds reads back as
// nothing, never as a neighbour's event or a panic.
func TestRereadChangedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	rec := `{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"deploy to bucket acme-prod-7"}}` + "\n"
	if err := os.WriteFile(path, []byte(rec+rec[:40]), 0o644); err != nil {
		t.Fatal(err)
	}
	spots := []parse.Spot{{0, 0}, {0, 1}, {5, 0}, {int64(len(rec)), 0}, {1 << 40, 0}, {-3, 0}}
	back := make([]*parse.Event, len(spots))
	called := 0
	err := parse.Reread(path, parse.FormatClaudeCode, spots, func(i int, ev *parse.Event) {
		called++
		back[i] = ev
	})
	if err != nil {
		t.Fatal(err)
	}
	if called != len(spots) {
		t.Errorf("called for %d of %d spots", called, len(spots))
	}
	if back[0] == nil || back[0].Text != "deploy to bucket acme-prod-7" {
		t.Errorf("the record at offset 0 read back as %+v", back[0])
	}
	for i, ev := range back[1:] {
		if ev != nil {
			t.Errorf("spot %d read back as %+v; want nothing", i+1, *ev)
		}
	}
	never := func(int, *parse.Event) { t.Error("called for a file that cannot be read") }
	if err := parse.Reread("-", parse.FormatClaudeCode, []parse.Spot{{0, 0}}, never); err == nil {
		t.Error("standard input read back")
	}
	if err := parse.Reread(filepath.Join(dir, "gone.jsonl"), parse.FormatClaudeCode, []parse.Spot{{0, 0}}, never); err == nil {
		t.Error("a missing file read back")
	}
}
