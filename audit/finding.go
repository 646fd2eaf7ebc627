package audit

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
)

// Severity of a finding.
type Severity uint8

const (
	SeverityNote Severity = iota + 1
	SeverityWarning
	SeverityError
)

var severityNames = [...]string{"", "note", "warning", "error"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "unknown"
}

// MarshalText makes severities readable in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseSeverity reads error, warning or note.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if i > 0 && n == s {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or note)", s)
}

// Step is one link of a finding's causal chain: where the obligation was
// stated, what the boundary did to it, what a later turn did.
type Step struct {
	Kind string `json:"kind"` // stated, boundary, summary, used, needed, violated, breached, restated
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Turn int    `json:"turn,omitempty"`
	// Boundary is the 1-based index of the boundary the step is about.
	Boundary int    `json:"boundary,omitempty"`
	Role     string `json:"role,omitempty"`
	Text     string `json:"text,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// DiffOp is one piece of a character diff between two texts.
type DiffOp struct {
	Op   string `json:"op"` // equal, delete, insert
	Text string `json:"text"`
}

// Evidence is what a finding rests on.
type Evidence struct {
	Chain   []Step             `json:"chain"`
	Summary string             `json:"summary,omitempty"` // the summary excerpt
	Trail   []replay.TrailStep `json:"trail,omitempty"`
	// TrailOmitted counts the earlier boundaries of the trail not shown
	// (Pass.RecentEvidence); the replay view shows them all.
	TrailOmitted int `json:"trail_omitted,omitempty"`
	// Change is how a prohibition was weakened: softened, dropped, inverted.
	Change string `json:"change,omitempty"`
	// Drift is how a threshold drifted.
	Drift string `json:"drift,omitempty"`
	// Original and Variant are the two texts a diff compares.
	Original string   `json:"original,omitempty"`
	Variant  string   `json:"variant,omitempty"`
	Diff     []DiffOp `json:"diff,omitempty"`
	// Lost lists what a ledger shrink lost.
	Lost []LostItem `json:"lost,omitempty"`
	// Tool and Arguments are the later call, for turn rules.
	Tool      string `json:"tool,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	// Use is the exact literal to use instead of a near miss.
	Use string `json:"use,omitempty"`
}

// LostItem is one obligation a boundary lost.
type LostItem struct {
	ID    string       `json:"id"`
	Kind  tag.Kind     `json:"kind"`
	Text  string       `json:"text"`
	State replay.State `json:"state"`
	Turn  int          `json:"turn"`
}

// Finding is one problem a rule found. Every rule and every output format
// uses this one type.
type Finding struct {
	Rule       string             `json:"rule"`
	Severity   Severity           `json:"severity"`
	File       string             `json:"file"`
	Line       int                `json:"line"`
	Turn       int                `json:"turn"`
	Boundary   int                `json:"boundary"`
	Agent      string             `json:"agent"`
	Message    string             `json:"message"`
	Obligation *ledger.Obligation `json:"obligation,omitempty"`
	Evidence   Evidence           `json:"evidence"`
	// Fingerprint identifies the finding across runs and edits elsewhere
	// in the file: rule, file identity, agent, boundary, obligation and
	// reference, never line numbers.
	Fingerprint string `json:"fingerprint"`
	// Suppressed is the suppression that silences the finding, if any.
	Suppressed *Suppression `json:"suppressed,omitempty"`
	// BaselineState is new or unchanged when a baseline is in use.
	BaselineState string `json:"baseline_state,omitempty"`

	// Transcript is the session the finding belongs to (its main file).
	Transcript string `json:"-"`
	// Offset locates the evidence in the file, for excerpts.
	Offset int64 `json:"-"`
	// key holds what the fingerprint is made of besides the rule, and
	// orders findings that tie on everything else; once reported, only
	// its start and a digest of a long one (seal).
	key string
	// sealed is the fingerprint's hash state over its whole input, for a
	// repeat's suffix to be added to.
	sealed []byte
}

// fingerprintInput is what the fingerprint hashes, before a repeat's
// suffix: rule, file, agent, boundary, obligation and key. The file is
// named by its base name so moving a corpus does not change it.
func (f *Finding) fingerprintInput(h io.Writer) {
	parts := []string{f.Rule, filepath.Base(f.Transcript), f.Agent, fmt.Sprint(f.Boundary)}
	if f.Obligation != nil {
		parts = append(parts, f.Obligation.ID)
	}
	for _, p := range parts {
		io.WriteString(h, p)
		io.WriteString(h, "\x00")
	}
	io.WriteString(h, f.key)
}

// fingerprint derives the finding's stable identity, with suffix telling
// apart repeats of the same reference.
func (f *Finding) fingerprint(suffix string) string {
	h := sha256.New()
	if f.sealed == nil || h.(encoding.BinaryUnmarshaler).UnmarshalBinary(f.sealed) != nil {
		h.Reset()
		f.fingerprintInput(h)
	}
	io.WriteString(h, suffix)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// keyOrderLen bounds the key a finding keeps once it is reported.
const keyOrderLen = 256

// seal hashes the fingerprint's input, the whole key included, and keeps of
// a long key only what ordering needs: its start and a digest of the rest.
// A key can hold a call's whole command, a megabyte of heredoc, and the
// finding would keep it to the end of the audit.
func (f *Finding) seal() {
	h := sha256.New()
	f.fingerprintInput(h)
	if state, err := h.(encoding.BinaryMarshaler).MarshalBinary(); err == nil {
		f.sealed = state
	}
	if len(f.key) > keyOrderLen {
		rest := sha256.Sum256([]byte(f.key[keyOrderLen:]))
		f.key = f.key[:keyOrderLen] + "\x00" + hex.EncodeToString(rest[:8])
	}
}

// detach copies the finding's texts out of the events they were cut from:
// findings outlive the events, and an excerpt must not keep a whole tool
// output alive. A call's arguments can be megabytes: a finding keeps at
// most MaxQuotedArguments of them. For the same reason the key is sealed
// first (seal).
func (f *Finding) detach() {
	c := strings.Clone
	f.seal()
	f.Message, f.key = c(f.Message), c(f.key)
	for i := range f.Evidence.Chain {
		st := &f.Evidence.Chain[i]
		st.Detail, st.Role, st.Text = c(st.Detail), c(st.Role), c(st.Text)
	}
	ev := &f.Evidence
	ev.Summary, ev.Original, ev.Variant, ev.Tool, ev.Use = c(ev.Summary), c(ev.Original), c(ev.Variant), c(ev.Tool), c(ev.Use)
	ev.Arguments = c(clipArguments(ev.Arguments))
	for i := range ev.Diff {
		ev.Diff[i].Text = c(ev.Diff[i].Text)
	}
	// Lost items quote obligations, which the ledger already holds apart
}

// MaxQuotedArguments bounds the arguments of a call a finding quotes, so
// that findings on calls that write whole files hold kilobytes, not the
// files.
const MaxQuotedArguments = 64 << 10

// clipArguments is args cut to MaxQuotedArguments at a rune's start, with
// how much was left out.
func clipArguments(args string) string {
	if len(args) <= MaxQuotedArguments {
		return args
	}
	cut := MaxQuotedArguments
	for cut > 0 && !utf8.RuneStart(args[cut]) {
		cut--
	}
	return args[:cut] + fmt.Sprintf("… (%d more bytes)", len(args)-cut)
}
