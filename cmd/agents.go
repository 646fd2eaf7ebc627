package cmd

import (
	"io"

	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

func newAgentsCmd(a *app) *cobra.Command {
	var in inputOptions
	var format string
	var redact redactFlag
	c := &cobra.Command{
		Use:   "agents FILE|DIR|- ...",
		Short: "Show each agent's compactions, reads, writes, write breadth and citations",
		Long: `agents shows, per agent of a run, what the shared-state rules look at: its
compactions and whom they notified, its reads and writes, the distinct keys it
wrote per turn against the baseline before each compaction, and the
identifiers each of its messages cites — so a reviewer can see why a rule
fired.`,
		Example: "  compaudit agents testdata/transcripts/multiagent-canonical.jsonl",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ro := report.Options{Color: a.colorOut(), Version: Version(), Redact: redact.forFormat(format)}
			w := redacting(a.streams.Out, ro.Redact)
			n := rules.BreadthBaselineTurns
			newStream, err := pick(format, map[string]func(io.Writer, int, report.Options) report.Stream{
				"text": report.NewAgentsText,
				"json": report.NewAgentsJSON,
			})
			if err != nil {
				return err
			}
			return runView(a, &in, args, newStream(w, n, ro), w, false)
		},
	}
	in.register(c)
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	redact.register(c, "mask secret-shaped strings (keys, tokens, private keys, passwords in URLs) in the output")
	return c
}
