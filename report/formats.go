package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/compaudit/compaudit/parse"
)

// FormatsText lists the supported transcript formats.
func FormatsText(w io.Writer, fs []parse.FormatInfo, o Options) error {
	st := newStyles(w, o)
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s  %s\n", st.bold.Render(string(f.Name)), f.Title)
		fmt.Fprintf(&b, "  where:     %s\n", f.Location)
		fmt.Fprintf(&b, "  detected:  %s\n", f.Detection)
		fmt.Fprintf(&b, "  boundary:  %s\n", f.Boundary)
	}
	b.WriteString("\nDetection reads the first records of each file; --input-format forces a format.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// FormatsJSON lists the supported transcript formats as JSON.
func FormatsJSON(w io.Writer, fs []parse.FormatInfo, _ Options) error {
	return encodeJSON(w, fs, true)
}
