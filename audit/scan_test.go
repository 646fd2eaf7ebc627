package audit

import (
	"slices"
	"testing"
)

// TestScanTokens: identifier-shaped tokens come out whole, prose words and
// short pieces do not, and the parts of a refspec come out too.
func TestScanTokens(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"deploy to s3://acme-stage-07/, then **v2.3.1**.", []string{"s3://acme-stage-07/", "v2.3.1"}},
		{"plain words only, nothing marked", nil},
		{"git push origin HEAD:release-2026-03", []string{"HEAD:release-2026-03", "HEAD", "release-2026-03"}},
		{"(see lib/report.ex; ok)", []string{"lib/report.ex"}},
		// Claude Code's Read output: the line number and the arrow are
		// not part of the line's first token
		// (a number of three digits is a token like any: an id, a port)
		{"     1→defmodule Acme.Report do\n    12→#transcript-panel {\n   130→github.com/acme/x", []string{"Acme.Report", "#transcript-panel", "130", "github.com/acme/x"}},
		{"a→b 10→→x_y", []string{"x_y"}},
		{"caf\u00e9-2 \u2192", []string{"caf\u00e9-2"}},
	} {
		var got []string
		scanTokens(c.text, func(tok string) { got = append(got, tok) })
		if !slices.Equal(got, c.want) {
			t.Errorf("scanTokens(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
