package cmd

import (
	"io"
	"strings"

	"github.com/compaudit/compaudit/report"
)

// auditFormat is everything the audit command knows of one output format;
// a new format is one entry here and its printer in report/.
type auditFormat struct {
	name   string
	render func(io.Writer, report.AuditView, report.Options) report.Stream
	// brief shows warnings and errors by default, not notes
	brief bool
	// full needs whole results: the ledgers and the trails
	full bool
	// shared is made to be shared, so it is redacted unless --redact=false
	shared bool
}

// auditFormats take the results transcript by transcript: text, JSON,
// ndjson and SARIF write each as it comes; markdown and html keep what
// their page needs and write it at the end, as it opens with the totals.
var auditFormats = []auditFormat{
	{name: "text", render: report.NewAuditText, brief: true},
	{name: "json", render: report.NewAuditJSON},
	{name: "ndjson", render: report.NewAuditNDJSON},
	{name: "sarif", render: report.NewAuditSARIF},
	{name: "markdown", render: report.NewAuditMarkdown, brief: true, shared: true},
	{name: "html", render: report.NewAuditHTML, full: true, shared: true},
}

// auditFormatOf is the format of a name parseOutputs accepted; any other
// name is the zero format, which nothing renders.
func auditFormatOf(name string) auditFormat {
	for _, f := range auditFormats {
		if f.name == name {
			return f
		}
	}
	return auditFormat{}
}

// auditFormatNames are the formats' names, in the order help lists them.
func auditFormatNames() []string {
	names := make([]string, len(auditFormats))
	for i, f := range auditFormats {
		names[i] = f.name
	}
	return names
}

// renderers are the formats by name, for pick.
func renderers() map[string]auditFormat {
	m := make(map[string]auditFormat, len(auditFormats))
	for _, f := range auditFormats {
		m[f.name] = f
	}
	return m
}

// orList joins words as prose does: "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
