package audit

import (
	"fmt"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/sharedstate"
)

// OpStep is a state operation in a finding's chain.
func OpStep(kind string, op sharedstate.StateOp, detail string) Step {
	verb := "read"
	if op.Write {
		verb = "wrote"
	}
	text := fmt.Sprintf("%s %s %s", op.Agent, verb, op.Key)
	if op.Value != "" {
		text += " = " + lex.Clip(op.Value, 80)
	}
	if op.HasRevision {
		text += fmt.Sprintf(" (revision %d)", op.Revision)
	}
	return Step{Kind: kind, File: op.File, Line: op.Line, Turn: op.Turn, Role: op.Agent, Text: text, Detail: detail}
}

// CompactionStep is a compaction in a finding's chain.
func CompactionStep(c *sharedstate.Compaction, number int, detail string) Step {
	return Step{Kind: "compacted", File: c.File, Line: c.Line, Turn: c.Turn, Boundary: number, Role: c.Agent, Detail: detail}
}

// MessageStep is an outbound message in a finding's chain.
func MessageStep(kind string, m sharedstate.Message, detail string) Step {
	return Step{Kind: kind, File: m.File, Line: m.Line, Turn: m.Turn, Role: m.Agent, Text: lex.Clip(m.Text, 300), Detail: detail}
}

// OpFinding starts a finding located at a state operation of run r.
func OpFinding(r *sharedstate.StateRun, op sharedstate.StateOp) Finding {
	return Finding{File: op.File, Line: op.Line, Turn: op.Turn, Agent: op.Agent, Offset: op.Offset,
		Boundary: r.CompactionNumber(op.Agent, op.Index)}
}
