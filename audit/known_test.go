package audit

import (
	"maps"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// TestKnownPathsFollowTheLedger: the map brought up to date at each
// boundary holds what one made from the whole ledger would, as the ledger
// grows and once the project is known.
func TestKnownPathsFollowTheLedger(t *testing.T) {
	a := replay.NewAgentReplay("main", parse.FormatClaudeCode, reading.NewTokenHasher(), DefaultSideEffecting, &replay.WindowBudget{Limit: replay.DefaultWindowBytes})
	whole := func() map[string]bool {
		m := map[string]bool{}
		for _, o := range a.Ledger.Obligations {
			if o.Kind == tag.KindLiteral && (o.LiteralKind == "path" || o.LiteralKind == "file") {
				m[replay.ResolvePath(o.Literal, a.Project)] = true
			}
		}
		return m
	}
	add := func(kind, lit string) {
		a.Ledger.Obligations = append(a.Ledger.Obligations, &ledger.Obligation{Kind: tag.KindLiteral, LiteralKind: kind, Literal: lit})
	}
	steps := []func(){
		func() { add("path", "deploy/prod.yaml") },
		func() { add("bucket", "s3://acme-exports-07/"); add("file", "./notes.md") },
		func() { a.Project = "/home/dev/shop" }, // the first working directory arrives late
		func() { add("path", "/etc/nginx/sites-enabled/shop") },
		func() {},
		func() { add("path", "../shared/config.toml") },
	}
	for i, step := range steps {
		step()
		if got, want := a.KnownPaths(), whole(); !maps.Equal(got, want) {
			t.Errorf("step %d: known %v, the whole ledger gives %v", i, got, want)
		}
	}
}
