package tag

import (
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
)

// FindDirectives finds prohibitions, requirements and retractions in one
// sentence of instructive text. Each cue word has a method of its own
// (directiveScan); they are tried in the sentence's order.
func FindDirectives(s string) []Directive {
	if strings.HasSuffix(strings.TrimSpace(s), "?") {
		return nil // a question binds nothing
	}
	d := &directiveScan{s: s, ws: lex.Words(s)}
	for i := 0; i < len(d.ws); i++ {
		switch w := lex.PlainWord(d.ws[i].W); w {
		case "never":
			d.never(i)
		case "don't", "dont", "do":
			d.dont(i, w)
		case "must", "should", "shall", "may", "cannot", "can't", "can", "will", "won't", "mustn't", "shouldn't":
			d.modal(i, w)
		case "under":
			d.underNoCircumstances(i)
		case "no":
			d.no(i)
		case "stay", "keep", "refrain":
			d.keepAway(i)
		case "always":
			d.always(i)
		case "only":
			d.only(i)
		case "use":
			d.use(i)
		case "make", "be", "ensure", "remember":
			d.makeSure(i)
		}
	}
	d.forbidTails()
	return d.out
}

// directiveScan is FindDirectives' reading of one sentence: its words,
// and the directives found so far, one per object.
type directiveScan struct {
	s         string
	ws        []lex.Word
	out       []Directive
	objStarts map[int]bool // the objects found, by where they start
}

// lead says whether word i may open an imperative.
func (d *directiveScan) lead(i int) bool {
	if i == 0 {
		return true
	}
	if imperativeLead[d.word(i-1)] {
		return true
	}
	// a clause break right before the cue: "…s3://x/, never prod"
	between := d.s[d.ws[i-1].End:d.ws[i].Start]
	return strings.ContainsAny(between, ",;:—-")
}

// word is word i, plain.
func (d *directiveScan) word(i int) string { return lex.PlainWord(d.ws[i].W) }

// next is the word after word i, plain, or "".
func (d *directiveScan) next(i int) string {
	if i+1 < len(d.ws) {
		return d.word(i + 1)
	}
	return ""
}

// cueAt is the text from word i on, in lower case, as far as the longest
// cue it may start; lowering the rest of the sentence at each such word
// was quadratic in a long one.
func (d *directiveScan) cueAt(i int) string {
	s := d.s
	return lex.FoldLower(s[d.ws[i].Start:min(len(s), d.ws[i].Start+maxCue)])
}

// add keeps a directive unless its object is empty or already taken.
func (d *directiveScan) add(dir Directive) {
	if strings.TrimSpace(dir.Object) == "" || d.objStarts[dir.objStart] {
		return
	}
	if d.objStarts == nil {
		d.objStarts = map[int]bool{}
	}
	d.objStarts[dir.objStart] = true
	d.out = append(d.out, dir)
}

// addFrom adds a directive starting at start whose object is what follows
// the byte offset from.
func (d *directiveScan) addFrom(kind Kind, pol Polarity, start, from int) {
	obj, at := objectAt(d.s, from)
	d.add(Directive{Kind: kind, Polarity: pol, Start: start, Object: obj, objStart: at, End: at + len(obj)})
}

// never: "never touch prod", "never ever".
func (d *directiveScan) never(i int) {
	ws := d.ws
	if d.next(i) == "mind" || d.next(i) == "again" && i+2 >= len(ws) {
		return
	}
	if i > 0 && subjectPronouns[d.word(i-1)] && !d.lead(i) {
		return
	}
	j := i
	if d.next(i) == "ever" {
		j++
	}
	d.addFrom(KindProhibition, PolarityForbid, ws[i].Start, ws[j].End)
}

// dont: "don't", "do not", "don't forget to", "I don't want you to".
func (d *directiveScan) dont(i int, w string) {
	ws := d.ws
	j := i
	if w == "do" {
		if d.next(i) != "not" {
			return
		}
		j = i + 1
	}
	if !d.lead(i) {
		// "I don't want you to touch prod" is a ban in the user's voice.
		if i > 0 && d.word(i-1) == "i" && d.next(j) == "want" {
			k := j + 1
			if k+2 < len(ws) && d.word(k+1) == "you" && d.word(k+2) == "to" {
				k += 2
			}
			d.addFrom(KindProhibition, PolarityForbid, ws[i-1].Start, ws[k].End)
		}
		return
	}
	nw := d.next(j)
	if nw == "forget" {
		k := j + 1
		if d.next(k) == "to" {
			k++
		}
		d.addFrom(KindRequirement, PolarityRequire, ws[i].Start, ws[k].End)
		return
	}
	if notProhibition[nw] || nw == "" {
		return
	}
	if nw == "ever" {
		j++
	}
	d.addFrom(KindProhibition, PolarityForbid, ws[i].Start, ws[j].End)
}

// modal: "X must (not) Y", "you should never Y", "must always".
func (d *directiveScan) modal(i int, w string) {
	s, ws := d.s, d.ws
	neg := w == "mustn't" || w == "shouldn't" || w == "cannot" || w == "can't" || w == "won't"
	j := i
	if !neg && d.next(i) == "not" {
		neg, j = true, i+1
	}
	if d.next(j) == "ever" || d.next(j) == "never" {
		neg, j = true, j+1
	}
	subj := subjectBefore(s, ws, i)
	lsubj := lex.FoldLower(subj)
	youSubject := lsubj == "you" || strings.HasSuffix(lsubj, " you")
	if neg {
		d.modalForbid(i, j, w, subj, youSubject)
		return
	}
	if w != "must" && w != "shall" {
		return
	}
	if subj != "" && isPronounSubject(subj) && !youSubject {
		return
	}
	if d.next(i) == "always" {
		j = i + 1
	}
	d.add(modalDirective(s, ws, i, j, subj, youSubject, KindRequirement, PolarityRequire))
}

// modalForbid is modal's negated reading: "X must not Y", "you should
// never Y". A weak modal forbids only with "you" as its subject.
func (d *directiveScan) modalForbid(i, j int, w, subj string, youSubject bool) {
	modalStrong := w == "must" || w == "mustn't" || w == "shall"
	if !(modalStrong || w == "should" || w == "shouldn't" || youSubject) {
		return
	}
	if subj != "" && isPronounSubject(subj) && !youSubject {
		return
	}
	if nw := d.next(j); notProhibition[nw] {
		return
	}
	d.add(modalDirective(d.s, d.ws, i, j, subj, youSubject, KindProhibition, PolarityForbid))
}

// underNoCircumstances: "under no circumstances (should you) Y".
func (d *directiveScan) underNoCircumstances(i int) {
	ws := d.ws
	if strings.HasPrefix(d.cueAt(i), "under no circumstances") && i+2 < len(ws) {
		k := i + 2
		if d.next(k) == "should" && k+2 < len(ws) && d.word(k+2) == "you" {
			k += 2
		}
		d.addFrom(KindProhibition, PolarityForbid, ws[i].Start, ws[k].End)
	}
}

// no: "no force pushes", but not "no more than 3" (a threshold).
func (d *directiveScan) no(i int) {
	ws := d.ws
	if !d.lead(i) || i+1 >= len(ws) || noExclusions[d.next(i)] || d.next(i) == "" {
		return
	}
	if strings.HasPrefix(d.cueAt(i), "no more than") || strings.HasPrefix(d.cueAt(i), "no less than") ||
		strings.HasPrefix(d.cueAt(i), "no fewer than") {
		return // a threshold
	}
	obj, at := objectAt(d.s, ws[i].End)
	if hasDescriptiveVerb(obj) {
		return
	}
	d.add(Directive{Kind: KindProhibition, Polarity: PolarityForbid, Start: ws[i].Start, Object: obj, objStart: at, End: at + len(obj)})
}

// keepAway: "stay away from", "keep out of", "refrain from".
func (d *directiveScan) keepAway(i int) {
	lower := d.cueAt(i)
	for _, cue := range []string{"stay away from ", "keep away from ", "keep out of ", "stay out of ", "refrain from "} {
		if strings.HasPrefix(lower, cue) && d.lead(i) {
			d.addFrom(KindProhibition, PolarityForbid, d.ws[i].Start, d.ws[i].Start+len(cue))
		}
	}
}

// always: "always run the tests", "you should always".
func (d *directiveScan) always(i int) {
	if !d.lead(i) && !(i > 0 && d.word(i-1) == "should") {
		return
	}
	d.addFrom(KindRequirement, PolarityRequire, d.ws[i].Start, d.ws[i].End)
}

// only: "only deploy from main", but not "only 3 tests failed".
func (d *directiveScan) only(i int) {
	ws := d.ws
	if !d.lead(i) {
		return
	}
	if _, isNum := parseNumber(d.next(i)); isNum {
		return // "only 3 tests failed" counts, it does not require
	}
	obj, at := objectAt(d.s, ws[i].End)
	if hasDescriptiveVerb(obj) {
		return
	}
	d.add(Directive{Kind: KindRequirement, Polarity: PolarityRequire, Start: ws[i].Start, Object: obj, objStart: at, End: at + len(obj)})
}

// use: "use the staging bucket", but not "use of" or "they said you use".
func (d *directiveScan) use(i int) {
	if !d.lead(i) || d.next(i) == "of" || i > 0 && d.word(i-1) == "you" && i > 1 && subjectPronouns[d.word(i-2)] {
		return
	}
	d.addFrom(KindRequirement, PolarityRequire, d.ws[i].Start, d.ws[i].End)
}

// makeSure: "make sure to", "be sure to", "ensure that", "remember to".
func (d *directiveScan) makeSure(i int) {
	lower := d.cueAt(i)
	for _, cue := range []string{"make sure to ", "make sure that ", "make sure ", "be sure to ", "ensure that ", "ensure ", "remember to "} {
		if strings.HasPrefix(lower, cue) && d.lead(i) {
			d.addFrom(KindRequirement, PolarityRequire, d.ws[i].Start, d.ws[i].Start+len(cue))
			break
		}
	}
}

// forbidTails: "X is off limits", "prod is off-limits": the object runs
// from the clause start to the predicate.
func (d *directiveScan) forbidTails() {
	s := d.s
	lower := lex.FoldLower(s)
	for _, tail := range forbidTail {
		k := strings.Index(lower, " "+tail)
		if k < 0 {
			continue
		}
		near, off := lex.NearBefore(s[:k])
		begin := off + strings.LastIndexAny(near, ",;:") + 1
		obj := strings.TrimSpace(s[begin:k])
		obj = strings.TrimPrefix(strings.TrimPrefix(obj, "and "), "but ")
		if obj == "" {
			continue
		}
		at := strings.Index(s[begin:], obj) + begin
		d.add(Directive{Kind: KindProhibition, Polarity: PolarityForbid, Start: at, Object: obj, objStart: at, End: k + 1 + len(tail)})
	}
}
