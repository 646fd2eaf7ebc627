package tag

import (
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
)

// ThresholdHit is a numeric limit found in a sentence.
type ThresholdHit struct {
	T          Threshold
	Start, End int
}

var NumberWords = map[string]float64{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
	"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100, "once": 1, "twice": 2}

// UnitScale maps unit words to the unit shown, the base unit compared
// (seconds, bytes, percent) and the scale to it.
var UnitScale = map[string]struct {
	Unit  string // shown: ms, s, min, h, d, B, KB, MB, GB, TB, %
	Base  string // compared: s, bytes, %
	Scale float64
}{
	"ms": {"ms", "s", 0.001}, "millisecond": {"ms", "s", 0.001}, "milliseconds": {"ms", "s", 0.001}, "msec": {"ms", "s", 0.001},
	"s": {"s", "s", 1}, "sec": {"s", "s", 1}, "secs": {"s", "s", 1}, "second": {"s", "s", 1}, "seconds": {"s", "s", 1},
	"min": {"min", "s", 60}, "mins": {"min", "s", 60}, "minute": {"min", "s", 60}, "minutes": {"min", "s", 60},
	"h": {"h", "s", 3600}, "hr": {"h", "s", 3600}, "hrs": {"h", "s", 3600}, "hour": {"h", "s", 3600}, "hours": {"h", "s", 3600},
	"day": {"d", "s", 86400}, "days": {"d", "s", 86400},
	"b": {"B", "bytes", 1}, "byte": {"B", "bytes", 1}, "bytes": {"B", "bytes", 1},
	"kb": {"KB", "bytes", 1e3}, "kib": {"KiB", "bytes", 1024}, "mb": {"MB", "bytes", 1e6}, "mib": {"MiB", "bytes", 1 << 20},
	"gb": {"GB", "bytes", 1e9}, "gib": {"GiB", "bytes", 1 << 30}, "tb": {"TB", "bytes", 1e12},
	"%": {"%", "%", 1}, "percent": {"%", "%", 1}, "pct": {"%", "%", 1},
}

// comparatorPhrases introduce the number that follows them.
// comparatorPhrases introduce the number that follows them. Negated and
// longer phrases come first: each number takes the first phrase that reads it.
var comparatorPhrases = []struct {
	phrase string
	cmp    Comparator
}{
	{"no more than", CmpLE}, {"not more than", CmpLE}, {"never more than", CmpLE}, {"no greater than", CmpLE},
	{"not to exceed", CmpLE}, {"not exceed", CmpLE}, {"no later than", CmpLE},
	{"no less than", CmpGE}, {"no fewer than", CmpGE}, {"not less than", CmpGE},
	{"a maximum of", CmpLE}, {"maximum of", CmpLE}, {"max of", CmpLE}, {"a minimum of", CmpGE}, {"minimum of", CmpGE},
	{"at most", CmpLE}, {"at least", CmpGE}, {"up to", CmpLE}, {"capped at", CmpLE}, {"cap at", CmpLE},
	{"cap of", CmpLE}, {"limit of", CmpLE}, {"limited to", CmpLE}, {"limit to", CmpLE},
	{"fewer than", CmpLT}, {"less than", CmpLT}, {"shorter than", CmpLT},
	{"more than", CmpGT}, {"greater than", CmpGT},
	{"maximum", CmpLE}, {"max", CmpLE}, {"minimum", CmpGE}, {"min", CmpGE}, {"within", CmpLE},
	{"under", CmpLT}, {"below", CmpLT}, {"over", CmpGT}, {"above", CmpGT}, {"exceed", CmpGT}, {"exceeds", CmpGT},
}

var symbolComparators = []struct {
	sym string
	cmp Comparator
}{{"<=", CmpLE}, {"=<", CmpLE}, {"≤", CmpLE}, {">=", CmpGE}, {"=>", CmpGE}, {"≥", CmpGE}, {"<", CmpLT}, {">", CmpGT}}

// trailingLE follow a number to make it a maximum: "5 files max".
var trailingLE = []string{" max", " maximum", " at most", " or less", " or fewer", " tops", " at the most"}

// countNouns are what a number of things counts; they become the subject.
var countNouns = lex.ToSet(`retry retries attempt attempts try tries file files worker workers thread threads job jobs
request requests call calls line lines token tokens item items connection connections replica replicas
instance instances pod pods node nodes commit commits pr prs character characters char chars step steps
iteration iterations loop loops process processes query queries record records row rows page pages
dependency dependencies package packages change changes edit edits test tests run runs batch batches
user users message messages email emails deploy deploys deployment deployments`)

// FindThresholds finds numeric limits in one sentence.
func FindThresholds(s string) []ThresholdHit {
	lower := lex.FoldLower(s)
	t := &thresholdScan{lower: lower, negated: sentenceNegated(lower), seen: map[int]bool{}}
	t.phrases()
	t.symbols()
	t.trailing()
	return t.out
}

// thresholdScan is FindThresholds' reading of one sentence: the limits
// found, and the numbers already read, by their end.
type thresholdScan struct {
	lower   string
	negated bool
	seen    map[int]bool
	out     []ThresholdHit
}

// occurrences yields the index just past each occurrence of sub in the
// lowered sentence, and where it starts.
func (t *thresholdScan) occurrences(sub string, index func(s, sub string) int) func(yield func(k, from int) bool) {
	return func(yield func(k, from int) bool) {
		from := 0
		for {
			k := index(t.lower[from:], sub)
			if k < 0 {
				return
			}
			k += from
			from = k + len(sub)
			if !yield(k, from) {
				return
			}
		}
	}
}

// phrases reads "at most 3 retries", "under 30s", "no more than 5".
func (t *thresholdScan) phrases() {
	lower := t.lower
	for _, cp := range comparatorPhrases {
		for k, from := range t.occurrences(cp.phrase, indexWord) {
			num, unit, nEnd, ok := numberAfter(lower, from)
			if !ok || t.seen[nEnd] {
				continue
			}
			// "up to date", "over the weekend": only a number makes a limit
			cmp := cp.cmp
			if t.negated && (cmp == CmpGT || cmp == CmpLT) {
				cmp = flip(cmp)
			}
			subject := subjectFor(lower, k, nEnd, unit)
			if subject == "" {
				continue
			}
			t.seen[nEnd] = true
			t.out = append(t.out, ThresholdHit{T: makeThreshold(subject, cmp, num, unit), Start: k, End: nEnd})
		}
	}
}

// symbols reads "retries <= 3", "timeout < 30s".
func (t *thresholdScan) symbols() {
	lower := t.lower
	for _, sc := range symbolComparators {
		for k, from := range t.occurrences(sc.sym, strings.Index) {
			if k > 0 && strings.ContainsRune("<>=", rune(lower[k-1])) {
				continue
			}
			num, unit, nEnd, ok := numberAfter(lower, from)
			if !ok || t.seen[nEnd] {
				continue
			}
			near, _ := lex.NearBefore(lower[:k])
			before := strings.Fields(strings.TrimSpace(near))
			if len(before) == 0 {
				continue
			}
			subject := lex.Stem(strings.Trim(before[len(before)-1], "`'\"*:"))
			if subject == "" || lex.StopWords[subject] {
				continue
			}
			t.seen[nEnd] = true
			t.out = append(t.out, ThresholdHit{T: makeThreshold(subject, sc.cmp, num, unit), Start: max(0, k-len(before[len(before)-1])-1), End: nEnd})
		}
	}
}

// trailing reads "5 files max", "3 retries at most".
func (t *thresholdScan) trailing() {
	lower := t.lower
	for _, tl := range trailingLE {
		for k, from := range t.occurrences(tl, strings.Index) {
			if nEnd := from; nEnd < len(lower) && lex.IsIdentByte(lower[nEnd]) {
				continue
			}
			// walk back over "<number> <noun>"
			near, _ := lex.NearBefore(lower[:k])
			head := strings.Fields(near)
			if len(head) < 2 {
				continue
			}
			noun, numWord := head[len(head)-1], head[len(head)-2]
			num, ok := parseNumber(numWord)
			if _, isUnit := UnitScale[noun]; !ok || !countNouns[noun] && !isUnit {
				continue
			}
			start := strings.LastIndex(lower[:k], numWord)
			if t.seen[k] {
				continue
			}
			t.seen[k] = true
			subject := lex.Stem(noun)
			if _, ok := UnitScale[noun]; ok {
				subject = subjectFor(lower, start, k, noun)
			}
			t.out = append(t.out, ThresholdHit{T: makeThreshold(subject, CmpLE, num, noun), Start: start, End: from})
		}
	}
}

// sentenceNegated reports a negation before a comparison: "never more
// than 3" is at most 3.
func sentenceNegated(lower string) bool {
	for _, n := range []string{"never ", "don't ", "do not ", "must not ", "mustn't ", "should not ", "not "} {
		if strings.Contains(lower, n) {
			return true
		}
	}
	return false
}

func flip(c Comparator) Comparator {
	switch c {
	case CmpGT:
		return CmpLE
	case CmpLT:
		return CmpGE
	}
	return c
}

// indexWord finds phrase in s at word boundaries.
func indexWord(s, phrase string) int {
	return lex.IndexWhere(s, phrase, func(k, end int) bool {
		return (k == 0 || !lex.IsIdentByte(s[k-1])) && (end >= len(s) || !lex.IsIdentByte(s[end]))
	})
}

// numberAfter reads "<number><unit>" or "<number> <unit>" at i.
func numberAfter(s string, i int) (num float64, unit string, end int, ok bool) {
	i = skipWhile(s, i, func(c byte) bool { return c == ' ' || c == ':' || c == '=' })
	num, j, ok := numberAt(s, i)
	if !ok {
		return 0, "", 0, false
	}
	// a unit glued on ("30s", "80%") or as the next word ("30 seconds")
	if k := skipWhile(s, j, isUnitByte); k > j {
		if _, ok := UnitScale[s[j:k]]; ok {
			return num, s[j:k], k, true
		}
		return 0, "", 0, false // "3rd", "2x"
	}
	if unit, k, ok := unitWordAfter(s, j); ok {
		return num, unit, k, true
	}
	return num, "", j, true
}

// numberAt reads the number at s[i], in digits ("3", "0.5") or as a word
// ("three"), and returns where it ends.
func numberAt(s string, i int) (float64, int, bool) {
	j := i
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
		j++
	}
	if j > i {
		n, err := strconv.ParseFloat(s[i:j], 64)
		return n, j, err == nil
	}
	k := skipWhile(s, j, func(c byte) bool { return c >= 'a' && c <= 'z' })
	n, isWord := NumberWords[s[j:k]]
	return n, k, isWord
}

// unitWordAfter reads the unit or counted noun in the word after a number
// ending at j ("30 seconds", "3 retries"), or in the word after that
// ("400 changed lines"), and returns where it ends.
func unitWordAfter(s string, j int) (string, int, bool) {
	w := skipWhile(s, j, func(c byte) bool { return c == ' ' })
	k := skipWhile(s, w, isUnitByte)
	if k == w {
		return "", 0, false
	}
	word := s[w:k]
	if _, ok := UnitScale[word]; ok {
		return word, k, true
	}
	if countNouns[word] || word == "times" || pluralNoun(word) {
		return word, k, true
	}
	// one word between: "400 changed lines", "5 parallel workers"
	w2 := skipWhile(s, k, func(c byte) bool { return c == ' ' })
	k2 := skipWhile(s, w2, func(c byte) bool { return c >= 'a' && c <= 'z' })
	if k2 > w2 && w2 > k && (countNouns[s[w2:k2]] || pluralNoun(s[w2:k2])) && !lex.StopWords[word] {
		return s[w2:k2], k2, true
	}
	return "", 0, false
}

// skipWhile is the first index from i whose byte is not in.
func skipWhile(s string, i int, in func(byte) bool) int {
	for i < len(s) && in(s[i]) {
		i++
	}
	return i
}

// isUnitByte is a byte of a unit word: a lower-case letter or "%".
func isUnitByte(c byte) bool { return c >= 'a' && c <= 'z' || c == '%' }

func parseNumber(w string) (float64, bool) {
	if n, err := strconv.ParseFloat(w, 64); err == nil {
		return n, true
	}
	n, ok := NumberWords[w]
	return n, ok
}

// subjectFor names what a limit constrains: a count noun after the number,
// else the nearest content word before the comparison ("timeout under
// 30s", "retry at most 3 times"), else the word after the unit ("80%
// coverage").
func subjectFor(lower string, cmpStart, numEnd int, unit string) string {
	if countNouns[unit] || pluralNoun(unit) {
		return lex.Stem(unit)
	}
	// the word after the number and unit: "at least 80% coverage"
	if UnitScale[unit].Base == "%" {
		// the head of the noun phrase: "80% test coverage on …" is coverage
		head := ""
		for _, w := range strings.Fields(lex.NearAfter(lower[numEnd:])) {
			w2 := strings.Trim(w, ".,;:")
			if w2 == "" || lex.StopWords[w2] || lex.GenericVerbs[w2] {
				break
			}
			head = w2
			if w2 != w {
				break // punctuation ends the phrase
			}
		}
		if head != "" {
			return lex.Stem(head)
		}
	}
	near, _ := lex.NearBefore(lower[:cmpStart])
	before := lex.Words(near)
	for i := len(before) - 1; i >= 0 && i >= len(before)-4; i-- {
		p := lex.PlainWord(before[i].W)
		if p == "" || lex.StopWords[p] || lex.GenericVerbs[p] || p == "keep" || p == "be" || p == "stay" || p == "set" {
			continue
		}
		if _, isNum := parseNumber(p); isNum {
			continue
		}
		return lex.Stem(p)
	}
	if unit != "" && unit != "times" {
		if u, ok := UnitScale[unit]; ok {
			return GenericSubject[u.Base]
		}
	}
	return ""
}

func makeThreshold(subject string, cmp Comparator, num float64, unit string) Threshold {
	t := Threshold{Subject: subject, Comparator: cmp, Value: num, Base: num}
	if u, ok := UnitScale[unit]; ok {
		t.Unit, t.Base = u.Unit, num*u.Scale
	} else if unit != "" && unit != "times" {
		t.Unit = lex.Stem(unit)
	}
	return t
}

// VagueQuantity and qualitative phrases are what a threshold decays into
// when a summary keeps the subject but loses the number.
var VagueQuantity = []string{"a few", "few", "several", "some", "a couple", "a handful", "a small number",
	"a limited number", "a reasonable number", "multiple", "many", "a bit", "a little", "not many", "a modest number"}

var QualitativeLimit = []string{"should be limited", "be limited", "limited", "limit ", "keep it low", "kept low",
	"keep them low", "minimal", "minimize", "minimise", "sparingly", "not too many", "not too much", "excessive",
	"bounded", "conservative", "reasonable", "keep retries", "keep timeouts", "short", "low", "small", "quick", "fast"}

// pluralNoun reports a word that counts things: "2 engineers", "5 pods".
func pluralNoun(w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || lex.StopWords[w] {
		return false
	}
	if _, isUnit := UnitScale[w]; isUnit {
		return false
	}
	switch w {
	case "times", "this", "was", "has", "is", "as", "us", "its", "yes", "plus", "minus", "always", "perhaps", "thus", "previous", "various", "serious", "status", "bonus", "across", "less", "unless":
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// GenericSubject names a limit that says what it measures but not of what
// ("under 30s"); the names cannot be words, so "batch size" stays a subject.
var GenericSubject = map[string]string{"s": "(duration)", "bytes": "(size)", "%": "(percent)"}

func IsGenericSubject(s string) bool {
	for _, g := range GenericSubject {
		if s == g {
			return true
		}
	}
	return false
}
