package rules

import (
	"fmt"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
)

// StatusInflation reports a summary claiming success the record does not
// show.
var StatusInflation = &audit.Rule{
	ID:       "status-inflation",
	Title:    "The summary claims done or passing where the last state was failed or pending",
	Severity: audit.SeverityError,
	Doc: `The ledger tracks the last authoritative state of test runs, builds, deploys and
tasks: from tool results (is_error, exit codes, FAIL and PASS lines) and
status updates. This rule reports a summary that claims done, passing or fixed
where that last state was failed or pending, and that nowhere admits the
failure. "Deployed the site to staging" and "shipped the fix to production"
claim a deploy done; "still needs to be deployed", "once deployed" and "the
deployed version" do not. Each command of a call is named by the program it starts: one that
only reads, edits or moves files (cat jest.config.js, grep -rn deploy, git
add tests/) is no test run, build or deploy, whatever its arguments name,
and words inside quotes are an argument's text (bd close --reason "tests
pass"), unless a shell's -c or ssh runs them. A project's own script is
named by its file: ./scripts/test.sh, bin/test and python3 run_tests.py run
the tests, ./build.sh builds. A copy to a bucket (aws s3 sync, gsutil
rsync) or to another host (rsync or scp to deploy@web:/srv/app) deploys, as
does a git push to Heroku, Dokku or a remote named for an environment. A
call of several runs that passed sets each of them; one that failed sets
only its last, which did not succeed: npm run build && ./deploy.sh failing
is a failed deploy, and says nothing of the build. The agent saying a run
passed does not undo a failed one; only another run does.

Why it matters: the agent resumes believing the work is finished, and reports
success; a verifier that trusts the report accepts it.

Example: the last test run failed (1 failed, 20 passed); the summary says "all
tests pass". Or: "task B failed with retry pending"; the summary says "tasks A
and B complete".

Fix: carry states from tool results, not from the narrative; rerun before
claiming.`,
	Run: runStatusInflation,
}

func runStatusInflation(p *audit.Pass) {
	r := p.Replay
	for i := range r.Survivals {
		s := &r.Survivals[i]
		o := s.Obligation
		if o.Kind != tag.KindState || s.State != replay.Inverted || !audit.Changed(r, o.ID) {
			continue
		}
		f := audit.BoundaryFinding(r, s)
		f.Message = fmt.Sprintf("the summary at %s claims %s is done; its last state (turn %d) was %s: %s",
			audit.BoundaryName(r), o.Status.Subject, o.Origin.Turn, o.Status.Value, o.Status.Detail)
		p.Report(f)
	}
}
