package rules

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
)

const referencePath = "../../docs/rules.md"

// TestRuleReference keeps docs/rules.md generated from the registry:
// go test ./audit/rules -run TestRuleReference -update rewrites it.
func TestRuleReference(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Rule reference\n\n")
	b.WriteString("Generated from the rule registry by `go test ./audit/rules -run TestRuleReference -update`;\n")
	b.WriteString("`compaudit rules` lists the same rules and `compaudit explain ID` prints one.\n\n")
	b.WriteString("| rule | default severity | runs | title |\n|---|---|---|---|\n")
	for _, r := range All() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.ID, r.ID, r.Severity, scope(r), r.Title)
	}
	for _, r := range All() {
		fmt.Fprintf(&b, "\n## %s\n\n**%s** — default severity **%s**, runs %s.\n\n%s\n", r.ID, r.Title, r.Severity, scope(r), r.Doc)
	}
	got := b.String()
	if *update {
		if err := os.WriteFile(referencePath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(referencePath)
	if err != nil || string(want) != got {
		t.Errorf("%s is stale; regenerate it with: go test ./audit/rules -run TestRuleReference -update", referencePath)
	}
}

func scope(r *audit.Rule) string {
	if r.Scope == audit.ScopeRun {
		return "once per run, over shared state"
	}
	return "at each compaction boundary"
}
