package cmd

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

type ledgerOptions struct {
	input  inputOptions
	format string
	at     int
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
	return c
}

func ledgerRun(a *app, opts *ledgerOptions, args []string) error {
	if opts.at < 0 {
		return usageError("--at must be a turn number (1 or more), not %d", opts.at)
	}
	var write func([]*audit.TranscriptLedgers) error
	v := report.LedgerView{At: opts.at}
	ro := report.Options{Color: a.colorOut(), Version: Version()}
	switch opts.format {
	case "text":
		write = func(ts []*audit.TranscriptLedgers) error { return report.LedgerText(a.streams.Out, ts, v, ro) }
	case "json":
		write = func(ts []*audit.TranscriptLedgers) error { return report.LedgerJSON(a.streams.Out, ts, v, ro) }
	case "ndjson":
		write = func(ts []*audit.TranscriptLedgers) error { return report.LedgerNDJSON(a.streams.Out, ts, v, ro) }
	default:
		return usageError("--format must be text, json or ndjson, not %q", opts.format)
	}
	popts, err := opts.input.parseOptions(a.streams)
	if err != nil {
		return err
	}
	transcripts, diags, err := discover(a, args)
	reportDiagnostics(a, diags)
	if err != nil {
		return err
	}
	var out []*audit.TranscriptLedgers
	var health inputHealth
	health.add(diags)
	for _, t := range transcripts {
		tl, err := audit.BuildLedgers(t, popts)
		if err != nil {
			return &ExitError{Code: ExitInternal, Err: fmt.Errorf("%s: %w", t.Path, err)}
		}
		health.files(a, tl.Files)
		out = append(out, tl)
	}
	if err := write(out); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	return health.exit()
}
