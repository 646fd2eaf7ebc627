package cmd

import (
	"io"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

type ledgerOptions struct {
	input  inputOptions
	format string
	at     int
	redact redactFlag
}

func newLedgerCmd(a *app) *cobra.Command {
	opts := &ledgerOptions{}
	c := &cobra.Command{
		Use:   "ledger FILE|DIR|- ...",
		Short: "Show the obligation ledger as of each turn",
		Long: `ledger tags the obligations of each agent as its turns were written — literals,
prohibitions, requirements, thresholds, commitments, states and retractions —
and shows them turn by turn, or as of one turn with --at.`,
		Example: `  compaudit ledger testdata/transcripts/incident-claude.jsonl
  compaudit ledger --at 63 session.jsonl
  compaudit ledger --format ndjson session.jsonl | jq 'select(.kind=="prohibition")'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return ledgerRun(a, opts, args)
		},
	}
	opts.input.register(c)
	c.Flags().StringVar(&opts.format, "format", "text", "output format: text, json or ndjson")
	c.Flags().IntVar(&opts.at, "at", 0, "show the ledger in force as of this turn")
	opts.redact.register(c, "mask secret-shaped strings (keys, tokens, private keys, passwords in URLs) in the output")
	return c
}

func ledgerRun(a *app, opts *ledgerOptions, args []string) error {
	if opts.at < 0 {
		return usageError("--at must be a turn number (1 or more), not %d", opts.at)
	}
	v := report.LedgerView{At: opts.at}
	ro := report.Options{Color: a.colorOut(), Version: Version(), Redact: opts.redact.forFormat(opts.format)}
	w := redacting(a.streams.Out, ro.Redact)
	newStream, err := pick(opts.format, map[string]func(io.Writer, report.LedgerView, report.Options) report.Stream{
		"text":   report.NewLedgerText,
		"json":   report.NewLedgerJSON,
		"ndjson": report.NewLedgerNDJSON,
	})
	if err != nil {
		return err
	}
	return runView(a, &opts.input, args, newStream(w, v, ro), w, false)
}

// runView reads transcripts for a view of the replay rather than of the
// findings: no rules run and results stay whole. Each is rendered through s
// as soon as it and every one before it are done, and dropped, so a view
// over a folder holds only the results in flight. summaries keeps every
// boundary's post-compaction text, for a view that shows it.
func runView(a *app, in *inputOptions, args []string, s report.Stream, w *redactor, summaries bool) error {
	setup, err := newAuditSetup(a)
	if err != nil {
		return err
	}
	setup.options.Rules = nil
	setup.options.KeepSummaries = summaries
	health, err := auditEach(a, in, args, setup.options, true, w.on, func(r *audit.Result, secrets []string) error {
		w.learn(secrets)
		if err := s.Transcript(r); err != nil {
			return &ExitError{Code: ExitInternal, Err: err}
		}
		if err := w.flush(); err != nil {
			return &ExitError{Code: ExitInternal, Err: err}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if err := w.flush(); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	return health.exit()
}
