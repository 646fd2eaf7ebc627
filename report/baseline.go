package report

import (
	"io"
	"sort"
	"strings"

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

// NewBaseline gathers the fingerprints of every finding a transcript at a
// time, so the results need not be kept, and writes the file at Close,
// sorted so it diffs well.
func NewBaseline(w io.Writer, o Options) Stream {
	file := BaselineFile{Tool: "compaudit", Version: o.Version, Findings: []BaselineEntry{}}
	return &partStream{w: w,
		part: func(_ *strings.Builder, r *audit.Result, _ bool) error {
			for _, f := range r.Findings {
				file.Findings = append(file.Findings, BaselineEntry{Fingerprint: f.Fingerprint, Rule: f.Rule,
					Severity: f.Severity.String(), Transcript: r.Path, Message: f.Message})
			}
			return nil
		},
		end: func(b *strings.Builder) error {
			sort.SliceStable(file.Findings, func(i, j int) bool { return file.Findings[i].Fingerprint < file.Findings[j].Fingerprint })
			return encodeJSON(b, file, true)
		}}
}
