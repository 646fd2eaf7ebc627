package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
)

// ForbiddenAction reports a side-effecting call on the object of a live
// prohibition.
var ForbiddenAction = &audit.Rule{
	ID:       "forbidden-action",
	Title:    "A later side-effecting call touches the object of a live prohibition",
	Severity: audit.SeverityError,
	Doc: `After a boundary, a side-effecting tool call touches, in its name or its
arguments, the object of a prohibition still in force: s3://acme-prod/ under
"never prod"; a call of refund_all under "never call the refund_all tool"; an
edit under /home/dev/proj/ under "don't touch /home/dev/proj/"; a commit with a
Co-Authored-By trailer under "never add Co-Authored-By". Paths compare by
components, so /home/dev/proj-fix-123 is not under /home/dev/proj/. Shell
commands that only read (ls, cat, git status, aws s3 ls) do not touch.

Side-effecting tools by default — Claude Code: Bash, Write, Edit, MultiEdit,
NotebookEdit, Task and MCP tools whose name does not read; Codex: shell,
exec_command, apply_patch and other custom tools; canonical: as flagged, or any
tool whose name does not read.

Example: "never prod" at turn 41, softened at the boundary at turn 63; at
turn 98 the agent runs aws s3 sync out/ s3://acme-prod/.

Why it matters: this is the incident. The chain shows where the rule was
stated, what the boundary did to it, and the call that broke it.

Fix: gate side-effecting calls on the ledger's prohibitions, regardless of what
the summary says.`,
	Run: runForbiddenAction,
}

func runForbiddenAction(p *audit.Pass) {
	r := p.Replay
	for _, ref := range r.References().Of(replay.RefTouch) {
		o := ref.Obligation
		ev := ref.Event
		f := audit.TurnFinding(r, ref, "violated", "touched "+ref.Token)
		f.Message = fmt.Sprintf("turn %d: %s call touches %s, forbidden by %q (turn %d)",
			ev.Turn, ev.ToolName, ref.Token, o.Text, o.Origin.Turn)
		f.Key(ref.Token, ev.ToolName, audit.EventText(ev))
		p.Report(f)
	}
}
