package policy

import "github.com/compaudit/compaudit/audit"

// ApplyBaseline marks each finding new or unchanged against the
// fingerprints of a baseline.
func ApplyBaseline(fs []audit.Finding, known map[string]bool) {
	for i := range fs {
		if known[fs[i].Fingerprint] {
			fs[i].BaselineState = audit.BaselineUnchanged
		} else {
			fs[i].BaselineState = audit.BaselineNew
		}
	}
}
