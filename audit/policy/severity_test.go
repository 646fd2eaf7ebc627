package policy_test

import (
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/policy"
)

// TestOverride: the rules named take the severity given; the others keep
// their own.
func TestOverride(t *testing.T) {
	fs := []audit.Finding{{Rule: "ledger-shrink", Severity: audit.SeverityNote}, {Rule: "forbidden-action", Severity: audit.SeverityError}}
	policy.Override(fs, map[string]audit.Severity{"ledger-shrink": audit.SeverityWarning})
	if fs[0].Severity != audit.SeverityWarning || fs[1].Severity != audit.SeverityError {
		t.Errorf("severities %v, %v; want warning, error", fs[0].Severity, fs[1].Severity)
	}
}
