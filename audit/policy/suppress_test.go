package policy_test

import (
	"testing"
	"time"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/policy"
)

// TestSuppress: a suppression marks every finding it matches and counts
// them; one expired the day before is not applied and says so; the first
// of two matching suppressions is the one a finding names.
func TestSuppress(t *testing.T) {
	now := time.Date(2027, 2, 1, 12, 0, 0, 0, time.UTC)
	fs := []audit.Finding{
		{Rule: "forbidden-action", Message: "rm -rf on acme-prod", Transcript: "s/a.jsonl", File: "s/a.jsonl"},
		{Rule: "forbidden-action", Message: "deploy to acme-prod", Transcript: "s/b.jsonl", File: "s/b.jsonl"},
		{Rule: "dropped-literal", Message: "s3://acme-stage-07 dropped", Transcript: "s/a.jsonl", File: "s/a.jsonl"},
	}
	sups := []audit.Suppression{
		{Rule: "forbidden-action", Path: "a.jsonl", Reason: "rolled back"},
		{Contains: "acme-prod", Reason: "prod is a sandbox here"},
		{Rule: "dropped-literal", Reason: "old", Expires: time.Date(2027, 1, 30, 0, 0, 0, 0, time.UTC)},
	}
	uses := policy.Suppress(fs, sups, now)
	if got := [3]int{uses[0].Matched, uses[1].Matched, uses[2].Matched}; got != [3]int{1, 2, 0} {
		t.Errorf("matched %v, want [1 2 0]", got)
	}
	if uses[0].Expired || uses[1].Expired || !uses[2].Expired {
		t.Errorf("expired %v %v %v, want only the third", uses[0].Expired, uses[1].Expired, uses[2].Expired)
	}
	if fs[0].Suppressed == nil || fs[0].Suppressed.Reason != "rolled back" {
		t.Errorf("first finding suppressed by %+v, want the first suppression", fs[0].Suppressed)
	}
	if fs[1].Suppressed == nil || fs[1].Suppressed.Reason != "prod is a sandbox here" {
		t.Errorf("second finding suppressed by %+v", fs[1].Suppressed)
	}
	if fs[2].Suppressed != nil || !fs[2].Counts() {
		t.Errorf("the expired suppression silenced %+v", fs[2])
	}
}
