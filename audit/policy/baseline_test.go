package policy_test

import (
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/policy"
)

// TestApplyBaseline: a finding whose fingerprint the baseline holds is
// unchanged and does not count; any other is new and counts.
func TestApplyBaseline(t *testing.T) {
	fs := []audit.Finding{{Rule: "r", Fingerprint: "aaaa"}, {Rule: "r", Fingerprint: "bbbb"}}
	policy.ApplyBaseline(fs, map[string]bool{"aaaa": true})
	if fs[0].BaselineState != audit.BaselineUnchanged || fs[0].Counts() {
		t.Errorf("known finding: %q, counts %v", fs[0].BaselineState, fs[0].Counts())
	}
	if fs[1].BaselineState != audit.BaselineNew || !fs[1].Counts() {
		t.Errorf("new finding: %q, counts %v", fs[1].BaselineState, fs[1].Counts())
	}
}
