package audit

import (
	"maps"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// TestKnownPathsFollowTheLedger: the map brought up to date at each
// boundary holds what one made from the whole ledger would, as the ledger
// grows and once the project is known.
func TestKnownPathsFollowTheLedger(t *testing.T) {
	a := newAgentReplay("main", parse.FormatClaudeCode, reading.NewTokenHasher(), DefaultSideEffecting, &windowBudget{limit: DefaultWindowBytes})
	whole := func() map[string]bool {
		m := map[string]bool{}
		for _, o := range a.ledger.Obligations {
			if o.Kind == tag.KindLiteral && (o.LiteralKind == "path" || o.LiteralKind == "file") {
				m[resolvePath(o.Literal, a.project)] = true
			}
		}
		return m
	}
	add := func(kind, lit string) {
		a.ledger.Obligations = append(a.ledger.Obligations, &ledger.Obligation{Kind: tag.KindLiteral, LiteralKind: kind, Literal: lit})
	}
	steps := []func(){
		func() { add("path", "deploy/prod.yaml") },
		func() { add("bucket", "s3://acme-exports-07/"); add("file", "./notes.md") },
		func() { a.project = "/home/dev/shop" }, // the first working directory arrives late
		func() { add("path", "/etc/nginx/sites-enabled/shop") },
		func() {},
		func() { add("path", "../shared/config.toml") },
	}
	for i, step := range steps {
		step()
		if got, want := a.knownPaths(), whole(); !maps.Equal(got, want) {
			t.Errorf("step %d: known %v, the whole ledger gives %v", i, got, want)
		}
	}
}
