// Package cmd is compaudit's command line: flags, arguments, exit codes.
// The work is done in audit/ and the output in report/.
package cmd

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/cmd/config"
	_ "github.com/compaudit/compaudit/parse/formats" // every format compaudit reads
	"github.com/compaudit/compaudit/report"

	"github.com/spf13/cobra"
)

// globalOptions are the flags every command shares.
type globalOptions struct {
	color  string
	quiet  bool
	config string
}

// app is what every command is handed: streams and global options.
type app struct {
	streams *Streams
	global  *globalOptions
}

// colorOut says whether stdout gets colour.
func (a *app) colorOut() bool { return a.streams.useColor(a.global.color, a.streams.OutTTY) }

// configPath is --config, or .compaudit.yaml found upward from the
// working directory, or "" when there is none.
func (a *app) configPath() string {
	if a.global.config != "" {
		return a.global.config
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	found, _ := config.Find(wd)
	return found
}

// loadConfig reads the configuration file; no file is an empty
// configuration. A bad file is a usage error naming file and line.
func (a *app) loadConfig() (*config.Config, error) {
	path := a.configPath()
	if path == "" {
		return &config.Config{}, nil
	}
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	cfg, err := config.Load(path, ids)
	if err != nil {
		return nil, &ExitError{Code: ExitUsage, Err: err}
	}
	return cfg, nil
}

// warnf writes a warning to stderr unless --quiet.
func (a *app) warnf(format string, args ...any) {
	if !a.global.quiet {
		fmt.Fprintf(a.streams.Err, format, args...)
	}
}

// NewRoot builds the command tree.
func NewRoot(s *Streams) *cobra.Command {
	a := &app{streams: s, global: &globalOptions{}}
	root := &cobra.Command{
		Use:   "compaudit",
		Short: "Audit AI-agent transcripts for what context compaction destroyed",
		Long: `compaudit reads recorded agent sessions (Claude Code, Codex CLI, and a canonical
JSONL for other frameworks), tags the obligations as of each turn, replays every
compaction boundary and reports what the summary lost and what the agent did next.`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{HiddenDefaultCmd: false},
		PersistentPreRunE: func(c *cobra.Command, _ []string) error {
			switch a.global.color {
			case "auto", "always", "never":
				return nil
			}
			return usageError("--color must be auto, always or never, not %q", a.global.color)
		},
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.PersistentFlags().StringVar(&a.global.color, "color", "auto", "colour output: auto, always or never (NO_COLOR and TERM=dumb turn it off)")
	root.PersistentFlags().BoolVarP(&a.global.quiet, "quiet", "q", false, "print no warnings about the input, only the results")
	root.PersistentFlags().StringVar(&a.global.config, "config", "", "configuration file (default: .compaudit.yaml found upward from the working directory)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &ExitError{Code: ExitUsage, Err: err}
	})
	root.AddCommand(newAuditCmd(a), newBaselineCmd(a), newReplayCmd(a), newLedgerCmd(a), newAgentsCmd(a), newConfigCmd(a), newRulesCmd(a), newExplainCmd(a), newFormatsCmd(a), newVersionCmd(a))
	return root
}

// Main runs the command line and returns the exit code. It is the only
// place that turns errors into codes; main calls os.Exit with the result.
func Main(args []string, s *Streams) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.Err, "compaudit: internal error: %s\n%s", report.InertLines(fmt.Sprint(r)), debug.Stack())
			code = ExitInternal
		}
	}()
	root := NewRoot(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	if ee, ok := err.(*ExitError); !ok || !ee.Silent {
		fmt.Fprintf(s.Err, "compaudit: %s\n", report.InertLines(err.Error())) // it can name a file or quote a record
	}
	return exitCode(err)
}
