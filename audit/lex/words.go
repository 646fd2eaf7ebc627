// Package lex owns the words of text as the audit reads them: sentences
// (with code fences left out), words and identifier parts, case folding,
// stems and term sets, and the searches for a word or a literal at word
// boundaries. Its functions are pure and know nothing of transcripts,
// obligations or the ledger: every package above it may use it, and it
// imports none of them.
package lex

import (
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
// identifiers (acme-prod yields acme-prod, acme and prod), sorted and
// without repeats. A slice, not a map: a summary that restates a hundred
// thousand rules has a set for each of its sentences, and a map of a few
// terms took several times their bytes.
type TermSet []string

func TermsOf(text string) TermSet {
	return TermSet(nil).With(text)
}

// With returns the set with the terms of text put in.
func (t TermSet) With(text string) TermSet { return t.appendTerms(text).settle() }

// appendTerms appends the terms of text, unsorted.
func (t TermSet) appendTerms(text string) TermSet {
	for w := range wordSeq(text) {
		t = append(t, Stem(w.W))
		if strings.ContainsAny(w.W, "_-./:@=") {
			for _, part := range SplitIdent(w.W) {
				t = append(t, Stem(part))
			}
		}
	}
	return t
}

// settle sorts the terms and drops repeats, holding no spare room.
func (t TermSet) settle() TermSet {
	slices.Sort(t)
	return slices.Clip(slices.Compact(t))
}

// Kept is the set in an array of its size, for a set kept long: the one
// appending grew holds up to twice the room.
func (t TermSet) Kept() TermSet {
	if cap(t)-len(t) <= len(t)/8 {
		return t
	}
	return append(make(TermSet, 0, len(t)), t...)
}

// TermsOfAll is the terms of every text, gathered: no word runs from one
// text into the next.
func TermsOfAll(texts ...string) TermSet {
	var t TermSet
	for _, text := range texts {
		t = t.appendTerms(text)
	}
	return t.settle()
}

// UnionOf is every term of the sets.
func UnionOf(sets []TermSet) TermSet {
	var t TermSet
	for _, u := range sets {
		t = append(t, u...)
	}
	return t.settle()
}

// Has reports whether x is in the set.
func (t TermSet) Has(x string) bool {
	_, ok := slices.BinarySearch(t, x)
	return ok
}

// HasAll reports whether every term is in the set.
func (t TermSet) HasAll(terms []string) bool {
	for _, x := range terms {
		if !t.Has(x) {
			return false
		}
	}
	return len(terms) > 0
}

// SplitIdent cuts an identifier into its alphanumeric parts.
func SplitIdent(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// IsIdentByte is a byte of an identifier: a word byte (isWordByte) or
// any byte of a rune past ASCII.
func IsIdentByte(c byte) bool { return IsWordByte(c) || c >= 0x80 }

// IsWordByte is \w, as \b reads it: ASCII letters, digits and '_'.
func IsWordByte(c byte) bool { return c == '_' || IsDigit(c) || AsciiLetter(c) }

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

func IsDigit(c byte) bool { return c >= '0' && c <= '9' }
