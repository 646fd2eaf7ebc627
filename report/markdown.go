package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/compaudit/compaudit/audit"
)

// MarkdownLimit keeps a report under the size of a GitHub comment (65,536
// characters) with room for the note that says it was cut.
const MarkdownLimit = 65000

// AuditMarkdown renders a pull-request comment: counts per rule and
// severity, then the findings with their chains, errors first. It stays
// under MarkdownLimit characters and says so when it cut.
func AuditMarkdown(w io.Writer, rs []*audit.Result, v AuditView, o Options) error {
	_, err := io.WriteString(w, markdownReport(rs, v, o, MarkdownLimit))
	return err
}

func markdownReport(rs []*audit.Result, v AuditView, o Options, limit int) string {
	var all []audit.Finding
	paths := map[string]bool{}
	for _, r := range rs {
		paths[r.Path] = true
		all = append(all, shown(r.Findings, v)...)
	}
	var t totalsDoc
	count(&t, all)
	var head strings.Builder
	fmt.Fprintf(&head, "## compaudit: %s in %d transcript%s\n\n", tally(t), len(rs), plural(len(rs), "", "s"))
	if len(all) == 0 {
		head.WriteString("No findings: every compaction boundary kept what the agents were bound to.\n")
		return head.String()
	}
	// the table of counts
	type row struct{ err, warn, note, suppressed int }
	rows := map[string]*row{}
	for _, f := range all {
		r := rows[f.Rule]
		if r == nil {
			r = &row{}
			rows[f.Rule] = r
		}
		switch {
		case f.Suppressed != nil:
			r.suppressed++
		case f.Severity == audit.SeverityError:
			r.err++
		case f.Severity == audit.SeverityWarning:
			r.warn++
		default:
			r.note++
		}
	}
	ids := make([]string, 0, len(rows))
	for id := range rows {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	head.WriteString("| rule | error | warning | note | suppressed |\n|---|---:|---:|---:|---:|\n")
	for _, id := range ids {
		r := rows[id]
		fmt.Fprintf(&head, "| `%s` | %d | %d | %d | %d |\n", id, r.err, r.warn, r.note, r.suppressed)
	}
	head.WriteString("\n")

	body := []string{}
	for _, sev := range []audit.Severity{audit.SeverityError, audit.SeverityWarning, audit.SeverityNote} {
		var section []audit.Finding
		for _, f := range all {
			if f.Severity == sev && f.Suppressed == nil {
				section = append(section, f)
			}
		}
		if len(section) == 0 {
			continue
		}
		body = append(body, fmt.Sprintf("### %s (%d)\n\n", map[audit.Severity]string{audit.SeverityError: "Errors",
			audit.SeverityWarning: "Warnings", audit.SeverityNote: "Notes"}[sev], len(section)))
		for _, f := range section {
			body = append(body, markdownFinding(f))
		}
	}
	var b strings.Builder
	b.WriteString(head.String())
	for i, part := range body {
		// keep room for the note that says what was left out
		if b.Len()+len(part) > limit-300 {
			left := 0
			for _, p := range body[i:] {
				if strings.HasPrefix(p, "#### ") {
					left++
				}
			}
			fmt.Fprintf(&b, "\n> **Cut to fit a comment:** %d more finding%s not shown. Run `compaudit audit` locally or open the SARIF or JSON report for all of them.\n",
				left, plural(left, "", "s"))
			return b.String()
		}
		b.WriteString(part)
	}
	return b.String()
}

func markdownFinding(f audit.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#### `%s` · %s:%d (turn %d)\n\n%s\n\n", f.Rule, mdText(f.File), f.Line, f.Turn, mdText(f.Message))
	for _, s := range f.Evidence.Chain {
		where := ""
		if s.Line > 0 {
			where = fmt.Sprintf(" turn %d, line %d", s.Turn, s.Line)
		}
		fmt.Fprintf(&b, "- **%s**%s", mdText(s.Kind), where)
		if s.Text != "" {
			fmt.Fprintf(&b, ": %s", mdQuote(s.Text))
		}
		if s.Detail != "" {
			fmt.Fprintf(&b, " — %s", mdText(s.Detail))
		}
		b.WriteString("\n")
	}
	if f.Evidence.Use != "" {
		fmt.Fprintf(&b, "- **use** %s\n", mdQuote(f.Evidence.Use))
	}
	b.WriteString("\n")
	return b.String()
}

// mdText makes transcript text inert in a comment: HTML is escaped and
// Markdown's own characters lose their meaning.
func mdText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_",
		"[", "\\[", "]", "\\]", "|", "\\|", "#", "\\#", "@", "@\u200b")
	return r.Replace(s)
}

// mdQuote shows a transcript excerpt as quoted, escaped text.
func mdQuote(s string) string {
	return "“" + mdText(oneLine(s, 240)) + "”"
}
