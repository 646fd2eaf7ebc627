package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/compaudit/compaudit/audit"
)

type ruleDoc struct {
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	Severity audit.Severity `json:"severity"`
	Doc      string         `json:"doc"`
}

// RulesText lists the rules: id, default severity and title.
func RulesText(w io.Writer, rules []*audit.Rule, o Options) error {
	st := newStyles(w, o)
	var b strings.Builder
	for _, r := range rules {
		fmt.Fprintf(&b, "%-22s %s  %s\n", st.bold.Render(r.ID), st.severity(r.Severity), r.Title)
	}
	b.WriteString("\ncompaudit explain ID prints a rule's documentation.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// RulesJSON lists the rules with their documentation.
func RulesJSON(w io.Writer, rules []*audit.Rule, _ Options) error {
	out := make([]ruleDoc, 0, len(rules))
	for _, r := range rules {
		out = append(out, ruleDoc{ID: r.ID, Title: r.Title, Severity: r.Severity, Doc: r.Doc})
	}
	return encodeJSON(w, out, true)
}

// Explain prints one rule's documentation.
func Explain(w io.Writer, r *audit.Rule, o Options) error {
	st := newStyles(w, o)
	_, err := fmt.Fprintf(w, "%s — %s\ndefault severity: %s\n\n%s\n", st.bold.Render(r.ID), r.Title, st.severity(r.Severity), r.Doc)
	return err
}
