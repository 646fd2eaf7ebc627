package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/cmd/config"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/report"
	"github.com/spf13/cobra"
)

type auditOptions struct {
	input       inputOptions
	format      string
	outputs     []string
	failOn      string
	minSeverity string
	baseline    string
	redact      redactFlag
}

// renderers are the audit's output formats.
var renderers = map[string]func(io.Writer, []*audit.Result, report.AuditView, report.Options) error{
	"text":     report.AuditText,
	"json":     report.AuditJSON,
	"ndjson":   report.AuditNDJSON,
	"sarif":    report.AuditSARIF,
	"markdown": report.AuditMarkdown,
	"html":     report.AuditHTML,
}

func newAuditCmd(a *app) *cobra.Command {
	opts := &auditOptions{}
	c := &cobra.Command{
		Use:   "audit [FILE|DIR|- ...]",
		Short: "Replay every compaction boundary and report what it destroyed",
		Long: `audit tags each agent's obligations as its turns were written, replays every
compaction boundary against that ledger, and reports what the summary lost
(dropped literals, softened negations, drifted thresholds, stale or inflated
states), what the agent did next (near-miss literals, forbidden actions,
breached thresholds, identifiers it could no longer see), and, for multi-agent
runs, the provenance breaks of shared state.

With no path it audits this directory's own sessions: Claude Code's project
folder for the working directory and the Codex sessions recorded here.`,
		Example: `  compaudit audit testdata/transcripts/incident-claude.jsonl
  compaudit audit --format ndjson ~/.claude/projects/ | jq 'select(.severity=="error")'
  compaudit audit --output sarif=compaudit.sarif --baseline .compaudit-baseline.json sessions/
  compaudit audit --format html --output markdown=comment.md session.jsonl > report.html`,
		RunE: func(c *cobra.Command, args []string) error {
			return auditRun(a, opts, args)
		},
	}
	opts.input.register(c)
	c.Flags().StringVar(&opts.format, "format", "text", "output format on stdout: text, json, ndjson, sarif, markdown or html")
	c.Flags().StringArrayVar(&opts.outputs, "output", nil, "also write FORMAT=PATH (repeatable), e.g. --output sarif=compaudit.sarif")
	c.Flags().StringVar(&opts.failOn, "fail-on", "", "exit 1 when a new, unsuppressed finding is at or above: error, warning, note or none (default error, or fail-on in the configuration)")
	c.Flags().StringVar(&opts.minSeverity, "min-severity", "", "show findings at or above this severity (default: warning for text and markdown, note otherwise)")
	opts.redact.register(c, "mask secret-shaped strings (keys, tokens, private keys, passwords in URLs) in every output (default: on for markdown and html only)")
	c.Flags().StringVar(&opts.baseline, "baseline", "", "a baseline file from `compaudit baseline`: only findings not in it are new and can fail the run")
	_ = c.RegisterFlagCompletionFunc("format", completeWords("text", "json", "ndjson", "sarif", "markdown", "html"))
	_ = c.RegisterFlagCompletionFunc("fail-on", completeWords("error", "warning", "note", "none"))
	_ = c.RegisterFlagCompletionFunc("min-severity", completeWords("error", "warning", "note"))
	return c
}

func completeWords(words ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
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

// output is one rendering of the audit: a format to a destination.
type output struct {
	format string
	path   string // "" is stdout
}

func parseOutputs(format string, specs []string) ([]output, error) {
	if _, ok := renderers[format]; !ok {
		_, err := pick(format, renderers)
		return nil, err
	}
	outs := []output{{format: format}}
	for _, spec := range specs {
		f, p, ok := strings.Cut(spec, "=")
		if !ok || p == "" {
			return nil, usageError("--output wants FORMAT=PATH, not %q", spec)
		}
		if _, known := renderers[f]; !known {
			_, err := pick(f, renderers)
			return nil, err
		}
		outs = append(outs, output{format: f, path: p})
	}
	return outs, nil
}

func auditRun(a *app, opts *auditOptions, args []string) error {
	outs, err := parseOutputs(opts.format, opts.outputs)
	if err != nil {
		return err
	}
	var explicitMin audit.Severity
	if opts.minSeverity != "" {
		if explicitMin, err = audit.ParseSeverity(opts.minSeverity); err != nil {
			return usageError("--min-severity must be error, warning or note, not %q", opts.minSeverity)
		}
	}
	setup, err := newAuditSetup(a)
	if err != nil {
		return err
	}
	failOn := "error"
	if setup.cfg.FailOn != "" {
		failOn = setup.cfg.FailOn
	}
	if opts.failOn != "" {
		failOn = opts.failOn
	}
	threshold, err := failThreshold(failOn)
	if err != nil {
		return err
	}
	var known map[string]bool
	if opts.baseline != "" {
		if known, err = loadBaseline(opts.baseline); err != nil {
			return err
		}
	}
	if len(args) == 0 {
		if args, err = ownSessions(a); err != nil {
			return err
		}
	}
	// only the HTML report draws the ledger and the trails
	full := slices.ContainsFunc(outs, func(o output) bool { return o.format == "html" })
	results, health, err := auditAll(a, &opts.input, args, setup.options, full)
	if err != nil {
		return err
	}
	setup.postProcess(a, results, known)
	ro := report.Options{Color: a.colorOut(), Version: Version(), Rules: setup.options.Rules}
	for _, o := range outs {
		v := report.AuditView{MinSeverity: audit.SeverityNote}
		if o.format == "text" || o.format == "markdown" {
			v.MinSeverity = audit.SeverityWarning
		}
		if explicitMin != 0 {
			v.MinSeverity = explicitMin
		}
		if err := writeOutput(a, o, results, v, ro, opts.redact.forFormat(o.format)); err != nil {
			return err
		}
	}
	if err := health.exit(); err != nil {
		return err
	}
	if threshold > 0 {
		n := 0
		for _, r := range results {
			for i := range r.Findings {
				if f := &r.Findings[i]; f.Severity >= threshold && f.Counts() {
					n++
				}
			}
		}
		if n > 0 {
			what := "finding(s)"
			if known != nil {
				what = "new finding(s)"
			}
			return &ExitError{Code: ExitFindings, Silent: true, Err: fmt.Errorf("%d %s at or above %s", n, what, threshold)}
		}
	}
	return nil
}

// writeOutput renders to stdout or to a file; a file gets no colour.
func writeOutput(a *app, o output, rs []*audit.Result, v report.AuditView, ro report.Options, redact bool) error {
	render := renderers[o.format]
	if o.path == "" {
		w, flush := redacting(a.streams.Out, redact)
		if err := render(w, rs, v, ro); err != nil {
			return &ExitError{Code: ExitInternal, Err: err}
		}
		if err := flush(); err != nil {
			return &ExitError{Code: ExitInternal, Err: err}
		}
		return nil
	}
	fh, err := os.Create(o.path)
	if err != nil {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("--output %s=%s: %v", o.format, o.path, err)}
	}
	ro.Color = false
	w, flush := redacting(fh, redact)
	if err := render(w, rs, v, ro); err != nil {
		fh.Close()
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if err := flush(); err != nil {
		fh.Close()
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if err := fh.Close(); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	return nil
}

// auditSetup is the configuration turned into what the audit needs.
type auditSetup struct {
	cfg     *config.Config
	options audit.Options
}

func newAuditSetup(a *app) (*auditSetup, error) {
	cfg, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	var enabled []*audit.Rule
	for _, r := range rules.All() {
		if !slices.Contains(cfg.Disable, r.ID) {
			enabled = append(enabled, r)
		}
	}
	return &auditSetup{cfg: cfg, options: audit.Options{
		Rules:         enabled,
		StateMappings: cfg.State,
		SideEffecting: audit.SideEffectingWith(cfg.SideEffecting),
		Tagging:       audit.Tagging{Literals: cfg.LiteralPatterns, ProhibitionCues: cfg.ProhibitionCues},
	}}, nil
}

// postProcess applies what the configuration and the baseline say of the
// findings: severity overrides, suppressions, and new or unchanged. Unused
// and expired suppressions are reported.
func (s *auditSetup) postProcess(a *app, results []*audit.Result, baseline map[string]bool) {
	var uses []audit.SuppressionUse
	now := time.Now()
	for _, r := range results {
		audit.Override(r.Findings, s.cfg.Severity)
		u := audit.Suppress(r.Findings, s.cfg.Suppressions, now)
		if uses == nil {
			uses = u
		} else {
			for i := range u {
				uses[i].Matched += u[i].Matched
			}
		}
		if baseline != nil {
			audit.ApplyBaseline(r.Findings, baseline)
		}
	}
	for _, u := range uses {
		switch {
		case u.Expired:
			a.warnf("compaudit: %s: suppression expired on %s and no longer applies (%s)\n", u.Source, u.Expires.Format("2006-01-02"), u.Reason)
		case u.Matched == 0:
			a.warnf("compaudit: %s: suppression matched no finding; remove it (%s)\n", u.Source, u.Reason)
		}
	}
}

// auditAll reads and audits every transcript the arguments name.
// full keeps each result whole for the views that show the replay; without
// it results keep their findings and counts (Result.Trim), so a run over
// thousands of sessions stays small.
func auditAll(a *app, in *inputOptions, args []string, aopts audit.Options, full bool) ([]*audit.Result, *inputHealth, error) {
	popts, err := in.parseOptions(a.streams)
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
	defer setMemoryBudget(transcripts, full)()
	prog := newProgress(a, len(transcripts))
	// Transcripts are audited at once, up to the CPUs allowed; a single
	// transcript gets them as reading workers instead. Results are taken
	// in argument order, so the output does not depend on which finished
	// first.
	jobs := min(popts.Workers, len(transcripts))
	popts.Workers = max(1, popts.Workers/jobs)
	type outcome struct {
		res  *audit.Result
		err  error
		done chan struct{}
	}
	outs := make([]outcome, len(transcripts))
	for i := range outs {
		outs[i].done = make(chan struct{})
	}
	go func() {
		sem := make(chan struct{}, jobs)
		for i, t := range transcripts {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				defer close(outs[i].done)
				outs[i].res, outs[i].err = auditOne(t, popts, aopts)
				if outs[i].res != nil && !full {
					outs[i].res.Trim()
				}
			}()
		}
	}()
	var results []*audit.Result
	for i, t := range transcripts {
		<-outs[i].done
		prog.step()
		res, err := outs[i].res, outs[i].err
		if err != nil {
			prog.finish()
			return nil, nil, &ExitError{Code: ExitInternal, Err: fmt.Errorf("%s: %w", t.Path, err)}
		}
		health.files(a, res.Files)
		if readableAny(res.Files) {
			results = append(results, res)
		}
	}
	prog.finish()
	return results, health, nil
}

// auditOne audits a transcript. A panic is a bug in compaudit, never the
// input's fault: it is reported as an internal error naming the transcript
// rather than taking down the run.
func auditOne(t parse.Transcript, popts parse.Options, aopts audit.Options) (res *audit.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error (please report it with the transcript if you can): %v\n%s", r, debug.Stack())
		}
	}()
	return audit.Audit(t, popts, aopts)
}

func readableAny(files []parse.FileResult) bool {
	for _, f := range files {
		if f.Err == nil {
			return true
		}
	}
	return false
}
