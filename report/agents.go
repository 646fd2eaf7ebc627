package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/sharedstate"
)

// agentDoc is what `compaudit agents` shows of one agent: enough to see
// why a shared-state rule fired.
type agentDoc struct {
	Agent       string            `json:"agent"`
	Compactions []compactionDoc   `json:"compactions"`
	Reads       int               `json:"reads"`
	Writes      int               `json:"writes"`
	Breadth     []breadthDoc      `json:"write_breadth"`
	Messages    []messageCitesDoc `json:"messages"`
}

type compactionDoc struct {
	Turn     int      `json:"turn"`
	Line     int      `json:"line"`
	Notified []string `json:"notified"`
	// Baseline is the trailing mean of distinct keys per writing turn
	// before the compaction.
	Baseline float64 `json:"baseline"`
}

type breadthDoc struct {
	Turn int `json:"turn"`
	Keys int `json:"keys"`
}

type messageCitesDoc struct {
	Turn        int      `json:"turn"`
	Line        int      `json:"line"`
	Citations   []string `json:"citations"`
	Categorical []string `json:"categorical"`
}

func agentDocs(st *sharedstate.StateRun, baselineTurns int) []agentDoc {
	var out []agentDoc
	for _, name := range st.Agents {
		d := agentDoc{Agent: name, Compactions: []compactionDoc{}, Breadth: []breadthDoc{}, Messages: []messageCitesDoc{}}
		turns := sharedstate.WriteBreadth(st, name)
		for _, c := range st.Compactions {
			if c.Agent != name {
				continue
			}
			base, _ := sharedstate.Baseline(turns, c.Index, baselineTurns)
			notified := c.Notified
			if notified == nil {
				notified = []string{}
			}
			d.Compactions = append(d.Compactions, compactionDoc{Turn: c.Turn, Line: c.Line, Notified: notified, Baseline: base})
		}
		for _, op := range st.Ops.All() {
			if op.Agent != name {
				continue
			}
			if op.Write {
				d.Writes++
			} else {
				d.Reads++
			}
		}
		for _, t := range turns {
			d.Breadth = append(d.Breadth, breadthDoc{Turn: t.Turn, Keys: t.Keys})
		}
		for _, m := range st.Messages {
			if m.Agent != name {
				continue
			}
			md := messageCitesDoc{Turn: m.Turn, Line: m.Line, Citations: m.Citations, Categorical: m.Categorical}
			if md.Citations == nil {
				md.Citations = []string{}
			}
			if md.Categorical == nil {
				md.Categorical = []string{}
			}
			d.Messages = append(d.Messages, md)
		}
		out = append(out, d)
	}
	return out
}

type agentsTranscriptDoc struct {
	Path   string     `json:"path"`
	Agents []agentDoc `json:"agents"`
}

// NewAgentsJSON streams the per-agent JSON document a transcript at a time.
func NewAgentsJSON(w io.Writer, baselineTurns int, o Options) Stream {
	doc := viewDoc[agentsTranscriptDoc]{Tool: "compaudit", Version: o.Version, Transcripts: []agentsTranscriptDoc{}}
	return transcriptsDoc(w, doc, doc, func(r *audit.Result) any {
		return agentsTranscriptDoc{Path: r.Path, Agents: agentDocs(r.State, baselineTurns)}
	})
}

// NewAgentsText streams, per agent, its compactions, reads and writes, its
// write breadth per turn against the baseline, and what its messages cite.
func NewAgentsText(w io.Writer, baselineTurns int, o Options) Stream {
	st := newStyles(w, o)
	return &partStream{w: w, part: func(b *strings.Builder, r *audit.Result, _ bool) error {
		fmt.Fprintf(b, "%s %s\n", st.head.Render(Inert(r.Path)), st.dim.Render("("+string(r.Format)+")"))
		for _, d := range agentDocs(r.State, baselineTurns) {
			fmt.Fprintf(b, "\n  %s  %d reads, %d writes, %d compaction(s)\n", st.bold.Render("agent "+Inert(d.Agent)), d.Reads, d.Writes, len(d.Compactions))
			for _, c := range d.Compactions {
				notified := "none"
				if len(c.Notified) > 0 {
					notified = Inert(strings.Join(c.Notified, ", "))
				}
				fmt.Fprintf(b, "    compacted at turn %d (line %d); notified: %s; write-breadth baseline %.1f keys/turn\n", c.Turn, c.Line, notified, c.Baseline)
			}
			if len(d.Breadth) > 0 {
				// a bar marks where each compaction falls among the turns
				var parts []string
				ci := 0
				for _, t := range d.Breadth {
					for ci < len(d.Compactions) && t.Turn >= d.Compactions[ci].Turn {
						parts = append(parts, "|")
						ci++
					}
					parts = append(parts, fmt.Sprintf("t%d:%d", t.Turn, t.Keys))
				}
				fmt.Fprintf(b, "    keys written per turn: %s\n", strings.Join(parts, " "))
			}
			for _, m := range d.Messages {
				cites := "no identifiers"
				if len(m.Citations) > 0 {
					cites = Inert(strings.Join(m.Citations, ", "))
				}
				extra := ""
				if len(m.Categorical) > 0 {
					extra = st.dim.Render(fmt.Sprintf("  (categorical: %q)", m.Categorical[0]))
				}
				fmt.Fprintf(b, "    turn %-4d cites %d: %s%s\n", m.Turn, len(m.Citations), cites, extra)
			}
		}
		b.WriteString("\n")
		return nil
	}}
}
