package audit

import (
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/parse"
)

// AgentLedger is one agent's ledger with what is known of its run.
type AgentLedger struct {
	*ledger.Ledger
	Turns      int // the agent's last turn
	Boundaries int // compactions the agent went through
}

// TranscriptLedgers holds the ledgers of every agent of one transcript.
type TranscriptLedgers struct {
	Path   string
	Format parse.Format
	Files  []parse.FileResult
	Agents []*AgentLedger // main first, then subagents by id
}

// BuildLedgers reads a transcript and tags the ledger of each agent: an
// audit with no rules.
func BuildLedgers(t parse.Transcript, opts parse.Options) (*TranscriptLedgers, error) {
	res, err := Audit(t, opts, Options{})
	if res == nil {
		return nil, err
	}
	return LedgersOf(res), err
}

// LedgersOf gives the ledgers of an audited transcript.
func LedgersOf(res *Result) *TranscriptLedgers {
	out := &TranscriptLedgers{Path: res.Path, Format: res.Format, Files: res.Files}
	for _, name := range res.Agents {
		al := &AgentLedger{Ledger: res.Ledgers[name], Turns: res.Turns[name]}
		for _, b := range res.Boundaries {
			if b.Agent == name {
				al.Boundaries++
			}
		}
		out.Agents = append(out.Agents, al)
	}
	return out
}

// sortAgents puts the main agent first and the rest by id.
func sortAgents[T any](list []T, agent func(T) string) {
	slices.SortFunc(list, func(a, b T) int {
		x, y := agent(a), agent(b)
		if x == y {
			return 0
		}
		if x == parse.MainAgent {
			return -1
		}
		if y == parse.MainAgent {
			return 1
		}
		return strings.Compare(x, y)
	})
}
