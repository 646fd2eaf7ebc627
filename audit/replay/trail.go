package replay

import (
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
)

// ErrorLine picks the line of a tool's output that says what failed.
func ErrorLine(text string) string {
	var last string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		last = t
		low := lex.FoldLower(t)
		for _, w := range []string{"error", "fatal", "failed", "exception", "denied", "not found", "no such", "does not exist"} {
			if strings.Contains(low, w) {
				return lex.Clip(t, 200)
			}
		}
	}
	return lex.Clip(last, 200)
}

// TrailStep is an obligation's survival at one boundary.
type TrailStep struct {
	Boundary int    `json:"boundary"`
	Turn     int    `json:"turn"`
	Line     int    `json:"line"`
	State    State  `json:"state"`
	Detail   string `json:"detail,omitempty"`
	Excerpt  string `json:"excerpt,omitempty"`
	Variant  string `json:"variant,omitempty"`
}
