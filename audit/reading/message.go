package reading

import (
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/tag"
)

// MessageContent is what an outbound message cites and claims.
type MessageContent struct {
	Text        string   // kept only when the message cites or claims something
	Citations   []string // entry:4471, rev 8, task B, hashes
	Categorical []string // "the completed tasks"
	Confidence  float64
	HasConf     bool
	Completes   []string // keys the message asserts complete
}

// ReadMessageContent reads a message's citations and claims from its text and
// Literals. Only a message that cites or claims something keeps its text: a
// long run has many plain messages, and the rules quote only the others.
func ReadMessageContent(text string, literals []tag.LiteralHit, claims []SentenceClaims) *MessageContent {
	m := &MessageContent{}
	seen := map[string]bool{}
	cite := func(s string) {
		if !seen[s] {
			seen[s] = true
			m.Citations = append(m.Citations, s)
		}
	}
	for _, h := range literals {
		if h.Kind == "id" || h.Kind == "hash" {
			cite(h.Value)
		}
	}
	lower := lex.FoldLower(text)
	if strings.Contains(lower, "rev") || hasRNumber(lower) {
		for _, r := range revisionRE().FindAllString(text, -1) {
			cite(r)
		}
	}
	if MayReferTask(lower) {
		for _, t := range TaskRefRE().FindAllString(text, -1) {
			cite(t)
		}
	}
	if (strings.Contains(lower, "the ") || strings.Contains(lower, "all ") || strings.Contains(lower, "both ")) && tag.ContainsAny(lower, categoricalNouns) {
		m.Categorical = categoricalRE().FindAllString(text, -1)
	}
	if c, ok := ConfidenceOf(text, lower); ok {
		v := strings.TrimSpace(strings.TrimSuffix(c, "%"))
		f, _ := strconv.ParseFloat(v, 64) // digits and a point, as confidenceOf read them
		if strings.HasSuffix(c, "%") {
			f /= 100
		}
		m.Confidence, m.HasConf = f, true
	}
	for _, c := range claims {
		for _, st := range c.Statuses {
			if st.Value == runstate.StatusDone {
				m.Completes = append(m.Completes, st.Subject)
			}
		}
	}
	if len(m.Citations) == 0 && len(m.Categorical) == 0 && !m.HasConf && len(m.Completes) == 0 {
		return PlainContent
	}
	// the run's history outlives the message's text
	m.Text = strings.Clone(lex.Clip(text, 400))
	m.Citations, m.Categorical, m.Completes = CloneStrings(m.Citations), CloneStrings(m.Categorical), CloneStrings(m.Completes)
	return m
}

// SentenceClaims is what one sentence of the agent's own words commits to
// or claims.
type SentenceClaims struct {
	Sentence  lex.Sentence
	Commit    tag.Directive
	HasCommit bool
	Statuses  []tag.Status
}

// AssistantClaims reads the commitments and status claims of the agent's
// words; only the sentences that make one are kept.
func AssistantClaims(text string) []SentenceClaims {
	var out []SentenceClaims
	for _, s := range lex.Sentences(text) {
		c := SentenceClaims{Sentence: s}
		c.Commit, c.HasCommit = tag.FindCommitment(s.Text)
		c.Statuses = runstate.TextStatuses(s.Text)
		if c.HasCommit || len(c.Statuses) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func CloneStrings(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = strings.Clone(s)
	}
	return out
}

// PlainContent is the content of every message that cites and claims
// nothing. It is never written to.
var PlainContent = &MessageContent{}

// hasRNumber spots "r12", the short form revisionRE reads, before the
// expression runs.
func hasRNumber(lower string) bool {
	for i := strings.IndexByte(lower, 'r'); i >= 0 && i+2 < len(lower); {
		if lower[i+1] >= '0' && lower[i+1] <= '9' && lower[i+2] >= '0' && lower[i+2] <= '9' {
			return true
		}
		j := strings.IndexByte(lower[i+1:], 'r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// MayReferTask reports whether lower, a message folded to lower case, holds
// "task", "tasks", "entry" or "key" followed by a space: what taskRefRE
// needs before it can match, checked first. A run's messages name tasks
// as task/35 far more often than as "task 35", and the expression, tried
// at every byte of each, cost about a tenth of a multi-agent audit's reading.
func MayReferTask(lower string) bool {
	for _, w := range []string{"task", "entry", "key"} {
		for i := 0; ; {
			j := strings.Index(lower[i:], w)
			if j < 0 {
				break
			}
			i += j + len(w)
			k := i
			if w == "task" && k < len(lower) && lower[k] == 's' {
				k++
			}
			if k < len(lower) && strings.IndexByte(" \t\n\f\r\v", lower[k]) >= 0 {
				return true
			}
		}
	}
	return false
}

// ConfidenceOf reads the confidence a message states — "confidence 0.8",
// "Confidence: .75", "confidence is 90 %" — as the text of its number. It
// is what the expression
//
//	(?i)\bconfidence\s*(?:[:=]|is|of)?\s*(0?\.\d+|1\.0|\d{1,3}\s*%)
//
// captures at its leftmost match (the test holds it to that expression),
// written out because a run's messages state one each, and the expression
// cost about a twentieth of reading a multi-agent run. lower is text
// through foldLower, which keeps every byte's offset and lowers only ASCII
// letters to ASCII ones.
func ConfidenceOf(text, lower string) (string, bool) {
	const word = "confidence"
	for from := 0; ; {
		j := strings.Index(lower[from:], word)
		if j < 0 {
			return "", false
		}
		at := from + j
		from = at + 1
		if at > 0 && lex.IsWordByte(text[at-1]) {
			continue // \b
		}
		k := tag.SkipRegexpSpace(lower, at+len(word))
		switch {
		case k < len(lower) && (lower[k] == ':' || lower[k] == '='):
			k++
		case strings.HasPrefix(lower[k:], "is"), strings.HasPrefix(lower[k:], "of"):
			k += 2
		case strings.HasPrefix(lower[k:], "i\u017f"): // (?i) folds s with the long s
			k += 3
		}
		// no digit, point or percent sign starts the separator, so taking
		// it whenever it is there loses no match
		if n := confidenceNumber(text[tag.SkipRegexpSpace(lower, k):]); n != "" {
			return n, true
		}
	}
}

// categoricalNouns are the words categoricalRE needs, checked first.
var categoricalNouns = []string{"tasks", "entries", "items", "keys", "ones", "jobs", "records", "tickets", "issues", "rows", "shards", "steps", "fields", "cases", "changes", "updates"}

// confidenceNumber is the number confidenceOf reads at the start of s, or
// "": 0?\.\d+ | 1\.0 | \d{1,3}\s*%, the first of them that matches.
func confidenceNumber(s string) string {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	p := 0
	if strings.HasPrefix(s, "0.") {
		p = 1
	}
	if p < len(s) && s[p] == '.' {
		if e := digits(p + 1); e > p+1 {
			return s[:e]
		}
	}
	if strings.HasPrefix(s, "1.0") {
		return s[:3]
	}
	// fewer digits than the run holds leave a digit where \s*% must be
	n := digits(0)
	if n == 0 || n > 3 {
		return ""
	}
	if e := tag.SkipRegexpSpace(s, n); e < len(s) && s[e] == '%' {
		return s[:e+1]
	}
	return ""
}
