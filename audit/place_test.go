package audit

import (
	"slices"
	"testing"

	"github.com/compaudit/compaudit/audit/tag"
)

// A rule on doing something from the agent's own machine is broken by the
// action alone: no call names the machine it runs on. Only the place of
// the agent is let go of; a local database, a build machine or a laptop
// something is copied onto stay in the object. Terms are stems, and a
// specific verb first is the object's verb, not a term.
func TestAgentPlaceTerms(t *testing.T) {
	for _, c := range []struct {
		phrase string
		terms  []string
	}{
		{"run `terraform apply` from a workstation", []string{"terraform", "apply"}},
		{"run the migrations locally", []string{"migration"}},
		{"deploy from your laptop", []string{"deploy"}},
		{"run kubectl delete on your own machine", []string{"kubectl", "delet"}},
		{"push from a dev box", []string{"push"}},
		{"run migrations on the local database", []string{"local", "db"}},
		{"reboot the build machine", []string{"reboot", "build", "machin"}},
		{"copy the prod dump onto your laptop", []string{"copy", "prod", "dump", "laptop"}},
	} {
		if got := tag.MakeObject(c.phrase).Terms; !slices.Equal(got, c.terms) {
			t.Errorf("makeObject(%q).Terms = %q, want %q", c.phrase, got, c.terms)
		}
	}
}
