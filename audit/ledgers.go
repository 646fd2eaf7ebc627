package audit

import (
	"slices"
	"strings"

	"github.com/compaudit/compaudit/parse"
)

// AgentLedger is one agent's ledger with what is known of its run.
type AgentLedger struct {
	*Ledger
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

// BuildLedgers reads a transcript and tags the ledger of each agent.
func BuildLedgers(t parse.Transcript, opts parse.Options) (*TranscriptLedgers, error) {
	out := &TranscriptLedgers{Path: t.Path}
	byAgent := map[string]*AgentLedger{}
	files, err := t.Read(opts, func(ev *parse.Event) error {
		al := byAgent[ev.Agent]
		if al == nil {
			al = &AgentLedger{Ledger: NewLedger(ev.Agent)}
			byAgent[ev.Agent] = al
		}
		al.Turns = max(al.Turns, ev.Turn)
		if ev.Kind == parse.KindBoundary {
			al.Boundaries++
			return nil
		}
		al.Observe(ev)
		return nil
	})
	out.Files = files
	if len(files) > 0 {
		out.Format = files[0].Format
	}
	for _, al := range byAgent {
		out.Agents = append(out.Agents, al)
	}
	sortAgents(out.Agents, func(a *AgentLedger) string { return a.Agent })
	return out, err
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
