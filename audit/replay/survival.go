package replay

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// State is what became of an obligation at a boundary.
type State uint8

const (
	Preserved    State = iota + 1 // verbatim, or with the same force and value
	Paraphrased                   // a near variant stands in its place
	Softened                      // a rule became a preference
	Drifted                       // a threshold changed value, comparator or precision
	Dropped                       // gone
	Inverted                      // turned into its opposite
	Unverifiable                  // the summary cannot be read
)

var stateNames = [...]string{"", "preserved", "paraphrased", "softened", "drifted", "dropped", "inverted", "unverifiable"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// MarshalText makes states readable in JSON output.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// States lists every state in order, for tallies.
func States() []State {
	return []State{Preserved, Paraphrased, Softened, Drifted, Dropped, Inverted, Unverifiable}
}

// Survival is the judgement on one obligation at one boundary.
type Survival struct {
	Obligation *ledger.Obligation `json:"-"`
	State      State              `json:"state"`
	// Judgement holds the words of the judgement. A long session has
	// hundreds of obligations at each of hundreds of boundaries, mostly
	// judged alike: once a boundary is closed, equal judgements share one.
	*Judgement
	// RestoredAt is the later turn that stated it again verbatim, before the
	// Agent needed it.
	RestoredAt int `json:"restored_at,omitempty"`
}

// Judgement is what a survival says in words.
type Judgement struct {
	// Via says what carried a preserved obligation: summary, kept,
	// standing, restated, uncleared (a microcompaction left it).
	Via string `json:"via,omitempty"`
	// Detail explains the judgement in words.
	Detail string `json:"detail,omitempty"`
	// Drift is how a threshold drifted: value, comparator, vague,
	// qualitative; vanished when it was dropped.
	Drift string `json:"drift,omitempty"`
	// Change is how a prohibition was weakened: softened, dropped, inverted.
	Change string `json:"change,omitempty"`
	// Variant is what stands in the summary in the obligation's place.
	Variant string `json:"variant,omitempty"`
	// Excerpt is the summary sentence that decided the judgement.
	Excerpt string `json:"excerpt,omitempty"`
}

// Lost reports whether the obligation did not come through as it was.
func (s *Survival) Lost() bool { return s.State != Preserved && s.State != Unverifiable }

// postContext is what the agent can see right after a boundary.
type postContext struct {
	boundary  *parse.Boundary
	Text      string // summary and kept items
	Folded    *FoldedText
	sentences []lex.Sentence
	Cwd       string // the shell's directory at the boundary
	Project   string // the session's first directory: summaries speak relative to it
	keptTurns map[int]bool
	cleared   map[string]bool
	// Known holds every path literal of the ledger, resolved: a summary's
	// relative path that resolves to one of them names that file.
	Known map[string]bool
}

// last is what the agent's previous boundary read of its text.
func NewPostContext(ev *parse.Event, project string, last *readings) *postContext {
	b := ev.Boundary
	var parts []string
	if b.Readable {
		parts = append(parts, b.Summary)
	}
	for _, k := range b.Kept {
		parts = append(parts, k.Text)
	}
	text := strings.Join(parts, "\n\n")
	folded := NewFoldedText(text, last)
	pc := &postContext{boundary: withoutTexts(b), Text: text, Folded: folded, sentences: folded.Sentences, Cwd: ev.Cwd, Project: project,
		keptTurns: map[int]bool{}, cleared: map[string]bool{}}
	for _, t := range b.KeptTurns {
		pc.keptTurns[t] = true
	}
	for _, id := range b.ClearedToolIDs {
		pc.cleared[id] = true
	}
	return pc
}

// withoutTexts is a boundary without its summary and kept messages, which
// the post-compaction text (Summary) already holds joined: a Codex
// compaction keeps tens of kilobytes of the user's messages, and each
// Boundary held them twice.
func withoutTexts(b *parse.Boundary) *parse.Boundary {
	c := *b
	c.Summary, c.Kept = "", nil
	return &c
}

// Judge decides an obligation's survival across a boundary.
func (pc *postContext) Judge(o *ledger.Obligation) Survival {
	s := Survival{Obligation: o, Judgement: &Judgement{}}
	switch {
	case o.Standing:
		s.State, s.Via, s.Detail = Preserved, "standing", "a standing rule the harness re-sends with every request"
		return s
	case pc.keptTurns[o.Origin.Turn]:
		s.State, s.Via, s.Detail = Preserved, "kept", "its turn was kept verbatim"
		return s
	case pc.boundary.Kind == parse.BoundaryMicrocompact:
		if o.Origin.ToolID != "" && pc.cleared[o.Origin.ToolID] && !o.Origin.Source.Instructive() {
			s.State, s.Detail = Dropped, "its tool result was cleared by the microcompaction"
			return s
		}
		s.State, s.Via = Preserved, "uncleared"
		return s
	}
	// What was kept verbatim counts even when the summary is unreadable.
	if pc.Text == "" && !pc.boundary.Readable {
		s.State, s.Detail = Unverifiable, "the summary cannot be read: "+pc.boundary.Unreadable
		return s
	}
	switch o.Kind {
	case tag.KindLiteral:
		pc.judgeLiteral(o, &s)
	case tag.KindProhibition:
		pc.judgeProhibition(o, &s)
	case tag.KindRequirement:
		pc.judgeRequirement(o, &s)
	case tag.KindThreshold:
		pc.judgeThreshold(o, &s)
	case tag.KindCommitment:
		pc.judgeCommitment(o, &s)
	case tag.KindState:
		pc.judgeState(o, &s)
	}
	if s.State == Dropped && !pc.boundary.Readable {
		// only kept items were readable; the encrypted summary may hold it
		s.State, s.Detail = Unverifiable, "not among the kept items; the summary cannot be read: "+pc.boundary.Unreadable
	}
	return s
}

// forceIn is objectForceIn over the summary, once a test of the whole
// Summary says a sentence could mention the object: a ledger of thousands
// Of prohibitions would otherwise walk every sentence of a long summary
// For each of them.
func (pc *postContext) forceIn(obj *tag.Object) (Force, string, bool) {
	if !pc.Folded.mayMention(obj) {
		return ForceNone, "", false
	}
	return objectForceAt(pc.sentences, pc.Folded.Terms, pc.Folded.mayMentionIn(obj), obj, pc.Folded.forcesAt)
}

// sentenceWith is the first sentence of the summary that holds lit
// (containsLiteral). Only the sentences the literal's text stands in are
// tried, found by where it stands in the whole summary: walking every
// sentence for each of thousands of literals cost their product.
func (pc *postContext) sentenceWith(lit string) string {
	key := ledger.NormLiteral(lit) // held by every sentence that holds lit
	if key == "" {
		return ""
	}
	tried := -1
	for i := range pc.Folded.Occurrences(key) {
		k := pc.Folded.sentenceFrom(i)
		if k < 0 || k == tried || i+len(key) > pc.sentences[k].Start+len(pc.sentences[k].Text) {
			continue
		}
		tried = k
		if containsLiteral(pc.sentences[k].Text, lit) {
			return pc.sentences[k].Text
		}
	}
	return ""
}

func (pc *postContext) judgeLiteral(o *ledger.Obligation, s *Survival) {
	if o.LiteralKind == "path" || o.LiteralKind == "file" {
		dir := pc.Project
		if dir == "" {
			dir = pc.Cwd
		}
		visible, variant := pathVisible(pc.Folded, o.Literal, dir, pc.Known)
		if !visible && pc.Cwd != "" && pc.Cwd != dir {
			if v2, _ := pathVisible(pc.Folded, o.Literal, pc.Cwd, pc.Known); v2 {
				visible = true
			}
		}
		if visible {
			s.State, s.Via = Preserved, "summary"
			return
		}
		if variant != "" {
			s.State, s.Variant = Paraphrased, variant
			s.Detail = fmt.Sprintf("%q resolves to %s against %s, not to %s", variant, ResolvePath(variant, dir), dir, o.Literal)
			s.Excerpt = pc.sentenceWith(variant)
			return
		}
	} else if pc.Folded.contains(o.Literal) {
		s.State, s.Via, s.Excerpt = Preserved, "summary", pc.sentenceWith(o.Literal)
		return
	}
	dir := pc.Project
	if dir == "" {
		dir = pc.Cwd
	}
	// any token may stand in for a literal: "checkout-rounding" is no
	// literal of its own, but it is what became of "checkout-rounding-v2"
	litParts := o.LiteralParts()
	cands := pc.Folded.Candidates()
	for _, i := range pc.Folded.candidatesSharing(litParts) {
		v := cands[i].Value
		candidate := v
		if strings.Contains(v, "/") && !strings.Contains(v, "://") && strings.HasPrefix(o.Literal, "/") {
			candidate = ResolvePath(v, dir) // compare like with like
		}
		if nearMissNorm(ledger.NormLiteral(candidate), o.Normalized()) {
			s.State, s.Variant = Paraphrased, v
			s.Detail = fmt.Sprintf("%q stands in the summary in place of %q", v, o.Literal)
			s.Excerpt = pc.sentenceWith(v)
			return
		}
	}
	s.State, s.Detail = Dropped, "not in the summary or the kept messages"
}

func (pc *postContext) judgeProhibition(o *ledger.Obligation, s *Survival) {
	force, excerpt, found := pc.forceIn(o.Object)
	s.Excerpt = excerpt
	switch {
	case found && force == ForceForbid:
		s.State, s.Via = Preserved, "summary"
	case found && force == ForcePreference:
		s.State, s.Change, s.Detail = Softened, "softened", "restated as a preference"
	case found && (force == ForcePermit || force == ForceRequire):
		s.State, s.Change, s.Detail = Inverted, "inverted", "restated as something to do"
	default:
		s.State, s.Change = Dropped, "dropped"
		s.Detail = "no prohibition on it in the summary"
		if found {
			s.Detail = "mentioned without any prohibition"
		}
	}
}

func (pc *postContext) judgeRequirement(o *ledger.Obligation, s *Survival) {
	for _, l := range o.Object.Literals {
		if st := pc.sentenceWith(l); st != "" {
			f := forceOf(st)
			for _, c := range clauses(st) {
				if containsLiteral(c, l) {
					f = forceOf(c)
					break
				}
			}
			if f == ForceForbid {
				s.State, s.Excerpt, s.Detail = Inverted, st, "its object is now forbidden"
				return
			}
			s.State, s.Via, s.Excerpt = Preserved, "summary", st
			return
		}
	}
	obj := *o.Object
	obj.Literals = nil
	force, excerpt, found := pc.forceIn(&obj)
	s.Excerpt = excerpt
	switch {
	case !found:
		s.State, s.Detail = Dropped, "not in the summary"
	case force == ForceForbid:
		s.State, s.Detail = Inverted, "its object is now forbidden"
	case force == ForcePreference:
		s.State, s.Detail = Softened, "restated as a preference"
	case len(o.Object.Literals) > 0:
		// the words survived but the literal did not
		s.State, s.Detail = Paraphrased, "restated without its literal"
	default:
		s.State, s.Via = Preserved, "summary"
	}
}

func (pc *postContext) judgeCommitment(o *ledger.Obligation, s *Survival) {
	terms := o.Object.Terms
	need := (len(terms)*3 + 4) / 5 // 60%, rounded up
	if need < 2 {
		need = min(2, len(terms))
	}
	if need > 0 {
		// a sentence with need of the terms holds one of the
		// len(terms)-need+1 rarest: of a long summary only those sentences
		// are read
		rare := terms
		if pc.Folded.Indexed {
			rare = slices.Clone(terms)
			slices.SortStableFunc(rare, func(a, b string) int {
				return cmp.Compare(len(pc.Folded.index().Holding(a)), len(pc.Folded.index().Holding(b)))
			})
			rare = rare[:len(terms)-need+1]
		}
		for i := range pc.Folded.sentencesWith(rare...) {
			ts, n := pc.Folded.Terms[i], 0
			for _, t := range terms {
				if ts.Has(t) {
					n++
				}
			}
			if n >= need {
				s.State, s.Via, s.Excerpt = Preserved, "summary", pc.sentences[i].Text
				return
			}
		}
	}
	s.State, s.Detail = Dropped, "the promise is not in the summary"
}

func (pc *postContext) judgeState(o *ledger.Obligation, s *Survival) {
	st := o.Status
	var claimDone, acknowledged string
	for i, sent := range pc.sentences {
		for _, c := range pc.Folded.statuses(i) {
			if !sameSubject(c.Subject, st.Subject) {
				continue
			}
			if c.Value == st.Value {
				acknowledged = sent.Text
			} else if c.Value == runstate.StatusDone {
				claimDone = sent.Text
			} else if st.Value != runstate.StatusDone {
				acknowledged = sent.Text // failed vs pending: not a success claim
			}
		}
		if acknowledged == "" && st.Value != runstate.StatusDone && mentionsFailure(sent.Text, st.Subject) {
			acknowledged = sent.Text
		}
	}
	switch {
	case acknowledged != "":
		s.State, s.Via, s.Excerpt = Preserved, "summary", acknowledged
	case claimDone != "" && st.Value != runstate.StatusDone:
		s.State, s.Excerpt = Inverted, claimDone
		s.Detail = fmt.Sprintf("the summary claims %s is done; its last authoritative state was %s", st.Subject, strings.ReplaceAll(st.Value, "_", " "))
	case claimDone != "":
		s.State, s.Via, s.Excerpt = Preserved, "summary", claimDone
	default:
		s.State, s.Detail = Dropped, "the summary does not say"
	}
}

// sameSubject matches state subjects: "tests" and "test suite", "task B"
// and "task b".
func sameSubject(a, b string) bool {
	return strings.EqualFold(a, b)
}

// mentionsFailure reports a sentence admitting that a subject failed or is
// pending in words the status patterns miss: "1 failing test", "a failure
// in …", "still pending".
func mentionsFailure(sentence, subject string) bool {
	l := lex.FoldLower(sentence)
	subj := lex.FoldLower(strings.TrimSuffix(subject, "s"))
	if !strings.Contains(l, subj) {
		return false
	}
	for _, w := range []string{"fail", "broken", "pending", "not yet", "error", "retry", "retries", "blocked", "outstanding"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func (pc *postContext) judgeThreshold(o *ledger.Obligation, s *Survival) {
	t := *o.Threshold
	var changed *tag.ThresholdHit
	var changedIn string
	for at := range pc.Folded.limitsFor(t.Subject) {
		h, st := at.hit, pc.sentences[at.sentence]
		if !sameThresholdSubject(h.T, t) {
			continue
		}
		if equivalentThreshold(h.T, t) {
			s.State, s.Via, s.Excerpt = Preserved, "summary", st.Text
			return
		}
		if changed == nil {
			hh := h
			changed, changedIn = &hh, st.Text
		}
	}
	if changed != nil {
		s.State, s.Excerpt, s.Variant = Drifted, changedIn, changedIn[changed.Start:changed.End]
		if ledger.Direction(changed.T.Comparator) != ledger.Direction(t.Comparator) {
			s.Drift = "comparator"
			s.Detail = fmt.Sprintf("comparator %s became %s", t.Comparator, changed.T.Comparator)
		} else {
			s.Drift = "value"
			s.Detail = fmt.Sprintf("value %s became %s", ledger.FormatFloat(t.Value)+unitText(t.Unit), ledger.FormatFloat(changed.T.Value)+unitText(changed.T.Unit))
		}
		return
	}
	var mention string
	// only a sentence that speaks of its subject; a generic subject has no
	// word to look for
	for i := range pc.Folded.sentencesWith(t.Subject) {
		if tag.IsGenericSubject(t.Subject) || !pc.Folded.Terms[i].Has(t.Subject) {
			continue
		}
		st := pc.sentences[i]
		l := pc.Folded.spacedLower(i)
		if numberIn(l, t.Value) {
			s.State, s.Via, s.Excerpt = Preserved, "summary", st.Text
			return
		}
		for _, v := range tag.VagueQuantity {
			if strings.Contains(l, " "+v+" ") {
				s.State, s.Drift, s.Excerpt, s.Variant = Drifted, "vague", st.Text, v
				s.Detail = fmt.Sprintf("the limit became vague: %q", v)
				return
			}
		}
		for _, q := range tag.QualitativeLimit {
			if strings.Contains(l, q) {
				s.State, s.Drift, s.Excerpt, s.Variant = Drifted, "qualitative", st.Text, strings.TrimSpace(q)
				s.Detail = fmt.Sprintf("the limit became qualitative: %q", strings.TrimSpace(q))
				return
			}
		}
		if mention == "" {
			mention = st.Text
		}
	}
	s.State, s.Drift, s.Excerpt = Dropped, "vanished", mention
	s.Detail = "the limit is not in the summary"
	if mention != "" {
		s.Detail = "its subject is mentioned without any limit"
	}
}

func unitText(u string) string {
	switch u {
	case "":
		return ""
	case "%", "s", "ms", "min", "h", "d":
		return u
	}
	return " " + u
}

// sameThresholdSubject matches the subjects of two thresholds; a limit
// with no subject word matches one of the same kind of unit.
func sameThresholdSubject(a, b tag.Threshold) bool {
	if a.Subject == b.Subject {
		return true
	}
	for base, g := range tag.GenericSubject {
		if a.Subject == g && baseOf(b.Unit) == base || b.Subject == g && baseOf(a.Unit) == base {
			return true
		}
	}
	return false
}

// baseOf is the base unit a shown unit is compared in ("s" for "ms"), or
// "" for a count.
func baseOf(unit string) string { return baseOfUnit[unit] }

// baseOfUnit is unitScale by the unit shown: every word of one shown unit
// has the same base, and a walk of the table for each comparison was most
// Of the time a summary of thousands of limits took.
var baseOfUnit = func() map[string]string {
	m := map[string]string{}
	for _, u := range tag.UnitScale {
		m[u.Unit] = u.Base
	}
	return m
}()

// equivalentThreshold compares two limits as bounds: "fewer than 4
// retries" is "at most 3", and for a measured quantity "under 30s" and
// "at most 30 seconds" are the same bound.
func equivalentThreshold(a, b tag.Threshold) bool {
	ca, va := normalBound(a)
	cb, vb := normalBound(b)
	if ca != cb {
		return false
	}
	d := va - vb
	return d < 1e-9 && d > -1e-9
}

func normalBound(t tag.Threshold) (tag.Comparator, float64) {
	counted := baseOf(t.Unit) == ""
	v := t.Base
	integer := v == float64(int64(v))
	switch {
	case counted && integer && t.Comparator == tag.CmpLT:
		return tag.CmpLE, v - 1
	case counted && integer && t.Comparator == tag.CmpGT:
		return tag.CmpGE, v + 1
	case !counted && t.Comparator == tag.CmpLT:
		return tag.CmpLE, v
	case !counted && t.Comparator == tag.CmpGT:
		return tag.CmpGE, v
	}
	return t.Comparator, v
}

// numberIn reports whether a value stands in text as digits or a word.
func numberIn(lower string, v float64) bool {
	if strings.Contains(lower, " "+ledger.FormatFloat(v)+" ") || strings.Contains(lower, " "+ledger.FormatFloat(v)+",") ||
		strings.Contains(lower, " "+ledger.FormatFloat(v)+".") {
		return true
	}
	for w, n := range tag.NumberWords {
		if n == v && strings.Contains(lower, " "+w+" ") {
			return true
		}
	}
	return false
}

// identShaped reports a token built like a name, not a word of prose:
// separators, digits or inner capitals.
func identShaped(v string) bool {
	if strings.ContainsAny(v, "-_./:@0123456789") {
		return true
	}
	for i, r := range v {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}
