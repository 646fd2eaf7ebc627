package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/compaudit/compaudit/audit"
)

// renderAll renders every result through s, as a command does.
func renderAll(s Stream, rs []*audit.Result) error {
	for _, r := range rs {
		if err := s.Transcript(r); err != nil {
			return err
		}
	}
	return s.Close()
}

// TestStreamedDocumentsAreOneDocument: the JSON and SARIF of the audit,
// and the JSON of the ledger, replay and agents views, are written a
// transcript at a time by splicing elements into a document encoded with
// its array empty. Whatever the number of transcripts and findings, the
// bytes are those encodeJSON gives for one document: valid JSON, indented
// exactly as the encoder indents its compact form.
func TestStreamedDocumentsAreOneDocument(t *testing.T) {
	rs := auditInputs(t, goldenInputs...)
	streams := map[string]func(io.Writer, AuditView, Options) Stream{
		"json": NewAuditJSON, "sarif": NewAuditSARIF,
		"ledger": func(w io.Writer, _ AuditView, o Options) Stream { return NewLedgerJSON(w, LedgerView{}, o) },
		"ledger at 40": func(w io.Writer, _ AuditView, o Options) Stream {
			return NewLedgerJSON(w, LedgerView{At: 40}, o)
		},
		"replay":            func(w io.Writer, _ AuditView, o Options) Stream { return NewReplayJSON(w, ReplayView{}, o) },
		"replay boundary 2": func(w io.Writer, _ AuditView, o Options) Stream { return NewReplayJSON(w, ReplayView{Boundary: 2}, o) },
		"agents":            func(w io.Writer, _ AuditView, o Options) Stream { return NewAgentsJSON(w, 5, o) },
	}
	sets := map[string][]*audit.Result{"none": nil, "one": rs[:1], "all": rs, "canonical first": {rs[2], rs[0]}}
	views := map[string]AuditView{"notes": {MinSeverity: audit.SeverityNote}, "none shown": {MinSeverity: audit.SeverityError + 1}}
	for name, newStream := range streams {
		for set, in := range sets {
			for vname, v := range views {
				var b bytes.Buffer
				if err := renderAll(newStream(&b, v, goldenOptions), in); err != nil {
					t.Fatal(err)
				}
				var compact, indented bytes.Buffer
				if err := json.Compact(&compact, b.Bytes()); err != nil {
					t.Fatalf("%s, %s, %s: not JSON: %v\n%s", name, set, vname, err, b.String())
				}
				if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
					t.Fatal(err)
				}
				indented.WriteString("\n")
				if b.String() != indented.String() {
					t.Errorf("%s, %s, %s: not indented as one document:\n%s", name, set, vname, firstDifference(b.String(), indented.String()))
				}
			}
		}
	}
}

// firstDifference shows where two texts part.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return "got  …" + got[from:min(len(got), i+80)] + "\nwant …" + want[from:min(len(want), i+80)]
}

// TestStreamsWriteAsTheyGo: each format that streams has written a
// transcript's part once Transcript returns, before the next is given;
// the totals wait for Close.
func TestStreamsWriteAsTheyGo(t *testing.T) {
	rs := auditInputs(t, goldenInputs...)
	note := AuditView{MinSeverity: audit.SeverityNote}
	for name, newStream := range map[string]func(io.Writer, AuditView, Options) Stream{
		"text": NewAuditText, "json": NewAuditJSON, "ndjson": NewAuditNDJSON, "sarif": NewAuditSARIF,
		"ledger text":   func(w io.Writer, _ AuditView, o Options) Stream { return NewLedgerText(w, LedgerView{}, o) },
		"ledger json":   func(w io.Writer, _ AuditView, o Options) Stream { return NewLedgerJSON(w, LedgerView{}, o) },
		"ledger ndjson": func(w io.Writer, _ AuditView, o Options) Stream { return NewLedgerNDJSON(w, LedgerView{}, o) },
		"replay text":   func(w io.Writer, _ AuditView, o Options) Stream { return NewReplayText(w, ReplayView{}, o) },
		"replay json":   func(w io.Writer, _ AuditView, o Options) Stream { return NewReplayJSON(w, ReplayView{}, o) },
		"agents text":   func(w io.Writer, _ AuditView, o Options) Stream { return NewAgentsText(w, 5, o) },
		"agents json":   func(w io.Writer, _ AuditView, o Options) Stream { return NewAgentsJSON(w, 5, o) },
	} {
		var b bytes.Buffer
		s := newStream(&b, note, goldenOptions)
		for i, r := range rs {
			if err := s.Transcript(r); err != nil {
				t.Fatal(err)
			}
			if len(r.Findings) == 0 {
				t.Fatalf("%s has no findings to look for", r.Path)
			}
			// the audit's machine formats show the findings; the rest, the path
			want := r.Path
			if name == "json" || name == "ndjson" || name == "sarif" {
				want = r.Findings[len(r.Findings)-1].Fingerprint
			}
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: transcript %d is not written once it is given", name, i)
			}
		}
		before := b.Len()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		// a document ends at Close, and the audit's text with its totals
		ends := name == "text" || name == "sarif" || strings.HasSuffix(name, "json") && !strings.HasSuffix(name, "ndjson")
		if ends && b.Len() == before {
			t.Errorf("%s: Close wrote nothing; the document's end was written too early", name)
		}
		if !ends && b.Len() != before {
			t.Errorf("%s: Close wrote %q after the last transcript", name, b.String()[before:])
		}
	}
}

// FuzzStreamedDocuments: whatever the version and the transcripts' paths
// hold — quotes, the array's own key, bytes that are not UTF-8 — the
// spliced JSON and SARIF are one document as the encoder indents it, and
// the JSON holds every transcript and counts every finding.
func FuzzStreamedDocuments(f *testing.F) {
	f.Add("v1.2.3", "s.jsonl", "t.jsonl")
	f.Add(`"transcripts": [`, `"results": []`, "\\\"")
	f.Add("\xff\x00", "a\nb", `],"totals":{`)
	f.Fuzz(func(t *testing.T, version, p1, p2 string) {
		found := []audit.Finding{{Rule: "dropped-literal", Severity: audit.SeverityError, Message: p2, File: p1, Line: 3, Fingerprint: version}}
		rs := []*audit.Result{{Path: p1}, {Path: p2, Agents: []string{p1}, Findings: found}, {Path: p1, Findings: found}}
		for name, newStream := range map[string]func(io.Writer, AuditView, Options) Stream{"json": NewAuditJSON, "sarif": NewAuditSARIF} {
			var b bytes.Buffer
			if err := renderAll(newStream(&b, AuditView{}, Options{Version: version}), rs); err != nil {
				t.Fatal(err)
			}
			var compact, indented bytes.Buffer
			if err := json.Compact(&compact, b.Bytes()); err != nil {
				t.Fatalf("%s: not JSON: %v\n%s", name, err, b.String())
			}
			if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
				t.Fatal(err)
			}
			indented.WriteString("\n")
			if b.String() != indented.String() {
				t.Fatalf("%s: not indented as one document:\n%s", name, firstDifference(b.String(), indented.String()))
			}
			if name == "json" {
				var doc struct {
					Transcripts []json.RawMessage `json:"transcripts"`
					Totals      totalsDoc         `json:"totals"`
				}
				if err := json.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.Transcripts) != 3 || doc.Totals.Findings != 2 {
					t.Fatalf("json: %d transcripts, %d findings in the totals (%v)", len(doc.Transcripts), doc.Totals.Findings, err)
				}
			}
		}
	})
}

// writeSizes records the size of each write.
type writeSizes struct {
	buf   bytes.Buffer
	sizes []int
}

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.buf.Write(p)
}

// TestNDJSONWritesInPieces: a long session's findings make tens of
// megabytes of lines, which were built whole before they were written.
// They are written as whole lines, a piece at a time, and the lines are
// those of the findings encoded one by one, in order.
func TestNDJSONWritesInPieces(t *testing.T) {
	r := auditInputs(t, goldenInputs...)[0]
	many := *r
	for len(many.Findings) < 4000 {
		many.Findings = append(many.Findings, r.Findings...)
	}
	var want strings.Builder
	for i := range many.Findings {
		if err := encodeJSON(&want, many.Findings[i], false); err != nil {
			t.Fatal(err)
		}
	}
	if want.Len() < 8*outputPiece {
		t.Fatalf("%d bytes of findings are too few to be written in pieces", want.Len())
	}
	var w writeSizes
	if err := renderAll(NewAuditNDJSON(&w, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions), []*audit.Result{&many}); err != nil {
		t.Fatal(err)
	}
	if got := w.buf.String(); got != want.String() {
		t.Fatalf("the pieces differ from the findings' lines: %s", firstDifference(got, want.String()))
	}
	longest := 0
	for line := range strings.Lines(want.String()) {
		longest = max(longest, len(line))
	}
	for i, n := range w.sizes {
		if n > outputPiece+longest {
			t.Errorf("write %d of %d is %d bytes; pieces are about %d", i, len(w.sizes), n, outputPiece)
		}
	}
	if len(w.sizes) < 8 {
		t.Errorf("%d bytes in %d writes", w.buf.Len(), len(w.sizes))
	}
}

// TestShownKeepsWhatItHidesNothingOf: a view that hides no finding is
// given the transcript's own findings, not a copy of megabytes of them;
// one that hides some gets the rest in order, and none gives [] in JSON.
func TestShownKeepsWhatItHidesNothingOf(t *testing.T) {
	fs := []audit.Finding{{Rule: "a", Severity: audit.SeverityNote}, {Rule: "b", Severity: audit.SeverityError}, {Rule: "c", Severity: audit.SeverityWarning}}
	if all := shown(fs, AuditView{MinSeverity: audit.SeverityNote}); &all[0] != &fs[0] || len(all) != 3 {
		t.Errorf("a view that hides nothing got a copy")
	}
	some := shown(fs, AuditView{MinSeverity: audit.SeverityWarning})
	if len(some) != 2 || some[0].Rule != "b" || some[1].Rule != "c" {
		t.Errorf("warnings and up: %+v", some)
	}
	for _, none := range [][]audit.Finding{nil, {}} {
		if got := shown(none, AuditView{}); got == nil {
			t.Errorf("shown(%#v) is nil, which JSON writes as null", none)
		}
	}
}

// TestJSONWritesFindingsInPieces: the audit's JSON document splices a
// transcript's findings in one by one, written a piece at a time, and the
// document is still indented exactly as one. Encoding a long session's
// element whole held its findings four times over: 262 MB for the
// corpus's sessions repeated to 1 GB.
func TestJSONWritesFindingsInPieces(t *testing.T) {
	rs := auditInputs(t, goldenInputs...)
	many := *rs[0]
	for len(many.Findings) < 4000 {
		many.Findings = append(many.Findings, rs[0].Findings...)
	}
	var w writeSizes
	if err := renderAll(NewAuditJSON(&w, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions), []*audit.Result{rs[1], &many, rs[2]}); err != nil {
		t.Fatal(err)
	}
	var compact, indented bytes.Buffer
	if err := json.Compact(&compact, w.buf.Bytes()); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	indented.WriteString("\n")
	if w.buf.String() != indented.String() {
		t.Fatalf("not indented as one document:\n%s", firstDifference(w.buf.String(), indented.String()))
	}
	var doc struct {
		Transcripts []struct {
			Findings []json.RawMessage `json:"findings"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal(w.buf.Bytes(), &doc); err != nil || len(doc.Transcripts) != 3 || len(doc.Transcripts[1].Findings) != len(many.Findings) {
		t.Fatalf("the document does not hold the three transcripts' findings: %v", err)
	}
	longest := 0
	for _, f := range doc.Transcripts[1].Findings {
		longest = max(longest, 2*len(f)) // indented, at most twice as long
	}
	for i, n := range w.sizes {
		if n > outputPiece+longest && n > len(w.buf.String())/8 {
			t.Errorf("write %d of %d is %d bytes; pieces are about %d", i, len(w.sizes), n, outputPiece)
		}
	}
	if len(w.sizes) < 8 {
		t.Errorf("%d bytes in %d writes", w.buf.Len(), len(w.sizes))
	}
}

// TestReplayTextWritesInPieces: the replay of a long session is written a
// piece at a time, every boundary of it, not built whole.
func TestReplayTextWritesInPieces(t *testing.T) {
	rs := auditInputs(t, goldenInputs...)
	many := *rs[0]
	many.Boundaries = nil
	for len(many.Boundaries) < 400 {
		many.Boundaries = append(many.Boundaries, rs[0].Boundaries...)
	}
	var w writeSizes
	if err := renderAll(NewReplayText(&w, ReplayView{}, goldenOptions), []*audit.Result{&many}); err != nil {
		t.Fatal(err)
	}
	out := w.buf.String()
	if n := strings.Count(out, "· boundary "); n != len(many.Boundaries) {
		t.Fatalf("%d boundaries shown, want %d", n, len(many.Boundaries))
	}
	if w.buf.Len() < 8*outputPiece || len(w.sizes) < 8 {
		t.Fatalf("%d bytes in %d writes: too few to tell", w.buf.Len(), len(w.sizes))
	}
	for i, n := range w.sizes {
		if n > 2*outputPiece {
			t.Errorf("write %d of %d is %d bytes; pieces are about %d", i, len(w.sizes), n, outputPiece)
		}
	}
}

// TestHTMLTrailsShowRecentBoundaries: the trail table has a column per
// boundary and a row per obligation judged; for a long session it shows
// the last maxTrailBoundaries and says how many it leaves out, where every
// column made a 1 GB rollout's page 159 MB. Fewer boundaries are all shown.
func TestHTMLTrailsShowRecentBoundaries(t *testing.T) {
	r := auditInputs(t, goldenInputs[1])[0]
	if len(r.Boundaries) == 0 || len(r.Boundaries) > maxTrailBoundaries {
		t.Fatalf("%d boundaries: the case needs a few", len(r.Boundaries))
	}
	long := *r
	long.Boundaries = nil
	for i := 0; len(long.Boundaries) < maxTrailBoundaries+30; i++ {
		b := *r.Boundaries[i%len(r.Boundaries)]
		b.Index = len(long.Boundaries) + 1
		long.Boundaries = append(long.Boundaries, &b)
	}
	for _, c := range []struct {
		r       *audit.Result
		columns int
		note    string
	}{
		{r, len(r.Boundaries), ""},
		{&long, maxTrailBoundaries, "30 earlier ones are left out"},
	} {
		var b bytes.Buffer
		if err := renderAll(NewAuditHTML(&b, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions), []*audit.Result{c.r}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if n := strings.Count(page, "<th>boundary "); n != c.columns {
			t.Errorf("%d boundaries: %d columns, want %d", len(c.r.Boundaries), n, c.columns)
		}
		if c.note != "" && !strings.Contains(page, c.note) || c.note == "" && strings.Contains(page, "earlier ones are left out") {
			t.Errorf("%d boundaries: the note on boundaries left out is wrong", len(c.r.Boundaries))
		}
		if c.note != "" && !strings.Contains(page, fmt.Sprintf("<th>boundary %d</th>", len(c.r.Boundaries))) {
			t.Errorf("the last boundary is not among the columns")
		}
	}
}

// TestHTMLLetsResultsGo: the HTML report makes each transcript's part of
// the page as its result is given and keeps no result, so a run over a
// folder holds those parts rather than every result whole (417 MB of
// results for 1,000 generated sessions; 129 MB now).
func TestHTMLLetsResultsGo(t *testing.T) {
	var b bytes.Buffer
	s := NewAuditHTML(&b, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions)
	collected := make(chan string, 8)
	func() {
		for _, r := range auditInputs(t, goldenInputs...) {
			runtime.AddCleanup(r, func(p string) { collected <- p }, r.Path)
			if len(r.Boundaries) > 0 {
				runtime.AddCleanup(r.Boundaries[0], func(p string) { collected <- p + " boundary" }, r.Path)
			}
			if err := s.Transcript(r); err != nil {
				t.Fatal(err)
			}
		}
	}()
	want := 2 * len(goldenInputs)
	got := map[string]bool{}
	for deadline := time.Now().Add(10 * time.Second); len(got) < want && time.Now().Before(deadline); {
		runtime.GC()
		select {
		case p := <-collected:
			got[p] = true
		case <-time.After(50 * time.Millisecond):
		}
	}
	if len(got) < want {
		t.Errorf("%d of %d results and boundaries were let go: %v", len(got), want, got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Obligation trails") {
		t.Errorf("the page lacks the transcripts it was given")
	}
}

// TestMarkdownKeepsWhatCanFit: the comment keeps, of each severity, only
// the findings that could still fit it; whatever the limit and the mix of
// severities, it reads as the comment made from every finding does, cut
// and counted the same.
func TestMarkdownKeepsWhatCanFit(t *testing.T) {
	rs := auditInputs(t, goldenInputs...)
	var base []audit.Finding
	for _, r := range rs {
		base = append(base, r.Findings...)
	}
	sevs := []audit.Severity{audit.SeverityError, audit.SeverityWarning, audit.SeverityNote}
	for _, n := range []int{1, 7, 60, 400} {
		var many []audit.Finding
		for i := range n {
			for j, f := range base {
				f.Severity = sevs[(i+j)%3]
				f.Message = strings.Repeat("y", i%50) + " " + f.Message
				many = append(many, f)
			}
		}
		results := []*audit.Result{{Path: "a.jsonl", Findings: many[:len(many)/2]}, {Path: "b.jsonl", Findings: many[len(many)/2:]}}
		for _, limit := range []int{2000, 9000, MarkdownLimit} {
			bounded := &markdownStream{v: AuditView{MinSeverity: audit.SeverityNote}, limit: limit, rows: map[string]*markdownRow{}}
			all := &markdownStream{v: AuditView{MinSeverity: audit.SeverityNote}, limit: limit, rows: map[string]*markdownRow{}, keepAll: true}
			for _, r := range results {
				bounded.Transcript(r)
				all.Transcript(r)
			}
			if got, want := bounded.String(), all.String(); got != want {
				t.Errorf("%d findings, limit %d: %s", len(many), limit, firstDifference(got, want))
			}
			kept := 0
			for _, sec := range bounded.sections {
				kept += len(sec.parts)
			}
			if len(many) > 5000 && kept >= len(many)/4 {
				t.Errorf("%d findings, limit %d: all %d kept", len(many), limit, kept)
			}
		}
	}
}

// TestEncodeEach: every item comes out once and in order; an error of
// encode or emit ends it with that error, and a panic of encode is an
// error.
func TestEncodeEach(t *testing.T) {
	item := func(b *bytes.Buffer, i int) error { fmt.Fprintf(b, "%d\n", i); return nil }
	for _, n := range []int{0, 1, 16, 1000} {
		var got strings.Builder
		if err := encodeEach(n, item, func(b []byte) error { got.Write(b); return nil }); err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for i := range n {
			fmt.Fprintf(&want, "%d\n", i)
		}
		if got.String() != want.String() {
			t.Fatalf("%d items: %s", n, firstDifference(got.String(), want.String()))
		}
	}
	bad := errors.New("bad item")
	for name, run := range map[string]func() error{
		"encode": func() error {
			return encodeEach(1000, func(b *bytes.Buffer, i int) error {
				if i == 517 {
					return bad
				}
				return item(b, i)
			}, func([]byte) error { return nil })
		},
		"emit": func() error {
			k := 0
			return encodeEach(1000, item, func([]byte) error {
				if k++; k == 517 {
					return bad
				}
				return nil
			})
		},
	} {
		if err := run(); !errors.Is(err, bad) {
			t.Errorf("an error in %s: got %v", name, err)
		}
	}
	err := encodeEach(1000, func(b *bytes.Buffer, i int) error {
		if i == 517 {
			panic("a bug")
		}
		return item(b, i)
	}, func([]byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "item 517: a bug") {
		t.Errorf("a panic in encode: got %v", err)
	}
}

// BenchmarkNDJSON times the findings' lines encoded.
func BenchmarkNDJSON(b *testing.B) {
	r := auditInputs(b, goldenInputs...)[0]
	var fs []audit.Finding
	for len(fs) < 4000 {
		fs = append(fs, r.Findings...)
	}
	var size int64
	for b.Loop() {
		size = 0
		err := encodeEach(len(fs), func(line *bytes.Buffer, i int) error { return encodeJSON(line, &fs[i], false) },
			func(line []byte) error { size += int64(len(line)); return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(size)
}

// BenchmarkNDJSONStream is the ndjson of 4,000 findings written a piece at
// a time to a writer, as the command writes them: what building and
// writing the pieces adds to encoding the lines.
func BenchmarkNDJSONStream(b *testing.B) {
	r := auditInputs(b, goldenInputs...)[0]
	many := *r
	for len(many.Findings) < 4000 {
		many.Findings = append(many.Findings, r.Findings...)
	}
	var n countBytes
	for b.Loop() {
		n = 0
		if err := renderAll(NewAuditNDJSON(&n, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions), []*audit.Result{&many}); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(n))
}

// countBytes counts what is written to it. It has Write alone, as the
// command's redacting writer had, so io.WriteString copies into it.
type countBytes int64

func (c *countBytes) Write(p []byte) (int, error) { *c += countBytes(len(p)); return len(p), nil }
