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

// Baseline states.
const (
	BaselineNew       = "new"
	BaselineUnchanged = "unchanged"
)

// Counts reports whether a finding counts toward the exit code: not
// suppressed, and new when a baseline is in use.
func (f *Finding) Counts() bool {
	return f.Suppressed == nil && f.BaselineState != BaselineUnchanged
}
