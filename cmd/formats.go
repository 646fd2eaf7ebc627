package cmd

import (
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

func newFormatsCmd(a *app) *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "formats",
		Short: "List the transcript formats compaudit reads and how each is detected",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ro := report.Options{Color: a.colorOut(), Version: Version()}
			switch format {
			case "text":
				return report.FormatsText(a.streams.Out, parse.Formats(), ro)
			case "json":
				return report.FormatsJSON(a.streams.Out, parse.Formats(), ro)
			}
			return usageError("--format must be text or json, not %q", format)
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}
