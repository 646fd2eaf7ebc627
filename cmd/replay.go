package cmd

import (
	"io"

	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

type replayOptions struct {
	input    inputOptions
	format   string
	boundary int
	agent    string
	redact   redactFlag
}

func newReplayCmd(a *app) *cobra.Command {
	opts := &replayOptions{}
	c := &cobra.Command{
		Use:   "replay FILE|DIR|- ...",
		Short: "Show, per boundary, every obligation's survival and its trail",
		Example: `  compaudit replay testdata/transcripts/incident-drift-claude.jsonl
  compaudit replay --boundary 2 --format json session.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if opts.boundary < 0 {
				return usageError("--boundary must be 1 or more, not %d", opts.boundary)
			}
			ro := report.Options{Color: a.colorOut(), Version: Version(), Redact: opts.redact.forFormat(opts.format)}
			v := report.ReplayView{Boundary: opts.boundary, Agent: opts.agent}
			w := redacting(a.streams.Out, ro.Redact)
			newStream, err := pick(opts.format, map[string]func(io.Writer, report.ReplayView, report.Options) report.Stream{
				"text": report.NewReplayText,
				"json": report.NewReplayJSON,
			})
			if err != nil {
				return err
			}
			return runView(a, &opts.input, args, newStream(w, v, ro), w, true) // it shows each summary
		},
	}
	opts.input.register(c)
	c.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	c.Flags().IntVar(&opts.boundary, "boundary", 0, "show only this boundary (1-based, per agent)")
	c.Flags().StringVar(&opts.agent, "agent", "", "show only this agent's boundaries")
	opts.redact.register(c, "mask secret-shaped strings (keys, tokens, private keys, passwords in URLs) in the output")
	return c
}
