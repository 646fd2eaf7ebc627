// Package audit knows obligations: it tags them as each turn is written,
// keeps the ledger, replays every compaction boundary against it and runs
// the rules. It never prints and never exits.
package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// Origin is where an obligation was stated.
type Origin struct {
	File   string         `json:"file"`
	Line   int            `json:"line"`
	Offset int64          `json:"offset"`
	Turn   int            `json:"turn"`
	Role   parse.Role     `json:"role"`
	Agent  string         `json:"agent"`
	Event  int            `json:"event"`
	UUID   string         `json:"uuid,omitempty"`
	ToolID string         `json:"tool_id,omitempty"`
	Source reading.Source `json:"source"`
}

// Span is the exact source text of an obligation within its event.
type Span struct {
	Text  string `json:"text"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Obligation is one thing a later turn could be held to.
type Obligation struct {
	ID       string       `json:"id"`
	Kind     tag.Kind     `json:"kind"`
	Polarity tag.Polarity `json:"polarity,omitempty"`
	// Text is the obligation as stated: the clause, or the literal.
	Text string `json:"text"`
	// Literal is the literal's value, for literals; LiteralKind says what
	// it is (path, uri, id, …) and Label what the text called it (bucket).
	Literal     string         `json:"literal,omitempty"`
	LiteralKind string         `json:"literal_kind,omitempty"`
	Label       string         `json:"label,omitempty"`
	Object      *tag.Object    `json:"object,omitempty"`
	Threshold   *tag.Threshold `json:"threshold,omitempty"`
	Status      *tag.Status    `json:"status,omitempty"`
	// Retracts names what a retraction ends; Replacement is the new value
	// for a supersession ("use 9090 instead of 8080").
	Retracts    string `json:"retracts,omitempty"`
	Replacement string `json:"replacement,omitempty"`

	Origin *Origin `json:"origin"` // shared by the obligations of one message: never written through
	Span   Span    `json:"span"`
	// Sentence is the sentence the span stands in, for reading the
	// Obligation in its words.
	Sentence string `json:"sentence,omitempty"`
	// Standing obligations come from rule files the harness re-sends with
	// every request; compaction does not remove them.
	Standing bool `json:"standing,omitempty"`

	// Ledger bookkeeping.
	Restated   []int  `json:"restated,omitempty"`   // later turns that stated it again: the first before the first compaction and after each
	RetiredAt  int    `json:"retired_at,omitempty"` // turn of the retraction or supersession
	RetiredBy  string `json:"retired_by,omitempty"` // id of that retraction
	Superseded bool   `json:"superseded,omitempty"` // retired by a new value rather than lifted

	parts map[string]bool // stemmed parts of the literal, for near variants
	norm  string          // the literal as normLiteral compares it
}

// obligationKey identifies an obligation for deduplication within one
// agent: the same Literal stated twice is one obligation. A struct, so
// that a literal's key is its normalized value and costs no string of its
// own.
type obligationKey struct {
	kind tag.Kind
	text string
}

func (o *Obligation) mapKey() obligationKey {
	switch o.Kind {
	case tag.KindLiteral:
		return obligationKey{tag.KindLiteral, o.Normalized()}
	case tag.KindThreshold:
		t := o.Threshold
		return obligationKey{tag.KindThreshold, t.Subject + "\x00" + string(t.Comparator) + "\x00" + FormatFloat(t.Base)}
	case tag.KindState:
		return obligationKey{tag.KindState, lex.FoldLower(o.Status.Subject)}
	}
	return obligationKey{o.Kind, lex.FoldLower(strings.Join(strings.Fields(o.Text), " "))}
}

// key is mapKey as the text stableID hashes.
func (o *Obligation) key() string { return keyText(o.mapKey()) }

func keyText(k obligationKey) string { return k.kind.String() + "\x00" + k.text }

// stableID derives an id from the agent and the key, so it survives edits
// elsewhere in the file and is the same on every run.
func stableID(agent string, kind tag.Kind, key string) string {
	h := sha256.Sum256([]byte(agent + "\x00" + key))
	prefix := map[tag.Kind]string{tag.KindLiteral: "lit", tag.KindProhibition: "neg", tag.KindRequirement: "req",
		tag.KindThreshold: "thr", tag.KindCommitment: "com", tag.KindState: "st", tag.KindRetraction: "ret"}[kind]
	return prefix + "-" + hex.EncodeToString(h[:5])
}

// NormLiteral is the form literals are compared in: case folded, quotes and
// a trailing slash dropped.
func NormLiteral(s string) string {
	s = strings.Trim(s, "`'\"")
	s = lex.FoldLower(s)
	if len(s) > 1 {
		s = strings.TrimSuffix(s, "/")
	}
	return s
}

func FormatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Normalized is normLiteral of the literal, worked out once: the
// reference checks of every window compare it.
func (o *Obligation) Normalized() string {
	if o.norm == "" && o.Literal != "" {
		o.norm = NormLiteral(o.Literal)
	}
	return o.norm
}

// LiteralParts is partSet of the literal, worked out once: every boundary
// compares the ledger's literals with its summary.
func (o *Obligation) LiteralParts() map[string]bool {
	if o.parts == nil {
		o.parts = PartSet(o.Literal)
	}
	return o.parts
}

// detach copies the obligation's strings out of the event text they were
// cut from. The ledger lives as long as the audit; a substring would keep
// a whole tool output, or a whole record, alive with it. The copies go
// through c, which shares one copy of a string repeated across the
// obligations of one message (its uuid, its agent, one sentence).
func (o *Obligation) detach(c *copier) {
	o.Text, o.Literal, o.LiteralKind, o.Label = c.own(o.Text), c.own(o.Literal), c.own(o.LiteralKind), c.own(o.Label)
	o.Retracts, o.Replacement, o.Sentence = c.own(o.Retracts), c.own(o.Replacement), c.own(o.Sentence)
	o.Span.Text = c.own(o.Span.Text)
	o.norm = "" // may be a piece of the text too; worked out again when asked
	o.Origin = c.origin(o.Origin)
	if o.Object != nil {
		obj := *o.Object
		obj.Text, obj.Verb = c.own(obj.Text), c.own(obj.Verb)
		obj.Terms = reading.CloneStrings(obj.Terms) // many and short: they would crowd c out
		obj.Literals = c.ownAll(obj.Literals)
		o.Object = &obj
	}
	if o.Threshold != nil {
		t := *o.Threshold
		t.Subject, t.Unit = c.own(t.Subject), c.own(t.Unit)
		o.Threshold = &t
	}
	if o.Status != nil {
		st := *o.Status
		st.Subject, st.Value, st.Detail = c.own(st.Subject), c.own(st.Value), c.own(st.Detail)
		o.Status = &st
	}
}
