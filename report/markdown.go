package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/report/mask"
)

// MarkdownLimit keeps a report under the size of a GitHub comment (65,536
// characters) with room for the note that says it was cut.
const MarkdownLimit = 65000

// NewAuditMarkdown renders a pull-request comment: counts per rule and
// severity, then the findings with their chains, errors first. It stays
// under MarkdownLimit characters and says so when it cut. Results are
// given one by one, and it keeps the counts and, of each severity, the findings that could still
// fit the comment, not every result: a folder's results, kept to the end
// for the comment, took 142 MB for 1,000 sessions.
func NewAuditMarkdown(w io.Writer, v AuditView, o Options) Stream {
	return &markdownStream{w: w, v: v, limit: MarkdownLimit, rows: map[string]*markdownRow{}, redact: o.Redact}
}

type markdownStream struct {
	w           io.Writer
	v           AuditView
	limit       int
	transcripts int
	totals      totalsDoc
	rows        map[string]*markdownRow // counts by rule
	// by severity, error first: how many findings, and the first of them
	// rendered, as many as could fit the comment
	sections [3]struct {
		n     int
		parts []string
		size  int
	}
	keepAll bool // every finding rendered, as the tests' measure of the rest
	redact  bool // Options.Redact
}

type markdownRow struct{ err, warn, note, suppressed int }

// The comment's sections, errors first.
var (
	markdownSeverities = [3]audit.Severity{audit.SeverityError, audit.SeverityWarning, audit.SeverityNote}
	markdownSections   = [3]string{"Errors", "Warnings", "Notes"}
)

func (s *markdownStream) Transcript(r *audit.Result) error {
	s.transcripts++
	fs := shown(r.Findings, s.v)
	count(&s.totals, fs)
	for _, f := range fs {
		row := s.rows[f.Rule]
		if row == nil {
			row = &markdownRow{}
			s.rows[f.Rule] = row
		}
		switch {
		case f.Suppressed != nil:
			row.suppressed++
		case f.Severity == audit.SeverityError:
			row.err++
		case f.Severity == audit.SeverityWarning:
			row.warn++
		default:
			row.note++
		}
		if i := slices.Index(markdownSeverities[:], f.Severity); i >= 0 && f.Suppressed == nil {
			sec := &s.sections[i]
			sec.n++
			if sec.size <= s.limit || s.keepAll { // past it, none could be shown
				part := markdownFinding(f, s.redact)
				sec.parts, sec.size = append(sec.parts, part), sec.size+len(part)
			}
		}
	}
	return nil
}

func (s *markdownStream) Close() error {
	_, err := io.WriteString(s.w, s.String())
	return err
}

// String is the comment.
func (s *markdownStream) String() string {
	t := s.totals
	var head strings.Builder
	fmt.Fprintf(&head, "## compaudit: %s in %d transcript%s\n\n", tally(t), s.transcripts, plural(s.transcripts, "", "s"))
	if t.Findings == 0 {
		head.WriteString("No findings: every compaction boundary kept what the agents were bound to.\n")
		return head.String()
	}
	// the table of counts
	ids := make([]string, 0, len(s.rows))
	for id := range s.rows {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	head.WriteString("| rule | error | warning | note | suppressed |\n|---|---:|---:|---:|---:|\n")
	for _, id := range ids {
		r := s.rows[id]
		fmt.Fprintf(&head, "| `%s` | %d | %d | %d | %d |\n", id, r.err, r.warn, r.note, r.suppressed)
	}
	head.WriteString("\n")

	var b strings.Builder
	b.WriteString(head.String())
	listed, written := 0, 0
	for _, sec := range s.sections {
		listed += sec.n
	}
	for i, sec := range s.sections {
		if sec.n == 0 {
			continue
		}
		parts := append([]string{fmt.Sprintf("### %s (%d)\n\n", markdownSections[i], sec.n)}, sec.parts...)
		for j, part := range parts {
			// keep room for the note that says what was left out
			if b.Len()+len(part) > s.limit-300 {
				left := listed - written
				fmt.Fprintf(&b, "\n> **Cut to fit a comment:** %d more finding%s not shown. Run `compaudit audit` locally or open the SARIF or JSON report for all of them.\n",
					left, plural(left, "", "s"))
				return b.String()
			}
			b.WriteString(part)
			if j > 0 {
				written++
			}
		}
	}
	return b.String()
}

// markdownFinding renders one finding. When the comment is redacted, its
// transcript text is redacted before Markdown escapes it: the escapes break
// a secret's shape (ghp\_…, sk\_live\_…), and the pass over the rendered
// comment let such tokens through.
func markdownFinding(f audit.Finding, redact bool) string {
	md := mdEscape{redact: redact}
	var b strings.Builder
	fmt.Fprintf(&b, "#### `%s` · %s:%d (turn %d)\n\n%s\n\n", f.Rule, md.text(f.File), f.Line, f.Turn, md.text(f.Message))
	for _, s := range f.Evidence.Chain {
		where := ""
		if s.Line > 0 {
			where = fmt.Sprintf(" turn %d, line %d", s.Turn, s.Line)
		}
		fmt.Fprintf(&b, "- **%s**%s", md.text(s.Kind), where)
		if s.Text != "" {
			fmt.Fprintf(&b, ": %s", md.quote(s.Text))
		}
		if s.Detail != "" {
			fmt.Fprintf(&b, " — %s", md.text(s.Detail))
		}
		b.WriteString("\n")
	}
	if f.Evidence.Use != "" {
		fmt.Fprintf(&b, "- **use** %s\n", md.quote(f.Evidence.Use))
	}
	b.WriteString("\n")
	return b.String()
}

// mdEscape escapes transcript text for the comment, redacting it first
// when the comment is redacted.
type mdEscape struct{ redact bool }

func (e mdEscape) text(s string) string { return mdText(e.secretsOut(s)) }

// quote shows a transcript excerpt as quoted, escaped text, cut to a line
// after it is redacted, whether or not it is cut: Markdown's escapes break
// a secret's shape however short the excerpt.
func (e mdEscape) quote(s string) string {
	return "“" + mdText(oneLine(e.secretsOut(s), 240)) + "”"
}

// secretsOut is s redacted when the comment is. Markdown's escapes (\_)
// break a secret's shape for the pass over the rendered comment, so what
// it quotes is redacted before it is escaped.
func (e mdEscape) secretsOut(s string) string {
	if e.redact {
		return string(mask.Redact([]byte(s)))
	}
	return s
}

// mdText makes transcript text inert in a comment: control characters are
// escaped (Inert), HTML is escaped and Markdown's own characters lose their
// meaning.
func mdText(s string) string {
	s = Inert(strings.Join(strings.Fields(s), " "))
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_",
		"[", "\\[", "]", "\\]", "|", "\\|", "#", "\\#", "@", "@\u200b")
	return r.Replace(s)
}
