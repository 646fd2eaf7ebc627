package rules

import (
	"fmt"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/sharedstate"
)

// FalseCompletion reports a completion asserted over a failed or pending
// state the agent did not re-read.
var FalseCompletion = &audit.Rule{
	ID:       "false-completion",
	Title:    "An agent asserts completion of a key last recorded as failed or pending, without re-reading it",
	Severity: audit.SeverityError,
	Scope:    audit.ScopeRun,
	Doc: `After its compaction, an agent asserts that a key is complete — by writing a
completion value or by saying so in a message — when the key's last
authoritative value was failed or pending, and it has not read the key since
the compaction. Claude Code's TodoWrite is mapped too: each todo is a key of
the agent's own state. A todo marked completed after a compaction is reported
when it was still pending (never started) before it and nothing was done
since, or when it is about tests, the last test run failed and none ran since.

Why it matters: this is the corruption the second design note describes. A
verifier that trusts the reported state accepts it.

Example: truth "A complete, B failed with retry pending"; the executor's summary
says "tasks A and B complete"; it writes task/B = complete.

Fix: require an explicit re-read of a failed or pending key before accepting a
completion; never let a summary stand in for it.`,
	Run: runFalseCompletion,
}

func runFalseCompletion(p *audit.Pass) {
	st := p.State
	for _, o := range st.Ops.All() {
		op := *o
		if !op.Write || !sharedstate.IsCompletion(op.Value) {
			continue
		}
		c := st.LastCompaction(op.Agent, op.Index)
		if c == nil {
			continue
		}
		if op.Private {
			falseTodo(p, op, c)
			continue
		}
		last, ok := st.LastValue(op.Key, op.Index)
		if !ok || !sharedstate.IsFailedOrPending(last.Value) || st.ReadBetween(op.Agent, op.Key, c.Index, op.Index) {
			continue
		}
		f := audit.OpFinding(st, op)
		f.Message = fmt.Sprintf("%s marked %s %s, but its last value was %s (%s, turn %d) and %s has not read it since its compaction at turn %d",
			op.Agent, op.Key, op.Value, last.Value, last.Agent, last.Turn, op.Agent, c.Turn)
		f.Evidence.Chain = []audit.Step{audit.OpStep("last value", last, ""),
			audit.CompactionStep(c, st.CompactionNumber(op.Agent, c.Index+1), ""),
			audit.OpStep("asserted", op, "completion without a re-read")}
		f.Key(op.Key, op.Value)
		p.Report(f)
	}
	for _, m := range st.Messages {
		c := st.LastCompaction(m.Agent, m.Index)
		if c == nil || len(m.Completes) == 0 {
			continue
		}
		for _, subject := range m.Completes {
			for _, key := range keysOf(st, subject) {
				last, ok := st.LastValue(key, m.Index)
				if !ok || !sharedstate.IsFailedOrPending(last.Value) || st.ReadBetween(m.Agent, key, c.Index, m.Index) {
					continue
				}
				if wroteCompletion(st, m.Agent, key, c.Index, m.Index) {
					continue // the write was reported
				}
				f := audit.Finding{File: m.File, Line: m.Line, Turn: m.Turn, Agent: m.Agent, Offset: m.Offset,
					Boundary: st.CompactionNumber(m.Agent, m.Index)}
				f.Message = fmt.Sprintf("%s reports %s complete, but its last value was %s (%s, turn %d) and it has not read it since its compaction at turn %d",
					m.Agent, key, last.Value, last.Agent, last.Turn, c.Turn)
				f.Evidence.Chain = []audit.Step{audit.OpStep("last value", last, ""),
					audit.CompactionStep(c, st.CompactionNumber(m.Agent, c.Index+1), ""),
					audit.MessageStep("asserted", m, "completion without a re-read")}
				f.Key(key, "message")
				p.Report(f)
			}
		}
	}
}

// keysOf finds the shared keys a message's subject ("task B") names.
func keysOf(st *sharedstate.StateRun, subject string) []string {
	var out []string
	for _, key := range st.SharedKeys() {
		if sharedstate.KeyMatches(key, subject) {
			out = append(out, key)
		}
	}
	return out
}

func wroteCompletion(st *sharedstate.StateRun, agent, key string, from, to int) bool {
	for _, op := range st.AgentKeyOps(agent, key, from) {
		if op.Index > to {
			break
		}
		if op.Write && sharedstate.IsCompletion(op.Value) {
			return true
		}
	}
	return false
}

// falseTodo reports a todo completed after a compaction on the strength of
// the summary: one still pending (never started) and completed with no
// work since the compaction, or one about tests while the last test run
// failed and none ran since.
func falseTodo(p *audit.Pass, op sharedstate.StateOp, c *sharedstate.Compaction) {
	prev, known := p.State.LastValue(op.Key, op.Index)
	if known && sharedstate.IsCompletion(prev.Value) {
		return // TodoWrite rewrites the whole list: this todo was already done
	}
	if known && prev.Value == "pending" && prev.Index < c.Index && !p.State.WorkedBetween(op.Agent, c.Index, op.Index) {
		f := audit.OpFinding(p.State, op)
		f.Message = fmt.Sprintf("%s marked %q completed after its compaction at turn %d; it was still pending before, and nothing was done since",
			op.Agent, strings.TrimPrefix(op.Key, "todo: "), c.Turn)
		f.Evidence.Chain = []audit.Step{audit.OpStep("last value", prev, "never started"),
			audit.CompactionStep(c, p.State.CompactionNumber(op.Agent, c.Index+1), ""),
			audit.OpStep("asserted", op, "completed with no side-effecting call since the compaction")}
		f.Key(op.Key, op.Value)
		p.Report(f)
		return
	}
	content := strings.ToLower(op.Key)
	if !strings.Contains(content, "test") && !strings.Contains(content, "spec") && !strings.Contains(content, " ci") {
		return
	}
	last := p.State.LastTest(op.Agent, op.Index)
	if last == nil || last.Value != runstate.StatusFailed || last.Index > c.Index { // or it ran since
		return
	}
	f := audit.OpFinding(p.State, op)
	f.Message = fmt.Sprintf("%s marked %q completed after its compaction at turn %d; the last test run (turn %d) failed and none ran since",
		op.Agent, strings.TrimPrefix(op.Key, "todo: "), c.Turn, last.Turn)
	f.Evidence.Chain = []audit.Step{{Kind: "last run", Turn: last.Turn, Role: op.Agent, Detail: "tests failed"},
		audit.CompactionStep(c, p.State.CompactionNumber(op.Agent, c.Index+1), ""),
		audit.OpStep("asserted", op, "todo completed with no passing run since")}
	f.Key(op.Key, op.Value)
	p.Report(f)
}
