package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/parse"
)

// ParaphraseReference reports a later turn using a near miss of a literal.
var ParaphraseReference = &audit.Rule{
	ID:       "paraphrase-reference",
	Title:    "A later turn uses a near miss of a ledger literal",
	Severity: audit.SeverityError,
	Doc: `After a boundary, a turn uses a token that is a near variant of a literal the
user, system or developer stated — s3://acme-staging/ where the ledger holds
s3://acme-stage-07/ — and that appeared in no original turn before: the agent
made it up, or took it from the summary's paraphrase. Tool-call arguments are
checked first, then the agent's text. The finding names the exact literal to
use instead.

Severity: error in the arguments of a side-effecting call; warning in text or
in a read-only call.

Example: the ledger holds s3://acme-stage-07/ (turn 41); at turn 97 the agent
runs aws s3 sync out/ s3://acme-staging/ and the call fails with NoSuchBucket.

Why it matters: this is the moment the paraphrase becomes an action. The call
fails (NoSuchBucket) or succeeds against the wrong resource.

Fix: substitute the exact literal from the ledger before executing; block
side-effecting calls whose identifiers do not bind to the ledger exactly.`,
	Run: runParaphraseReference,
}

func runParaphraseReference(p *audit.Pass) {
	r := p.Replay
	for _, ref := range r.References().Of(replay.RefNearMiss) {
		o := ref.Obligation
		ev := ref.Event
		f := audit.TurnFinding(r, ref, "used", "near miss: "+ref.Token)
		where := "its text"
		f.Severity = audit.SeverityWarning
		if ev.Kind == parse.KindToolCall {
			where = "a " + ev.ToolName + " call"
			if ev.SideEffect {
				f.Severity = audit.SeverityError
			}
		}
		f.Message = fmt.Sprintf("turn %d uses %s in %s, a near miss of %s (stated at turn %d); use %s",
			ev.Turn, ref.Token, where, o.Literal, o.Origin.Turn, o.Literal)
		f.Evidence.Original, f.Evidence.Variant = o.Literal, ref.Token
		f.Evidence.Diff = audit.CharDiff(o.Literal, ref.Token)
		f.Evidence.Use = o.Literal
		f.Key(ref.Token, ev.ToolName)
		p.Report(f)
	}
}
