package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

func newBaselineCmd(a *app) *cobra.Command {
	var in inputOptions
	var redact redactFlag
	c := &cobra.Command{
		Use:   "baseline FILE|DIR|- ...",
		Short: "Record the current findings by fingerprint, to adopt compaudit on an existing corpus",
		Long: `baseline audits the transcripts and prints their findings' fingerprints as a
baseline file. Run later audits with --baseline FILE: findings in the baseline
are reported as unchanged and only new ones can fail the run. Fingerprints do
not depend on line numbers, so edits elsewhere in a transcript keep them.

A baseline is committed with the code, and each entry's message quotes what
the transcript said, so secret-shaped strings in it are masked unless
--redact=false. Fingerprints are taken before and do not change.`,
		Example: `  compaudit baseline sessions/ > .compaudit-baseline.json
  compaudit audit --baseline .compaudit-baseline.json sessions/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			setup, err := newAuditSetup(a)
			if err != nil {
				return err
			}
			// the entries are gathered as each transcript is done; the
			// results are not kept
			policy := setup.policy(nil)
			// made to be committed, so redacted unless asked not to be
			w := redacting(a.streams.Out, redact.or(true))
			file := report.NewBaseline(w, report.Options{Version: Version(), Redact: redact.or(true)})
			health, err := auditEach(a, &in, args, setup.options, false, w.on, func(r *audit.Result, secrets []string) error {
				policy.apply(r)
				w.learn(secrets)
				return file.Transcript(r)
			})
			if err != nil {
				return err
			}
			policy.warnUnused(a)
			if err := file.Close(); err != nil {
				return &ExitError{Code: ExitInternal, Err: err}
			}
			if err := w.flush(); err != nil {
				return &ExitError{Code: ExitInternal, Err: err}
			}
			return health.exit()
		},
	}
	in.register(c)
	redact.register(c, "mask secret-shaped strings (keys, tokens, private keys, passwords in URLs) in the baseline's messages (default: on, as a baseline is committed)")
	return c
}

// loadBaseline reads a baseline file into the set of its fingerprints.
func loadBaseline(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError("--baseline: %v", err)
	}
	var b report.BaselineFile
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, usageError("--baseline %s: not a baseline: %v", jsonErrorAt(path, data, err), err)
	}
	if b.Tool != "compaudit" {
		return nil, usageError("--baseline %s: not a compaudit baseline (no \"tool\": \"compaudit\")", path)
	}
	known := map[string]bool{}
	for _, f := range b.Findings {
		known[f.Fingerprint] = true
	}
	return known, nil
}

// jsonErrorAt is path with the line and column (in bytes, from 1) where
// encoding/json stopped, as editors take them: a baseline is edited by hand
// and merged, and "unexpected end of JSON input" alone says not where.
func jsonErrorAt(path string, data []byte, err error) string {
	var off int64
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax) && syntax.Offset >= int64(len(data)):
		off = int64(len(data)) // cut short: where it ends
	case errors.As(err, &syntax):
		off = syntax.Offset - 1 // the offset is of the byte after the one at fault
	case errors.As(err, &typ):
		off = typ.Offset - 1
	default:
		return path
	}
	before := data[:min(max(off, 0), int64(len(data)))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}
