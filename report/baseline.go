package report

import (
	"io"
	"sort"

	"github.com/compaudit/compaudit/audit"
)

// BaselineFile is what `compaudit baseline` writes and --baseline reads.
type BaselineFile struct {
	Tool     string          `json:"tool"`
	Version  string          `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one recorded finding; the fingerprint is what matches,
// the rest is there for people reading the file.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	Severity    string `json:"severity"`
	Transcript  string `json:"transcript"`
	Message     string `json:"message"`
}

// Baseline writes the fingerprints of every finding, sorted so the file
// diffs well.
func Baseline(w io.Writer, rs []*audit.Result, o Options) error {
	b := BaselineFile{Tool: "compaudit", Version: o.Version, Findings: []BaselineEntry{}}
	for _, r := range rs {
		for _, f := range r.Findings {
			b.Findings = append(b.Findings, BaselineEntry{Fingerprint: f.Fingerprint, Rule: f.Rule,
				Severity: f.Severity.String(), Transcript: r.Path, Message: f.Message})
		}
	}
	sort.SliceStable(b.Findings, func(i, j int) bool { return b.Findings[i].Fingerprint < b.Findings[j].Fingerprint })
	return encodeJSON(w, b, true)
}
