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
	return renderAll(NewBaseline(w, o), rs)
}

// NewBaseline gathers the baseline's entries a transcript at a time, so
// the results need not be kept, and writes the file, sorted, at Close.
func NewBaseline(w io.Writer, o Options) Stream {
	return &baselineStream{w: w, file: BaselineFile{Tool: "compaudit", Version: o.Version, Findings: []BaselineEntry{}}}
}

type baselineStream struct {
	w    io.Writer
	file BaselineFile
}

func (s *baselineStream) Transcript(r *audit.Result) error {
	for _, f := range r.Findings {
		s.file.Findings = append(s.file.Findings, BaselineEntry{Fingerprint: f.Fingerprint, Rule: f.Rule,
			Severity: f.Severity.String(), Transcript: r.Path, Message: f.Message})
	}
	return nil
}

func (s *baselineStream) Close() error {
	sort.SliceStable(s.file.Findings, func(i, j int) bool { return s.file.Findings[i].Fingerprint < s.file.Findings[j].Fingerprint })
	return encodeJSON(s.w, s.file, true)
}
