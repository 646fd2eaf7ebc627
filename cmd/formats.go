package cmd

import (
	"io"

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
			render, err := pick(format, map[string]func(io.Writer, []parse.FormatInfo, report.Options) error{
				"text": report.FormatsText, "json": report.FormatsJSON})
			if err != nil {
				return err
			}
			return render(a.streams.Out, parse.Formats(), report.Options{Color: a.colorOut(), Version: Version()})
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}
