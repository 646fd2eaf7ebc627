package runstate

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// Status values.
const (
	StatusFailed     = "failed"
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusDone       = "done"
)

// statusWords map what people and tools write to a status.
var statusWords = map[string]string{
	"failed": StatusFailed, "failing": StatusFailed, "fails": StatusFailed, "broken": StatusFailed, "errored": StatusFailed,
	"red":     StatusFailed,
	"pending": StatusPending, "blocked": StatusPending, "queued": StatusPending, "waiting": StatusPending,
	"outstanding": StatusPending, "todo": StatusPending, "unfinished": StatusPending, "incomplete": StatusPending,
	"in_progress": StatusInProgress, "in-progress": StatusInProgress, "ongoing": StatusInProgress, "running": StatusInProgress,
	"done": StatusDone, "complete": StatusDone, "completed": StatusDone, "finished": StatusDone, "succeeded": StatusDone,
	"passed": StatusDone, "passing": StatusDone, "pass": StatusDone, "green": StatusDone, "fixed": StatusDone,
	"resolved": StatusDone, "deployed": StatusDone, "merged": StatusDone, "successful": StatusDone, "working": StatusDone,
	"passes": StatusDone, "succeeds": StatusDone,
}

// RunSet is what a command line runs, for the states its result sets: the
// kinds of run among its commands (the last test run, build, deploy) and
// the kind of the last command that names one. Each command the line
// chains, and each line of a script, is judged apart, by the program it
// starts: one that only reads, edits or moves files is no run, whatever
// its arguments name — `grep -rn Deployment`, `cat jest.config.js`, a
// heredoc that writes a test file — so it cannot stand in for the failed
// run before it.
type RunSet struct {
	kinds uint8 // bit k set when runKinds[k] runs
	Last  uint8 // the index in runKinds of the last command's kind
}

// RunKinds are the kinds a run can be; 0 is none.
var RunKinds = [...]string{"", "deploy", "build", "tests"}

// RunsOf reads a command line's runs.
func RunsOf(command string) RunSet { return runsIn(command, 0) }

// maxScriptDepth bounds how deep runsIn follows scripts handed to a shell
// (bash -c "sh -c '…'"): each level is copied out of the one above, so a
// hostile line nested all the way down would cost the square of its length.
const maxScriptDepth = 3

// runsIn is runsOf for a command line depth scripts deep.
func runsIn(command string, depth int) RunSet {
	var r RunSet
	// Codex's apply_patch takes the patch itself: it edits, and the words
	// of the code it adds or removes name no run
	if strings.HasPrefix(strings.TrimLeft(command, " \t\r\n"), "*** Begin Patch") {
		return r
	}
	for cmd := range ShellCommands(command) {
		f := Program(cmd)
		if runsNothing(f, cmd) {
			continue
		}
		if script, ok := shellScript(cmd); ok && depth < maxScriptDepth {
			// judged as the command line it is
			if in := runsIn(script, depth+1); in.Any() {
				r.kinds |= in.kinds
				r.Last = in.Last
			}
			continue
		}
		k := kindOf(cmd)
		if k == 0 {
			k = programKind(f)
		}
		if k != 0 {
			r.kinds |= 1 << k
			r.Last = uint8(k)
		}
	}
	return r
}

// programKind names a run by what f, the program and its arguments, are
// rather than by the words of the line: a project's script by its file
// name, a git push by its remote, a copy by where it goes.
func programKind(f []string) int {
	if k := scriptKind(f); k != 0 {
		return k
	}
	if gitDeploy(f) || remoteCopy(f) {
		return 1
	}
	return 0
}

// scriptKind names the run of a project's own script by the script's file
// name, f being the command's program and its arguments: ./scripts/test.sh,
// bin/run-tests, bash script/test --ci or python3 run_tests.py runs the
// tests; ./build.sh builds. Agents rerun tests with such scripts as often
// as with npm test, and a passing rerun must replace the failed run before
// it. Only a path or a file name counts, not a bare word (the shell's
// test), and only a name made of the kind's word and words that qualify
// it, so ./scripts/test-server.sh and generate_tests.py run nothing.
func scriptKind(f []string) int {
	if len(f) == 0 {
		return 0
	}
	name := f[0]
	if scriptInterpreters[programName(name)] {
		name = ""
		for _, a := range f[1:] {
			if a == "-n" { // a shell that only reads the script
				return 0
			}
			if a[0] != '-' { // the script is its first argument not a flag
				name = a
				break
			}
		}
	}
	if !strings.ContainsAny(name, "/.") {
		return 0
	}
	base := lex.FoldLower(path.Base(name))
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	k := 0
	for _, w := range strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' }) {
		switch {
		case w == "test" || w == "tests":
			k = 3
		case w == "build":
			if k == 0 {
				k = 2
			}
		case !scriptQualifiers[w]:
			return 0
		}
	}
	return k
}

// scriptInterpreters run the script file named after their flags.
var scriptInterpreters = lex.ToSet(`sh bash zsh dash python python3 node ruby perl php bun pwsh`)

// scriptQualifiers are the words a test or build script's name may hold
// beside "test" or "build".
var scriptQualifiers = lex.ToSet(`run and all unit integration e2e ci local suite smoke api ui full quick fast prod production release docker image dist web app`)

// OutcomeKinds are the kinds a result with status val speaks for; isError
// says the line exited with an error. A line that passed ran all of them:
// agents chain runs with &&, which stops at the first failure. A line that
// failed speaks for its last kind only, which did not succeed whether it
// failed or never started; an earlier one (the build of "npm run build &&
// ./deploy.sh") may have passed. But a line that exited without error and
// whose output shows failures ("1 failed") ended on a command that passed:
// the failures are its test run's.
func (r RunSet) OutcomeKinds(val string, isError bool) []string {
	if val == "" {
		return nil
	}
	if val != StatusDone {
		k := int(r.Last)
		if !isError && r.Has("tests") {
			k = len(RunKinds) - 1
		}
		if k == 0 {
			return nil
		}
		return RunKinds[k : k+1]
	}
	var out []string
	for k := len(RunKinds) - 1; k > 0; k-- {
		if r.kinds&(1<<k) != 0 {
			out = append(out, RunKinds[k])
		}
	}
	return out
}

// SpeaksFor reports whether a result with status val is one of kind's.
func (r RunSet) SpeaksFor(kind, val string, isError bool) bool {
	return slices.Contains(r.OutcomeKinds(val, isError), kind)
}

// Any reports whether the line runs anything of a kind.
func (r RunSet) Any() bool { return r.kinds != 0 }

// Has reports whether the line runs kind.
func (r RunSet) Has(kind string) bool {
	k := slices.Index(RunKinds[:], kind)
	return k > 0 && r.kinds&(1<<k) != 0
}

// kindOf is the kind of run a command is, as an index into runKinds. Its
// words are looked for whole, outside quotes: `bd close --reason "tests
// pass"` names a task, and runs none. A script in quotes that a shell or
// ssh runs is read on its own (shellScript).
func kindOf(cmd string) int {
	c := " " + lex.FoldLower(strings.Join(ShellWords(cmd, false), " ")) + " "
	switch {
	case tag.ContainsAny(c, testMarks):
		return 3
	case tag.ContainsAny(c, buildMarks):
		return 2
	case deployWord(c) || tag.ContainsAny(c, deployMarks) || cloudUpload(c):
		return 1
	case strings.Contains(c, " make "):
		return 2 // make with no target named above builds
	}
	return 0
}

// The marks of a command's kind, looked for in its words lowered and
// joined with spaces (kindOf): tests first, then builds, then deploys.
var (
	testMarks = []string{" test ", " test:", "pytest", "jest", "vitest", "rspec", "run test", " tests ", "phpunit",
		"mocha", "ctest", "go test", "unittest", " tox ", " nox "}
	buildMarks  = []string{" build ", " compile", " tsc ", "go build", "cargo build"}
	deployMarks = []string{" s3 sync ", " s3 cp ", "kubectl apply", "terraform apply", "helm upgrade", "helm install",
		"kubectl rollout restart", "kubectl set image", "pulumi up", "vercel --prod", "wrangler publish", "az webapp up",
		" az storage blob upload"}
)

// cloudUpload is a copy to Google Cloud Storage, which deploys a site.
func cloudUpload(c string) bool {
	return strings.Contains(c, " gcloud storage ") && strings.Contains(c, " gs://") ||
		strings.Contains(c, " gsutil ") && strings.Contains(c, " gs://") && (strings.Contains(c, " rsync ") || strings.Contains(c, " cp "))
}

// deployWord reports a word of c that names a deploy (./deploy.sh, fly
// deploy, make deploy-prod); a login such as deploy@web-1 names a user.
func deployWord(c string) bool {
	for i := 0; ; {
		j := strings.Index(c[i:], "deploy")
		if j < 0 {
			return false
		}
		j += i
		lo, hi := strings.LastIndexByte(c[:j], ' ')+1, strings.IndexByte(c[j:], ' ')
		if hi < 0 {
			hi = len(c)
		} else {
			hi += j
		}
		if strings.IndexByte(c[lo:hi], '@') < 0 {
			return true
		}
		i = hi
	}
}

// remoteCopy reports an rsync or scp whose destination, its last
// argument, is on another host (deploy@web:/srv/app, web:app/): copying a
// build to a server is how many projects deploy.
func remoteCopy(f []string) bool {
	if len(f) < 3 || programName(f[0]) != "rsync" && programName(f[0]) != "scp" {
		return false
	}
	dst := f[len(f)-1]
	host, _, ok := strings.Cut(dst, ":")
	// C:\Users\… is a Windows drive, not a host
	return ok && len(host) > 1 && dst[0] != '-' && !strings.ContainsAny(host, "/\\")
}

// CommandOf pulls the command line out of a shell-like tool call.
func CommandOf(args []byte) string {
	command, _, _ := tag.ReadCall(args)
	return command
}

var (
	failCountRE = lex.LiteralPattern(`(?i)\b([1-9]\d*) (?:failures?|failed|errors?)\b`)
	zeroFailRE  = lex.LiteralPattern(`(?i)\b0 (?:failures?|failed)\b`)
	passCountRE = lex.LiteralPattern(`(?i)\b[1-9]\d* (?:passed|passing|tests? passed|examples?, 0 failures)\b`)
	exitRE      = lex.LiteralPattern(`(?i)(?:exit(?:ed)? (?:code|status)[: ]*|exited with code )(-?\d+)`)
)

// RunOutcome reads a tool result of a run: failed, done, or "" when the
// output does not say.
func RunOutcome(text string, isError bool) (string, string) {
	if isError {
		return StatusFailed, FailureLine(text)
	}
	// The expressions are slow on long logs: each runs only on the lines
	// that hold its words. No match spans a line, so the first line's
	// match is the leftmost. The lowered copy is only looked in, and every
	// match returned is a piece of text, so it is written over a pooled
	// buffer: a copy of each tool output run was 3% of what an audit of
	// the bench's session allocated.
	sp := lowerBuffers.Get().(*[]byte)
	lower, scratch := lex.FoldLowerInto(text, *sp)
	defer func() {
		if cap(scratch) <= maxPooledLower {
			*sp = scratch[:0]
			lowerBuffers.Put(sp)
		}
	}()
	if m := firstMatch(text, lower, exitRE(), "exit"); m != nil {
		if code, _ := strconv.Atoi(m[1]); code != 0 {
			return StatusFailed, m[0]
		}
	}
	if m := firstMatch(text, lower, failCountRE(), "fail", "error"); m != nil {
		return StatusFailed, m[0]
	}
	if strings.Contains(text, "FAIL") && (goFailLine(text) || strings.Contains(text, "test result: FAILED") || strings.Contains(text, "FAILED ")) {
		return StatusFailed, "FAIL"
	}
	if m := firstMatch(text, lower, zeroFailRE(), "0 fail"); m != nil {
		return StatusDone, m[0]
	}
	if m := firstMatch(text, lower, passCountRE(), "pass", "example"); m != nil {
		return StatusDone, m[0]
	}
	if (strings.Contains(text, "ok") || strings.Contains(text, "PASS")) && (goOkLine(text) || strings.Contains(text, "test result: ok")) {
		return StatusDone, "ok"
	}
	// No marker either way: the tool said it did not fail, and agents'
	// tools report a non-zero exit as an error.
	return StatusDone, "exited without error"
}

// lowerBuffers hold the lowered copies of tool output runOutcome reads.
var lowerBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledLower bounds a buffer kept in lowerBuffers: the output of a
// whole build log is left to the collector rather than held.
const maxPooledLower = 1 << 20

// firstMatch runs re on each line of text that holds one of words (looked
// for in lower, text lowered without changing its length) and returns the
// first line's match with its groups.
func firstMatch(text, lower string, re *regexp.Regexp, words ...string) []string {
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		for _, w := range words {
			if strings.Contains(lower[start:end], w) {
				if m := re.FindStringSubmatch(text[start:end]); m != nil {
					return m
				}
				break
			}
		}
		start = end + 1
	}
	return nil
}

// goFailLine spots go test's failure lines: "--- FAIL" or "FAIL" at the
// Start of a line.
func goFailLine(text string) bool {
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "FAIL") && (len(line) == 4 || !lex.IsIdentByte(line[4]) || line[4] >= 0x80) {
			return true
		}
	}
	return false
}

// goOkLine spots go test's passing lines: "ok  <package>" or "PASS".
func goOkLine(text string) bool {
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		if line == "PASS" {
			return true
		}
		if rest, ok := strings.CutPrefix(line, "ok"); ok {
			trimmed := strings.TrimLeft(rest, " \t\v\f\r")
			if len(trimmed) < len(rest) && trimmed != "" {
				return true
			}
		}
	}
	return false
}

// FailureLine is what a failed run's output says first, past the lines
// the agent's harness puts before the output — the exit code (Claude
// Code's "Exit code 1", Codex's "Process exited with code 1"; the reader
// knows their forms), and Codex's "Chunk ID", "Wall time", "Original token
// count" and "Output:" — with the exit code in front: "Exit code 1: FAIL
// src/cart.test.ts" says more than either line alone.
func FailureLine(text string) string {
	code := ""
	for rest := text; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		l := strings.TrimSpace(line)
		_, exit := parse.ExitCodeLine(l)
		switch {
		case l == "" || l == "Output:" || strings.HasPrefix(l, "Chunk ID:") || strings.HasPrefix(l, "Wall time:") ||
			strings.HasPrefix(l, "Original token count:") ||
			strings.HasPrefix(l, "> "): // npm and yarn echo the script they run
		case code == "" && exit:
			code = l
		case code != "":
			return lex.Clip(code+": "+l, 120)
		default:
			return lex.Clip(l, 120)
		}
	}
	return lex.Clip(code, 120)
}

func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return lex.Clip(s, 120)
}

// taskID is an upper-case name (B, PAY-12) or a lower-case one with a
// separator or digit (daily-totals, etl_2): never a plain word like "are".
const taskID = `[A-Z0-9][\w.-]*|[a-z][a-z0-9]*[-_][\w.-]*|[a-z]+[0-9][\w.-]*`

// TaskStatusRE reads status updates: "task B failed", "tasks A and B are
// complete", "the build is broken", "tests are passing".
var TaskStatusRE = lex.LiteralPattern(`\b((?i:tasks?|steps?|jobs?|tickets?|subtasks?|phases?|migrations?|stories|story|items?))\s+((?:` + taskID + `)(?:(?:\s*,\s*|\s+and\s+)(?:` + taskID + `))*)\s+(?i:(?:is\s+|are\s+|has\s+|have\s+|was\s+|were\s+)?(?:now\s+|all\s+|both\s+)?(?:been\s+)?(failed|failing|pending|blocked|in[ -]progress|done|complete|completed|finished|succeeded|passed|passing|fixed|resolved|merged|deployed|outstanding|incomplete|unfinished))`)

var RunStatusRE = lex.LiteralPattern(`(?i)\b(?:the\s+|all\s+)?(tests?|test suite|build|deploy(?:ment)?|ci|pipeline)(?:\s*:)?\s+(?:is\s+|are\s+|was\s+|were\s+|has\s+|have\s+|been\s+|now\s+)*(?:all\s+)?(failing|failed|fails|broken|red|passing|passed|passes|pass|green|fixed|succeeded|succeeds|successful|completed|complete|working|fail)\b`)

// Both expressions open with \b and a word from a short list, so in an
// ASCII sentence they need only be tried where such a word starts
// (statusStarts), anchored there: trying them at every byte was most of
// the cost of reading the agent's words for claims. Text that is not ASCII
// keeps the whole search, since (?i) also folds runes such as the Kelvin
// sign into the ASCII letters of the nouns.
var (
	TaskStatusAt = lex.LazyPattern(func() string { return `^(?:` + TaskStatusRE().String() + `)` })
	RunStatusAt  = lex.LazyPattern(func() string { return `^(?:` + RunStatusRE().String() + `)` })
)

// taskNouns and runNouns begin every match of taskStatusRE and
// RunStatusRE, as lower-case prefixes of the word a match starts at; a
// match of runStatusRE may also start at "the" or "all" and white space
// before one of runNouns. In text that is not ASCII they are looked for as
// substrings before the whole search.
var (
	taskNouns = []string{"task", "subtask", "step", "job", "ticket", "phase", "migration", "stor", "item"}
	runNouns  = []string{"test", "build", "deploy", "ci", "pipeline"}
	runLeads  = []string{"the", "all"}
)
