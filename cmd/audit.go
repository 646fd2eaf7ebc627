package cmd

import (
	"cmp"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"time"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/policy"
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
	c.Flags().StringVar(&opts.format, "format", "text", "output format on stdout: "+orList(auditFormatNames()))
	c.Flags().StringArrayVar(&opts.outputs, "output", nil, "also write FORMAT=PATH (repeatable), e.g. --output sarif=compaudit.sarif")
	c.Flags().StringVar(&opts.failOn, "fail-on", "", "exit 1 when a new, unsuppressed finding is at or above: error, warning, note or none (default error, or fail-on in the configuration)")
	c.Flags().StringVar(&opts.minSeverity, "min-severity", "", "show findings at or above this severity (default: warning for text and markdown, note otherwise)")
	opts.redact.register(c, "mask secret-shaped strings (keys, tokens, private keys, passwords in URLs) in every output (default: on for markdown and html only)")
	c.Flags().StringVar(&opts.baseline, "baseline", "", "a baseline file from `compaudit baseline`: only findings not in it are new and can fail the run")
	_ = c.RegisterFlagCompletionFunc("format", completeWords(auditFormatNames()...))
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

func auditRun(a *app, opts *auditOptions, args []string) error {
	plan, err := planAudit(a, opts)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		if args, err = ownSessions(a); err != nil {
			return err
		}
	}
	// before anything is opened for writing
	if err := checkOutputs(plan.outs, args, []string{opts.baseline, a.configPath()}); err != nil {
		return err
	}
	dests, err := plan.open(a, opts)
	if err != nil {
		return err
	}
	// only the HTML report draws the ledger and the trails
	full := slices.ContainsFunc(plan.outs, func(o output) bool { return auditFormatOf(o.format).full })
	policy := plan.setup.policy(plan.known)
	failing := 0 // findings that fail the run
	redacts := slices.ContainsFunc(dests, func(d *destination) bool { return d.redact })
	health, err := auditEach(a, &opts.input, args, plan.setup.options, full, redacts, func(r *audit.Result, secrets []string) error {
		policy.apply(r)
		failing += plan.failing(r)
		for _, d := range dests {
			if err := d.transcript(r, secrets); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		closeAll(dests)
		return err
	}
	policy.warnUnused(a)
	for _, d := range dests {
		if err := d.finish(); err != nil {
			closeAll(dests)
			return err
		}
	}
	if err := health.exit(); err != nil {
		return err
	}
	return plan.verdict(failing)
}

// auditPlan is what an audit run settles before it reads a transcript:
// its outputs, the severities it shows and fails on, the configuration and
// the baseline.
type auditPlan struct {
	outs        []output
	explicitMin audit.Severity // --min-severity, or 0
	threshold   audit.Severity // fail at or above; 0 never fails
	known       map[string]bool
	setup       *auditSetup
}

func planAudit(a *app, opts *auditOptions) (*auditPlan, error) {
	outs, err := parseOutputs(opts.format, opts.outputs)
	if err != nil {
		return nil, err
	}
	p := &auditPlan{outs: outs}
	if opts.minSeverity != "" {
		if p.explicitMin, err = audit.ParseSeverity(opts.minSeverity); err != nil {
			return nil, usageError("--min-severity must be error, warning or note, not %q", opts.minSeverity)
		}
	}
	if p.setup, err = newAuditSetup(a); err != nil {
		return nil, err
	}
	failOn := cmp.Or(opts.failOn, p.setup.cfg.FailOn, "error")
	if p.threshold, err = failThreshold(failOn); err != nil {
		return nil, err
	}
	if opts.baseline != "" {
		if p.known, err = loadBaseline(opts.baseline); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// open readies the destinations; outputs take the results transcript by
// transcript, so a run over any number of sessions holds only the results
// in flight.
func (p *auditPlan) open(a *app, opts *auditOptions) ([]*destination, error) {
	ro := report.Options{Color: a.colorOut(), Version: Version(), Rules: p.setup.options.Rules}
	dests := make([]*destination, len(p.outs))
	for i, o := range p.outs {
		v := report.AuditView{MinSeverity: audit.SeverityNote}
		if auditFormatOf(o.format).brief {
			v.MinSeverity = audit.SeverityWarning
		}
		if p.explicitMin != 0 {
			v.MinSeverity = p.explicitMin
		}
		dests[i] = &destination{out: o, view: v, opts: ro, redact: opts.redact.forFormat(o.format)}
	}
	for _, d := range dests {
		if err := d.open(a); err != nil {
			closeAll(dests)
			return nil, err
		}
	}
	return dests, nil
}

// failing counts a transcript's findings that fail the run.
func (p *auditPlan) failing(r *audit.Result) int {
	n := 0
	for i := range r.Findings {
		if f := &r.Findings[i]; p.threshold > 0 && f.Severity >= p.threshold && f.Counts() {
			n++
		}
	}
	return n
}

// verdict is the run's exit for failing findings.
func (p *auditPlan) verdict(failing int) error {
	if failing == 0 {
		return nil
	}
	what := "finding(s)"
	if p.known != nil {
		what = "new finding(s)"
	}
	return &ExitError{Code: ExitFindings, Silent: true, Err: fmt.Errorf("%d %s at or above %s", failing, what, p.threshold)}
}

// destination is where one output goes: standard output or a file (which
// gets no colour), redacted or not.
type destination struct {
	out    output
	view   report.AuditView
	opts   report.Options
	redact bool
	file   *reportFile
	w      *redactor // what renders write to
	stream report.Stream
}

func (d *destination) open(a *app) error {
	var dst io.Writer = a.streams.Out
	if d.out.path != "" {
		fh, err := createReport(d.out.path)
		if err != nil {
			return &ExitError{Code: ExitUsage, Err: fmt.Errorf("--output %s=%s: %v", d.out.format, d.out.path, err)}
		}
		d.file, dst = fh, fh
		d.opts.Color = false
	}
	d.w = redacting(dst, d.redact)
	d.opts.Redact = d.redact
	d.stream = auditFormatOf(d.out.format).render(d.w, d.view, d.opts)
	return nil
}

// transcript gives the output one result and its secret pieces.
func (d *destination) transcript(r *audit.Result, secrets []string) error {
	d.w.learn(secrets)
	if err := d.stream.Transcript(r); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if err := d.w.flush(); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	return nil
}

// finish writes what ends the output and closes its file.
func (d *destination) finish() error {
	if err := d.stream.Close(); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if err := d.w.flush(); err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	return d.close()
}

// close moves the destination's finished file into place, if it has one.
func (d *destination) close() error {
	if d.file == nil {
		return nil
	}
	err := d.file.commit()
	d.file = nil
	if err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	return nil
}

// closeAll drops what is open when the run stops early: a streamed run has
// written part of each report, and a report cut short must not pass for a
// whole one, nor replace the last whole one.
func closeAll(dests []*destination) {
	for _, d := range dests {
		if d.file != nil {
			d.file.discard()
			d.file = nil
		}
	}
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
		Tagging:       ledger.Tagging{Literals: cfg.LiteralPatterns, ProhibitionCues: cfg.ProhibitionCues},
	}}, nil
}

// findingPolicy is what the configuration and the baseline say of the
// findings: severity overrides, suppressions, and new or unchanged. It is
// applied result by result and tallies the suppressions' use across them.
type findingPolicy struct {
	cfg      *config.Config
	baseline map[string]bool
	now      time.Time
	uses     []policy.SuppressionUse
}

func (s *auditSetup) policy(baseline map[string]bool) *findingPolicy {
	return &findingPolicy{cfg: s.cfg, baseline: baseline, now: time.Now()}
}

func (p *findingPolicy) apply(r *audit.Result) {
	policy.Override(r.Findings, p.cfg.Severity)
	u := policy.Suppress(r.Findings, p.cfg.Suppressions, p.now)
	if p.uses == nil {
		p.uses = u
	} else {
		for i := range u {
			p.uses[i].Matched += u[i].Matched
		}
	}
	if p.baseline != nil {
		policy.ApplyBaseline(r.Findings, p.baseline)
	}
}

// warnUnused reports the suppressions that expired or matched nothing.
func (p *findingPolicy) warnUnused(a *app) {
	for _, u := range p.uses {
		switch {
		case u.Expired:
			a.warnf("compaudit: %s: suppression expired on %s and no longer applies (%s)\n", u.Source, u.Expires.Format("2006-01-02"), u.Reason)
		case u.Matched == 0:
			a.warnf("compaudit: %s: suppression matched no finding; remove it (%s)\n", u.Source, u.Reason)
		}
	}
}

// auditEach reads and audits every transcript the arguments name and hands
// each result to use in argument order, as soon as it and every one before
// it are done. full keeps each result whole for the views that show the
// replay; without it results keep their findings and counts (Result.Trim).
// At most resultsAhead transcripts (wholeResultsAhead when full) are
// audited or waiting ahead of the one use is to take next, so a run over
// any number of sessions holds a bounded number of results; use keeps
// none of them.
func auditEach(a *app, in *inputOptions, args []string, aopts audit.Options, full, secrets bool, use func(*audit.Result, []string) error) (*inputHealth, error) {
	popts, err := in.parseOptions(a.streams)
	if err != nil {
		return nil, err
	}
	transcripts, diags, err := discover(a, args)
	reportDiagnostics(a, diags)
	if err != nil {
		return nil, err
	}
	health := &inputHealth{}
	health.add(diags)
	// Transcripts are audited at once, up to the CPUs allowed; a single
	// transcript gets them as reading workers instead.
	jobs := min(popts.Workers, len(transcripts))
	popts.Workers = max(1, popts.Workers/jobs)
	limit := resultsAhead
	if full {
		limit = wholeResultsAhead
	}
	ahead := min(len(transcripts), max(limit, 2*jobs))
	prog := newProgress(a, len(transcripts))
	type outcome struct {
		res     *audit.Result
		secrets []string // report.SecretsOf, read before the result is trimmed
		err     error
		done    chan struct{}
	}
	outs := make([]outcome, len(transcripts))
	for i := range outs {
		outs[i].done = make(chan struct{})
	}
	// window holds a place for each transcript started and not yet used;
	// quit tells the starter to stop when the run ends early
	window := make(chan struct{}, ahead)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		sem := make(chan struct{}, jobs)
		for i, t := range transcripts {
			select {
			case window <- struct{}{}:
			case <-quit:
				return
			}
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				defer close(outs[i].done)
				outs[i].res, outs[i].err = auditOne(t, popts, aopts)
				if outs[i].res != nil && secrets {
					outs[i].secrets = report.SecretsOf(outs[i].res)
				}
				if outs[i].res != nil && !full {
					outs[i].res.Trim()
				}
			}()
		}
	}()
	defer prog.finish()
	for i, t := range transcripts {
		<-outs[i].done
		res, secrets, err := outs[i].res, outs[i].secrets, outs[i].err
		outs[i].res, outs[i].secrets = nil, nil // use decides whether they stay
		if err != nil {
			return nil, &ExitError{Code: ExitInternal, Err: fmt.Errorf("%s: %w", t.Path, err)}
		}
		prog.clear()
		health.files(a, res.Files)
		if readableAny(res.Files) {
			if err := use(res, secrets); err != nil {
				return nil, err
			}
		}
		prog.step()
		<-window
	}
	return health, nil
}

// resultsAhead bounds the results a streamed audit holds at once: enough
// that a slow transcript does not keep both CPUs waiting behind it, few
// enough (about 70 KB each when trimmed) to stay small. A whole result,
// which a view of the replay needs, holds its ledgers, boundaries and
// trails (about 1.3 MB for a bench session), so fewer of them wait.
const (
	resultsAhead      = 64
	wholeResultsAhead = 8
)

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
