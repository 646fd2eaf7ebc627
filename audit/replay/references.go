package replay

import (
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// RefKind is what a later turn did with an obligation.
type RefKind string

const (
	RefNearMiss RefKind = "near-miss" // used a near variant of a literal
	RefFailed   RefKind = "failed"    // a call that needed the literal failed
	RefReask    RefKind = "reask"     // the agent asked for it again
	RefTouch    RefKind = "touch"     // a side-effecting call touched a forbidden object
	RefBreach   RefKind = "breach"    // a side-effecting call went past a limit
	RefUnbound  RefKind = "unbound"   // a call used an identifier it could no longer see
)

// Reference links a later event to the obligation it concerns.
type Reference struct {
	Kind       RefKind
	Event      *WindowEvent
	Obligation *ledger.Obligation // nil for unbound references
	Token      string             // the token used
	Value      float64            // for breaches: the value used
	Unit       string
	Detail     string
}

// References are the references of one window, in event order.
type References struct {
	List []Reference
}

// Of returns the references of a kind.
func (rs *References) Of(kind RefKind) []Reference {
	var out []Reference
	for _, r := range rs.List {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// For returns the references to one obligation.
func (rs *References) For(id string) []Reference {
	var out []Reference
	for _, r := range rs.List {
		if r.Obligation != nil && r.Obligation.ID == id {
			out = append(out, r)
		}
	}
	return out
}

// firstNeed is the first turn that needed an obligation, or 0.
func (rs *References) firstNeed(id string) int {
	first := 0
	for _, r := range rs.For(id) {
		if first == 0 || r.Event.Turn < first {
			first = r.Event.Turn
		}
	}
	return first
}

// FindReferences scans a window for what its turns did with the ledger:
// each kind of reference has a method of referenceScan, tried for each
// event of the window in the same order.
func FindReferences(r *BoundaryReplay, l *ledger.Ledger) *References {
	f := &referenceScan{ledger: l, refs: &References{}, retries: newRetryCounter()}
	f.candidates = windowCandidates(r, l)
	f.live = ledger.NewInForce(f.candidates)
	for _, ev := range r.Window {
		f.live.At(ev.Turn)
		isCall := ev.Kind == parse.KindToolCall
		isText := ev.Kind == parse.KindMessage && ev.Source == reading.SourceAssistant
		if isCall || isText {
			f.nearMisses(ev)
		}
		if isText && strings.Contains(ev.Text, "?") {
			f.reasks(ev)
		}
		if !isCall || !ev.SideEffect {
			continue
		}
		f.failures(ev)
		if !readOnlyCall(ev) {
			f.touches(ev)
		}
		f.breaches(ev)
		f.retryBreaches(ev)
		f.unbound(ev)
	}
	return f.refs
}

// referenceScan is FindReferences' walk over one window.
type referenceScan struct {
	ledger     *ledger.Ledger
	refs       *References
	candidates []ledger.WindowObligation
	live       *ledger.InForce
	// the near misses of a window's tokens are looked up through an index
	// once enough tokens were tested against enough literals to pay for it
	near    *nearMissIndex
	tested  int
	retries *retryCounter
}

func (f *referenceScan) add(ref Reference) { f.refs.List = append(f.refs.List, ref) }

// windowCandidates are the obligations a window's references can be to.
// What is live changes only between turns, and only among what was live
// at the boundary or stated since: the rest of the ledger is history.
func windowCandidates(r *BoundaryReplay, l *ledger.Ledger) []ledger.WindowObligation {
	lost := map[string]bool{}
	for _, s := range r.Survivals {
		if s.Lost() {
			lost[s.Obligation.ID] = true
		}
	}
	var candidates []ledger.WindowObligation
	for _, o := range append(append([]*ledger.Obligation(nil), r.Before...), l.Obligations[r.ledgerLen:]...) {
		c := ledger.WindowObligation{O: o}
		switch o.Kind {
		case tag.KindLiteral:
			c.LostLit, c.Lit = lost[o.ID], o.Origin.Source.Instructive()
		case tag.KindProhibition:
			c.Forbid = true
		case tag.KindThreshold:
			c.Limit = true
		}
		if c.Lit || c.LostLit || c.Forbid || c.Limit {
			candidates = append(candidates, c)
		}
	}
	return candidates
}

// nearMisses finds near misses of the instructions' literals, in calls and
// in the agent's own words; a literal an instruction bound before this
// event is never a near miss of another.
func (f *referenceScan) nearMisses(ev *WindowEvent) {
	live := f.live
	for _, tok := range ev.Tokens {
		if !tok.Novel {
			continue
		}
		norm := ledger.NormLiteral(tok.Value)
		if at, ok := live.FirstBinding(norm); ok && at < ev.Index {
			continue
		}
		if f.near == nil && f.tested > nearMissIndexFrom*nearMissIndexFrom {
			f.near = NewNearMissIndex(f.candidates)
		}
		lits := live.List(live.Lits)
		if f.near != nil {
			lits = f.near.inForce(live, norm)
		}
		for o := range lits {
			f.tested++
			if nearMissNorm(norm, o.Normalized()) {
				f.add(Reference{Kind: RefNearMiss, Event: ev, Obligation: o, Token: tok.Value})
				break
			}
		}
	}
}

// reasks finds the agent asking for a literal it lost.
func (f *referenceScan) reasks(ev *WindowEvent) {
	for o := range f.live.List(f.live.LostLits) {
		if reasks(ev.Text, o) {
			f.add(Reference{Kind: RefReask, Event: ev, Obligation: o, Detail: firstQuestion(ev.Text)})
		}
	}
}

// failures finds a failed call that lacked a lost literal.
func (f *referenceScan) failures(ev *WindowEvent) {
	if ev.Result == nil || !ev.Result.IsError {
		return
	}
	for o := range f.live.List(f.live.LostLits) {
		if failedWithout(ev, o) {
			f.add(Reference{Kind: RefFailed, Event: ev, Obligation: o, Detail: ev.Result.errorLine})
		}
	}
}

// touches finds a call that changes what a prohibition forbids.
func (f *referenceScan) touches(ev *WindowEvent) {
	for o := range f.live.List(f.live.Forbids) {
		if tok, ok := touches(ev, o.Object); ok {
			f.add(Reference{Kind: RefTouch, Event: ev, Obligation: o, Token: tok})
		}
	}
}

// breaches finds a call's values past a limit in force.
func (f *referenceScan) breaches(ev *WindowEvent) {
	for o := range f.live.List(f.live.Limits) {
		for _, v := range valuesFor(ev, o.Threshold) {
			if breaches(v, o.Threshold) {
				f.add(Reference{Kind: RefBreach, Event: ev, Obligation: o, Token: v.text, Value: v.value, Unit: v.unit})
			}
		}
	}
}

// retryBreaches finds the same failing call retried past a retry limit.
func (f *referenceScan) retryBreaches(ev *WindowEvent) {
	n, ok := f.retries.observe(ev)
	if !ok {
		return
	}
	for o := range f.live.List(f.live.Limits) {
		if o.Threshold.Subject == "retry" && !isDurationOrSize(o.Threshold) {
			v := observedValue{value: float64(n), text: strconv.Itoa(n) + " retries of the same failing call"}
			if breaches(v, o.Threshold) && !f.retries.reported(o.ID) {
				f.add(Reference{Kind: RefBreach, Event: ev, Obligation: o, Token: v.text, Value: v.value})
			}
		}
	}
}

// unbound finds identifiers a call used that nothing bound: seen before
// the boundary, not visible since, and in no obligation.
func (f *referenceScan) unbound(ev *WindowEvent) {
	for _, tok := range ev.Tokens {
		if !unboundKinds[tok.Kind] || tok.Novel || !tok.Before || tok.Visible || f.ledger.HoldsLiteral(tok.Value) {
			continue
		}
		f.add(Reference{Kind: RefUnbound, Event: ev, Token: tok.Value})
	}
}

// unboundKinds are the identifiers an agent cannot make up: addresses, ids
// and absolute paths.
var unboundKinds = map[string]bool{"uri": true, "path": true, "host": true, "id": true, "hash": true, "email": true}

func firstQuestion(text string) string {
	for _, s := range lex.Sentences(text) {
		if strings.HasSuffix(s.Text, "?") {
			return s.Text
		}
	}
	return runstate.FirstLine(text)
}

// reasks reports an agent's question for a literal it lost: "which bucket
// should I use?" when the ledger holds the bucket.
func reasks(text string, o *ledger.Obligation) bool {
	q := lex.FoldLower(firstQuestion(text))
	if !strings.HasSuffix(q, "?") {
		return false
	}
	words := []string{o.Label}
	switch o.LiteralKind {
	case "uri":
		words = append(words, "bucket", "url", "endpoint", "address")
	case "path", "file":
		words = append(words, "path", "file", "directory", "folder")
	case "port":
		words = append(words, "port")
	case "host":
		words = append(words, "host", "server")
	case "env":
		words = append(words, "variable", "env")
	}
	asking := strings.Contains(q, "which") || strings.Contains(q, "what") || strings.Contains(q, "could you") ||
		strings.Contains(q, "can you") || strings.Contains(q, "remind me")
	if !asking {
		return false
	}
	for _, w := range words {
		if w != "" && strings.Contains(q, w) {
			return true
		}
	}
	return false
}

// failedWithout reports a failed call that put another value where a lost
// labelled literal belonged, and whose error says the value does not
// exist: a deploy to another bucket that failed with NoSuchBucket.
func failedWithout(ev *WindowEvent, o *ledger.Obligation) bool {
	if o.Label == "" || ev.Result == nil {
		return false
	}
	errText := lex.FoldLower(ev.Result.errorLine)
	missing := false
	for _, w := range []string{"nosuch", "no such", "not found", "does not exist", "doesn't exist", "unknown " + o.Label, "invalid " + o.Label} {
		if strings.Contains(errText, w) {
			missing = true
			break
		}
	}
	if !missing {
		return false
	}
	for _, tok := range ev.Tokens {
		if tok.Kind != o.LiteralKind || !tok.Novel || ledger.NormLiteral(tok.Value) == o.Normalized() {
			continue
		}
		if tok.Kind == "uri" && !ledger.SameScheme(tok.Value, o.Literal) {
			continue
		}
		return true
	}
	return false
}

// callOf is what an event's arguments say, read once per event: every
// prohibition and threshold in force looks at a call. A call's comes
// prepared from the reading workers.
func callOf(ev *WindowEvent) *reading.CallReading {
	if ev.Call == nil {
		ev.Call = reading.ReadCallArgs(ev.Args)
	}
	return ev.Call
}

// CallTexts are the strings of a call that say what it does — the command
// Of a shell call, the paths of an edit, the file headers of a patch.
func CallTexts(ev *WindowEvent) []string { return callOf(ev).Texts }

// callLiterals are the literals of each of callTexts.
func callLiterals(ev *WindowEvent) [][]tag.LiteralHit { return callOf(ev).Lits }

// CommandOfCall is a call's shell command, or "".
func CommandOfCall(ev *WindowEvent) string { return callOf(ev).Command }

// readOnlyCall reports a call whose command only reads.
func readOnlyCall(ev *WindowEvent) bool { return callOf(ev).ReadOnly }

// touches reports whether a call reaches the object of a prohibition: one
// Of its literals (a path by components), or all of its terms and its
// action. It returns what matched.
func touches(ev *WindowEvent, obj *tag.Object) (string, bool) {
	texts := CallTexts(ev)
	for _, lit := range obj.Literals {
		if strings.EqualFold(ev.ToolName, lit) || strings.EqualFold(strings.TrimPrefix(ev.ToolName, "mcp__"), lit) {
			return ev.ToolName, true
		}
		isPath := strings.HasSuffix(lit, "/") || strings.HasPrefix(lit, "/") || strings.HasPrefix(lit, "~")
		for k, t := range texts {
			if isPath && !strings.Contains(lit, "://") {
				for _, h := range callLiterals(ev)[k] {
					if (h.Kind == "path" || h.Kind == "file") && underPath(ResolvePath(h.Value, ""), ResolvePath(lit, "")) {
						return h.Value, true
					}
				}
				continue
			}
			if containsLiteral(t, lit) {
				return lit, true
			}
		}
	}
	if len(obj.Literals) > 0 {
		return "", false
	}
	if len(obj.Terms) == 0 {
		return "", false
	}
	if ev.terms == nil {
		// the texts one by one: no word runs from one into the next, and
		// a Write call's content is not copied to be joined
		ev.terms = lex.TermsOfAll(append([]string{ev.ToolName}, texts...)...)
	}
	all := ev.terms
	if !all.HasAll(obj.Terms) {
		return "", false
	}
	if obj.Verb != "" {
		ok := false
		for _, v := range tag.SpecificVerbs[obj.Verb] {
			if all.Has(lex.Stem(v)) || SpacedIn(texts, v) {
				ok = true
				break
			}
		}
		if !ok {
			return "", false
		}
	}
	return strings.Join(obj.Terms, " "), true
}

// SpacedIn reports whether word, which holds no space, stands between
// spaces in the texts joined by spaces — without joining them, since a
// Call's strings can be megabytes.
func SpacedIn(texts []string, word string) bool {
	for _, t := range texts {
		for at := 0; ; {
			i := strings.Index(t[at:], word)
			if i < 0 {
				break
			}
			i += at
			end := i + len(word)
			if (i == 0 || t[i-1] == ' ') && (end == len(t) || t[end] == ' ') {
				return true
			}
			at = i + 1
		}
	}
	return false
}

func Itoa(n int) string { return strconv.Itoa(n) }
