package policy

import "github.com/compaudit/compaudit/audit"

// Override sets the severity of every finding of the rules named.
func Override(fs []audit.Finding, sev map[string]audit.Severity) {
	for i := range fs {
		if s, ok := sev[fs[i].Rule]; ok {
			fs[i].Severity = s
		}
	}
}
