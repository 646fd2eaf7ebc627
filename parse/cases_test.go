package parse_test

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata cases")

// TestCases reads each small transcript in testdata/transcripts/parse and
// compares the events it yields with the want section beside it. The first
// file of an archive is the input; further files (subagents) sit beside it.
// A file named *.gz.b64 is written gzipped, to test transparent reading.
func TestCases(t *testing.T) {
	files, _ := filepath.Glob("../testdata/transcripts/parse/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases found")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, dir, input := writeCase(t, path)
			got := renderCase(t, dir, input)
			c := &parsetest.Case{Path: path, Archive: ar}
			c.Check(t, "want", got, *update)
		})
	}
}

// writeCase writes a case's files into a folder of their own and returns
// the archive, the folder and the path of its input, the first file.
func writeCase(t *testing.T, path string) (ar *txtar.Archive, dir, input string) {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "want" {
			continue
		}
		data := f.Data
		if strings.HasSuffix(f.Name, ".gz") {
			data = gzipped(data, strings.Contains(string(ar.Comment), "cut-gzip"))
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if input == "" {
			input = p
		}
	}
	return ar, dir, input
}

// gzipped compresses data, cut short when asked, to test reading gzip
// input and a truncated gzip file.
func gzipped(data []byte, cut bool) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	if cut {
		return b.Bytes()[:b.Len()*2/3]
	}
	return b.Bytes()
}

// renderCase reads the input as the command line would and writes one line
// per event, then the diagnostics.
func renderCase(t *testing.T, dir, input string) string {
	var b strings.Builder
	ts, diags := parse.Discover([]string{input})
	for _, d := range diags {
		fmt.Fprintf(&b, "! %s\n", strings.ReplaceAll(d.String(), dir+string(filepath.Separator), ""))
	}
	rel := func(p string) string { r, _ := filepath.Rel(dir, p); return filepath.ToSlash(r) }
	for _, tr := range ts {
		for _, f := range tr.Files[1:] {
			fmt.Fprintf(&b, "# subagent file %s agent %s\n", rel(f.Path), f.Agent)
		}
		results, err := tr.Read(parse.Options{}, func(ev *parse.Event) error {
			b.WriteString(renderEvent(ev, rel))
			b.WriteString("\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			fmt.Fprintf(&b, "# %s: format %s, %d records, %d events\n", rel(r.Path), r.Format, r.Records, r.Events)
			if r.Err != nil {
				fmt.Fprintf(&b, "error: %s\n", strings.ReplaceAll(r.Err.Error(), dir+string(filepath.Separator), ""))
			}
			for _, d := range r.Diagnostics {
				fmt.Fprintf(&b, "! %s\n", strings.ReplaceAll(d.String(), dir+string(filepath.Separator), ""))
			}
		}
	}
	return b.String()
}

func renderEvent(ev *parse.Event, rel func(string) string) string {
	head := fmt.Sprintf("%s:%d t%d %s %s/%s", rel(ev.File), ev.Line, ev.Turn, ev.Agent, ev.Role, ev.Kind)
	if ev.Origin != parse.OriginAuthored && ev.Kind != parse.KindBoundary {
		head += " " + ev.Origin.String()
	}
	q := func(s string) string { return strconv.Quote(clipText(s, 70)) }
	switch ev.Kind {
	case parse.KindMessage, parse.KindReasoning:
		return head + " " + q(ev.Text)
	case parse.KindToolCall:
		s := head + " " + ev.ToolName + " " + ev.ToolID + " " + clipText(string(ev.Args), 80)
		if ev.SideEffect != nil {
			s += fmt.Sprintf(" side_effect=%v", *ev.SideEffect)
		}
		return s
	case parse.KindToolResult:
		s := head + " " + ev.ToolID
		if ev.IsError {
			s += " error"
		}
		return s + " " + q(ev.Text)
	case parse.KindBoundary:
		bd := ev.Boundary
		s := fmt.Sprintf("%s %s trigger=%q pre=%d replaces=%d", head, bd.Kind, bd.Trigger, bd.PreTokens, bd.ReplacesThrough)
		if bd.Readable {
			s += " readable"
		} else {
			s += " unreadable=" + strconv.Quote(bd.Unreadable)
		}
		if bd.SummaryLine > 0 {
			s += fmt.Sprintf(" summary_line=%d", bd.SummaryLine)
		}
		if len(bd.KeptTurns) > 0 {
			s += fmt.Sprintf(" kept_turns=%v", bd.KeptTurns)
		}
		for _, k := range bd.Kept {
			s += fmt.Sprintf(" kept=%s:%s", k.Role, strconv.Quote(clipText(k.Text, 30)))
		}
		if len(bd.ClearedToolIDs) > 0 {
			s += fmt.Sprintf(" cleared=%v", bd.ClearedToolIDs)
		}
		if len(bd.Notified) > 0 {
			s += fmt.Sprintf(" notified=%v", bd.Notified)
		}
		if bd.Summary != "" {
			s += " summary=" + q(bd.Summary)
		}
		return s
	case parse.KindStateRead, parse.KindStateWrite:
		st := ev.State
		s := fmt.Sprintf("%s key=%q value=%q", head, st.Key, st.Value)
		if st.HasRevision {
			s += fmt.Sprintf(" rev=%d", st.Revision)
		}
		if st.PayloadHash != "" {
			s += " hash=" + st.PayloadHash
		}
		if st.HasConf {
			s += fmt.Sprintf(" confidence=%g", st.Confidence)
		}
		return s
	}
	return head
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// TestCasesCoverKinds keeps the cases honest: together they must show every
// event kind and both boundary kinds, opaque ones included.
func TestCasesCoverKinds(t *testing.T) {
	files, _ := filepath.Glob("../testdata/transcripts/parse/*.txtar")
	var all []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all = append(all, b...)
	}
	for _, want := range []string{"/message", "/reasoning", "/tool_call", "/tool_result", "boundary compact",
		"boundary microcompact", "state_read", "state_write", "unreadable=", " rules ", " harness "} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("no case shows %q", want)
		}
	}
}
