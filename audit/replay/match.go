package replay

import (
	"iter"
	"path"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
)

// containsLiteral reports whether a literal stands verbatim in text:
// case folded, at identifier boundaries, with or without a trailing slash.
// "s3://acme-stage-07" counts for "s3://acme-stage-07/".
func containsLiteral(text, lit string) bool {
	return literalIndex(text, lit) >= 0
}

func literalIndex(text, lit string) int {
	lit = strings.Trim(lit, "`'\"")
	if lit == "" {
		return -1
	}
	if i := lex.IndexFold(text, lit); i >= 0 {
		return i
	}
	if len(lit) > 1 && strings.HasSuffix(lit, "/") {
		return lex.IndexFold(text, strings.TrimSuffix(lit, "/"))
	}
	return -1
}

// ResolvePath makes a path absolute against the working directory.
func ResolvePath(p, cwd string) string {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || cwd == "" {
		return path.Clean(p)
	}
	return path.Clean(path.Join(cwd, p))
}

// underPath reports whether p is dir or inside it, by path components:
// /home/dev/proj-fix-123 is not under /home/dev/proj.
func underPath(p, dir string) bool {
	p, dir = path.Clean(p), path.Clean(dir)
	if p == dir {
		return true
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return ExtendsPath(p, dir)
}

// pathVisible reports whether a path literal is visible in text, verbatim
// or as a relative path that resolves to it against the working directory.
// It returns the relative form that resolves elsewhere when one stands in
// its place ("src/app.go" for /home/dev/other/src/app.go), for diffs.
func pathVisible(text *FoldedText, lit, cwd string, known map[string]bool) (visible bool, variant string) {
	if text.contains(lit) {
		return true, ""
	}
	if cwd == "" {
		return false, ""
	}
	abs := ResolvePath(lit, cwd)
	base := path.Base(strings.TrimSuffix(abs, "/"))
	if !strings.Contains(text.Lower, lex.FoldLower(base)) {
		// every way below of naming the file names its base
		return false, ""
	}
	if abs != lit && text.contains(abs) {
		return true, ""
	}
	for _, h := range text.resolvedPaths(cwd) {
		if h.abs == abs {
			return true, ""
		}
		// same file name, other place: a relative path that no longer
		// resolves to what it replaced. One that resolves to another path
		// the session knows is a mention of that file, not a replacement.
		if h.base == base && h.relative && !known[h.abs] {
			variant = h.value
		}
	}
	return false, variant
}

// resolvedPath is a path the text names, resolved against a directory.
type resolvedPath struct {
	value, abs, base string
	relative         bool // relative, with a directory part
}

// resolvedPaths are the text's paths resolved against cwd, worked out once
// per directory: every path of the ledger is compared with them.
func (f *FoldedText) resolvedPaths(cwd string) []resolvedPath {
	if rp, ok := f.resolved[cwd]; ok {
		return rp
	}
	var out []resolvedPath
	for _, h := range f.literals() {
		if h.Kind != "path" && h.Kind != "file" {
			continue
		}
		out = append(out, resolvedPath{value: h.Value, abs: ResolvePath(h.Value, cwd), base: path.Base(strings.TrimSuffix(h.Value, "/")),
			relative: !strings.HasPrefix(h.Value, "/") && strings.Contains(h.Value, "/")})
	}
	if f.resolved == nil {
		f.resolved = map[string][]resolvedPath{}
	}
	f.resolved[cwd] = out
	return out
}

// identParts splits a literal into comparable components, with the common
// hierarchy (scheme, leading path segments) removed against another one.
func identParts(s string) []string {
	var out []string
	for _, p := range lex.SplitIdent(lex.FoldLower(s)) {
		out = append(out, lex.Stem(p))
	}
	return out
}

// tailAfterCommon strips the leading path segments two literals share:
// /home/dev/proj-fix-123 and /home/dev/proj compare as "proj-fix-123" and
// "proj", s3://acme-staging/ and s3://acme-stage-07/ as their buckets.
func tailAfterCommon(a, b string) (string, string) {
	sa := strings.Split(strings.Trim(lex.FoldLower(a), "/"), "/")
	sb := strings.Split(strings.Trim(lex.FoldLower(b), "/"), "/")
	i := 0
	for i < len(sa) && i < len(sb) && sa[i] == sb[i] {
		i++
	}
	return strings.Join(sa[i:], "/"), strings.Join(sb[i:], "/")
}

// NearMiss reports whether token t is a near variant of literal lit: not
// the same, not a use of it (lit/sub), but sharing most of its distinctive
// Parts: acme-staging for acme-stage-07.
func NearMiss(t, lit string) bool {
	return nearMissNorm(ledger.NormLiteral(t), ledger.NormLiteral(lit))
}

// nearMissNorm is nearMiss of normLiteral(t) and normLiteral(lit), for a
// caller that has them: each boundary tests a literal against every
// candidate of its summary.
func nearMissNorm(nt, nl string) bool {
	if nt == nl || len(nt) < 3 || len(nl) < 3 {
		return false
	}
	// a use of the literal, or the literal with more after it, is not a miss
	if ExtendsPath(nt, nl) || ExtendsPath(nl, nt) {
		return false
	}
	if sameShape := (strings.Contains(nt, "://") == strings.Contains(nl, "://")) &&
		(strings.HasPrefix(nt, "/") == strings.HasPrefix(nl, "/")); !sameShape {
		return false
	}
	if strings.Contains(nt, "://") && !ledger.SameScheme(nt, nl) {
		return false
	}
	if isPathLike(nt) != isPathLike(nl) {
		return false // a package name is not a near miss of its folder
	}
	if isPathLike(nt) {
		return nearMissPath(nt, nl)
	}
	ta, tb := tailAfterCommon(nt, nl)
	if ta == "" || tb == "" {
		return false
	}
	pa, pb := identParts(ta), identParts(tb)
	if len(pa) == 0 || len(pb) == 0 {
		return false
	}
	shared := 0
	significant := false
	for _, x := range pa {
		if lex.ContainsStr(pb, x) {
			shared++
			if len(x) >= 3 && !tag.AllDigits(x) {
				significant = true
			}
		}
	}
	union := len(pa) + len(pb) - shared
	if !significant || union == 0 {
		return false
	}
	if float64(shared)/float64(union) >= 0.5 {
		return true
	}
	// one edit away in a short name: acme-stag-07 for acme-stage-07
	return editDistance(ta, tb) <= 2 && len(tb) >= 6
}

// ExtendsPath reports whether s is p, a slash and more: strings.HasPrefix(s,
// p+"/") without building p+"/".
func ExtendsPath(s, p string) bool {
	return len(s) > len(p) && s[len(p)] == '/' && strings.HasPrefix(s, p)
}

func isPathLike(s string) bool {
	return !strings.Contains(s, "://") && strings.Contains(s, "/")
}

// nearMissPath compares paths by their last segment: a file name one or
// two edits away in the same folder (totals.ts for total.ts) is a miss; the
// same name elsewhere, or another file of a shared tree, is not.
func nearMissPath(t, l string) bool {
	// the folder is folderOf's, which nearMissIndex files paths under
	_, bt := path.Split(strings.TrimSuffix(t, "/"))
	_, bl := path.Split(strings.TrimSuffix(l, "/"))
	if folderOf(t) != folderOf(l) || bt == bl {
		return false
	}
	if path.Ext(bt) != path.Ext(bl) {
		return false
	}
	st, sl := strings.TrimSuffix(bt, path.Ext(bt)), strings.TrimSuffix(bl, path.Ext(bl))
	if len(sl) < 4 {
		return false
	}
	return editDistance(st, sl) <= 2
}

// editDistance is Levenshtein distance in bytes, for short names.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Force is how strongly a sentence binds its object.
type Force uint8

const (
	ForceNone       Force = iota // mentions it, binds nothing
	ForceForbid                  // never, must not, off-limits
	ForceRequire                 // must, always, only
	ForcePreference              // prefers, ideally, if possible
	ForcePermit                  // enable, allowed, go ahead
)

// negationCues forbid what they govern.
var negationCues = []string{"never ", "never.", "not ", "n't ", "no ", "must not", "forbidden", "prohibited", "off-limits",
	"off limits", "out of bounds", "banned", "under no circumstances", "do not", "don't", "avoid at all costs",
	"strictly avoid", "must avoid", "mustn't", "disallowed", "not allowed", "not permitted", "refrain", "stay away",
	"is blocked", "are blocked", "excluded"}

// preferenceCues turn a rule into a taste.
var preferenceCues = []string{"prefer", "preferably", "preference", "rather than", "would rather", "ideally", "if possible",
	"where possible", "when possible", "try to", "better to", "recommended", "recommend", "favor", "favour", "lean toward",
	"leans toward", "avoid", "ideal", " over ", "suggest", "nice to", "should probably", "where feasible", "if feasible",
	"tends to", "likes"}

// requireCues bind their object.
var requireCues = []string{"must", "always", "only", "required", "requires", "mandatory", "need to", "needs to",
	"has to", "have to", "ensure", "make sure", "be sure", "deploy target", "target:", "use ", "uses ", "should use",
	"is to be", "are to be", "exclusively"}

// permitCues grant what they govern.
var permitCues = []string{"enable", "allowed", "allow ", "permitted", "go ahead", "can ", "may ", "ok to", "okay to",
	"fine to", "proceed", "should ", "use ", "deploy to", "switch to", "push to", "free to"}

// forceOf classifies what a sentence does to an object it mentions.
func forceOf(sentence string) Force {
	l := " " + lex.FoldLower(sentence) + " "
	has := func(cues []string) bool {
		for _, c := range cues {
			if strings.Contains(l, c) {
				return true
			}
		}
		return false
	}
	switch {
	case has(negationCues):
		// "try to avoid" and "prefer not to" are tastes even with a negation
		if has([]string{"prefer", "ideally", "if possible", "where possible", "try to", "rather"}) {
			return ForcePreference
		}
		return ForceForbid
	case has(preferenceCues):
		return ForcePreference
	case has(requireCues):
		return ForceRequire
	case has(permitCues):
		return ForcePermit
	}
	return ForceNone
}

// clauses cuts a sentence where its force may change: "production is
// off-limits, and staging is preferred" binds production by its own clause.
func clauses(s string) []string {
	l := lex.FoldLower(s)
	var out []string
	start := 0
	for i := 0; i < len(l); i++ {
		for _, sep := range []string{", ", "; ", " but ", " while ", " whereas ", " — "} {
			if strings.HasPrefix(l[i:], sep) {
				if c := strings.TrimSpace(s[start:i]); c != "" {
					out = append(out, c)
				}
				start = i + len(sep)
				i = start - 1
				break
			}
		}
	}
	if c := strings.TrimSpace(s[start:]); c != "" {
		out = append(out, c)
	}
	return out
}

// objectForce is the strongest force any clause of the context gives an
// object, and the sentence that gives it. found is false when nothing
// mentions it.
func objectForce(ctx []lex.Sentence, obj *tag.Object) (force Force, excerpt string, found bool) {
	return ObjectForceIn(ctx, nil, obj)
}

// forceRank orders forces from the strongest binding down.
var forceRank = map[Force]int{ForceForbid: 5, ForceRequire: 4, ForcePreference: 3, ForcePermit: 2, ForceNone: 1}

// ObjectForceIn is objectForce with the sentences' terms computed already.
func ObjectForceIn(ctx []lex.Sentence, terms []lex.TermSet, obj *tag.Object) (force Force, excerpt string, found bool) {
	return objectForceAt(ctx, terms, slices.Values(indexesOf(ctx)), obj, nil)
}

// indexesOf is every index of ctx.
func indexesOf(ctx []lex.Sentence) []int {
	at := make([]int, len(ctx))
	for i := range at {
		at[i] = i
	}
	return at
}

// objectForceAt is objectForceIn over the sentences at, in ascending
// order: a caller that knows which sentences can mention obj passes only
// those, and every other one would have been passed over. forces, when
// set, is what a caller read of a sentence's clauses already; else they
// are read here.
func objectForceAt(ctx []lex.Sentence, terms []lex.TermSet, at iter.Seq[int], obj *tag.Object, forces func(i int) *sentenceForces) (force Force, excerpt string, found bool) {
	rank := forceRank
	best := -1
	for i := range at {
		s := ctx[i]
		var ts lex.TermSet
		if terms != nil {
			ts = terms[i]
		} else {
			ts = lex.TermsOf(s.Text)
		}
		if !mentions(s.Text, ts, obj) {
			continue
		}
		var sf *sentenceForces
		if forces != nil {
			sf = forces(i)
		} else {
			sf = readForces(s.Text, ts)
		}
		f := ForceNone
		matched := false
		for _, c := range sf.clauses {
			if mentions(c.text, c.terms, obj) {
				if !matched || rank[c.force] > rank[f] {
					f = c.force
				}
				matched = true
			}
		}
		if !matched {
			f = sf.whole()
		}
		if rank[f] > best {
			best, force, excerpt, found = rank[f], f, s.Text, true
		}
	}
	return force, excerpt, found
}

// sentenceForces is what objectForceAt reads of a sentence whatever the
// object: its clauses, each with its terms and force, and the force of the
// whole. A summary's sentences are read once for all of a boundary's
// obligations, and once for every boundary that repeats them.
type sentenceForces struct {
	text    string
	clauses []clauseForce
	force   Force
	read    bool // force is known
}

type clauseForce struct {
	text  string
	terms lex.TermSet
	force Force
}

// readForces reads a sentence whose terms are known: a sentence of one
// clause, as most are, has the same terms as its clause.
func readForces(sentence string, terms lex.TermSet) *sentenceForces {
	sf := &sentenceForces{text: sentence}
	cs := clauses(sentence)
	for _, c := range cs {
		ct := terms
		if len(cs) > 1 || c != strings.TrimSpace(sentence) {
			ct = lex.TermsOf(c)
		}
		sf.clauses = append(sf.clauses, clauseForce{text: c, terms: ct, force: forceOf(c)})
	}
	return sf
}

// whole is the force of the whole sentence.
func (sf *sentenceForces) whole() Force {
	if !sf.read {
		sf.force, sf.read = forceOf(sf.text), true
	}
	return sf.force
}

// mentions reports whether a sentence is about an object: one of its
// literals verbatim, or every one of its terms.
func mentions(sentence string, terms lex.TermSet, obj *tag.Object) bool {
	for _, l := range obj.Literals {
		if containsLiteral(sentence, l) {
			return true
		}
	}
	var ts []string
	for _, t := range obj.Terms {
		if strings.ContainsAny(t, "/:") {
			continue // a literal, checked above
		}
		ts = append(ts, t)
	}
	if len(ts) == 0 {
		return false
	}
	// Summaries reword: "secrets must never be committed" for "never
	// commit secrets to the repo". Half the object's words, rounded up,
	// name it.
	n := 0
	for _, t := range ts {
		if terms.Has(t) {
			n++
		}
	}
	return n > 0 && n*2 >= len(ts)
}
