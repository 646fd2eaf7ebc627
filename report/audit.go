package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// AuditView selects what an audit rendering shows.
type AuditView struct {
	// MinSeverity hides findings below it; text output counts them.
	MinSeverity audit.Severity
}

// Survival tallies a boundary's judgements, in a fixed field order.
type survivalDoc struct {
	Preserved    int `json:"preserved"`
	Paraphrased  int `json:"paraphrased"`
	Softened     int `json:"softened"`
	Drifted      int `json:"drifted"`
	Dropped      int `json:"dropped"`
	Inverted     int `json:"inverted"`
	Unverifiable int `json:"unverifiable"`
}

type boundaryDoc struct {
	Agent             string             `json:"agent"`
	Index             int                `json:"index"`
	File              string             `json:"file"`
	Line              int                `json:"line"`
	Turn              int                `json:"turn"`
	Kind              parse.BoundaryKind `json:"kind"`
	Trigger           string             `json:"trigger"`
	PreTokens         int                `json:"pre_tokens"`
	Readable          bool               `json:"readable"`
	Unreadable        string             `json:"unreadable,omitempty"`
	ObligationsBefore int                `json:"obligations_before"`
	ObligationsAfter  int                `json:"obligations_after"`
	Survival          survivalDoc        `json:"survival"`
	// Unkept is where the window stopped keeping turns, past its budget:
	// from there on, references and forbidden actions were not looked for.
	Unkept *replay.WindowSpot `json:"unkept,omitempty"`
}

type transcriptDoc struct {
	Path       string          `json:"path"`
	Format     parse.Format    `json:"format"`
	Agents     []string        `json:"agents"`
	Files      []fileDoc       `json:"files"`
	Boundaries []boundaryDoc   `json:"boundaries"`
	Findings   []audit.Finding `json:"findings"`
}

// splice writes a transcript's findings one by one (splicer).
func (td transcriptDoc) splice() (any, string, int, func(int) any) {
	shell, fs := td, td.Findings
	shell.Findings = []audit.Finding{}
	return shell, `"findings": [`, len(fs), func(i int) any { return &fs[i] }
}

type totalsDoc struct {
	Transcripts int `json:"transcripts"`
	Boundaries  int `json:"boundaries"`
	Findings    int `json:"findings"`
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
	Notes       int `json:"notes"`
}

type auditDoc struct {
	Tool        string          `json:"tool"`
	Version     string          `json:"version"`
	Transcripts []transcriptDoc `json:"transcripts"`
	Totals      totalsDoc       `json:"totals"`
}

func boundaryDocOf(b *replay.BoundaryReplay) boundaryDoc {
	c := b.Counts()
	return boundaryDoc{Agent: b.Agent, Index: b.Index, File: b.File, Line: b.Line, Turn: b.Turn, Kind: b.Boundary.Kind,
		Trigger: b.Boundary.Trigger, PreTokens: b.Boundary.PreTokens, Readable: b.Boundary.Readable,
		Unreadable: b.Boundary.Unreadable, ObligationsBefore: b.Obligations(), ObligationsAfter: b.After(),
		Survival: survivalDoc{Preserved: c[replay.Preserved], Paraphrased: c[replay.Paraphrased], Softened: c[replay.Softened],
			Drifted: c[replay.Drifted], Dropped: c[replay.Dropped], Inverted: c[replay.Inverted], Unverifiable: c[replay.Unverifiable]},
		Unkept: b.Unkept}
}

// shown returns the findings at or above the view's minimum severity: the
// transcript's own when the view hides none, as a long session's findings
// are megabytes, and never nil, so that JSON lists them as [].
func shown(fs []audit.Finding, v AuditView) []audit.Finding {
	hides := false
	for i := range fs {
		hides = hides || fs[i].Severity < v.MinSeverity
	}
	if !hides && fs != nil {
		return fs
	}
	out := []audit.Finding{}
	for _, f := range fs {
		if f.Severity >= v.MinSeverity {
			out = append(out, f)
		}
	}
	return out
}

func count(t *totalsDoc, fs []audit.Finding) {
	for _, f := range fs {
		t.Findings++
		switch f.Severity {
		case audit.SeverityError:
			t.Errors++
		case audit.SeverityWarning:
			t.Warnings++
		default:
			t.Notes++
		}
	}
}

// NewAuditJSON streams the audit as one JSON document: its transcripts as
// they come and its totals at the end.
func NewAuditJSON(w io.Writer, v AuditView, o Options) Stream {
	doc := &auditDoc{Tool: "compaudit", Version: o.Version, Transcripts: []transcriptDoc{}}
	return transcriptsDoc(w, doc, doc, func(r *audit.Result) any {
		td := transcriptDoc{Path: r.Path, Format: r.Format, Agents: r.Agents, Files: filesDoc(r.Files),
			Boundaries: []boundaryDoc{}, Findings: shown(r.Findings, v)}
		if td.Agents == nil {
			td.Agents = []string{}
		}
		for _, b := range r.Boundaries {
			td.Boundaries = append(td.Boundaries, boundaryDocOf(b))
		}
		doc.Totals.Transcripts++
		doc.Totals.Boundaries += len(r.Boundaries)
		count(&doc.Totals, td.Findings)
		return td
	})
}

// outputPiece is about how much of a transcript's part of the output
// (ndjson lines, JSON elements, the replay's lines) is built before it is
// written.
const outputPiece = 64 << 10

// writePiece writes what b holds once it passes outputPiece: a long
// session's findings or replay are tens or hundreds of megabytes, which
// were built whole. Callers write whole lines or elements, so a reader
// of the stream, and a redacting writer, see each one whole.
func writePiece(w io.Writer, b piece) error {
	if b.Len() < outputPiece {
		return nil
	}
	var err error
	switch b := b.(type) {
	case *bytes.Buffer:
		// written from the buffer, which is reused: a megabyte of ndjson
		// regrew a buffer for each piece, four times its size in all
		_, err = w.Write(b.Bytes())
	default:
		_, err = io.WriteString(w, b.String())
	}
	b.Reset()
	return err
}

// piece is what a part of the output is built in: a strings.Builder, or
// a bytes.Buffer.
type piece interface {
	Len() int
	String() string
	Reset()
}

// NewAuditNDJSON streams one finding per line and nothing else.
func NewAuditNDJSON(w io.Writer, v AuditView, _ Options) Stream {
	var lines bytes.Buffer // the piece being built, reused for the next
	return &partStream{w: w, part: func(_ *strings.Builder, r *audit.Result, _ bool) error {
		defer lines.Reset()
		fs := shown(r.Findings, v)
		err := encodeEach(len(fs), func(line *bytes.Buffer, i int) error { return encodeJSON(line, &fs[i], false) },
			func(line []byte) error {
				lines.Write(line)
				return writePiece(w, &lines)
			})
		if err == nil && lines.Len() > 0 {
			_, err = w.Write(lines.Bytes())
		}
		return err
	}}
}

// NewAuditText streams findings grouped by transcript and boundary, with
// their chains, trails and diffs, and what was hidden and the totals at
// the end.
func NewAuditText(w io.Writer, v AuditView, o Options) Stream {
	st := newStyles(w, o)
	var total totalsDoc
	n, hiddenNotes, suppressed := 0, 0, 0 // transcripts written, findings not shown
	return &partStream{w: w,
		part: func(b *strings.Builder, r *audit.Result, first bool) error {
			if !first {
				b.WriteString("\n")
			}
			n++
			var t totalsDoc
			count(&t, r.Findings)
			count(&total, r.Findings)
			fmt.Fprintf(b, "%s  %s\n", st.head.Render(Inert(r.Path)), st.dim.Render(fmt.Sprintf("%s · %d agent(s) · %d boundar%s · %s",
				r.Format, len(r.Agents), len(r.Boundaries), plural(len(r.Boundaries), "y", "ies"), tally(t))))
			byBoundary := map[string][]audit.Finding{}
			for _, f := range r.Findings {
				if f.Suppressed != nil {
					suppressed++
					continue
				}
				if f.Severity < v.MinSeverity {
					if f.Severity == audit.SeverityNote {
						hiddenNotes++
					}
					continue
				}
				k := fmt.Sprintf("%s/%d", f.Agent, f.Boundary)
				byBoundary[k] = append(byBoundary[k], f)
			}
			if len(r.Boundaries) == 0 {
				b.WriteString(st.dim.Render("  no compaction boundary: nothing was summarized away") + "\n")
			}
			for _, bd := range r.Boundaries {
				c := bd.Counts()
				head := fmt.Sprintf("boundary %d", bd.Index)
				if bd.Agent != parse.MainAgent {
					head = "agent " + Inert(bd.Agent) + " · " + head
				}
				fmt.Fprintf(b, "\n  %s %s\n", st.bold.Render(head), st.dim.Render(boundaryLine(bd, c)))
				for _, f := range orderedBySeverity(byBoundary[fmt.Sprintf("%s/%d", bd.Agent, bd.Index)]) {
					writeFinding(b, st, f)
				}
			}
			return nil
		},
		end: func(b *strings.Builder) error {
			if suppressed > 0 {
				fmt.Fprintf(b, "\n%s\n", st.dim.Render(fmt.Sprintf("%d suppressed finding(s) not shown (see .compaudit.yaml; JSON and SARIF list them)", suppressed)))
			}
			if hiddenNotes > 0 {
				fmt.Fprintf(b, "\n%s\n", st.dim.Render(fmt.Sprintf("%d note(s) not shown (--min-severity note shows them)", hiddenNotes)))
			}
			if n > 1 {
				fmt.Fprintf(b, "\n%s\n", st.bold.Render(fmt.Sprintf("%d transcripts: %s", n, tally(total))))
			}
			return nil
		}}
}

func boundaryLine(bd *replay.BoundaryReplay, c map[replay.State]int) string {
	parts := []string{fmt.Sprintf("turn %d", bd.Turn), fmt.Sprintf("line %d", bd.Line), bd.Boundary.Kind.String()}
	if bd.Boundary.Trigger != "" {
		parts = append(parts, bd.Boundary.Trigger)
	}
	if bd.Boundary.PreTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d tokens", bd.Boundary.PreTokens))
	}
	if !bd.Boundary.Readable {
		parts = append(parts, "opaque: "+bd.Boundary.Unreadable)
	}
	if u := bd.Unkept; u != nil {
		parts = append(parts, fmt.Sprintf("window stopped keeping turns at line %d", u.Line))
	}
	var states []string
	for _, s := range replay.States() {
		if c[s] > 0 {
			states = append(states, fmt.Sprintf("%d %s", c[s], s))
		}
	}
	line := "· " + strings.Join(parts, " · ") + fmt.Sprintf(" · %d obligations → %d came through", bd.Obligations(), bd.After())
	if len(states) > 0 {
		line += " (" + strings.Join(states, ", ") + ")"
	}
	return Inert(line) // the trigger and the reason a summary is opaque are the transcript's
}

func orderedBySeverity(fs []audit.Finding) []audit.Finding {
	var out []audit.Finding
	for _, sev := range []audit.Severity{audit.SeverityError, audit.SeverityWarning, audit.SeverityNote} {
		for _, f := range fs {
			if f.Severity == sev {
				out = append(out, f)
			}
		}
	}
	return out
}

func tally(t totalsDoc) string {
	return fmt.Sprintf("%d error%s, %d warning%s, %d note%s", t.Errors, plural(t.Errors, "", "s"),
		t.Warnings, plural(t.Warnings, "", "s"), t.Notes, plural(t.Notes, "", "s"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (st styles) severity(s audit.Severity) string {
	label := fmt.Sprintf("%-7s", s)
	switch s {
	case audit.SeverityError:
		return st.errorSev.Render(label)
	case audit.SeverityWarning:
		return st.warningSev.Render(label)
	}
	return st.noteSev.Render(label)
}

func writeFinding(b *strings.Builder, st styles, f audit.Finding) {
	tag := ""
	if f.BaselineState != "" {
		tag = st.dim.Render("[" + f.BaselineState + "] ")
	}
	fmt.Fprintf(b, "    %s %s%s  %s\n", st.severity(f.Severity), tag, st.bold.Render(f.Rule), Inert(f.Message))
	pad := "            "
	for _, s := range f.Evidence.Chain {
		where := ""
		if s.Line > 0 {
			where = fmt.Sprintf("turn %d, line %d", s.Turn, s.Line)
			if s.Boundary > 0 {
				where = fmt.Sprintf("boundary %d, turn %d, line %d", s.Boundary, s.Turn, s.Line)
			}
		}
		text := ""
		if s.Text != "" {
			text = " " + fmt.Sprintf("%q", st.clip(s.Text, 110))
		}
		detail := ""
		if s.Detail != "" {
			detail = " " + st.dim.Render("("+Inert(st.clip(s.Detail, 100))+")")
		}
		fmt.Fprintf(b, "%s%s %s%s%s\n", pad, st.bold.Render(fmt.Sprintf("%-9s", s.Kind)), st.dim.Render(where), text, detail)
	}
	// a diff of two tokens reads at a glance; of two sentences it is noise
	if len(f.Evidence.Diff) > 0 && f.Evidence.Original != "" && !strings.ContainsAny(f.Evidence.Variant, " \t") {
		fmt.Fprintf(b, "%s%s %s\n", pad, st.bold.Render(fmt.Sprintf("%-9s", "diff")), renderDiff(st, f.Evidence.Diff))
	}
	if len(f.Evidence.Trail) > 1 {
		var steps []string
		if n := f.Evidence.TrailOmitted; n > 0 {
			steps = append(steps, fmt.Sprintf("(%d earlier)", n))
		}
		for _, t := range f.Evidence.Trail {
			s := fmt.Sprintf("b%d %s", t.Boundary, t.State)
			if t.Variant != "" && t.State != replay.Preserved {
				s += fmt.Sprintf(" %q", t.Variant)
			}
			steps = append(steps, s)
		}
		fmt.Fprintf(b, "%s%s %s\n", pad, st.bold.Render(fmt.Sprintf("%-9s", "trail")), strings.Join(steps, " → "))
	}
	if f.Evidence.Use != "" {
		fmt.Fprintf(b, "%s%s %s\n", pad, st.bold.Render(fmt.Sprintf("%-9s", "use")), st.literal.Render(Inert(f.Evidence.Use)))
	}
	if n := len(f.Evidence.Lost); n > 0 {
		fmt.Fprintf(b, "%s%s %d obligation(s): %s\n", pad, st.bold.Render(fmt.Sprintf("%-9s", "lost")), n, lostKinds(f.Evidence.Lost))
	}
}

func lostKinds(lost []audit.LostItem) string {
	byKind := map[tag.Kind]int{}
	var order []tag.Kind
	for _, l := range lost {
		if byKind[l.Kind] == 0 {
			order = append(order, l.Kind)
		}
		byKind[l.Kind]++
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d %s", byKind[k], k))
	}
	return strings.Join(parts, ", ")
}

// renderDiff shows a character diff: deletions struck through, insertions
// underlined; in plain text, [-deleted-]{+inserted+}.
func renderDiff(st styles, ops []audit.DiffOp) string {
	var b strings.Builder
	plain := st.diffDel.Render("x") == "x"
	for _, op := range ops {
		text := Inert(strings.ReplaceAll(op.Text, "\n", "⏎"))
		switch op.Op {
		case "delete":
			if plain {
				b.WriteString("[-" + text + "-]")
			} else {
				b.WriteString(st.diffDel.Render(text))
			}
		case "insert":
			if plain {
				b.WriteString("{+" + text + "+}")
			} else {
				b.WriteString(st.diffIns.Render(text))
			}
		default:
			b.WriteString(text)
		}
	}
	return b.String()
}
