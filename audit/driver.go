// Package audit owns a whole audit of one transcript and what it yields:
// the driver that reads the events, hands them to each agent's ledger and
// replay and to the shared-state collector, runs the rules and orders,
// fingerprints and keeps their findings; the Finding with its causal chain
// of evidence; and Rule and Pass, the rules' only door. It renders
// nothing and decides no exit code: report and cmd do.
package audit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/sharedstate"
	"github.com/compaudit/compaudit/parse"
)

// Options controls an audit.
type Options struct {
	// Rules to run, in registry order.
	Rules []*Rule
	// SideEffecting decides whether a tool call changes anything; nil
	// means the per-format defaults.
	SideEffecting func(parse.Format, *parse.Event) bool
	// StateMappings turn tool calls into shared-state reads and writes.
	StateMappings []sharedstate.StateMapping
	// Tagging adds configured literal patterns and prohibition cues.
	Tagging ledger.Tagging
	// WindowBytes bounds what the windows open at once keep of the
	// agents' words and calls; 0 means DefaultWindowBytes.
	WindowBytes int
	// KeepSummaries keeps every boundary's post-compaction text for
	// BoundaryReplay.Summary. Without it a boundary's text is let go once
	// the next boundary's rules have looked back at it: a Codex rollout
	// carries the user's recent messages through every compaction, and
	// keeping each copy made a long rollout's memory grow with it.
	KeepSummaries bool
}

// Result is the audit of one transcript.
type Result struct {
	Path       string
	Format     parse.Format
	Files      []parse.FileResult
	Agents     []string
	Boundaries []*replay.BoundaryReplay // main agent's first, each agent's in order
	Ledgers    map[string]*ledger.Ledger
	Turns      map[string]int        // each agent's last turn
	State      *sharedstate.StateRun // shared-state history across agents
	Findings   []Finding
}

// Audit reads a transcript once, as a stream: each event is tagged into its
// agent's ledger; each boundary is replayed against the ledger as of its
// turn; the turns after it, up to the next boundary, are kept as its
// window; and when the window closes the rules run on it.
//
// Findings carry their own copies of what they quote, a call's arguments
// clipped to MaxQuotedArguments, so a transcript is read once, whatever it
// is read from.
func Audit(t parse.Transcript, popts parse.Options, opts Options) (*Result, error) {
	return stream(t, popts, opts)
}

// stream is the audit before the findings' quotes are read back.
func stream(t parse.Transcript, popts parse.Options, opts Options) (*Result, error) {
	isEffect := opts.SideEffecting
	if isEffect == nil {
		isEffect = DefaultSideEffecting
	}
	s := &streamRun{t: t, opts: opts, isEffect: isEffect,
		res:    &Result{Path: t.Path, Ledgers: map[string]*ledger.Ledger{}, Turns: map[string]int{}},
		agents: map[string]*replay.AgentReplay{},
		state:  sharedstate.NewStateCollector(opts.StateMappings, isEffect),
		hasher: reading.NewTokenHasher(),
		budget: &replay.WindowBudget{Limit: cmp.Or(max(opts.WindowBytes, 0), replay.DefaultWindowBytes)}}
	// no rule reads an agent's thinking: it is neither an instruction nor
	// what the agent said or did
	popts.NoReasoningText = true
	if popts.Prepare == nil {
		// the per-event work that needs no state runs in the reader's
		// goroutines
		popts.Prepare = func(ev *parse.Event) { ev.Prepared = s.hasher.Prepare(ev) }
	}
	files, err := t.Read(popts, s.observe)
	res := s.res
	res.Files = files
	if len(files) > 0 {
		res.Format = files[0].Format
	}
	s.closeAgents()
	s.unkeptDiagnostics()
	s.overfullDiagnostics()
	res.Agents = s.order
	res.State = s.state.Finish()
	for _, fs := range runRules(opts.Rules, func(rule *Rule, report func(Finding)) *Pass {
		return &Pass{Transcript: t.Path, Format: res.Format, State: res.State, rule: rule, report: report}
	}, s.keep) {
		res.Findings = append(res.Findings, fs...)
	}
	rank := map[string]int{}
	for i, n := range s.order {
		rank[n] = i
	}
	slices.SortStableFunc(res.Boundaries, func(x, y *replay.BoundaryReplay) int {
		return cmp.Or(cmp.Compare(rank[x.Agent], rank[y.Agent]), cmp.Compare(x.Index, y.Index))
	})
	finishFindings(res.Findings, rank)
	return res, err
}

// streamRun is one transcript's audit as its events stream through: an
// AgentReplay per agent, the shared state, and the findings so far.
type streamRun struct {
	t        parse.Transcript
	opts     Options
	isEffect func(parse.Format, *parse.Event) bool
	res      *Result
	agents   map[string]*replay.AgentReplay
	order    []string // the agents, as they first spoke
	state    *sharedstate.StateCollector
	hasher   reading.TokenHasher
	budget   *replay.WindowBudget
	unkept   []parse.Diagnostic // windows that stopped keeping, in stream order
}

// keep readies a finding to outlive the events it quotes.
func (s *streamRun) keep(f Finding) Finding {
	f.detach()
	return f
}

func (s *streamRun) report(f Finding) { s.res.Findings = append(s.res.Findings, s.keep(f)) }

// observe takes one event, in stream order.
func (s *streamRun) observe(ev *parse.Event) error {
	a := s.agents[ev.Agent]
	if a == nil {
		// the name is a piece of the agent's first record: every map
		// and result that keeps it would hold the whole record
		name := strings.Clone(ev.Agent)
		a = replay.NewAgentReplay(name, ev.Format, s.hasher, s.isEffect, s.budget)
		a.KeepSummaries = s.opts.KeepSummaries
		a.Ledger.Tagging = s.opts.Tagging
		s.agents[name] = a
		s.order = append(s.order, name)
	}
	// a map stores a string key again with every assignment: the kept
	// name, not this record's piece of it
	s.res.Turns[a.Agent] = max(s.res.Turns[a.Agent], ev.Turn)
	s.state.Observe(ev)
	if ev.Kind == parse.KindBoundary {
		s.run(a, a.CloseWindow(ev.Turn))
		a.OpenBoundary(ev)
		return nil
	}
	a.Observe(ev)
	return nil
}

// run runs the boundary rules on a boundary whose window has closed.
func (s *streamRun) run(a *replay.AgentReplay, r *replay.BoundaryReplay) {
	if r == nil {
		return
	}
	if u := r.Unkept; u != nil {
		held := fmt.Sprintf("the turns after the compaction at %s:%d hold more than %s of the agent's words and calls, more than a model's context holds",
			r.File, r.Line, replay.SizeName(s.budget.Limit))
		if u.Shared {
			held = fmt.Sprintf("the turns after the compaction at %s:%d and the other agents' open windows hold more than %s of words and calls between them, more than their contexts hold",
				r.File, r.Line, replay.SizeName(s.budget.Limit))
		}
		s.unkept = append(s.unkept, parse.Diagnostic{Severity: parse.Warning, File: u.File, Line: u.Line,
			Message: fmt.Sprintf("%s: from here (turn %d) to the agent's next compaction, references, forbidden actions and breached thresholds are not looked for",
				held, u.Turn)})
	}
	s.res.Boundaries = append(s.res.Boundaries, r)
	for _, rule := range s.opts.Rules {
		if rule.Scope != ScopeBoundary {
			continue
		}
		p := &Pass{Transcript: s.t.Path, Format: a.Format, Agent: a.Agent, Ledger: a.Ledger, Replay: r,
			Boundaries: a.Boundaries, rule: rule}
		p.report = s.report
		rule.Run(p)
	}
	// the rules have read the window; only the events that findings and
	// references point at stay, so memory does not grow with the file
	r.Release()
}

// closeAgents closes every agent's last window, in a stable order, and
// keeps the ledgers.
func (s *streamRun) closeAgents() {
	sortAgents(s.order, func(n string) string { return n })
	for _, name := range s.order {
		a := s.agents[name]
		s.run(a, a.CloseWindow(0))
		s.res.Ledgers[name] = a.Ledger
		a.Seen, a.Calls = reading.TokenIndex{}, nil // the trails stay; the token index is done
	}
}

// unkeptDiagnostics reports the windows that stopped keeping turns. A
// swarm of agents can stop keeping hundreds: each file names the first
// ones, like any repeated reading problem, and counts the rest; each
// boundary's report still says where its window stopped.
func (s *streamRun) unkeptDiagnostics() {
	windows := map[string]int{}
	for _, d := range s.unkept {
		if windows[d.File]++; windows[d.File] <= parse.MaxSameDiagnostic {
			fr := s.res.fileResult(d.File)
			fr.Diagnostics = append(fr.Diagnostics, d)
		}
	}
	for _, d := range s.unkept { // in the order the files first stopped keeping
		if n := windows[d.File] - parse.MaxSameDiagnostic; n > 0 {
			fr := s.res.fileResult(d.File)
			fr.Diagnostics = append(fr.Diagnostics, parse.Diagnostic{Severity: parse.Warning, File: d.File,
				Message: fmt.Sprintf("%d more windows that stopped keeping turns not shown; each boundary's \"unkept\" in the JSON report, and `compaudit replay`, say where", n)})
			windows[d.File] = 0
		}
	}
}

// overfullDiagnostics reports the messages whose tagging stopped at
// ledger.MaxMessageObligations.
func (s *streamRun) overfullDiagnostics() {
	for _, name := range s.order {
		for _, o := range s.agents[name].Ledger.Overfull {
			fr := s.res.fileResult(o.File)
			fr.Diagnostics = append(fr.Diagnostics, parse.Diagnostic{Severity: parse.Warning, File: o.File, Line: o.Line,
				Message: fmt.Sprintf("the message at turn %d states more than %d obligations, more than any instructions do: it reads as a pasted document, and from byte %d of its text on nothing more of it is tagged",
					o.Turn, ledger.MaxMessageObligations, o.From)})
		}
	}
}

// Trim drops what only the replay, ledger and agents views and the HTML
// report read — each obligation's survival and trail, the ledgers, the
// shared-state history — and keeps the findings, the files read and each
// boundary's counts. Auditing many transcripts for findings, the results
// then stay small.
func (res *Result) Trim() {
	for _, b := range res.Boundaries {
		b.Trim()
		b.Owner = nil
	}
	res.Ledgers = nil
	res.State = nil
}

// finishFindings gives each finding its fingerprint, telling apart
// repeats of the same reference, and puts them in a stable order.
func finishFindings(fs []Finding, agentRank map[string]int) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(agentRank[a.Agent], agentRank[b.Agent]),
			cmp.Compare(a.Boundary, b.Boundary),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.key, b.key),
		)
	})
	seen := map[string]int{}
	for i := range fs {
		fp := fs[i].fingerprint("")
		seen[fp]++
		if n := seen[fp]; n > 1 {
			fp = fs[i].fingerprint("#" + replay.Itoa(n))
		}
		fs[i].Fingerprint = fp
	}
}

// Claude Code's tools that change things; the rest read.
var claudeEffects = lex.ToSet(`Bash Write Edit MultiEdit NotebookEdit Task`)

// Codex's function tools that change things; its custom tools (apply_patch
// and others) are marked side-effecting by the reader.
var codexEffects = lex.ToSet(`shell exec_command apply_patch local_shell write_stdin container.exec`)

// readOnlyWords in a tool's name mark it as one that only looks.
var readOnlyWords = []string{"read", "get", "list", "search", "fetch", "view", "grep", "glob", "show"}

// LooksReadOnly reports a tool name that only looks: get_user, ListFiles.
func LooksReadOnly(name string) bool {
	l := lex.FoldLower(name)
	for _, w := range readOnlyWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// DefaultSideEffecting is the per-format default: an explicit side_effect
// flag wins; Claude Code's and Codex's built-in tools are listed; MCP tools
// and tools of other frameworks change things unless their name reads.
func DefaultSideEffecting(format parse.Format, ev *parse.Event) bool {
	if ev.SideEffect != nil {
		return *ev.SideEffect
	}
	switch format {
	case parse.FormatClaudeCode:
		if strings.HasPrefix(ev.ToolName, "mcp__") {
			return !LooksReadOnly(ev.ToolName)
		}
		return claudeEffects[ev.ToolName]
	case parse.FormatCodex:
		return codexEffects[ev.ToolName]
	}
	return !LooksReadOnly(ev.ToolName)
}

// fileResult is the result of reading file, added if the transcript's
// reading did not name it.
func (res *Result) fileResult(file string) *parse.FileResult {
	for i := range res.Files {
		if res.Files[i].Path == file {
			return &res.Files[i]
		}
	}
	res.Files = append(res.Files, parse.FileResult{Path: file, Format: res.Format})
	return &res.Files[len(res.Files)-1]
}
