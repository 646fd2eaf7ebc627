package rules

import (
	"regexp"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
)

// TestRegistry checks what every output relies on: unique, stable,
// slug-shaped ids in sorted order, a title, a doc with an example and a fix,
// a default severity and a Run.
func TestRegistry(t *testing.T) {
	all := All()
	if len(all) != 18 {
		t.Errorf("%d rules, want the 11 of the audit issue and the 7 of the shared-state issue", len(all))
	}
	slug := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	seen := map[string]bool{}
	for i, r := range all {
		if seen[r.ID] {
			t.Errorf("duplicate id %s", r.ID)
		}
		seen[r.ID] = true
		if !slug.MatchString(r.ID) {
			t.Errorf("%s: id is not a slug", r.ID)
		}
		if i > 0 && all[i-1].ID >= r.ID {
			t.Errorf("%s is out of order after %s", r.ID, all[i-1].ID)
		}
		if r.Title == "" || strings.Contains(r.Title, "\n") {
			t.Errorf("%s: title must be one line", r.ID)
		}
		for _, part := range []string{"Why it matters", "Fix"} {
			if !strings.Contains(r.Doc, part) {
				t.Errorf("%s: doc lacks %q", r.ID, part)
			}
		}
		if !strings.Contains(r.Doc, "Example") {
			t.Errorf("%s: doc has no example", r.ID)
		}
		if r.Severity < audit.SeverityNote || r.Severity > audit.SeverityError || r.Run == nil {
			t.Errorf("%s: severity or Run missing", r.ID)
		}
		if Lookup(r.ID) != r {
			t.Errorf("%s: Lookup does not find it", r.ID)
		}
	}
	for _, want := range []string{"dropped-literal", "paraphrased-literal", "softened-negation", "threshold-drift",
		"stale-obligation", "status-inflation", "ledger-shrink", "paraphrase-reference", "forbidden-action",
		"threshold-breach", "unbound-reference", "stale-revision", "write-without-reread", "write-breadth-collapse",
		"citation-decay", "false-completion", "confidence-inflation", "silent-compaction"} {
		if !seen[want] {
			t.Errorf("rule %s is missing", want)
		}
	}
}
