// Package policy is what a run's settings do to its findings once the
// rules have made them, each a small step the command line applies in
// turn: severities overridden, suppressions matched, a baseline's
// findings marked unchanged. It owns those steps and nothing of how
// findings are made or printed.
package policy

import (
	"time"

	"github.com/compaudit/compaudit/audit"
)

// SuppressionUse reports what became of one suppression in a run.
type SuppressionUse struct {
	audit.Suppression
	Matched int  `json:"matched"`
	Expired bool `json:"expired"`
}

// Suppress marks the findings the suppressions cover. An expired
// suppression no longer applies. It returns each suppression's use, so
// unused and expired ones can be reported.
func Suppress(fs []audit.Finding, sups []audit.Suppression, now time.Time) []SuppressionUse {
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
