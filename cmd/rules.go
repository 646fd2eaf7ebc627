package cmd

import (
	"io"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

func newRulesCmd(a *app) *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "rules",
		Short: "List the rules with their default severity",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			render, err := pick(format, map[string]func(io.Writer, []*audit.Rule, report.Options) error{
				"text": report.RulesText, "json": report.RulesJSON})
			if err != nil {
				return err
			}
			return render(a.streams.Out, rules.All(), report.Options{Color: a.colorOut(), Version: Version()})
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}

func newExplainCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "explain RULE",
		Short: "Print a rule's documentation",
		Args:  cobra.ExactArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			var ids []string
			for _, r := range rules.All() {
				ids = append(ids, r.ID+"\t"+r.Title)
			}
			return ids, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			r := rules.Lookup(args[0])
			if r == nil {
				return usageError("no rule %q; compaudit rules lists them", args[0])
			}
			return report.Explain(a.streams.Out, r, report.Options{Color: a.colorOut()})
		},
	}
}
