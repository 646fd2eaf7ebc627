package replay

import (
	"index/suffixarray"
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/tag"
)

// The hot path. Every tool output and message passes through here, so it
// looks at each byte once and allocates nothing for ordinary words.

// FoldedText is a text prepared for many case-insensitive searches: a
// Summary is searched once per obligation in the ledger.
type FoldedText struct {
	text      string
	Lower     string
	Sentences []lex.Sentence
	Terms     []lex.TermSet  // per sentence
	Indexed   bool           // long enough to index for a boundary's judgements
	allTerms  lex.TermSet    // their union, made when first asked
	byTerm    *lex.TermIndex // term → the sentences holding it, when first asked
	// every threshold stated, and by subject, when first asked
	allLimits     []thresholdAt
	limitsBy      map[string][]int
	genericLimits []int
	lookups       int // of literals in lower, before sa is built
	Sa            *suffixarray.Index
	hits          []tag.LiteralHit
	hitsDone      bool
	read          []*textReading // per sentence
	Readings      *readings      // the same, and the candidates by line, for the next boundary
	last          *readings      // the last boundary's
	cands         []candidate
	candsDone     bool
	byPart        map[string][]int // stemmed part → candidates holding it
	resolved      map[string][]resolvedPath
}

// candidate is a token of a summary that could stand in for a literal.
type candidate struct {
	Value string
	Parts map[string]bool
}

// Candidates are the identifier-shaped tokens of the text with their
// stemmed parts, found once: a plain word stands in for nothing.
// They are read a line at a time, as no token spans a line, and a line the
// last boundary read is taken from it.
func (f *FoldedText) Candidates() []candidate {
	if !f.candsDone {
		f.candsDone = true
		var last map[string]*lineReading
		if f.last != nil {
			last = f.last.Lines
		}
		lines := map[string]*lineReading{}
		for line := range strings.SplitSeq(f.text, "\n") {
			r := lines[line]
			if r == nil {
				r = last[line]
			}
			if r == nil {
				own := strings.Clone(line)
				r = &lineReading{text: own, Cands: lineCandidates(own)}
			}
			lines[r.text] = r
			f.cands = append(f.cands, r.Cands...)
		}
		f.Readings.Lines = lines
	}
	return f.cands
}

// lineCandidates are the candidates of one line.
func lineCandidates(line string) []candidate {
	var cs []candidate
	for h := range tag.RawTokenSeq(line) {
		v := strings.Trim(h.W, "`'\"*")
		if len(v) < 3 || !identShaped(v) {
			continue
		}
		cs = append(cs, candidate{Value: v, Parts: ledger.PartSet(v)})
	}
	return cs
}

// candidatesSharing lists, in order, the candidates that share a part with
// Parts: only they can be near variants, and a ledger holds hundreds of
// literals to compare with each summary.
func (f *FoldedText) candidatesSharing(parts map[string]bool) []int {
	if f.byPart == nil {
		f.byPart = map[string][]int{}
		for i, c := range f.Candidates() {
			for p := range c.Parts {
				f.byPart[p] = append(f.byPart[p], i)
			}
		}
	}
	var out []int
	for p := range parts {
		out = append(out, f.byPart[p]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// thresholds are the numeric limits of the i-th sentence.
func (f *FoldedText) thresholds(i int) []tag.ThresholdHit {
	r := f.read[i]
	if !r.limitsRead {
		r.limits, r.limitsRead = tag.FindThresholds(r.text), true
	}
	return r.limits
}

// thresholdAt is a threshold the text states, with its sentence.
type thresholdAt struct {
	sentence int
	hit      tag.ThresholdHit
}

// indexFrom is the number of sentences past which a text is indexed for
// the judgements of a boundary; a shorter one is walked, which costs less
// than building the index.
const indexFrom = 32

// limitsFor yields, in order, the thresholds the text states that could be
// on subject (sameThresholdSubject): of a short text every one; of a long
// one those on the subject and those on a generic subject, or every one
// when the subject is generic. A boundary judges each threshold of the
// Ledger, and walking every sentence for each cost their product.
func (f *FoldedText) limitsFor(subject string) iter.Seq[thresholdAt] {
	return func(yield func(thresholdAt) bool) {
		if !f.Indexed {
			for i := range f.Sentences {
				for _, h := range f.thresholds(i) {
					if !yield(thresholdAt{i, h}) {
						return
					}
				}
			}
			return
		}
		if f.limitsBy == nil {
			f.limitsBy = map[string][]int{}
			for i := range f.Sentences {
				for _, h := range f.thresholds(i) {
					k := len(f.allLimits)
					f.allLimits = append(f.allLimits, thresholdAt{i, h})
					if tag.IsGenericSubject(h.T.Subject) {
						f.genericLimits = append(f.genericLimits, k)
					} else {
						f.limitsBy[h.T.Subject] = append(f.limitsBy[h.T.Subject], k)
					}
				}
			}
		}
		if tag.IsGenericSubject(subject) {
			for _, at := range f.allLimits {
				if !yield(at) {
					return
				}
			}
			return
		}
		a, b := f.limitsBy[subject], f.genericLimits
		for len(a) > 0 || len(b) > 0 {
			var k int
			if len(b) == 0 || len(a) > 0 && a[0] < b[0] {
				k, a = a[0], a[1:]
			} else {
				k, b = b[0], b[1:]
			}
			if !yield(f.allLimits[k]) {
				return
			}
		}
	}
}

// sentencesWith yields, in order, the sentences that can hold one of
// Terms: of a short text every one, of a long one those whose terms hold
// one of them. The caller still checks each.
func (f *FoldedText) sentencesWith(terms ...string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if !f.Indexed {
			for i := range f.Sentences {
				if !yield(i) {
					return
				}
			}
			return
		}
		var at []int
		for _, t := range terms {
			at = f.index().AppendHolding(at, t)
		}
		slices.Sort(at)
		for _, i := range slices.Compact(at) {
			if !yield(i) {
				return
			}
		}
	}
}

// index is the text's term index, made when first asked.
func (f *FoldedText) index() *lex.TermIndex {
	if f.byTerm == nil {
		f.byTerm = lex.NewTermIndex(f.Terms)
	}
	return f.byTerm
}

// HasText reports whether the lowered text holds key anywhere, word
// Boundaries or not.
func (f *FoldedText) HasText(key string) bool {
	for range f.Occurrences(key) {
		return true
	}
	return false
}

// statuses are the status claims of the i-th sentence: a boundary judges
// every task and run status of the ledger against the same sentences.
func (f *FoldedText) statuses(i int) []tag.Status {
	r := f.read[i]
	if !r.statesRead {
		r.states, r.statesRead = runstate.TextStatuses(r.text), true
	}
	return r.states
}

// textReading is what was read of one sentence of a post-compaction text:
// its terms, status claims and thresholds. A Codex compaction carries the
// user's recent messages through, tens of kilobytes, so most of a
// boundary's sentences stood in the last one's too, and reading them again
// was most of a long rollout's boundary work. A reading reads its own copy
// of the text, and is filed under it: what it holds then pins no
// boundary's text.
type textReading struct {
	text       string
	terms      lex.TermSet
	states     []tag.Status
	limits     []tag.ThresholdHit
	forces     *sentenceForces // read when first asked (forcesAt)
	spaced     string          // " "+lowered+" ", when first asked (spacedLower)
	statesRead bool
	limitsRead bool
}

// lineReading is what was read of one line: its Candidates, kept for the
// next boundary as textReading is.
type lineReading struct {
	text  string
	Cands []candidate
}

// Readings are what a boundary read of its text, by sentence and by line,
// For the next boundary to take where it repeats them.
type readings struct {
	sentences map[string]*textReading
	Lines     map[string]*lineReading // nil until the candidates are read
}

// NewFoldedText reads text, taking what last read of a sentence or a line
// where it is the same; last may be nil.
func NewFoldedText(text string, last *readings) *FoldedText {
	f := &FoldedText{text: text, Lower: lex.FoldLower(text), Sentences: lex.Sentences(text), last: last}
	f.Indexed = len(f.Sentences) > indexFrom
	f.Terms = make([]lex.TermSet, len(f.Sentences))
	f.read = make([]*textReading, len(f.Sentences))
	f.Readings = &readings{sentences: make(map[string]*textReading, len(f.Sentences))}
	if last != nil {
		f.Readings.Lines = last.Lines // passed on, should this boundary not read them
	}
	for i, s := range f.Sentences {
		r := f.Readings.sentences[s.Text]
		if r == nil && last != nil {
			r = last.sentences[s.Text]
		}
		if r == nil {
			own := strings.Clone(s.Text)
			r = &textReading{text: own, terms: lex.TermsOf(own).Kept()}
		}
		f.Readings.sentences[r.text] = r
		f.read[i], f.Terms[i] = r, r.terms
	}
	return f
}

// forcesAt is what objectForceAt reads of sentence i, read once.
func (f *FoldedText) forcesAt(i int) *sentenceForces {
	r := f.read[i]
	if r.forces == nil {
		r.forces = readForces(r.text, r.terms)
	}
	return r.forces
}

// spacedLower is sentence i lowered with a space at each end, for
// looking up words: every boundary judges its thresholds on the same
// sentences.
func (f *FoldedText) spacedLower(i int) string {
	r := f.read[i]
	if r.spaced == "" {
		r.spaced = " " + lex.FoldLower(r.text) + " "
	}
	return r.spaced
}

// mayMention reports whether a sentence of the text could mention obj
// (mentions): the text of one of its literals stands somewhere in the
// Text, or enough of its terms stand in the sentences together. A sentence
// holds no text the whole lacks and no term outside the union of them all,
// so a "no" is exact.
func (f *FoldedText) mayMention(obj *tag.Object) bool {
	if !f.Indexed {
		return true // walking them costs less than the test
	}
	return f.CouldMention(obj)
}

// mayMentionIn yields, ascending, the sentences that could mention obj
// (mentions): those its literals' text stands in, and those holding one
// Of its terms. A sentence of neither cannot, so the rest go unread:
// walking every sentence of a summary that restates ten thousand rules,
// For each rule, cost their product. A short text yields every sentence.
func (f *FoldedText) mayMentionIn(obj *tag.Object) iter.Seq[int] {
	if !f.Indexed {
		return slices.Values(indexesOf(f.Sentences))
	}
	return func(yield func(int) bool) {
		var at []int
		for _, l := range obj.Literals {
			key := ledger.NormLiteral(l) // held by every sentence that holds l
			if key == "" {
				continue
			}
			for i := range f.Occurrences(key) {
				if k := f.sentenceFrom(i); k >= 0 {
					at = append(at, k)
				}
			}
		}
		for _, t := range obj.Terms {
			if !strings.ContainsAny(t, "/:") { // a literal's, looked for above
				at = f.index().AppendHolding(at, t)
			}
		}
		slices.Sort(at)
		for _, i := range slices.Compact(at) {
			if !yield(i) {
				return
			}
		}
	}
}

// CouldMention is mayMention's test.
func (f *FoldedText) CouldMention(obj *tag.Object) bool {
	for _, l := range obj.Literals {
		// every sentence that holds l (containsLiteral) holds this text;
		// it is looked for as plain text, since a sentence's edges count as
		// word boundaries where the whole text may have none
		if k := ledger.NormLiteral(l); k != "" && f.HasText(k) {
			return true
		}
	}
	if f.allTerms == nil {
		f.allTerms = lex.UnionOf(f.Terms)
	}
	n, of := 0, 0
	for _, t := range obj.Terms {
		if strings.ContainsAny(t, "/:") {
			continue // a literal, checked above
		}
		of++
		if f.allTerms.Has(t) {
			n++
		}
	}
	return n > 0 && n*2 >= of
}

// contains reports a literal standing verbatim in the text (see
// containsLiteral).
func (f *FoldedText) contains(lit string) bool {
	lit = strings.Trim(lit, "`'\"")
	if lit == "" {
		return false
	}
	if f.IndexLower(lex.FoldLower(lit)) >= 0 {
		return true
	}
	if len(lit) > 1 && strings.HasSuffix(lit, "/") {
		return f.IndexLower(lex.FoldLower(strings.TrimSuffix(lit, "/"))) >= 0
	}
	return false
}

// A long text asked for many literals — thousands of obligations judged
// against a long summary, every token of a window looked up in it — is
// searched through a suffix array of it instead of from its start each
// time, which cost their product. A summary is rarely past a few tens of
// KB, and then the array is never built.
const (
	suffixArrayFrom    = 64 << 10 // bytes of text
	suffixArrayLookups = 64       // lookups before the array is built
)

// Occurrences yields, ascending, every index at which key (not empty)
// stands in the lowered text, overlapping ones too.
func (f *FoldedText) Occurrences(key string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if key == "" {
			return
		}
		if f.Sa == nil {
			f.lookups++
			if len(f.Lower) >= suffixArrayFrom && f.lookups >= suffixArrayLookups {
				f.Sa = suffixarray.New([]byte(f.Lower))
			}
		}
		if f.Sa != nil {
			at := f.Sa.Lookup([]byte(key), -1)
			slices.Sort(at)
			for _, i := range at {
				if !yield(i) {
					return
				}
			}
			return
		}
		for from := 0; ; {
			i := strings.Index(f.Lower[from:], key)
			if i < 0 || !yield(from+i) {
				return
			}
			from += i + 1
		}
	}
}

// IndexLower is indexLower(f.lower, ln).
func (f *FoldedText) IndexLower(ln string) int {
	for i := range f.Occurrences(ln) {
		if lex.WordAt(f.Lower, i, ln) {
			return i
		}
	}
	return -1
}

// literals are the literal hits of the text, found once.
func (f *FoldedText) literals() []tag.LiteralHit {
	if !f.hitsDone {
		f.hits, f.hitsDone = tag.FindLiterals(f.text), true
	}
	return f.hits
}

// sentenceFrom is the last sentence that starts at or before byte i of
// the text, or -1: the only one that can hold it. pc.sentences are the
// same sentences.
func (f *FoldedText) sentenceFrom(i int) int {
	return sort.Search(len(f.Sentences), func(j int) bool { return f.Sentences[j].Start > i }) - 1
}
