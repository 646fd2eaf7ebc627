package cmd

import (
	"bytes"
	"testing"
)

// writeCounter counts the writes made to it.
type writeCounter struct {
	bytes.Buffer
	writes int
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestOutputIsBuffered: each format reaches standard output in a few large
// writes, with redaction and without. The HTML page was written one
// template action at a time, each a write(2) on a real stdout.
func TestOutputIsBuffered(t *testing.T) {
	for _, format := range []string{"text", "json", "ndjson", "sarif", "markdown", "html"} {
		for _, redact := range []string{"--redact=true", "--redact=false"} {
			s, _, errOut := TestStreams("")
			out := &writeCounter{}
			s.Out = out
			code := Main([]string{"audit", "--format", format, redact, "--fail-on", "none", "--min-severity", "note", incident}, s)
			if code != ExitOK {
				t.Fatalf("%s %s: exit %d: %s", format, redact, code, errOut)
			}
			// one transcript: its part, and what opens and closes the document
			if out.Len() == 0 || out.writes > 3 {
				t.Errorf("%s %s: %d bytes in %d writes", format, redact, out.Len(), out.writes)
			}
		}
	}
}
