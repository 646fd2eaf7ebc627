package lex

import (
	"sort"
	"strings"
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
