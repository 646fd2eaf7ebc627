// Package report renders compaudit's results: the ledger, replays and
// findings, in text, JSON and NDJSON. It renders and decides nothing else,
// and it is the only package that styles terminal output.
package report

import (
	"encoding/json"
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/compaudit/compaudit/audit"
	"github.com/muesli/termenv"
)

// Options shared by every renderer.
type Options struct {
	Color   bool          // style terminal text
	Version string        // compaudit's version, for JSON headers
	Rules   []*audit.Rule // the rules that ran, for SARIF and the reports' rule tables
	// Redact says the output will be redacted (Redact, on the rendered
	// bytes). A renderer that cuts transcript text, or escapes it in a way
	// that breaks a secret's shape (Markdown's ghp\_…), redacts the text
	// before (clip, mdEscape).
	Redact bool
}

// styles is how text output shows things: its palette, and whether
// transcript text is redacted before it is cut (clip). With colour off
// every style renders plain text, so piped output stays greppable.
type styles struct {
	redact                            bool // Options.Redact
	head, dim, bold                   lipgloss.Style
	errorSev, warningSev, noteSev     lipgloss.Style
	literal, forbid, require, thresh  lipgloss.Style
	state, commit, retract, added, rm lipgloss.Style
	diffDel, diffIns                  lipgloss.Style
}

func newStyles(w io.Writer, o Options) styles {
	r := lipgloss.NewRenderer(w)
	if o.Color {
		r.SetColorProfile(termenv.ANSI256)
	} else {
		r.SetColorProfile(termenv.Ascii)
	}
	c := func(code string) lipgloss.Style { return r.NewStyle().Foreground(lipgloss.Color(code)) }
	return styles{
		redact:     o.Redact,
		head:       r.NewStyle().Bold(true).Underline(true),
		dim:        c("245"),
		bold:       r.NewStyle().Bold(true),
		errorSev:   c("196").Bold(true),
		warningSev: c("214").Bold(true),
		noteSev:    c("39"),
		literal:    c("51"),
		forbid:     c("203"),
		require:    c("114"),
		thresh:     c("221"),
		state:      c("177"),
		commit:     c("111"),
		retract:    c("245"),
		added:      c("114"),
		rm:         c("203"),
		diffDel:    c("203").Strikethrough(true),
		diffIns:    c("114").Underline(true),
	}
}

// newJSONEncoder encodes without HTML escaping, so transcript text with <
// and & stays readable in jq, and escapes what encoding/json leaves raw but
// a terminal could act on (inertJSON).
func newJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(inertJSONWriter{w})
	enc.SetEscapeHTML(false)
	return enc
}

// encodeJSON writes one JSON value as every JSON output does.
func encodeJSON(w io.Writer, v any, indent bool) error {
	enc := newJSONEncoder(w)
	if indent {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}

// inertJSONWriter passes encoded JSON through inertJSON. json.Encoder
// writes each value in one Write, so no character is split between two.
type inertJSONWriter struct{ w io.Writer }

func (j inertJSONWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(inertJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
