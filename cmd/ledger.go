package cmd

import (
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
	ro := report.Options{Color: a.colorOut(), Version: Version()}
	w, flush := redacting(a.streams.Out, opts.redact.forFormat(opts.format))
	write, err := pick(opts.format, map[string]func([]*audit.TranscriptLedgers) error{
		"text":   func(ts []*audit.TranscriptLedgers) error { return report.LedgerText(w, ts, v, ro) },
		"json":   func(ts []*audit.TranscriptLedgers) error { return report.LedgerJSON(w, ts, v, ro) },
		"ndjson": func(ts []*audit.TranscriptLedgers) error { return report.LedgerNDJSON(w, ts, v, ro) },
	})
	if err != nil {
		return err
	}
	return runView(a, &opts.input, args, func(results []*audit.Result) error {
		out := make([]*audit.TranscriptLedgers, 0, len(results))
		for _, r := range results {
			out = append(out, audit.LedgersOf(r))
		}
		return write(out)
	}, flush)
}

// runView reads transcripts for a view of the replay rather than of the
// findings: no rules run, results stay whole, and write renders them.
func runView(a *app, in *inputOptions, args []string, write func([]*audit.Result) error, flush func() error) error {
	setup, err := newAuditSetup(a)
	if err != nil {
		return err
	}
	setup.options.Rules = nil
	results, health, err := auditAll(a, in, args, setup.options, true)
	if err != nil {
		return err
	}
	if err := write(results); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if err := flush(); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	return health.exit()
}
