package cmd

import (
	"bytes"
	"io"

	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

// redactFlag is --redact: mask secret-shaped strings (cloud and API keys,
// bearer tokens, private keys, passwords in URLs) in the output. Its
// default may depend on the format: reports made to be shared (markdown,
// html) are redacted unless --redact=false.
type redactFlag struct {
	on  bool
	cmd *cobra.Command
}

func (r *redactFlag) register(c *cobra.Command, usage string) {
	r.cmd = c
	c.Flags().BoolVar(&r.on, "redact", false, usage)
}

// forFormat says whether output in a format is redacted: as the flag says
// when given, otherwise only the formats made to be shared.
func (r *redactFlag) forFormat(format string) bool {
	if r.cmd != nil && r.cmd.Flags().Changed("redact") {
		return r.on
	}
	return format == "markdown" || format == "html"
}

// redacting returns the writer to render into, and the flush that writes
// what was rendered since the last flush to w, redacted. Without redaction
// it is w itself. A streamed audit flushes after each transcript, so a
// secret is looked for within one transcript's part of the output.
func redacting(w io.Writer, on bool) (io.Writer, func() error) {
	if !on {
		return w, func() error { return nil }
	}
	var buf bytes.Buffer
	return &buf, func() error {
		_, err := w.Write(report.Redact(buf.Bytes()))
		buf.Reset()
		return err
	}
}
