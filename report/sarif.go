package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/compaudit/compaudit/audit"
)

// SARIF 2.1.0, as GitHub code scanning reads it: one run, the rules from the
// registry, each result at a transcript line with related locations for the
// obligation's origin, the boundary and the later turn.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	Results            []sarifResult            `json:"results"`
	ColumnKind         string                   `json:"columnKind"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	Invocations        []sarifInvocation        `json:"invocations,omitempty"`
}

// sarifInvocation carries the reading problems of the run, so a truncated
// transcript shows in code scanning too.
type sarifInvocation struct {
	ExecutionSuccessful        bool                      `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotificationRecord `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotificationRecord struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	Help                 sarifMarkdown   `json:"help"`
	HelpURI              string          `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           map[string]any  `json:"properties,omitempty"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMarkdown struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	BaselineState       string             `json:"baselineState,omitempty"`
	Properties          map[string]any     `json:"properties,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification"`
}

// FingerprintKey names compaudit's fingerprint among a result's partial
// fingerprints; its version changes only if the fingerprint's inputs do.
const FingerprintKey = "compaudit/v1"

var sarifLevel = map[audit.Severity]string{audit.SeverityError: "error", audit.SeverityWarning: "warning", audit.SeverityNote: "note"}

// ruleName turns dropped-literal into DroppedLiteral, as code scanning shows
// rule names.
func ruleName(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		if r == '-' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sarifURI gives a transcript's location: relative paths against the
// checkout (%SRCROOT%), absolute ones as file URIs.
func sarifURI(path string) sarifArtifactLocation {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		return sarifArtifactLocation{URI: "file://" + p}
	}
	p = strings.TrimPrefix(p, "./")
	return sarifArtifactLocation{URI: p, URIBaseID: "%SRCROOT%"}
}

func sarifLoc(file string, line int, msg string, id *int) sarifLocation {
	l := sarifLocation{ID: id, PhysicalLocation: sarifPhysical{ArtifactLocation: sarifURI(file)}}
	if line > 0 {
		l.PhysicalLocation.Region = &sarifRegion{StartLine: line}
	}
	if msg != "" {
		l.Message = &sarifText{Text: msg}
	}
	return l
}

// NewAuditSARIF streams the audit as a SARIF 2.1.0 log: its results are
// written as each transcript comes, and the reading problems, which SARIF
// puts after them, at the end.
func NewAuditSARIF(w io.Writer, v AuditView, o Options) Stream {
	driver := sarifDriver{Name: "compaudit", Version: o.Version, InformationURI: "https://github.com/compaudit/compaudit", Rules: []sarifRule{}}
	index := map[string]int{}
	for i, r := range o.Rules {
		index[r.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   r.ID,
			Name:                 ruleName(r.ID),
			ShortDescription:     sarifText{Text: r.Title},
			FullDescription:      sarifText{Text: firstParagraph(r.Doc)},
			Help:                 sarifMarkdown{Text: r.Doc, Markdown: "**" + r.Title + "**\n\n" + r.Doc},
			DefaultConfiguration: sarifRuleConfig{Level: sarifLevel[r.Severity]},
			Properties:           map[string]any{"tags": []string{"compaction", "agent-transcript"}},
		})
	}
	return &sarifStream{v: v, index: index, array: splicedArray{w: w, key: `"results": [`},
		run: sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}, ColumnKind: "unicodeCodePoints",
			OriginalURIBaseIDs: map[string]sarifArtifact{"%SRCROOT%": {URI: "file:///"}}}}
}

type sarifStream struct {
	v     AuditView
	index map[string]int // rule id to its place in the driver's rules
	run   sarifRun       // the run without its results
	notes []sarifNotificationRecord
	array splicedArray
}

func (s *sarifStream) log() sarifLog {
	return sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{s.run}}
}

func (s *sarifStream) Transcript(r *audit.Result) error {
	for _, f := range r.Files {
		for _, d := range f.Diagnostics {
			s.notes = append(s.notes, sarifNotificationRecord{Level: d.Severity.String(),
				Message: sarifText{Text: d.Message}, Locations: []sarifLocation{sarifLoc(d.File, d.Line, "", nil)}})
		}
	}
	for _, f := range shown(r.Findings, s.v) {
		res := sarifResult{RuleID: f.Rule, RuleIndex: s.index[f.Rule], Level: sarifLevel[f.Severity],
			Message:             sarifText{Text: f.Message},
			Locations:           []sarifLocation{sarifLoc(f.File, f.Line, "", nil)},
			PartialFingerprints: map[string]string{FingerprintKey: f.Fingerprint},
			BaselineState:       f.BaselineState,
			Properties:          map[string]any{"turn": f.Turn, "boundary": f.Boundary, "agent": f.Agent, "transcript": r.Path}}
		for i, st := range f.Evidence.Chain {
			if st.Line == 0 {
				continue
			}
			id := i + 1
			msg := st.Kind
			if st.Turn > 0 {
				msg += fmt.Sprintf(" at turn %d", st.Turn)
			}
			if st.Boundary > 0 {
				msg += fmt.Sprintf(" (boundary %d)", st.Boundary)
			}
			if st.Detail != "" {
				msg += ": " + st.Detail
			}
			file := st.File
			if file == "" {
				file = f.File
			}
			res.RelatedLocations = append(res.RelatedLocations, sarifLoc(file, st.Line, msg, &id))
		}
		if f.Suppressed != nil {
			res.Suppressions = []sarifSuppression{{Kind: "external", Status: "accepted", Justification: f.Suppressed.Reason}}
		}
		if err := s.array.add(s.log(), res); err != nil {
			return err
		}
	}
	return nil
}

func (s *sarifStream) Close() error {
	s.run.Invocations = []sarifInvocation{{ExecutionSuccessful: true, ToolExecutionNotifications: s.notes}}
	return s.array.close(s.log(), s.log())
}

func firstParagraph(doc string) string {
	p, _, _ := strings.Cut(doc, "\n\n")
	return strings.Join(strings.Fields(p), " ")
}
