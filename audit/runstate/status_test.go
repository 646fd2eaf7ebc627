package runstate_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/runstate"
)

func TestRunOutcome(t *testing.T) {
	for _, c := range []struct {
		text   string
		status string
		detail string
	}{
		{"ok  \tgithub.com/acme/site/internal/handler\t0.412s\nok  \tgithub.com/acme/site/internal/store\t1.020s\n", runstate.StatusDone, "ok"},
		{"--- FAIL: TestApplyDiscount (0.00s)\n    discount_test.go:31: got true, want false\nFAIL\nFAIL\tgithub.com/acme/shop\t0.214s\n", runstate.StatusFailed, "FAIL"},
		{"=========== 1 failed, 47 passed in 3.21s ===========", runstate.StatusFailed, "1 failed"},
		{"Test Suites: 1 failed, 5 passed, 6 total\nTests:       1 failed, 47 passed, 48 total", runstate.StatusFailed, "1 failed"},
		{"Tests:       48 passed, 48 total", runstate.StatusDone, "48 passed"},
		{"12 examples, 0 failures", runstate.StatusDone, "0 failures"},
		{"npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nExited with code 2", runstate.StatusFailed, "Exited with code 2"},
		{"build finished\nexit status 0", runstate.StatusDone, "exited without error"},
		{"test result: FAILED. 3 passed; 1 failed; 0 ignored", runstate.StatusFailed, "1 failed"},
		{"test result: ok. 4 passed; 0 failed; 0 ignored", runstate.StatusDone, "0 failed"},
		{"PASS\nok  \tgithub.com/acme/x\t0.1s", runstate.StatusDone, "ok"},
		{"FAILURE: build failed with 3 errors", runstate.StatusFailed, "3 errors"},
		{"compiled successfully", runstate.StatusDone, "exited without error"},
		{"İstanbul ok KELVIN 3 failed", runstate.StatusFailed, "3 failed"},
	} {
		st, detail := runstate.RunOutcome(c.text, false)
		if st != c.status || detail != c.detail {
			t.Errorf("runOutcome(%.50q) = %s %q, want %s %q", c.text, st, detail, c.status, c.detail)
		}
		// the lowered copy is written over a pooled buffer: what a call
		// returned must not change when the next call lowers another text
		// (each case is upper-cased so that it is lowered)
		upper := strings.ToUpper(c.text)
		_, before := runstate.RunOutcome(upper, false)
		kept := strings.Clone(before)
		runstate.RunOutcome(strings.Repeat("Z", len(upper)), false)
		if before != kept {
			t.Errorf("runOutcome(%.50q) returned %q, which read %q after the next call", upper, kept, before)
		}
	}
	if st, _ := runstate.RunOutcome("anything", true); st != runstate.StatusFailed {
		t.Errorf("an error result is a failure, got %s", st)
	}
}

// statusCases are sentences agents write about tasks and runs, with the
// edges of statusStarts: case, punctuation before a noun, a noun inside a
// word, "the"/"all" before one, a tab after "CI", and runes (?i) folds.
var statusCases = []string{
	"", "Task B failed.", "tasks A and B are complete", "Tasks PAY-12, PAY-13 and etl_2 have been completed",
	"The build is broken.", "all tests are passing now", "the tests passed; the deploy succeeded",
	"CI is green", "CI\tis green", "ci\nfailed", "no tests failed", "Get the tests green first.",
	"Subtask 3 was blocked; STEP 4 is in progress", "(task B) failed", "multitask B failed", "retest failed",
	"stories A and B are done", "Story X-1 is done", "the pipeline  is  red", "deployment succeeded",
	"Items a1 and b2 were merged", "migration 0042 failed", "Job etl-nightly is outstanding",
	"the tests are all green and task B is done", "thethe tests passed", "all the tests passed",
	"task\u212a B failed", "ta\u017fk B failed", "tasK B failed", "Ta\u017fks B failed — the build is red",
	"tests – all passed ✓", "all\vtests passed", "the\f\ttests passed", "theory: tests passed", "Task B failed ✗ and the build is broken",
	"Finished task/35: failed", "tasks: A failed", "Build: failed", "CI:\tgreen", "builds failed", "task\u00a0B failed",
	"Task\nB failed", "step-4 failed", "the build: passed", "tests:passed",
}

// TestStatusMatches: tried only where a listed word starts, the
// expressions match exactly what a search of the whole sentence does.
func TestStatusMatches(t *testing.T) {
	for _, s := range statusCases {
		checkStatusMatches(t, s)
	}
	// a tab or line break after "CI" is a status too
	if got := runstate.TextStatuses("CI\tis green"); len(got) != 1 || got[0].Subject != "ci" || got[0].Value != runstate.StatusDone {
		t.Errorf("textStatuses(CI tab is green) = %+v", got)
	}
}

func FuzzStatusMatches(f *testing.F) {
	for _, s := range statusCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkStatusMatches(t, s) })
}

func checkStatusMatches(t *testing.T, s string) {
	t.Helper()
	tasks, runs := runstate.StatusMatches(s)
	wantTasks, wantRuns := runstate.TaskStatusRE().FindAllStringSubmatchIndex(s, -1), runstate.RunStatusRE().FindAllStringSubmatchIndex(s, -1)
	if strings.ContainsAny(s, "\u017f\u212a") {
		// long s and the Kelvin sign fold into "s" and "k", so a noun
		// may be spelled with them; text that is not ASCII is searched
		// only when it holds a noun in ASCII, as before
		if !runstate.IsASCII(s) {
			return
		}
	}
	if !reflect.DeepEqual(tasks, wantTasks) {
		t.Errorf("%q: task matches %v, want %v", s, tasks, wantTasks)
	}
	if !reflect.DeepEqual(runs, wantRuns) {
		t.Errorf("%q: run matches %v, want %v", s, runs, wantRuns)
	}
}

// runCases are commands, the kinds of run they hold (what a passed result
// speaks for) and the last of them (what a failed one speaks for): the last
// test run, build and deploy are what a later claim of green or deployed is
// held to.
var runCases = []struct{ command, kinds, last string }{
	{"go test ./...", "tests", "tests"}, {"npm test", "tests", "tests"}, {"npm run test:unit", "tests", "tests"}, {"python -m pytest -x", "tests", "tests"},
	{"npx jest", "tests", "tests"}, {"bundle exec rspec", "tests", "tests"}, {"make test", "tests", "tests"}, {"cargo test --release", "tests", "tests"},
	{"go build -o bin/app .", "build", "build"}, {"cargo build", "build", "build"}, {"make", "build", "build"}, {"npx tsc --noEmit", "build", "build"},
	{"make build && make test", "tests+build", "tests"}, {"./deploy.sh prod", "deploy", "deploy"}, {"aws s3 sync dist/ s3://bucket", "deploy", "deploy"},
	{"KUBECTL APPLY -f k8s/", "deploy", "deploy"}, {"helm upgrade api ./chart", "deploy", "deploy"}, {"terraform apply -auto-approve", "deploy", "deploy"},
	{"ls -la", "", ""}, {"cat testdata/x.json", "", ""}, {"git commit -m 'rebuild'", "", ""}, {"", "", ""},
	{"echo contest", "", ""},
	// a command that reads, edits or moves files runs nothing its
	// arguments name
	{"grep -rn Deployment src/", "", ""}, {"cat jest.config.js", "", ""}, {"tail -50 logs/deploy.log", "", ""},
	{"git commit -m 'fix flaky tests'", "", ""}, {"kubectl get deployments -n prod", "", ""}, {"vim tests/cart.test.ts", "", ""},
	{"cp deploy.sh deploy.sh.bak", "", ""}, {"ls tests/", "", ""}, {"head -20 pytest.ini && cat tox.ini", "", ""},
	{"test -f dist/index.js && echo built", "", ""}, {"[ -d node_modules ] || npm ci", "", ""},
	// but a chained or wrapped run still counts
	{"cd api && npx jest --ci", "tests", "tests"}, {"grep -q TODO src/app.ts || go test ./...", "tests", "tests"},
	{"CI=1 timeout 300 npm test", "tests", "tests"}, {"/usr/bin/time -v make test", "tests", "tests"}, {"sudo -E ./scripts/deploy.sh prod", "deploy", "deploy"},
	{"go\ttest ./audit/...", "tests", "tests"}, {"npm run build && ./deploy.sh", "build+deploy", "deploy"},
	{"kubectl get pods && kubectl apply -f deploy/", "deploy", "deploy"},
	{"npm test && npm run build", "tests+build", "build"}, {"make test\nmake deploy", "tests+deploy", "deploy"},
	// each line of a script is a command; a here-document is text
	{"cd app\nnpm test -- --watch=false", "tests", "tests"},
	{"cat > tests/test_cart.py <<'EOF'\nimport pytest\n\ndef test_total():\n    assert total([]) == 0\nEOF", "", ""},
	{"cat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: ConfigMap\nEOF", "deploy", "deploy"},
	{"tee deploy.env <<EOF >/dev/null\nDEPLOY_TARGET=prod\nEOF\nls", "", ""},
	{"echo $((1 << 3))\npytest -q", "tests", "tests"},
	{"python -m unittest discover -s tests", "tests", "tests"}, {"tox -e py312", "tests", "tests"}, {"uv run nox -s tests-3.12", "tests", "tests"},
	{"cat tox.ini", "", ""},
	{"pulumi up --yes --stack prod", "deploy", "deploy"}, {"kubectl rollout restart deployment/api", "deploy", "deploy"},
	{"kubectl set image deploy/api api=acme/api:1.4.2", "deploy", "deploy"}, {"npx vercel --prod", "deploy", "deploy"},
	{"npx wrangler publish", "deploy", "deploy"}, {"az webapp up --name acme-shop", "deploy", "deploy"},
	// a push to a remote that deploys
	{"git push heroku main", "deploy", "deploy"}, {"git push -f dokku HEAD:master", "deploy", "deploy"},
	{"git push origin main", "", ""}, {"git push", "", ""}, {"git push --tags", "", ""},
	// the command of an assignment's $( ) runs
	{"OUT=$(npm test 2>&1); echo \"$OUT\" | tail -5", "tests", "tests"}, {"RESULT=$( pytest -q )", "tests", "tests"},
	{"LOG=$(cat build.log)", "", ""}, {"echo $(date)", "", ""},
	// copies to a bucket or another host
	{"gsutil -m rsync -r dist/ gs://acme-site-prod", "deploy", "deploy"}, {"gcloud storage cp -r build/* gs://acme-stage/", "deploy", "deploy"},
	{"az storage blob upload-batch -d '$web' -s dist", "deploy", "deploy"}, {"rsync -avz --delete dist/ deploy@web-1:/srv/site/", "deploy", "deploy"},
	{"scp build/app.tar.gz web:/tmp/", "deploy", "deploy"}, {"rsync -av src/ backup/", "", ""}, {"gsutil ls gs://acme-site-prod", "", ""},
	{"scp -P 2222 deploy@web-1:/var/log/app.log .", "", ""}, {`scp web-1:/var/log/app.log C:\Users\dev\logs`, "", ""},
	// a project's own scripts, named by their file
	{"./scripts/test.sh", "tests", "tests"}, {"bash scripts/run-tests.sh --ci", "tests", "tests"},
	{"python3 run_tests.py -v", "tests", "tests"}, {"bin/test", "tests", "tests"}, {"script/test", "tests", "tests"},
	{"./build.sh && ./scripts/deploy.sh staging", "build+deploy", "deploy"}, {"sh ./build_and_test.sh", "tests", "tests"},
	{"./scripts/test-server.sh &", "", ""}, {"python3 scripts/generate_tests.py", "", ""}, {"node build/server.js", "", ""},
	{"chmod +x scripts/test.sh", "", ""}, {"/usr/bin/test -f dist/app.js", "", ""}, {"bash -n scripts/test.sh", "", ""}, {"./scripts/seed-test-db.sh", "", ""},
	{"kubectl rollout status deployment/api", "deploy", "deploy"}, {"pulumi preview", "", ""},
	// a script handed to a shell is a command line of its own
	{`bash -lc "cd app && npm test"`, "tests", "tests"}, {"docker compose exec web sh -c 'php artisan test'", "tests", "tests"},
	{`docker compose run --rm api bash -c "cat pytest.ini && ls tests"`, "", ""},
	{`sh -c 'npm run build && ./deploy.sh staging'`, "build+deploy", "deploy"}, {"bash scripts/deploy.sh", "deploy", "deploy"},
	{"ssh -i ~/.ssh/deploy_key deploy@web-1 'cd /srv/app && ./deploy.sh'", "deploy", "deploy"},
	{"ssh -p 2222 ci@build-box make test", "tests", "tests"}, {"ssh web-1 'tail -n 50 /var/log/deploy.log'", "", ""},
	// words inside quotes are an argument's text
	{`bd close spotter-4te.3 --reason "Code complete and tests pass"`, "", ""},
	{`gh pr create --title "Fix deploy script" --body "Adds tests"`, "", ""},
	{`go test -run "TestDeploy" ./...`, "tests", "tests"},
	// a patch, given to Codex's apply_patch tool or through the shell, edits
	{"*** Begin Patch\n*** Update File: jest.config.js\n@@\n-  testTimeout: 5000,\n+  testTimeout: 20000,\n*** End Patch", "", ""},
	{"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: scripts/deploy.sh\n+#!/bin/sh\n+kubectl apply -f k8s/\n*** End Patch\nEOF", "", ""},
}

func TestRunsOf(t *testing.T) {
	for _, c := range runCases {
		r := runstate.RunsOf(c.command)
		kinds, last := strings.Join(r.OutcomeKinds(runstate.StatusDone, false), "+"), runstate.RunKinds[r.Last]
		if kinds != c.kinds || last != c.last {
			t.Errorf("runsOf(%q) = %q, last %q; want %q, last %q", c.command, kinds, last, c.kinds, c.last)
		}
	}
}

// TestOutcomeKinds: what a run's result speaks for, by how it ended.
func TestOutcomeKinds(t *testing.T) {
	for _, c := range []struct {
		command, val string
		isError      bool
		want         string
	}{
		{"npm run build && ./deploy.sh staging", runstate.StatusDone, false, "build+deploy"},
		{"npm run build && ./deploy.sh staging", runstate.StatusFailed, true, "deploy"},
		{"npm test && npm run build", runstate.StatusFailed, true, "build"},
		// exited 0, yet the output shows failed tests: the last command passed
		{"npm test; npm run build", runstate.StatusFailed, false, "tests"},
		{"make build && make test", runstate.StatusFailed, true, "tests"},
		{"./deploy.sh prod", runstate.StatusFailed, false, "deploy"},
		{"./deploy.sh prod", "", true, ""},
		{"ls -la", runstate.StatusFailed, true, ""},
	} {
		if got := strings.Join(runstate.RunsOf(c.command).OutcomeKinds(c.val, c.isError), "+"); got != c.want {
			t.Errorf("runsOf(%q).outcomeKinds(%q, %v) = %q, want %q", c.command, c.val, c.isError, got, c.want)
		}
	}
}

// TestFailureLine: a failed run is named by its first line of output, past
// the harness's header, with the exit code in front.
func TestFailureLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Exit code 1\ncat: jest.config.ts: No such file or directory", "Exit code 1: cat: jest.config.ts: No such file or directory"},
		{"Chunk ID: 3959\nWall time: 3.8 seconds\nProcess exited with code 1\nOriginal token count: 120\nOutput:\nFAIL src/cart.test.ts\n  ● cartTotal", "Process exited with code 1: FAIL src/cart.test.ts"},
		{"FAIL src/discount.test.ts\nTests: 1 failed", "FAIL src/discount.test.ts"},
		{"\n\n  <tool_use_error>File does not exist.</tool_use_error>", "<tool_use_error>File does not exist.</tool_use_error>"},
		{"Exit code 137\n", "Exit code 137"},
		{"Exit code 1\n\n> acme-shop@1.4.0 test:ci\n> jest --ci --coverage\n\nFAIL src/discount.test.ts", "Exit code 1: FAIL src/discount.test.ts"},
		// the older Codex shell tool's header
		{"Exit code: 1\nWall time: 0.4 seconds\nOutput:\nnpm ERR! Missing script: \"deploy\"", "Exit code: 1: npm ERR! Missing script: \"deploy\""},
		{"Chunk ID: 1a2b\nWall time: 0.1 seconds\nProcess exited with code 2\nOriginal token count: 0\nOutput:\n", "Process exited with code 2"},
		{"", ""},
	} {
		if got := runstate.FailureLine(c.text); got != c.want {
			t.Errorf("failureLine(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestStatusGoals: a status after a goal is no claim; after a "to" of place
// or result it is.
func TestStatusGoals(t *testing.T) {
	for _, c := range []struct {
		text  string
		claim bool
	}{
		{"cartTotal now rounds to cents and all tests pass.", true},
		{"Moved the helpers to src/money.ts; the build is green.", true},
		{"Added the index to the migration and the tests pass.", true},
		{"Next: run npm test to confirm all tests pass.", false},
		{"Still to do: verify the tests pass after the rebase.", false},
		{"I need to see the tests pass before merging.", false},
		{"Make sure the tests pass.", false},
		{"Keep going until the build is green.", false},
		{"Rerun to check the tests pass.", false},
		{"Confirmed: all tests pass.", true},
		{"Made sure all tests pass before committing.", true},
		{"I'll make sure the tests pass.", false},
	} {
		got := false
		for _, st := range runstate.TextStatuses(c.text) {
			got = got || st.Value == runstate.StatusDone
		}
		if got != c.claim {
			t.Errorf("textStatuses(%q) claims done: %v, want %v", c.text, got, c.claim)
		}
	}
}

// TestRunStatusWords: the ways agents and summaries say a run passed or
// failed.
func TestRunStatusWords(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"The test suite passes.", "tests done"},
		{"npm test passes now.", "tests done"},
		{"Tests: all green.", "tests done"},
		{"The build succeeds.", "build done"},
		{"The deployment completed.", "deploy done"},
		{"Deployment complete.", "deploy done"},
		{"The build has failed twice.", "build failed"},
		{"CI: fixed.", "ci done"},
		{"The tests have been failing since the rebase.", "tests failed"},
		{"No tests fail.", ""},
	} {
		got := ""
		for _, st := range runstate.TextStatuses(c.text) {
			got = st.Subject + " " + st.Value
		}
		if got != c.want {
			t.Errorf("textStatuses(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestDeployedClaims: the verb that reports a deploy is a claim when it
// names where or says it succeeded, and not when it is negated, hoped for,
// conditional or an adjective.
func TestDeployedClaims(t *testing.T) {
	for _, c := range []struct {
		text  string
		claim bool
	}{
		{"Built the site and deployed it to staging.", true},
		{"Deployed the site to staging.", true},
		{"The site was deployed to production at 14:02.", true},
		{"Successfully deployed.", true},
		{"Redeployed to staging successfully after the fix.", true},
		{"It has been deployed to staging and the smoke test passed.", true},
		{"The site is not yet deployed to staging.", false},
		{"It hasn't been deployed to staging.", false},
		{"The site still needs to be deployed to staging.", false},
		{"Once deployed to staging, run the smoke test.", false},
		{"The user wants the site deployed to staging.", false},
		{"Ready to be deployed to production after review.", false},
		{"We could not get it deployed to staging.", false},
		{"Checked the deployed version on staging.", false},
		{"Never deployed to prod.", false},
		{"If deployed to production, the flag must be off.", false},
		{"Shipped the fix to production.", true},
		{"Released v1.4.2 to production after the smoke test.", true},
		{"Promoted the canary to prod.", true},
		{"Released the lock to the next worker.", false},
		{"Not yet shipped to production.", false},
		{"Released.", false},
	} {
		// through textStatuses, which summaries and messages are read with
		got := false
		for _, st := range runstate.TextStatuses(c.text) {
			got = got || st.Subject == "deploy" && st.Value == runstate.StatusDone
		}
		if got != c.claim {
			t.Errorf("textStatuses(%q) claims a deploy done: %v, want %v", c.text, got, c.claim)
		}
	}
}
