package audit

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/compaudit/compaudit/parse"
)

// ToolAdjust adds and removes side-effecting tools for one format.
type ToolAdjust struct {
	Add    []string
	Remove []string
}

// SideEffectingWith returns the default side-effect decision adjusted per
// format: tools added count as side-effecting, tools removed do not.
func SideEffectingWith(adjust map[parse.Format]ToolAdjust) func(parse.Format, *parse.Event) bool {
	return func(f parse.Format, ev *parse.Event) bool {
		if a, ok := adjust[f]; ok {
			if slices.Contains(a.Remove, ev.ToolName) {
				return false
			}
			if slices.Contains(a.Add, ev.ToolName) {
				return true
			}
		}
		return DefaultSideEffecting(f, ev)
	}
}

// Suppression silences the findings it matches.
type Suppression struct {
	Rule        string    `json:"rule,omitempty"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	Path        string    `json:"path,omitempty"` // glob on the transcript path
	Contains    string    `json:"contains,omitempty"`
	Reason      string    `json:"reason"`
	Expires     time.Time `json:"-"`
	Source      string    `json:"source,omitempty"` // file:line of the suppression
}

// Matches reports whether the suppression covers a finding.
func (s Suppression) Matches(f *Finding) bool {
	if s.Rule != "" && s.Rule != f.Rule {
		return false
	}
	if s.Fingerprint != "" && s.Fingerprint != f.Fingerprint {
		return false
	}
	if s.Contains != "" && !strings.Contains(f.Message, s.Contains) {
		return false
	}
	if s.Path != "" {
		ok, _ := filepath.Match(s.Path, f.Transcript)
		okBase, _ := filepath.Match(s.Path, filepath.Base(f.Transcript))
		okFile, _ := filepath.Match(s.Path, f.File)
		if !ok && !okBase && !okFile {
			return false
		}
	}
	return true
}

// SuppressionUse reports what became of one suppression in a run.
type SuppressionUse struct {
	Suppression
	Matched int  `json:"matched"`
	Expired bool `json:"expired"`
}

// Suppress marks the findings the suppressions cover. An expired
// suppression no longer applies. It returns each suppression's use, so
// unused and expired ones can be reported.
func Suppress(fs []Finding, sups []Suppression, now time.Time) []SuppressionUse {
	uses := make([]SuppressionUse, len(sups))
	for i, s := range sups {
		uses[i] = SuppressionUse{Suppression: s, Expired: !s.Expires.IsZero() && now.After(s.Expires.Add(24*time.Hour))}
	}
	for i := range fs {
		for j := range uses {
			if uses[j].Expired || !uses[j].Matches(&fs[i]) {
				continue
			}
			uses[j].Matched++
			if fs[i].Suppressed == nil {
				s := uses[j].Suppression
				fs[i].Suppressed = &s
			}
		}
	}
	return uses
}

// Baseline states.
const (
	BaselineNew       = "new"
	BaselineUnchanged = "unchanged"
)

// ApplyBaseline marks each finding new or unchanged against the
// fingerprints of a baseline.
func ApplyBaseline(fs []Finding, known map[string]bool) {
	for i := range fs {
		if known[fs[i].Fingerprint] {
			fs[i].BaselineState = BaselineUnchanged
		} else {
			fs[i].BaselineState = BaselineNew
		}
	}
}

// Override sets the severity of every finding of the rules named.
func Override(fs []Finding, sev map[string]Severity) {
	for i := range fs {
		if s, ok := sev[fs[i].Rule]; ok {
			fs[i].Severity = s
		}
	}
}

// Counts reports whether a finding counts toward the exit code: not
// suppressed, and new when a baseline is in use.
func (f *Finding) Counts() bool {
	return f.Suppressed == nil && f.BaselineState != BaselineUnchanged
}
