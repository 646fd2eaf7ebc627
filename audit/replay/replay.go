// Package replay owns one agent's compaction boundaries replayed against
// its ledger: what was in force, what each summary kept, softened,
// paraphrased or dropped (Survival), the turns after each boundary up to
// the next (its window), what those turns referenced, and each
// obligation's trail across boundaries. It knows nothing of rules or
// findings: they read what it judged.
package replay

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// WindowEvent is an event after a boundary, kept until the next boundary
// closes the window. A window is bounded by the agent's context size, and
// keeps no tool output: rules need only whether a call failed, and why.
type WindowEvent struct {
	Index      int
	File       string
	Line       int
	Offset     int64
	Turn       int
	Kind       parse.Kind
	Role       parse.Role
	Source     reading.Source
	IsError    bool
	SideEffect bool
	kvRead     bool // kvs is read
	Text       string
	ToolName   string
	ToolID     string
	Args       json.RawMessage
	Result     *WindowEvent // a call's result, once it came
	Tokens     []Token      // literal-shaped tokens of its text or arguments

	// read once, for every obligation that looks at the event; a call's
	// reading comes prepared from the reading workers
	errorLine string               // a failed call's result: the line that says why (ErrorLine)
	Call      *reading.CallReading // what its arguments say (callOf)
	terms     lex.TermSet
	kvs       []keyValue
}

// WindowSpot is where an event stands in the input.
type WindowSpot struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Turn int    `json:"turn"`
	// Shared: other agents' open windows held part of the budget.
	Shared bool `json:"shared"`
}

// Token is a literal-shaped token a later event used.
type Token struct {
	Value string
	Kind  string
	Label string
	// Novel: the token had not appeared in any original event before this
	// one; the agent made it up or took it from a summary.
	Novel bool
	// Before: the token had appeared before the boundary.
	Before bool
	// Visible: the token had appeared after the boundary, in the summary,
	// the kept messages or an earlier event of the window.
	Visible bool
}

// maxWindowText bounds the start of a failed call's output that its error
// Line is looked for in, as when windows kept that much of every output.
const maxWindowText = 16 << 10

// DefaultWindowBytes bounds what the windows open at once in a transcript
// keep of the agents' words and calls, between them. A model's context
// holds at most about a million tokens, some 4 MB of text, and a window
// cannot outgrow the context it ran in; only a generated or hostile file
// reaches this — one window past every context, or thousands of agents'
// windows open at once — and without a bound its memory would grow with it.
const DefaultWindowBytes = 32 << 20

// WindowBudget is what the open windows of one transcript may keep.
type WindowBudget struct {
	Limit int
	kept  int // by every open window
}

// BoundaryReplay is one boundary of one agent replayed against the ledger:
// what was in force, what came through, and what the agent did next.
type BoundaryReplay struct {
	Agent     string
	Index     int // 1-based among the agent's boundaries
	File      string
	Line      int
	Offset    int64
	Turn      int
	Boundary  *parse.Boundary      // without its texts, which Summary joins
	Before    []*ledger.Obligation // in force as of the boundary
	Survivals []Survival           // one per Before, in the same order
	Retired   []*ledger.Obligation // literals, prohibitions and thresholds retracted or superseded by then
	// Window is the turns after the boundary, up to the next one. Audit
	// releases it once the boundary's rules have run.
	Window []*WindowEvent
	// NextTurn is the turn of the next boundary, or 0 at the end.
	NextTurn int
	// Unkept is the first event the window did not keep, once the open
	// windows held their budget of bytes (Options.WindowBytes); nil when
	// it kept all.
	Unkept *WindowSpot

	Context         *postContext
	Owner           *AgentReplay   // its trails, read up to this boundary
	survivalAt      map[string]int // by obligation, for a long list
	survivalLookups int            // made before survivalAt
	refs            *References
	ledgerLen       int // obligations in the ledger when the boundary opened

	// After trim: the counts alone
	trimmed       bool
	counts        map[State]int
	before, after int
}

// Survival returns the judgement on an obligation at this boundary.
func (r *BoundaryReplay) Survival(id string) *Survival {
	if r.survivalAt == nil && (len(r.Survivals) <= indexFrom || r.survivalLookups < indexFrom) {
		// a few lookups cost less than the map
		r.survivalLookups++
		for i := range r.Survivals {
			if r.Survivals[i].Obligation.ID == id {
				return &r.Survivals[i]
			}
		}
		return nil
	}
	if r.survivalAt == nil {
		// rules ask for each obligation in turn: a walk for each would
		// cost the square of a long ledger; the survivals are all judged
		// when the boundary opens, before any rule asks
		r.survivalAt = make(map[string]int, len(r.Survivals))
		for i := len(r.Survivals) - 1; i >= 0; i-- {
			r.survivalAt[r.Survivals[i].Obligation.ID] = i // the first, as the walk found
		}
	}
	if i, ok := r.survivalAt[id]; ok {
		return &r.Survivals[i]
	}
	return nil
}

// Trail is the obligation's survival at each boundary so far, this one last.
func (r *BoundaryReplay) Trail(id string) []TrailStep {
	if r.Owner == nil {
		return nil // trimmed
	}
	var out []TrailStep
	for _, e := range r.TrailUpTo(id) {
		out = append(out, r.Step(e))
	}
	return out
}

// TrailUpTo is the obligation's trail entries up to this boundary. They are
// kept in boundary order, so the end is found by halving, not by a walk.
func (r *BoundaryReplay) TrailUpTo(id string) []trailEntry {
	t := r.Owner.Trails[id]
	return t[:sort.Search(len(t), func(i int) bool { return r.Owner.Boundaries[t[i].Boundary].Index > r.Index })]
}

// Step is one trail entry as a finding shows it.
func (r *BoundaryReplay) Step(e trailEntry) TrailStep {
	b := r.Owner.Boundaries[e.Boundary]
	step := TrailStep{Boundary: b.Index, Turn: b.Turn, Line: b.Line, State: e.State, Detail: e.Judgement.Detail,
		Excerpt: lex.Clip(e.Judgement.Excerpt, 240), Variant: e.Judgement.Variant}
	if e.restoredAt > 0 {
		step.Detail = strings.TrimSpace(step.Detail + " (restated at turn " + Itoa(int(e.restoredAt)) + ")")
	}
	return step
}

// MaxRecentTrail is how many boundaries of a trail a finding shows at most.
const MaxRecentTrail = 10

// RecentFrom is where the part of a trail a finding shows begins: at the
// last boundary that preserved it, before the newest, to the newest — how
// it decayed this time — and at most MaxRecentTrail steps of that. A
// session compacted hundreds of times, with its limits restated between,
// made every threshold finding carry the whole history: 228 steps and
// 77 KB of evidence each, so that the findings, and the memory they took,
// grew with the square of the compactions. Only the last MaxRecentTrail
// entries are looked at, so a finding costs the same at the thousandth
// Boundary as at the first; what comes before is counted as omitted, and
// the replay view (compaudit replay) shows every step.
func RecentFrom(trail []trailEntry) int {
	from := max(0, len(trail)-MaxRecentTrail)
	for i := len(trail) - 2; i >= from; i-- {
		if trail[i].State == Preserved {
			return i
		}
	}
	return from
}

// Release drops what only the boundary's rules needed: the window and the
// Summary's search structures. The summary text and its sentences stay: the
// next boundary's rules look back at them (stale-obligation). Those of the
// Boundary before, which this one's rules were the last to read, go unless
// the summaries are kept.
func (r *BoundaryReplay) Release() {
	r.Window = nil
	r.Context = &postContext{boundary: r.Context.boundary, Text: r.Context.Text, sentences: r.Context.sentences}
	if a := r.Owner; a != nil && !a.KeepSummaries && r.Index >= 2 {
		a.Boundaries[r.Index-2].forgetSummary()
	}
}

// forgetSummary lets go of the post-compaction text. The judgements quote
// Sentences of it, so they are copied out first: a piece would hold all of
// it.
func (r *BoundaryReplay) forgetSummary() {
	if r.Context.Text == "" {
		return
	}
	for _, s := range r.Survivals {
		if j := s.Judgement; j != nil {
			j.Excerpt, j.Variant = strings.Clone(j.Excerpt), strings.Clone(j.Variant)
		}
	}
	r.Context = &postContext{boundary: r.Context.boundary}
}

// Counts tallies the survivals by state.
func (r *BoundaryReplay) Counts() map[State]int {
	if r.trimmed {
		return maps.Clone(r.counts)
	}
	m := map[State]int{}
	for _, s := range r.Survivals {
		m[s.State]++
	}
	return m
}

// Obligations counts the obligations in play at the boundary.
func (r *BoundaryReplay) Obligations() int {
	if r.trimmed {
		return r.before
	}
	return len(r.Survivals)
}

// After counts the obligations that came through as they were.
func (r *BoundaryReplay) After() int {
	if r.trimmed {
		return r.after
	}
	n := 0
	for _, s := range r.Survivals {
		if !s.Lost() {
			n++
		}
	}
	return n
}

// Trim keeps the boundary's counts and drops its per-obligation detail.
func (r *BoundaryReplay) Trim() {
	if r.trimmed {
		return
	}
	r.counts, r.before, r.after = r.Counts(), r.Obligations(), r.After()
	r.trimmed = true
	r.Before, r.Survivals, r.Retired, r.refs, r.survivalAt = nil, nil, nil, nil, nil
	r.Context = &postContext{boundary: r.Context.boundary}
}

// Summary is the post-boundary text: the summary and the kept messages.
// Unless Options.KeepSummaries is set, it is let go (empty) once the next
// Boundary's rules have run, and the last boundary's once the audit ends.
func (r *BoundaryReplay) Summary() string { return r.Context.Text }

// References are what the turns after a boundary did with the ledger.
func (r *BoundaryReplay) References() *References { return r.refs }

// AgentReplay follows one agent through the stream.
type AgentReplay struct {
	Agent      string
	Format     parse.Format
	Ledger     *ledger.Ledger
	Boundaries []*BoundaryReplay
	open       *BoundaryReplay
	Trails     map[string][]trailEntry

	hasher   reading.TokenHasher
	Seen     reading.TokenIndex      // every token the agent's events held
	window   int                     // 1-based number of the open window; the epoch after it
	Calls    map[string]*WindowEvent // window calls waiting for results
	isEffect func(parse.Format, *parse.Event) bool
	Project  string        // the first working directory the agent's events name
	budget   *WindowBudget // shared by the transcript's agents
	kept     int           // bytes the agent's open window keeps

	KeepSummaries bool // Options.KeepSummaries

	readings     *readings       // what the last boundary read of its text
	known        map[string]bool // knownPaths, as of knownFrom obligations
	knownFrom    int
	knownProject string
}

func NewAgentReplay(agent string, format parse.Format, hasher reading.TokenHasher, isEffect func(parse.Format, *parse.Event) bool, budget *WindowBudget) *AgentReplay {
	return &AgentReplay{Agent: agent, Format: format, Ledger: ledger.NewLedger(agent), Trails: map[string][]trailEntry{},
		hasher: hasher, Calls: map[string]*WindowEvent{}, isEffect: isEffect, budget: budget}
}

func (a *AgentReplay) hash(tok string) uint64 { return a.hasher.Hash(tok) }

// Observe takes one original event: the window keeps it, the ledger tags
// it, and its tokens are indexed.
func (a *AgentReplay) Observe(ev *parse.Event) {
	if a.Project == "" && ev.Cwd != "" {
		a.Project = ev.Cwd
	}
	p := a.hasher.PreparedOf(ev)
	if a.open != nil {
		// Inside a window, calls and the agent's words are read closely:
		// rules look at their literals.
		var toks []tag.LiteralHit
		if ev.Kind == parse.KindToolCall || ev.Kind == parse.KindMessage && ev.Role == parse.RoleAssistant {
			toks = p.Literals
		}
		a.addToWindow(ev, p, toks)
	}
	a.Ledger.ObserveRead(ev, p)
	window := 0
	if a.open != nil {
		window = a.window
	}
	for _, fp := range p.Prints {
		a.Seen.See(fp, a.window, window)
	}
}

// WindowEventOf is what a window keeps of an event.
func WindowEventOf(ev *parse.Event) *WindowEvent {
	return &WindowEvent{Index: ev.Index, File: ev.File, Line: ev.Line, Offset: ev.Offset, Turn: ev.Turn,
		Kind: ev.Kind, Role: ev.Role, Source: reading.SourceOf(ev), Text: ev.Text, ToolName: ev.ToolName, ToolID: ev.ToolID,
		Args: ev.Args, IsError: ev.IsError}
}

// forgetOutput lets go of a tool's output, keeping what rules read of it:
// whether the call failed and, if it did, the line that says why. The
// output itself is read as it comes (tokens, literals, a run's outcome)
// and not kept: tool output is most of a session's text.
func (we *WindowEvent) forgetOutput() {
	if we.IsError {
		out := we.Text
		if len(out) > maxWindowText {
			out = out[:maxWindowText]
		}
		we.errorLine = strings.Clone(ErrorLine(out))
	}
	// copied too: a piece of the record would keep the whole of it
	we.Text, we.ToolID, we.ToolName = "", strings.Clone(we.ToolID), strings.Clone(we.ToolName)
}

func (a *AgentReplay) addToWindow(ev *parse.Event, p *reading.Prepared, toks []tag.LiteralHit) {
	switch ev.Kind {
	case parse.KindReasoning, parse.KindBoundary, parse.KindStateRead, parse.KindStateWrite:
		// No window rule reads them; state operations are the run rules'
		// (StateRun), and in a multi-agent run they are most of its events.
		return
	}
	b := a.open
	we := WindowEventOf(ev)
	if ev.Kind == parse.KindToolResult {
		we.forgetOutput()
	}
	if ev.Kind == parse.KindToolCall {
		we.Call = p.Call
	}
	if b.Unkept == nil {
		if size := we.KeptBytes(); a.budget.kept+size <= a.budget.Limit {
			a.budget.kept += size
			a.kept += size
		} else {
			b.Unkept = &WindowSpot{File: ev.File, Line: ev.Line, Turn: ev.Turn, Shared: a.budget.kept > a.kept}
		}
	}
	if ev.Kind == parse.KindToolResult {
		// past the budget too: each result is clipped, and a call is
		// judged with its result
		if call := a.Calls[ev.ToolID]; call != nil {
			call.Result = we
			delete(a.Calls, ev.ToolID)
		}
	}
	if b.Unkept != nil {
		return
	}
	if ev.Kind == parse.KindToolCall {
		we.SideEffect = a.isEffect(a.Format, ev)
		if ev.ToolID != "" {
			a.Calls[ev.ToolID] = we
		}
	}
	for _, h := range toks {
		k := a.hash(h.Value)
		t, seen := a.Seen.Get(k)
		inWindow := seen && int(t.Window) == a.window
		if !seen {
			// `aws s3 ls` shows acme-stage-08, the call says s3://acme-stage-08/
			if bare := bareName(h.Value); bare != "" {
				t, seen = a.Seen.Get(a.hash(bare))
			}
		}
		we.Tokens = append(we.Tokens, Token{Value: h.Value, Kind: h.Kind, Label: h.Label,
			Novel:   !seen,
			Before:  seen && int(t.First) < a.window,
			Visible: inWindow || b.Context.Folded.contains(h.Value)})
	}
	b.Window = append(b.Window, we)
}

// KeptBytes is what a window event holds of the input: its text, and a
// Call's arguments with the strings read from them.
func (we *WindowEvent) KeptBytes() int {
	n := len(we.Text) + len(we.Args)
	if we.Call != nil {
		n += len(we.Call.Command)
		for _, t := range we.Call.Texts {
			n += len(t)
		}
	}
	return n
}

// OpenBoundary replays a boundary against the ledger as of its turn.
func (a *AgentReplay) OpenBoundary(ev *parse.Event) *BoundaryReplay {
	r := &BoundaryReplay{Agent: a.Agent, Index: len(a.Boundaries) + 1, File: ev.File, Line: ev.Line, Offset: ev.Offset,
		Turn: ev.Turn, Context: NewPostContext(ev, a.Project, a.readings), Owner: a}
	a.readings = r.Context.Folded.Readings
	r.Boundary = r.Context.boundary
	r.Context.Known = a.KnownPaths()
	for _, o := range a.Ledger.Live(ev.Turn) {
		if !a.dormant(o) {
			r.Before = append(r.Before, o)
		}
	}
	if len(r.Before) > 0 { // sized once: a boundary keeps its survivals, and appending's spare room was megabytes
		r.Survivals = make([]Survival, 0, len(r.Before))
	}
	for _, o := range r.Before {
		r.Survivals = append(r.Survivals, r.Context.Judge(o))
	}
	for _, o := range a.Ledger.Retired(ev.Turn) {
		// a superseded test status is history, not a value a summary can
		// restate as current: only these kinds can go stale
		if o.Kind == tag.KindLiteral || o.Kind == tag.KindProhibition || o.Kind == tag.KindThreshold {
			r.Retired = append(r.Retired, o)
		}
	}
	r.ledgerLen = len(a.Ledger.Obligations)
	a.Ledger.Compacted(ev.Turn)
	a.Boundaries = append(a.Boundaries, r)
	a.open = r
	a.window++
	a.Calls = map[string]*WindowEvent{}
	return r
}

// KnownPaths is every path literal of the ledger, resolved against the
// Project. It is brought up to date at each boundary rather than made
// again: that cost the whole ledger at every boundary, the square of a
// long session. The ledger only grows, and nothing adds to the map while
// a boundary reads it.
func (a *AgentReplay) KnownPaths() map[string]bool {
	if a.known == nil || a.knownProject != a.Project {
		a.known, a.knownFrom, a.knownProject = map[string]bool{}, 0, a.Project
	}
	obs := a.Ledger.Obligations
	for _, o := range obs[a.knownFrom:] {
		if o.Kind == tag.KindLiteral && (o.LiteralKind == "path" || o.LiteralKind == "file") {
			a.known[ResolvePath(o.Literal, a.Project)] = true
		}
	}
	a.knownFrom = len(obs)
	return a.known
}

// dormant reports a literal from the agent's own tool use that an earlier
// Boundary dropped and no turn has stated since: it is out of the agent's
// Context, and no later summary can lose it again. It is not judged again
// — in a long session these are most of the ledger — until a turn states
// it once more. Instructions' literals are always judged: a later summary
// can still bring back a near variant of one.
func (a *AgentReplay) dormant(o *ledger.Obligation) bool {
	if o.Kind != tag.KindLiteral || o.Origin.Source.Instructive() {
		return false
	}
	t := a.Trails[o.ID]
	if len(t) == 0 {
		return false
	}
	last := t[len(t)-1]
	if last.State != Dropped {
		return false
	}
	since := a.Boundaries[last.Boundary].Turn
	n := len(o.Restated)
	return n == 0 || o.Restated[n-1] < since
}

// CloseWindow ends the open window: it finds the references, lets later
// restatements restore what the summary lost, and extends the trails.
func (a *AgentReplay) CloseWindow(nextTurn int) *BoundaryReplay {
	r := a.open
	if r == nil {
		return nil
	}
	a.open = nil
	a.budget.kept -= a.kept
	a.kept = 0
	r.NextTurn = nextTurn
	r.refs = FindReferences(r, a.Ledger)
	shared := map[Judgement]*Judgement{}
	for i := range r.Survivals {
		s := &r.Survivals[i]
		if s.Lost() {
			restore(r, s)
		}
		if j, ok := shared[*s.Judgement]; ok {
			s.Judgement = j
		} else {
			shared[*s.Judgement] = s.Judgement
		}
		a.Trails[s.Obligation.ID] = append(a.Trails[s.Obligation.ID], trailEntry{Boundary: int32(len(a.Boundaries) - 1), State: s.State, restoredAt: int32(s.RestoredAt), Judgement: s.Judgement})
	}
	return r
}

// trailEntry is one step of an obligation's trail as the replay keeps it:
// the boundary's place and words are looked up when the trail is read.
type trailEntry struct {
	Boundary   int32 // index into the agent's boundaries
	restoredAt int32
	State      State
	Judgement  *Judgement
}

// restore marks an obligation the summary lost as preserved when a later
// Turn stated it again before the agent needed it: it was in the agent's
// Context when it mattered.
func restore(r *BoundaryReplay, s *Survival) {
	need := r.refs.firstNeed(s.Obligation.ID)
	// the restatements come in turn order, one after each boundary at
	// most: walking them from the first, at every boundary, cost the square
	// of the boundaries for a literal every summary drops
	restated := s.Obligation.Restated
	from, _ := slices.BinarySearch(restated, r.Turn)
	for _, t := range restated[from:] {
		// the boundary's turn is the first one after it
		if r.NextTurn > 0 && t >= r.NextTurn {
			break
		}
		if need > 0 && t >= need {
			break
		}
		s.State, s.Via, s.RestoredAt = Preserved, "restated", t
		s.Detail = "the summary lost it, but turn " + Itoa(t) + " stated it again before it was needed"
		return
	}
}

// bareName is the distinctive part of a URI or path: the bucket or host of
// a URI, the file name of a path. Empty when the token is already bare.
func bareName(v string) string {
	if i := strings.Index(v, "://"); i > 0 {
		rest := strings.TrimSuffix(v[i+3:], "/")
		if j := strings.IndexByte(rest, '/'); j > 0 {
			rest = rest[:j]
		}
		return rest
	}
	if strings.Contains(v, "/") {
		if base := path.Base(strings.TrimSuffix(v, "/")); base != "." && base != "/" && len(base) >= 3 {
			return base
		}
	}
	return ""
}

// SizeName writes a byte count the way a warning reads best.
func SizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return Itoa(n>>10) + " KiB"
	case n == 1:
		return "1 byte"
	}
	return Itoa(n) + " bytes"
}
