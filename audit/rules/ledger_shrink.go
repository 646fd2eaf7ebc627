package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/audit"
)

// LedgerShrink reports a boundary after which fewer obligations hold.
var LedgerShrink = &audit.Rule{
	ID:       "ledger-shrink",
	Title:    "The obligation count fell across the boundary without a retraction",
	Severity: audit.SeverityNote,
	Doc: `Compaction is safe only if the set of obligations survives it. This rule counts
the obligations in force before a boundary and those that came through as they
were, and reports the difference when nothing retracted them: one finding per
boundary, listing what was lost and how (dropped, paraphrased, softened,
drifted, inverted). Its parts are reported by the rules above; this is the
boundary's tally, a note by default.

Example: 23 obligations in force before the boundary at turn 63, 11 after:
the bucket literal and eight path literals dropped, the prohibition and the
requirement softened, two promises gone.

Why it matters: a falling count is data loss, whatever the summary reads like.

Fix: raise the boundary's budget for obligations, or keep a ledger outside the
context that compaction cannot shrink.`,
	Run: runLedgerShrink,
}

func runLedgerShrink(p *audit.Pass) {
	r := p.Replay
	var lost []audit.LostItem
	var names []string
	for _, s := range r.Survivals {
		if !s.Lost() {
			continue
		}
		o := s.Obligation
		lost = append(lost, audit.LostItem{ID: o.ID, Kind: o.Kind, Text: o.Text, State: s.State, Turn: o.Origin.Turn})
		if len(names) < 5 {
			names = append(names, o.Kind.String()+" "+strconv.Quote(clipText(o.Text, 60))+" ("+s.State.String()+")")
		}
	}
	if len(lost) == 0 {
		return
	}
	f := audit.Finding{File: r.File, Line: r.Line, Turn: r.Turn, Offset: r.Offset}
	more := ""
	if len(lost) > len(names) {
		more = fmt.Sprintf(" and %d more", len(lost)-len(names))
	}
	f.Message = fmt.Sprintf("%d of %d obligations did not come through %s: %s%s", len(lost), len(r.Survivals),
		audit.BoundaryName(r), strings.Join(names, ", "), more)
	f.Evidence.Lost = lost
	f.Evidence.Chain = []audit.Step{{Kind: "boundary", File: r.File, Line: r.Line, Turn: r.Turn, Boundary: r.Index,
		Detail: fmt.Sprintf("%d obligations before, %d after", len(r.Survivals), r.After())}}
	p.Report(f)
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
