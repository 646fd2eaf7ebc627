package tag

import (
	"cmp"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
)

// AppendLabelled finds names called out by a label word: "bucket X",
// "the X branch", "port 8080". A label's name is the word before or after
// it, so the words go by in a window of three: a pasted log of millions of
// words needs no list of them.
func AppendLabelled(text string, hits []LiteralHit) []LiteralHit {
	var win [3]lex.Word // the two words before the newest, and the newest
	n := 0
	visit := func(ws []lex.Word, i int) {
		if label := labelOf(ws[i].W); label != "" {
			hits = AppendLabelHit(hits, text, ws, i, label)
		}
	}
	for w := range lex.WordsOf(text, false) {
		win[0], win[1], win[2] = win[1], win[2], w
		n++
		switch {
		case n >= 3:
			visit(win[:], 1) // the word before the newest, with both neighbours
		case n == 2:
			visit(win[1:], 0)
		}
	}
	switch {
	case n >= 2:
		visit(win[1:], 1) // the last word, with the one before it
	case n == 1:
		visit(win[2:], 0)
	}
	return hits
}

// AppendLabelHit adds the name the label word ws[i] calls out, if any.
// The words may be lowered or as written.
func AppendLabelHit(hits []LiteralHit, text string, ws []lex.Word, i int, label string) []LiteralHit {
	// Label then name: "branch release-2", "port 8080"
	if i+1 < len(ws) {
		n := ws[i+1]
		raw := text[n.Start:n.End]
		if label == "port" && AllDigits(raw) && len(raw) >= 2 && len(raw) <= 5 {
			return append(hits, LiteralHit{Value: raw, Kind: "port", Label: "port", Start: n.Start, End: n.End})
		}
		if labelledName(raw) {
			return append(hits, LiteralHit{Value: raw, Kind: "name", Label: label, Start: n.Start, End: n.End})
		}
	}
	// name then label: "the acme-stage-07 bucket"
	if i > 0 {
		p := ws[i-1]
		raw := text[p.Start:p.End]
		if labelledName(raw) && !lex.StopWords[lex.FoldLower(lex.PlainWord(p.W))] {
			return append(hits, LiteralHit{Value: raw, Kind: "name", Label: label, Start: p.Start, End: p.End})
		}
	}
	return hits
}

// labelOf is the label word a word of a text is, lowered and trimmed of
// what is not a letter, or "". It lowers only a word as long as a label
// word: plainWord and foldLower commute, and every label word is ASCII.
func labelOf(w string) string {
	if w == "" {
		return ""
	}
	if !asciiAlnum(w[0]) || !asciiAlnum(w[len(w)-1]) {
		// plainWord trims the ends only, and a word that keeps anything
		// but ASCII letters is no label word: most words of code
		w = lex.PlainWord(w)
	}
	if len(w) < MinLabelWord || len(w) > MaxLabelWord {
		return ""
	}
	var lower [MaxLabelWord]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	if c := lower[0]; c < 'a' || c > 'z' || !labelShapes[len(w)][c-'a'] {
		return "" // most words of code are within the lengths
	}
	return labelNames[string(lower[:len(w)])]
}

// labelShapes marks the length and first letter of each label word.
var labelShapes = func() (t [MaxLabelWord + 1][26]bool) {
	for w := range LabelWords {
		t[len(w)][w[0]-'a'] = true
	}
	return t
}()

func asciiAlnum(c byte) bool { return lex.AsciiLetter(c) || '0' <= c && c <= '9' }

// labelNames maps each label word to itself, so a hit's label is the
// word of the set, not a copy: code names "file", "path" and "key" often.
var labelNames = func() map[string]string {
	m := map[string]string{}
	for w := range LabelWords {
		m[w] = w
	}
	return m
}()

// The shortest and longest label words.
const MinLabelWord, MaxLabelWord = 2, 12

// labelledName accepts a token a label word points at: it must look like
// a name (a separator or a digit), not an ordinary word.
func labelledName(t string) bool {
	// "any service, e.g. the web one": an abbreviation names nothing
	if len(t) < 2 || lex.StopWords[lex.FoldLower(t)] || lex.IsAbbrevEnd(t) {
		return false
	}
	return strings.ContainsAny(t, "-_.0123456789/") && !AllDigits(t)
}

// DedupeHits keeps one hit per span: overlapping hits keep the most
// specific kind, and a label found for a span is carried over. Each hit
// is merged into the first kept hit it overlaps, in the order they were
// kept.
func DedupeHits(hits []LiteralHit) []LiteralHit {
	var out []LiteralHit
	var index hitIndex
	for _, h := range hits {
		h.Value = strings.Trim(h.Value, "`'\"")
		if h.Value == "" {
			continue
		}
		k := index.firstOverlap(out, h)
		if k < 0 {
			out = append(out, h)
			index.add(out, len(out)-1)
			continue
		}
		o := &out[k]
		if h.Label != "" && o.Label == "" {
			o.Label = h.Label
		}
		if LiteralRank[h.Kind] < LiteralRank[o.Kind] || h.End-h.Start > o.End-o.Start && LiteralRank[h.Kind] <= LiteralRank[o.Kind] {
			label := o.Label
			index.remove(out, k)
			*o = h
			if o.Label == "" {
				o.Label = label
			}
			index.add(out, k)
		}
	}
	// by position, for stable output
	slices.SortStableFunc(out, func(a, b LiteralHit) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// hitIndex finds the kept hits a hit overlaps without walking them all: a
// pasted list or a written fixture file holds tens of thousands of
// Literals, and a walk for each would cost the square of that. Up to
// hitIndexFrom kept hits it is the walk; past that the hits are found by
// their starts, in buckets of 64 bytes, among those that can reach the hit.
type hitIndex struct {
	buckets map[int][]int // start/64 → kept hits, by their place in out
	maxSpan int           // the longest kept hit
}

const hitIndexFrom = 16

func (x *hitIndex) firstOverlap(out []LiteralHit, h LiteralHit) int {
	if x.buckets == nil {
		for k := range out {
			if overlaps(h, out[k]) {
				return k
			}
		}
		return -1
	}
	first := -1
	// a kept hit that overlaps h starts after h.start-maxSpan and before h.end
	for b := max(0, h.Start-x.maxSpan) >> 6; b <= (h.End-1)>>6; b++ {
		for _, k := range x.buckets[b] {
			if (first < 0 || k < first) && overlaps(h, out[k]) {
				first = k
			}
		}
	}
	return first
}

func (x *hitIndex) add(out []LiteralHit, k int) {
	x.maxSpan = max(x.maxSpan, out[k].End-out[k].Start)
	if x.buckets == nil {
		if len(out) <= hitIndexFrom {
			return
		}
		x.buckets = map[int][]int{}
		for i := range out[:k] {
			x.put(out, i)
		}
	}
	x.put(out, k)
}

func (x *hitIndex) put(out []LiteralHit, k int) {
	b := max(0, out[k].Start) >> 6
	x.buckets[b] = append(x.buckets[b], k)
}

func (x *hitIndex) remove(out []LiteralHit, k int) {
	if x.buckets == nil {
		return
	}
	b := max(0, out[k].Start) >> 6
	x.buckets[b] = slices.DeleteFunc(x.buckets[b], func(i int) bool { return i == k })
}
