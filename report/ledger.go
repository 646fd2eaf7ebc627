package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/report/mask"
)

// LedgerView selects what a ledger rendering shows.
type LedgerView struct {
	// At, when positive, shows the ledger in force as of that turn instead
	// of the timeline of every turn.
	At int
}

type ledgerDoc struct {
	Tool        string             `json:"tool"`
	Version     string             `json:"version"`
	At          *int               `json:"at"`
	Transcripts []ledgerTranscript `json:"transcripts"`
}

type ledgerTranscript struct {
	Path   string        `json:"path"`
	Format parse.Format  `json:"format"`
	Files  []fileDoc     `json:"files"`
	Agents []ledgerAgent `json:"agents"`
}

type fileDoc struct {
	Path        string             `json:"path"`
	Agent       string             `json:"agent"`
	Format      parse.Format       `json:"format"`
	Events      int                `json:"events"`
	Skipped     int                `json:"skipped"`             // lines that were not records, shown in diagnostics or not
	CutShort    bool               `json:"cut_short,omitempty"` // reading stopped at a read error
	Error       string             `json:"error,omitempty"`
	Diagnostics []parse.Diagnostic `json:"diagnostics"`
}

type ledgerAgent struct {
	Agent       string               `json:"agent"`
	Turns       int                  `json:"turns"`
	Boundaries  int                  `json:"boundaries"`
	Obligations []*ledger.Obligation `json:"obligations"`
}

func filesDoc(files []parse.FileResult) []fileDoc {
	out := make([]fileDoc, 0, len(files))
	for _, f := range files {
		d := fileDoc{Path: f.Path, Agent: f.Agent, Format: f.Format, Events: f.Events,
			Skipped: f.Skipped, CutShort: f.Cut, Diagnostics: f.Diagnostics}
		if d.Diagnostics == nil {
			d.Diagnostics = []parse.Diagnostic{}
		}
		if f.Err != nil {
			d.Error = f.Err.Error()
		}
		out = append(out, d)
	}
	return out
}

// obligationsFor lists what the view shows of one ledger: everything, or
// what is in force at the chosen turn.
func obligationsFor(l *audit.AgentLedger, v LedgerView) []*ledger.Obligation {
	if v.At > 0 {
		list := l.Live(v.At)
		if list == nil {
			list = []*ledger.Obligation{}
		}
		return list
	}
	if l.Obligations == nil {
		return []*ledger.Obligation{}
	}
	return l.Obligations
}

// NewLedgerJSON streams the ledgers as one JSON document.
func NewLedgerJSON(w io.Writer, v LedgerView, o Options) Stream {
	doc := ledgerDoc{Tool: "compaudit", Version: o.Version, Transcripts: []ledgerTranscript{}}
	if v.At > 0 {
		doc.At = &v.At
	}
	return transcriptsDoc(w, doc, doc, func(r *audit.Result) any {
		t := audit.LedgersOf(r)
		lt := ledgerTranscript{Path: t.Path, Format: t.Format, Files: filesDoc(t.Files), Agents: []ledgerAgent{}}
		for _, a := range t.Agents {
			lt.Agents = append(lt.Agents, ledgerAgent{Agent: a.Agent, Turns: a.Turns, Boundaries: a.Boundaries,
				Obligations: obligationsFor(a, v)})
		}
		return lt
	})
}

// NewLedgerNDJSON streams one obligation per line, each naming its transcript.
func NewLedgerNDJSON(w io.Writer, v LedgerView, _ Options) Stream {
	type line struct {
		Transcript string `json:"transcript"`
		*ledger.Obligation
	}
	return &partStream{w: w, part: func(b *strings.Builder, r *audit.Result, _ bool) error {
		t := audit.LedgersOf(r)
		for _, a := range t.Agents {
			for _, ob := range obligationsFor(a, v) {
				if err := encodeJSON(b, line{Transcript: t.Path, Obligation: ob}, false); err != nil {
					return err
				}
			}
		}
		return nil
	}}
}

// NewLedgerText streams a timeline of each agent's ledger, turn by turn, or
// the ledger in force at one turn.
func NewLedgerText(w io.Writer, v LedgerView, o Options) Stream {
	st := newStyles(w, o)
	return &partStream{w: w, part: func(b *strings.Builder, r *audit.Result, first bool) error {
		t := audit.LedgersOf(r)
		if !first {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%s %s\n", st.head.Render(Inert(t.Path)), st.dim.Render("("+string(t.Format)+")"))
		for _, a := range t.Agents {
			if v.At > 0 {
				live := a.Live(v.At)
				fmt.Fprintf(b, "  %s — ledger as of turn %d: %d in force, %d retracted or superseded\n",
					st.bold.Render("agent "+Inert(a.Agent)), v.At, len(live), len(a.Retired(v.At)))
				for _, ob := range live {
					fmt.Fprintf(b, "    %s  %s\n", obligationLine(st, ob), st.dim.Render(originText(*ob.Origin)))
				}
				continue
			}
			fmt.Fprintf(b, "  %s — %d turns, %d boundaries, %d obligations\n",
				st.bold.Render("agent "+Inert(a.Agent)), a.Turns, a.Boundaries, countKinds(a.Obligations))
			writeTimeline(b, st, a)
		}
		return nil
	}}
}

func countKinds(list []*ledger.Obligation) int {
	n := 0
	for _, o := range list {
		if o.Kind != tag.KindRetraction {
			n++
		}
	}
	return n
}

// writeTimeline lists, turn by turn, what was added and what retired.
func writeTimeline(b *strings.Builder, st styles, a *audit.AgentLedger) {
	type change struct {
		ob      *ledger.Obligation
		retired bool
	}
	byTurn := map[int][]change{}
	lines := map[int]string{}
	for _, ob := range a.Obligations {
		byTurn[ob.Origin.Turn] = append(byTurn[ob.Origin.Turn], change{ob: ob})
		if _, ok := lines[ob.Origin.Turn]; !ok {
			lines[ob.Origin.Turn] = fmt.Sprintf("%s, line %d", ob.Origin.Source, ob.Origin.Line)
		}
		if ob.RetiredAt > 0 {
			byTurn[ob.RetiredAt] = append(byTurn[ob.RetiredAt], change{ob: ob, retired: true})
		}
	}
	turns := make([]int, 0, len(byTurn))
	for t := range byTurn {
		turns = append(turns, t)
	}
	sort.Ints(turns)
	for _, t := range turns {
		where := lines[t]
		if where != "" {
			where = "  " + st.dim.Render(where)
		}
		fmt.Fprintf(b, "    %s%s\n", st.bold.Render(fmt.Sprintf("turn %d", t)), where)
		for _, c := range byTurn[t] {
			if c.retired {
				how := "retracted"
				if c.ob.Superseded {
					how = "superseded"
				}
				fmt.Fprintf(b, "      %s %s  %s\n", st.rm.Render("-"), obligationLine(st, c.ob), st.dim.Render("("+how+")"))
				continue
			}
			fmt.Fprintf(b, "      %s %s\n", st.added.Render("+"), obligationLine(st, c.ob))
		}
	}
}

// obligationLine is one obligation in a line: kind, text, and its detail.
func obligationLine(st styles, ob *ledger.Obligation) string {
	kind := fmt.Sprintf("%-11s", ob.Kind)
	var detail string
	switch ob.Kind {
	case tag.KindLiteral:
		kind = st.literal.Render(kind)
		detail = ob.LiteralKind
		if ob.Label != "" {
			detail += ", " + ob.Label
		}
		detail += ", from " + ob.Origin.Source.String()
	case tag.KindProhibition:
		kind = st.forbid.Render(kind)
		detail = objectText(ob.Object)
	case tag.KindRequirement:
		kind = st.require.Render(kind)
		detail = objectText(ob.Object)
	case tag.KindThreshold:
		kind = st.thresh.Render(kind)
		t := ob.Threshold
		detail = fmt.Sprintf("%s %s %s%s", t.Subject, t.Comparator, trimFloat(t.Value), unitSuffix(t.Unit))
	case tag.KindCommitment:
		kind = st.commit.Render(kind)
		if ob.Polarity == tag.PolarityForbid {
			detail = "will not"
		}
	case tag.KindState:
		kind = st.state.Render(kind)
		detail = ob.Status.Detail
	case tag.KindRetraction:
		kind = st.retract.Render(kind)
		switch {
		case ob.Replacement != "" && ob.Retracts != "":
			detail = fmt.Sprintf("%s → %s", ob.Retracts, ob.Replacement)
		case ob.Replacement != "":
			detail = "now " + ob.Replacement
		default:
			detail = "lifts: " + ob.Retracts
		}
	}
	text := Inert(st.clip(ob.Text, 90))
	if ob.Standing {
		detail = strings.TrimPrefix(detail+", standing rule", ", ")
	}
	detail = Inert(detail) // its terms, literals and subjects are the transcript's
	if detail == "" {
		return kind + " " + text
	}
	return kind + " " + text + "  " + st.dim.Render("["+detail+"]")
}

func objectText(o *tag.Object) string {
	if o == nil {
		return ""
	}
	parts := []string{}
	if o.Verb != "" {
		parts = append(parts, "action: "+o.Verb)
	}
	if len(o.Terms) > 0 {
		parts = append(parts, "object: "+strings.Join(o.Terms, " "))
	}
	if len(o.Literals) > 0 {
		parts = append(parts, "literals: "+strings.Join(o.Literals, " "))
	}
	return strings.Join(parts, "; ")
}

func originText(o ledger.Origin) string {
	return fmt.Sprintf("turn %d, %s, line %d", o.Turn, o.Source, o.Line)
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%g", f)
	return s
}

func unitSuffix(u string) string {
	switch u {
	case "":
		return ""
	case "%":
		return "%"
	case "s":
		return "s"
	}
	return " " + u
}

// clip is oneLine for transcript text, redacted first when the output is
// and the text is cut: a secret cut at the end of the line no longer has
// the shape Redact looks for in the rendered output, and its first part
// would be shown. Text that is not cut reaches that pass whole.
func clip(s string, n int, redact bool) string {
	if redact && len(s) > n {
		s = string(mask.Redact([]byte(s)))
	}
	return oneLine(s, n)
}

// clip cuts transcript text as the output's redaction needs (clip).
func (st styles) clip(s string, n int) string { return clip(s, n, st.redact) }

// oneLine folds white space and clips, for one-line listings.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
