package audit

import (
	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/sharedstate"
	"github.com/compaudit/compaudit/parse"
)

// Rule is one check. Rules are values: an id used in every output, a
// one-line title, a doc for `compaudit explain`, a default severity, and a
// Run that reports findings through its Pass. A rule never prints, exits
// or reads files.
type Rule struct {
	ID       string
	Title    string
	Doc      string
	Severity Severity
	// Scope says when the rule runs: once per boundary, or once per run
	// over the shared state of all its agents.
	Scope Scope
	Run   func(*Pass)
}

// Scope is when a rule runs.
type Scope uint8

const (
	// ScopeBoundary rules run once per compaction boundary of each agent,
	// with the turns after it.
	ScopeBoundary Scope = iota
	// ScopeRun rules run once per transcript, over every agent's reads,
	// writes, compactions and messages.
	ScopeRun
)

// Pass is what a rule sees: one boundary of one agent, replayed, and the
// turns after it.
type Pass struct {
	Transcript string
	Format     parse.Format
	Agent      string
	Ledger     *ledger.Ledger
	// Replay is the boundary under audit (nil for agent rules).
	Replay *replay.BoundaryReplay
	// Boundaries are the agent's boundaries so far, Replay last.
	Boundaries []*replay.BoundaryReplay
	// State is the run's shared-state history, for run rules.
	State *sharedstate.StateRun

	rule   *Rule
	report func(Finding)
}

// Report records a finding. The driver fills in what the rule need not:
// rule id, default severity, transcript, agent and fingerprint.
func (p *Pass) Report(f Finding) {
	f.Rule = p.rule.ID
	if f.Severity == 0 {
		f.Severity = p.rule.Severity
	}
	if f.Agent == "" {
		f.Agent = p.Agent
	}
	f.Transcript = p.Transcript
	if f.Boundary == 0 && p.Replay != nil {
		f.Boundary = p.Replay.Index
	}
	if f.Evidence.Chain == nil {
		f.Evidence.Chain = []Step{}
	}
	p.report(f)
}
