// Package lex owns the words of text as the audit reads them: sentences
// (with code fences left out), words and identifier parts, case folding,
// stems and term sets, and the searches for a word or a literal at word
// boundaries. Its functions are pure and know nothing of transcripts,
// obligations or the ledger: every package above it may use it, and it
// imports none of them.
package lex

import (
	"encoding/binary"
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is a span of text ending at a sentence or line break.
type Sentence struct {
	Text  string
	Start int // byte offset in the event text
}

// MaxSentence bounds the sentence an obligation keeps, to be read in
// context. Real sentences are far shorter (154 bytes at most in
// ../shared/corpus); a pasted list or blob with no full stop or line break
// is one "sentence", and every literal in it would keep a copy of all of
// it: 30,000 buckets in a 1.2 MB line took the audit past 24 GB.
const MaxSentence = 1 << 10

// Around is the sentence, or where it is longer than maxSentence, the
// Stretch of it around text[start:end] (offsets in the sentence), marked
// with "…" where it was cut.
func (s Sentence) Around(start, end int) string {
	lo, hi := Stretch(s.Text, start, end)
	out := s.Text[lo:hi]
	if lo > 0 {
		out = "…" + out
	}
	if hi < len(s.Text) {
		out += "…"
	}
	return out
}

// Stretch is the part of t, at most maxSentence bytes long unless the span
// t[start:end] is longer, that holds the span, centred on it and cut at
// spaces where it can be, never inside a character.
func Stretch(t string, start, end int) (lo, hi int) {
	if len(t) <= MaxSentence {
		return 0, len(t)
	}
	lo = max(0, min(start, (start+end)/2-MaxSentence/2))
	hi = min(len(t), max(end, lo+MaxSentence))
	if i := strings.IndexByte(t[lo:start], ' '); lo > 0 && i >= 0 {
		lo += i + 1
	}
	if i := strings.LastIndexByte(t[end:hi], ' '); hi < len(t) && i >= 0 {
		hi = end + i
	}
	for lo > 0 && lo < start && !utf8.RuneStart(t[lo]) {
		lo++
	}
	for hi < len(t) && hi > end && !utf8.RuneStart(t[hi]) {
		hi--
	}
	return lo, hi
}

// Sentences splits text at sentence ends, line breaks and semicolons, and
// leaves fenced code blocks out: code is not an instruction in prose.
func Sentences(text string) []Sentence {
	c := SentenceCursor{Text: text}
	for c.more() {
	}
	return c.list
}

// SentenceCursor splits a text into sentences only as far as they are
// read: a pasted document's million sentences are not listed when its
// tagging stops at MaxMessageObligations.
type SentenceCursor struct {
	Text      string
	lineStart int // of the next line to split
	inFence   bool
	done      bool         // every line taken
	line      lineSplitter // the line being split, when split is set
	split     bool
	list      []Sentence // so far, in order
}

// more lists the next sentence, and reports whether there was one.
func (c *SentenceCursor) more() bool {
	for {
		if c.split {
			if s, ok := c.line.next(); ok {
				c.list = append(c.list, s)
				return true
			}
			c.split = false
		}
		if c.done {
			return false
		}
		end := strings.IndexByte(c.Text[c.lineStart:], '\n')
		if end < 0 {
			end = len(c.Text)
		} else {
			end += c.lineStart
		}
		line := c.Text[c.lineStart:end]
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			c.inFence = !c.inFence
		} else if !c.inFence && trimmed != "" {
			c.line, c.split = lineSplitter{line: line, base: c.lineStart}, true
		}
		if end == len(c.Text) {
			c.done = true
		}
		c.lineStart = end + 1
	}
}

// At is the i-th sentence, if the text has that many.
func (c *SentenceCursor) At(i int) (Sentence, bool) {
	for i >= len(c.list) {
		if !c.more() {
			return Sentence{}, false
		}
	}
	return c.list[i], true
}

// Holding is the sentence that holds the byte at offset at, if one does:
// Sentences come in order, so once one starts past at, every one that
// could hold it is listed.
func (c *SentenceCursor) Holding(at int) (Sentence, bool) {
	for len(c.list) == 0 || c.list[len(c.list)-1].Start <= at {
		if !c.more() {
			break
		}
	}
	k := sort.Search(len(c.list), func(j int) bool { return c.list[j].Start > at }) - 1
	if k >= 0 && at < c.list[k].Start+len(c.list[k].Text) {
		return c.list[k], true
	}
	return Sentence{}, false
}

// lineSplitter cuts one line, a sentence at a time, at ". ", "! ", "? "
// and "; " when what follows starts a new sentence. A dot inside a token
// (file.go, v1.2, s3://a.b/) does not end a sentence.
type lineSplitter struct {
	line     string
	base     int // the line's offset in the text
	i, start int
	ended    bool // the line's last sentence was handed out
}

// next is the line's next sentence, or false at its end.
func (sp *lineSplitter) next() (Sentence, bool) {
	line := sp.line
	for ; sp.i < len(line); sp.i++ {
		c := line[sp.i]
		if c != '.' && c != '!' && c != '?' && c != ';' {
			continue
		}
		next := sp.i + 1
		// closing marks may follow the stop: "this.**", "done.)"
		for next < len(line) && strings.IndexByte("*_`)\"'", line[next]) >= 0 {
			next++
		}
		if next < len(line) && line[next] != ' ' && line[next] != '\t' {
			continue
		}
		if c == '.' && IsAbbrevEnd(line[sp.start:sp.i]) {
			continue
		}
		from := sp.start
		sp.start = next
		if s := strings.TrimSpace(line[from:next]); s != "" {
			sp.i++
			return Sentence{Text: s, Start: sp.base + from + leadingSpace(line[from:])}, true
		}
	}
	if !sp.ended {
		sp.ended = true
		if s := strings.TrimSpace(line[sp.start:]); s != "" {
			return Sentence{Text: s, Start: sp.base + sp.start + leadingSpace(line[sp.start:])}, true
		}
	}
	return Sentence{}, false
}

func leadingSpace(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// IsAbbrevEnd reports a dot that ends "e.g", "i.e", "etc", "vs" and the like.
func IsAbbrevEnd(before string) bool {
	w := before
	if i := strings.LastIndexAny(w, " \t("); i >= 0 {
		w = w[i+1:]
	}
	switch FoldLower(w) {
	case "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "no", "nr", "dr", "mr", "ms", "mrs":
		return true
	}
	return false
}

// Word is a lower-cased word of a sentence with its byte span.
type Word struct {
	W          string // lower case, as written
	Start, End int
}

// Words splits a sentence into words: runs of letters, digits and the
// characters that hold identifiers together (_ - . / : @ ~ = + %).
// Surrounding punctuation is dropped.
func Words(s string) []Word { return AppendWords(nil, s) }

// AppendWords is words appending to out.
func AppendWords(out []Word, s string) []Word { return slices.AppendSeq(out, wordSeq(s)) }

// wordSeq yields the words of s one by one, for a reader that needs no
// list: a command can carry a megabyte of heredoc. ASCII, most of any
// Text, is judged by a table; other runes by isWordRune (FuzzAppendWords
// holds the two to the rune-by-rune walk).
func wordSeq(s string) iter.Seq[Word] { return WordsOf(s, true) }

// WordsOf is wordSeq, with each word lowered or as written.
func WordsOf(s string, lower bool) iter.Seq[Word] {
	return func(yield func(Word) bool) {
		i := 0
		for i < len(s) {
			// ASCII by the table here: wordRuneAt is too large to inline,
			// and a call a byte was most of a search for labels in code
			if c := s[i]; c < utf8.RuneSelf && !asciiWordByte[c] {
				i++
				continue
			}
			in, size := wordRuneAt(s, i)
			if !in {
				i += size
				continue
			}
			j := i + size
			for j < len(s) {
				if c := s[j]; c < utf8.RuneSelf {
					if !asciiWordByte[c] {
						break
					}
					j++
					continue
				}
				in, size := wordRuneAt(s, j)
				if !in {
					break
				}
				j += size
			}
			// surrounding punctuation is not part of the word
			b, e := i, j
			for e > b && trailingPunct(s[e-1]) {
				e--
			}
			for b < e && leadingPunct(s[b]) {
				b++
			}
			if e > b {
				w := s[b:e]
				if lower {
					w = FoldLower(w)
				}
				if !yield(Word{W: w, Start: b, End: e}) {
					return
				}
			}
			i = j
		}
	}
}

// asciiWordByte is isWordRune for ASCII.
var asciiWordByte = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = IsWordRune(rune(c))
	}
	return t
}()

func wordRuneAt(s string, i int) (in bool, size int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiWordByte[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return IsWordRune(r), size
}

func trailingPunct(c byte) bool {
	switch c {
	case '.', ':', ',', '-', '/', '=', '+':
		return true
	}
	return false
}

func leadingPunct(c byte) bool {
	switch c {
	case '.', ':', ',', '=', '+':
		return true
	}
	return false
}

func IsWordRune(r rune) bool {
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return true
	}
	switch r {
	case '_', '-', '.', '/', ':', '@', '~', '=', '+', '%', '$', '#', '\'', '’':
		return true
	}
	return false
}

// PlainWord strips a word to its letters and digits, for stop-word lookup.
func PlainWord(w string) string {
	return strings.TrimFunc(strings.ReplaceAll(w, "’", "'"), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// aliases maps words to one canonical form, so "production" in a summary
// meets "prod" in the user's rule.
var aliases = map[string]string{
	"production": "prod", "prd": "prod", "live": "prod",
	"staging": "stage", "stg": "stage",
	"development": "dev",
	"database":    "db", "databases": "db",
	"repository": "repo", "repositories": "repo",
	"configuration": "config", "cfg": "config",
	"environment": "env", "environments": "env",
	"retries": "retry", "retried": "retry", "retrying": "retry", "attempt": "retry", "attempts": "retry", "tries": "retry",
	"workers": "worker", "threads": "worker", "thread": "worker", "concurrency": "worker", "parallelism": "worker",
	"timeouts": "timeout", "deadline": "timeout",
	"secs": "second", "sec": "second", "seconds": "second",
	"mins": "minute", "minutes": "minute",
	"commits": "commit", "committed": "commit", "committing": "commit",
	"deploys": "deploy", "deployed": "deploy", "deploying": "deploy", "deployment": "deploy", "deployments": "deploy",
	"pushes": "push", "pushed": "push", "pushing": "push",
	"deleting": "delete", "deleted": "delete", "deletes": "delete", "deletion": "delete",
	"migrations": "migration", "migrate": "migration", "migrating": "migration",
	"tests": "test", "testing": "test", "tested": "test",
}

// Stem reduces a word to a comparable form: its alias, or the word without
// common inflections. It is deliberately crude and symmetric: both sides of
// every comparison go through it.
func Stem(w string) string {
	w = FoldLower(w)
	if a, ok := aliases[w]; ok {
		return trimE(a)
	}
	if strings.ContainsAny(w, "_-./:@0123456789") {
		return w // an identifier is compared as written
	}
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:n-2])
	case n > 4 && strings.HasSuffix(w, "es") && strings.ContainsAny(w[n-3:n-2], "sxz"):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		w = w[:n-1]
	}
	if a, ok := aliases[w]; ok {
		return trimE(a)
	}
	return trimE(w)
}

// trimE drops a final e so "stage" and "stag(ing)", "write" and
// "writ(ing)" meet.
func trimE(w string) string {
	if len(w) > 4 && strings.HasSuffix(w, "e") {
		return w[:len(w)-1]
	}
	return w
}

// undouble turns "runn" (from running) back into "run".
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// StopWords carry no object of their own.
var StopWords = ToSet(`a an the this that these those it its it's any all some each every
to of in on at by for from with into onto over about as than then
and or but nor so yet if unless until while when where which who whom whose what why how
against across through via per without within between before after during toward towards upon around behind beyond inside outside near onto off out up down
is are was were be been being am do does did done doing have has had having
i me my we us our you your he she they them their
not no never don't dont do-not must mustn't should shouldn't shall will would can could may might
please just also only ever again anything everything something nothing anyone anybody
there here now yet still even very really either neither too sure
directly straight manually automatically immediately yourself anymore accidentally unnecessarily just`)

// GenericVerbs name an action without saying which; the object decides.
var GenericVerbs = ToSet(`touch use using used modify modifying change changing edit editing access accessing
call calling invoke run running execute executing make do go try write writing work working mess handle interact`)

func ToSet(s string) map[string]bool {
	words := strings.Fields(s)
	// sized ahead: grown a word at a time, the package's thirty-odd sets
	// were rehashed over and over as the process started
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// ContentTerms returns the stemmed words of a phrase that say what it is
// about: no stop words, no generic verbs.
func ContentTerms(phrase string) []string {
	var out []string
	var seen map[string]bool // once the list is long: a pasted list is one phrase
	for _, w := range Words(phrase) {
		p := PlainWord(w.W)
		if p == "" || StopWords[p] || GenericVerbs[p] {
			continue
		}
		s := Stem(w.W)
		if s == "" || GenericVerbs[s] || seen == nil && ContainsStr(out, s) || seen[s] {
			continue
		}
		out = append(out, s)
		if seen == nil && len(out) > 16 {
			seen = make(map[string]bool, 2*len(out))
			for _, t := range out {
				seen[t] = true
			}
		} else if seen != nil {
			seen[s] = true
		}
	}
	return out
}

func ContainsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TermSet is the stems of every word of a text, and of the parts of its
// identifiers (acme-prod yields acme-prod, acme and prod).
type TermSet map[string]bool

func TermsOf(text string) TermSet {
	set := TermSet{}
	set.Add(text)
	return set
}

// Add puts the terms of text in the set.
func (t TermSet) Add(text string) {
	for w := range wordSeq(text) {
		t[Stem(w.W)] = true
		if strings.ContainsAny(w.W, "_-./:@=") {
			for _, part := range SplitIdent(w.W) {
				t[Stem(part)] = true
			}
		}
	}
}

// SplitIdent cuts an identifier into its alphanumeric parts.
func SplitIdent(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// HasAll reports whether every term is in the set.
func (t TermSet) HasAll(terms []string) bool {
	for _, x := range terms {
		if !t[x] {
			return false
		}
	}
	return len(terms) > 0
}

func IndexFold(hay, needle string) int {
	if needle == "" {
		return -1
	}
	return IndexLower(FoldLower(hay), FoldLower(needle))
}

func boundaryBefore(s string, i int, needle string) bool {
	if i == 0 || !IsIdentByte(needle[0]) {
		return true
	}
	return !IsIdentByte(s[i-1])
}

func boundaryAfter(s string, end int, needle string) bool {
	if end >= len(s) || !IsIdentByte(needle[len(needle)-1]) {
		return true
	}
	return !IsIdentByte(s[end])
}

// IsIdentByte is a byte of an identifier: a word byte (isWordByte) or
// any byte of a rune past ASCII.
func IsIdentByte(c byte) bool { return IsWordByte(c) || c >= 0x80 }

// IsWordByte is \w, as \b reads it: ASCII letters, digits and '_'.
func IsWordByte(c byte) bool { return c == '_' || IsDigit(c) || AsciiLetter(c) }

// Clip shortens s to at most n bytes, marking the cut. It cuts at the last
// white space within the n bytes, so a word is shown whole or not at all: a
// key or a token cut in two no longer has the shape --redact looks for, and
// the reports showed its first part. Only a first word longer than n bytes
// is cut inside, on a rune boundary.
func Clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexAny(s[:n+1], " \t\n\r\f\v")
	if cut <= 0 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

// FoldLower lowers s without changing its length in bytes, so an offset
// found in the lowered text is an offset in s. strings.ToLower does not
// promise that: it turns an invalid byte into a three-byte U+FFFD, and a
// few letters into letters of another length (İ into i, the Kelvin sign
// into k). Those are left as they are.
func FoldLower(s string) string {
	lower, _ := FoldLowerInto(s, nil)
	return lower
}

// FoldKey is s with each rune replaced by the least rune of its simple
// case-folding orbit, and each byte that is no rune by U+FFFD, as
// strings.EqualFold decodes it: two strings have one key exactly when
// EqualFold says they are equal, so a map keyed by it finds what a scan
// with EqualFold would.
func FoldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s) // 'A' is the least of {a, A}, 'K' of {k, K, U+212A}
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// FoldLowerInto is foldLower lowering, when it must, in scratch (grown as
// needed, and returned for the next call); the string it returns is its
// own.
func FoldLowerInto(s string, scratch []byte) (string, []byte) {
	// most text has nothing to lower: find the first byte that might,
	// eight at a time while they are ASCII
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if w := Le64(s[i:]); w&LaneHigh != 0 || LowerWord(w) != w {
			break
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s, scratch
	}
	// lowered in place in a copy: tool output is mostly ASCII with a few
	// runes (box drawing, quotes), and only those need decoding
	b := append(scratch[:0], s...)
	for i < len(b) {
		if i+8 <= len(b) {
			if w := Le64(s[i:]); w&LaneHigh == 0 {
				binary.LittleEndian.PutUint64(b[i:], LowerWord(w))
				i += 8
				continue
			}
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		i = LowerRuneAt(b, s, i)
	}
	return string(b), b
}

// LowerRuneAt lowers the rune that begins at s[i] past ASCII into b, a
// copy of s, when its lower case is as long, and returns where the next
// begins; a byte that is no rune is left as it is.
func LowerRuneAt(b []byte, s string, i int) int {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return i + 1
	}
	if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == n {
		utf8.EncodeRune(b[i:], l)
	}
	return i + n
}

// maxObject bounds an object phrase. What a rule forbids or asks for is a
// few words ("prod", "push to main without review"); unbounded, each
// "never" of a pasted list with no full stop took the rest of the list as
// its object, and its search for where the object ends read the rest too:
// 4,000 of them in 24 KB took 2 seconds to audit, 20,000 took 54.
const maxObject = 256

// NearAfter is the start of s, at most maxObject bytes of it, cut at a
// Word: where a reading looks for the few words after a phrase, without
// reading the whole rest of the sentence (a pasted list with no full stop
// is one sentence).
func NearAfter(s string) string {
	if len(s) <= maxObject {
		return s
	}
	cut := strings.LastIndexByte(s[:maxObject], ' ')
	if cut <= 0 {
		cut = maxObject
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
	}
	return s[:cut]
}

// NearBefore is the end of s, at most maxObject bytes of it, from a word's
// Start, and where it starts in s: nearAfter for the words before a phrase.
func NearBefore(s string) (string, int) {
	if len(s) <= maxObject {
		return s, 0
	}
	off := len(s) - maxObject
	if s[off-1] != ' ' {
		if sp := strings.IndexByte(s[off:], ' '); sp >= 0 {
			off += sp + 1
		}
	}
	for off < len(s) && !utf8.RuneStart(s[off]) {
		off++
	}
	return s[off:], off
}

// AsciiLetters reports whether w is all ASCII letters, which plainWord
// returns unchanged.
func AsciiLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if !AsciiLetter(w[i]) {
			return false
		}
	}
	return true
}

// AsciiLetter reports an ASCII letter of either case.
func AsciiLetter(c byte) bool { c |= 0x20; return c >= 'a' && c <= 'z' }

// rawTokens are the whitespace tokens of the text, found once.
// IndexLower is indexFold for a haystack and a needle already lower-cased.
func IndexLower(lh, ln string) int {
	if ln == "" {
		return -1
	}
	return IndexWhere(lh, ln, func(i, _ int) bool { return WordAt(lh, i, ln) })
}

// WordAt reports whether ln, standing in lh at i, stands there on word
// boundaries as indexLower reads them.
func WordAt(lh string, i int, ln string) bool {
	return boundaryBefore(lh, i, ln) && boundaryAfter(lh, i+len(ln), ln)
}

// IndexWhere is the first index of sub in s at which at(start, end) holds,
// or -1.
func IndexWhere(s, sub string, at func(start, end int) bool) int {
	from := 0
	for {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return -1
		}
		i += from
		if at(i, i+len(sub)) {
			return i
		}
		from = i + 1
	}
}

func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// Bytes as eight lanes of a word, for the word-at-a-time scans of the hash
// and the token search.
const (
	Lanes    = 0x0101010101010101
	LaneHigh = 0x8080808080808080
)

// Le64 reads eight bytes little-endian, as one load.
func Le64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// LowerWord lowers the ASCII capitals among eight bytes at once; bytes
// with the high bit set are left alone.
func LowerWord(w uint64) uint64 {
	b := w &^ LaneHigh
	atLeastA := b + (0x80-'A')*Lanes // high bit set where the byte is >= 'A'
	pastZ := b + (0x80-'Z'-1)*Lanes  // high bit set where the byte is > 'Z'
	upper := atLeastA &^ pastZ &^ w & LaneHigh
	return w | upper>>2 // 0x80 >> 2 is the 0x20 between the cases
}
