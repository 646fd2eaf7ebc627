package cmd

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

type auditOptions struct {
	input       inputOptions
	format      string
	failOn      string
	minSeverity string
}

func newAuditCmd(a *app) *cobra.Command {
	opts := &auditOptions{}
	c := &cobra.Command{
		Use:   "audit FILE|DIR|- ...",
		Short: "Replay every compaction boundary and report what it destroyed",
		Long: `audit tags each agent's obligations as its turns were written, replays every
compaction boundary against that ledger, and reports what the summary lost
(dropped literals, softened negations, drifted thresholds, stale or inflated
states) and what the agent did next (near-miss literals, forbidden actions,
breached thresholds, identifiers it could no longer see).`,
		Example: `  compaudit audit testdata/transcripts/incident-claude.jsonl
  compaudit audit --format ndjson ~/.claude/projects/ | jq 'select(.severity=="error")'
  compaudit audit --fail-on warning sessions/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return auditRun(a, opts, args)
		},
	}
	opts.input.register(c)
	c.Flags().StringVar(&opts.format, "format", "text", "output format: text, json or ndjson")
	c.Flags().StringVar(&opts.failOn, "fail-on", "error", "exit 1 when a finding is at or above: error, warning, note or none")
	c.Flags().StringVar(&opts.minSeverity, "min-severity", "", "show findings at or above this severity (default: warning for text, note otherwise)")
	return c
}

// failThreshold reads --fail-on; 0 means never fail on findings.
func failThreshold(s string) (audit.Severity, error) {
	if s == "none" {
		return 0, nil
	}
	sev, err := audit.ParseSeverity(s)
	if err != nil {
		return 0, usageError("--fail-on must be error, warning, note or none, not %q", s)
	}
	return sev, nil
}

func auditRun(a *app, opts *auditOptions, args []string) error {
	failOn, err := failThreshold(opts.failOn)
	if err != nil {
		return err
	}
	// people read text and pull-request comments: notes are counted there,
	// shown on request; machines and postmortem pages get everything
	minSev := audit.SeverityNote
	if opts.format == "text" || opts.format == "markdown" {
		minSev = audit.SeverityWarning
	}
	if opts.minSeverity != "" {
		if minSev, err = audit.ParseSeverity(opts.minSeverity); err != nil {
			return usageError("--min-severity must be error, warning or note, not %q", opts.minSeverity)
		}
	}
	view := report.AuditView{MinSeverity: minSev}
	ro := report.Options{Color: a.colorOut(), Version: Version(), Rules: rules.All()}
	w := a.streams.Out
	write, err := pick(opts.format, map[string]func([]*audit.Result) error{
		"text":     func(rs []*audit.Result) error { return report.AuditText(w, rs, view, ro) },
		"json":     func(rs []*audit.Result) error { return report.AuditJSON(w, rs, view, ro) },
		"ndjson":   func(rs []*audit.Result) error { return report.AuditNDJSON(w, rs, view, ro) },
		"sarif":    func(rs []*audit.Result) error { return report.AuditSARIF(w, rs, view, ro) },
		"markdown": func(rs []*audit.Result) error { return report.AuditMarkdown(w, rs, view, ro) },
		"html":     func(rs []*audit.Result) error { return report.AuditHTML(w, rs, view, ro) },
	})
	if err != nil {
		return err
	}
	results, health, err := auditAll(a, &opts.input, args, rules.All())
	if err != nil {
		return err
	}
	if err := write(results); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if err := health.exit(); err != nil {
		return err
	}
	if failOn > 0 {
		n := 0
		for _, r := range results {
			for _, f := range r.Findings {
				if f.Severity >= failOn {
					n++
				}
			}
		}
		if n > 0 {
			return &ExitError{Code: ExitFindings, Silent: true, Err: fmt.Errorf("%d finding(s) at or above %s", n, failOn)}
		}
	}
	return nil
}

// auditAll reads and audits every transcript the arguments name; with no
// rules it only builds the ledgers and replays.
func auditAll(a *app, in *inputOptions, args []string, ruleSet []*audit.Rule) ([]*audit.Result, *inputHealth, error) {
	popts, err := in.parseOptions(a.streams)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := a.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	transcripts, diags, err := discover(a, args)
	reportDiagnostics(a, diags)
	if err != nil {
		return nil, nil, err
	}
	health := &inputHealth{}
	health.add(diags)
	aopts := audit.Options{Rules: ruleSet, StateMappings: cfg.State}
	var results []*audit.Result
	for _, t := range transcripts {
		res, err := audit.Audit(t, popts, aopts)
		if err != nil {
			return nil, nil, &ExitError{Code: ExitInternal, Err: fmt.Errorf("%s: %w", t.Path, err)}
		}
		health.files(a, res.Files)
		if readableAny(res.Files) {
			results = append(results, res)
		}
	}
	return results, health, nil
}

func readableAny(files []parse.FileResult) bool {
	for _, f := range files {
		if f.Err == nil {
			return true
		}
	}
	return false
}
