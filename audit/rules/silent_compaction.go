package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit"
)

// SilentCompaction reports a compaction peers were not told of before the
// compacted agent wrote again.
var SilentCompaction = &audit.Rule{
	ID:       "silent-compaction",
	Title:    "An agent compacted and its peers were not notified before it next wrote shared state",
	Severity: audit.SeverityWarning,
	Scope:    audit.ScopeRun,
	Doc: `Peers cannot tell a compacted agent from a healthy one unless they are told.
This rule reports a compaction after which the agent wrote shared state while
some of its peers — the agents that read or write the keys it touches — were
not in the compaction's notified list.

Why it matters: compaction converts a lossless shared reference into a lossy
private summary. Without a broadcast, peers keep trusting the compacted
agent's writes and reports.

Example: the executor compacts with no notification and writes task/B next;
the planner and the verifier, who share task/B, were not told.

Fix: broadcast compaction events to peers as first-class events; until then,
fall back to single-writer mode.`,
	Run: runSilentCompaction,
}

func runSilentCompaction(p *audit.Pass) {
	st := p.State
	for _, c := range st.Compactions {
		peers := st.Peers(c.Agent)
		if len(peers) == 0 {
			continue
		}
		next := st.NextWrite(c.Agent, c.Index)
		if next == nil {
			continue
		}
		if later := st.LastCompaction(c.Agent, next.Index); later != nil && later.Index != c.Index {
			continue // the next write follows a later compaction
		}
		var missing []string
		for _, peer := range peers {
			if !slices.Contains(c.Notified, peer) {
				missing = append(missing, peer)
			}
		}
		if len(missing) == 0 {
			continue
		}
		f := audit.OpFinding(st, *next)
		f.Message = fmt.Sprintf("%s compacted at turn %d and wrote %s next without %s being notified",
			c.Agent, c.Turn, next.Key, strings.Join(missing, ", "))
		detail := "notified: none"
		if len(c.Notified) > 0 {
			detail = "notified: " + strings.Join(c.Notified, ", ")
		}
		f.Evidence.Chain = []audit.Step{audit.CompactionStep(&c, st.CompactionNumber(c.Agent, c.Index+1), detail),
			audit.OpStep("wrote", *next, "peers not told: "+strings.Join(missing, ", "))}
		f.Key(fmt.Sprint(c.Turn))
		p.Report(f)
	}
}
