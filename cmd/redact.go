package cmd

import (
	"bufio"
	"bytes"
	"io"
	"maps"
	"slices"

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

// or is the flag's value when given, otherwise def.
func (r *redactFlag) or(def bool) bool {
	if r.cmd != nil && r.cmd.Flags().Changed("redact") {
		return r.on
	}
	return def
}

// forFormat says whether output in a format is redacted: as the flag says
// when given, otherwise only the formats made to be shared.
func (r *redactFlag) forFormat(format string) bool {
	return r.or(auditFormatOf(format).shared)
}

// redactor is what renderers write into: flush writes what was rendered
// since the last flush to the output, redacted or not. A streamed audit
// flushes after each transcript, so a secret is looked for within one
// transcript's part of the output, and a reader of the stream sees each
// transcript as it is done.
//
// Unredacted output is buffered too: the renderers write in small pieces
// (html/template one per action and text run), and straight to standard
// output each piece was a write(2): 182,509 of them for the HTML report of
// the 100 MB bench session, which made it 1.6 times slower than with
// redaction on.
type redactor struct {
	out   io.Writer
	on    bool
	buf   bytes.Buffer    // what was rendered, when on
	bw    *bufio.Writer   // when off
	known map[string]bool // secret pieces of the results rendered since the last flush (learn)
}

func redacting(w io.Writer, on bool) *redactor {
	r := &redactor{out: w, on: on}
	if !on {
		r.bw = bufio.NewWriterSize(w, 64<<10)
	}
	return r
}

func (r *redactor) Write(p []byte) (int, error) {
	if r.on {
		return r.buf.Write(p)
	}
	return r.bw.Write(p)
}

// WriteString is Write without the copy io.WriteString makes of a piece
// of output for a writer that lacks it.
func (r *redactor) WriteString(s string) (int, error) {
	if r.on {
		return r.buf.WriteString(s)
	}
	return r.bw.WriteString(s)
}

// learn adds the secret pieces of a result (report.SecretsOf) to what the
// next flush that writes masks, whatever shows them. A streamed output
// writes each transcript's part, which shows that transcript's alone, and
// forgets them; Markdown and HTML write once, at the end, with every
// result's.
func (r *redactor) learn(secrets []string) {
	if !r.on || len(secrets) == 0 {
		return
	}
	if r.known == nil {
		r.known = map[string]bool{}
	}
	for _, s := range secrets {
		r.known[s] = true
	}
}

func (r *redactor) flush() error {
	if !r.on {
		return r.bw.Flush()
	}
	if r.buf.Len() == 0 {
		return nil // Markdown and HTML render at the end, with every result's
	}
	known := slices.Sorted(maps.Keys(r.known))
	_, err := r.out.Write(report.RedactKnown(r.buf.Bytes(), known))
	r.buf.Reset()
	r.known = nil
	return err
}
