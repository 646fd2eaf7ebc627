package rules

import (
	"fmt"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/sharedstate"
)

// CitationDecay reports an agent that stopped citing identifiers after its
// compaction.
var CitationDecay = &audit.Rule{
	ID:       "citation-decay",
	Title:    "An agent cites identifiers before its compaction and only categories after it",
	Severity: audit.SeverityWarning,
	Scope:    audit.ScopeRun,
	Doc: `Before its compaction an agent's outbound messages cite specific identifiers —
entry ids (entry:4471), revisions, hashes, task ids; after it they speak only
in categories ("the completed tasks"). This rule reports an agent working on
shared state whose messages before a compaction mostly cite identifiers (at
least two of them do) and whose messages after it cite none while using a
categorical phrase.

Why it matters: the loss of specific identifiers in outbound messages signals
that the agent no longer holds them. Peers should treat it as possibly
compacted and require a re-read before accepting its writes.

Example: "Completed entry:4471 (task/A, rev 2)" before; "Marked the completed
tasks" after.

Fix: make peers require identifiers in status messages; have the agent
re-read the state after compaction.`,
	Run: runCitationDecay,
}

func runCitationDecay(p *audit.Pass) {
	for _, agent := range p.State.Agents {
		if !p.State.Shares(agent) {
			continue
		}
		comps := p.State.AgentCompactions(agent)
		for i, c := range comps {
			from, to := -1, sharedstate.EndOfRun
			if i > 0 {
				from = comps[i-1].Index
			}
			if i+1 < len(comps) {
				to = comps[i+1].Index
			}
			pre, post := p.State.MessagesBetween(agent, from, c.Index), p.State.MessagesBetween(agent, c.Index, to)
			citing := 0
			var cited []string
			for _, m := range pre {
				if len(m.Citations) > 0 {
					citing++
					cited = append(cited, m.Citations...)
				}
			}
			if citing < 2 || citing*2 < len(pre) || len(post) == 0 {
				continue
			}
			var categorical *sharedstate.Message
			decayed := true
			for j := range post {
				if len(post[j].Citations) > 0 {
					decayed = false
					break
				}
				if categorical == nil && len(post[j].Categorical) > 0 {
					categorical = &post[j]
				}
			}
			if !decayed || categorical == nil {
				continue
			}
			m := *categorical
			f := audit.Finding{File: m.File, Line: m.Line, Turn: m.Turn, Agent: agent, Offset: m.Offset,
				Boundary: p.State.CompactionNumber(agent, m.Index)}
			f.Message = fmt.Sprintf("%s cited identifiers in %d of %d messages before its compaction at turn %d (%s) and none after it: %q",
				agent, citing, len(pre), c.Turn, strings.Join(first(cited, 4), ", "), m.Categorical[0])
			f.Evidence.Chain = []audit.Step{
				audit.MessageStep("cited", lastCiting(pre), "identifiers: "+strings.Join(first(cited, 6), ", ")),
				audit.CompactionStep(&c, p.State.CompactionNumber(agent, c.Index+1), ""),
				audit.MessageStep("categorical", m, "no identifier; "+m.Categorical[0]),
			}
			f.Key(fmt.Sprint(c.Turn))
			p.Report(f)
		}
	}
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func lastCiting(ms []sharedstate.Message) sharedstate.Message {
	for i := len(ms) - 1; i >= 0; i-- {
		if len(ms[i].Citations) > 0 {
			return ms[i]
		}
	}
	return ms[len(ms)-1]
}
