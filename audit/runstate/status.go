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
	case strings.Contains(c, " test ") || strings.Contains(c, " test:") || strings.Contains(c, "pytest") ||
		strings.Contains(c, "jest") || strings.Contains(c, "vitest") || strings.Contains(c, "rspec") ||
		strings.Contains(c, "run test") || strings.Contains(c, " tests ") || strings.Contains(c, "phpunit") ||
		strings.Contains(c, "mocha") || strings.Contains(c, "ctest") || strings.Contains(c, "go test") ||
		strings.Contains(c, "unittest") || strings.Contains(c, " tox ") || strings.Contains(c, " nox "):
		return 3
	case strings.Contains(c, " build ") || strings.Contains(c, " compile") || strings.Contains(c, " tsc ") ||
		strings.Contains(c, "go build") || strings.Contains(c, "cargo build"):
		return 2
	case deployWord(c) || strings.Contains(c, " s3 sync ") || strings.Contains(c, " s3 cp ") ||
		strings.Contains(c, "kubectl apply") || strings.Contains(c, "terraform apply") || strings.Contains(c, "helm upgrade") ||
		strings.Contains(c, "helm install") || strings.Contains(c, "kubectl rollout restart") ||
		strings.Contains(c, "kubectl set image") || strings.Contains(c, "pulumi up") || strings.Contains(c, "vercel --prod") ||
		strings.Contains(c, "wrangler publish") || strings.Contains(c, "az webapp up") ||
		strings.Contains(c, " az storage blob upload") || strings.Contains(c, " gcloud storage ") && strings.Contains(c, " gs://") ||
		strings.Contains(c, " gsutil ") && strings.Contains(c, " gs://") && (strings.Contains(c, " rsync ") || strings.Contains(c, " cp ")):
		return 1
	case strings.Contains(c, " make "):
		return 2 // make with no target named above builds
	}
	return 0
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

// statusStarts returns the offsets of the words of an ASCII sentence at
// which taskStatusRE and runStatusRE could match.
func statusStarts(s string) (task, run []int) {
	for i := 0; i < len(s); i++ {
		// in ASCII text isIdentByte is \b's word character
		if !statusInitials[s[i]] || i > 0 && lex.IsIdentByte(s[i-1]) {
			continue // no word start, or none a listed word starts
		}
		// a noun is followed by white space (or, for a run, a colon):
		// "task/35" and "builds" start no match, and the expressions are
		// not tried there
		if hasWordPrefix(s[i:], taskNouns) && lettersThen(s[i:], false) {
			task = append(task, i)
		}
		if hasWordPrefix(s[i:], runNouns) && lettersThen(s[i:], true) || leadsRunNoun(s[i:]) {
			run = append(run, i)
		}
	}
	return task, run
}

// statusInitials marks the first letters, in either case, of the words
// statusStarts looks for: most words of a sentence start with none, and
// are passed over without a comparison.
var statusInitials = func() (t [256]bool) {
	for _, list := range [][]string{taskNouns, runNouns, runLeads} {
		for _, w := range list {
			t[w[0]], t[w[0]&^0x20] = true, true
		}
	}
	return t
}()

// lettersThen reports whether the ASCII letters s starts with are followed
// by white space, or by a colon when colon is set.
func lettersThen(s string, colon bool) bool {
	j := 0
	for j < len(s) && lex.AsciiLetter(s[j]) {
		j++
	}
	return j < len(s) && (tag.RegexpSpace(s[j]) || colon && s[j] == ':')
}

// leadsRunNoun reports "the" or "all", white space, and one of runNouns:
// the words are common, and the expression is tried at them only then.
func leadsRunNoun(s string) bool {
	if len(s) < 4 || !hasWordPrefix(s, runLeads) {
		return false
	}
	i := tag.SkipRegexpSpace(s, 3)
	return i > 3 && hasWordPrefix(s[i:], runNouns)
}

// hasWordPrefix reports whether s begins with one of the lower-case
// prefixes, in ASCII upper or lower case.
func hasWordPrefix(s string, prefixes []string) bool {
next:
	for _, p := range prefixes {
		if len(s) < len(p) {
			continue
		}
		for k := 0; k < len(p); k++ {
			if s[k]|0x20 != p[k] {
				continue next
			}
		}
		return true
	}
	return false
}

// matchesAt is FindAllStringSubmatchIndex of an expression for the
// anchored form of it, tried only at the given offsets, in order: the
// leftmost match at or after the end of the last one is the first offset
// there that matches, and anchored it is the same match.
func matchesAt(anchored *regexp.Regexp, s string, starts []int) [][]int {
	var out [][]int
	end := 0
	for _, p := range starts {
		if p < end {
			continue
		}
		loc := anchored.FindStringSubmatchIndex(s[p:])
		if loc == nil {
			continue
		}
		for k := range loc {
			if loc[k] >= 0 {
				loc[k] += p
			}
		}
		out = append(out, loc)
		end = loc[1]
	}
	return out
}

func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TextStatuses reads status statements from a sentence.
func TextStatuses(s string) []tag.Status {
	tasks, runs := StatusMatches(s)
	var out []tag.Status
	for _, loc := range tasks {
		val := statusWords[lex.FoldLower(strings.ReplaceAll(s[loc[6]:loc[7]], " ", "_"))]
		if val == "" {
			continue
		}
		noun := lex.FoldLower(strings.TrimSuffix(strings.TrimSuffix(s[loc[2]:loc[3]], "s"), "ie"))
		if noun == "stor" {
			noun = "story"
		}
		for _, id := range splitList(s[loc[4]:loc[5]]) {
			out = append(out, tag.Status{Subject: noun + " " + id, Value: val, Detail: s[loc[0]:loc[1]]})
		}
	}
	for _, loc := range runs {
		m := []string{s[loc[0]:loc[1]], s[loc[2]:loc[3]], s[loc[4]:loc[5]]}
		if negatedBefore(s[:loc[0]]) || aspirational(s[:loc[0]]) {
			continue // "no tests failed"; "get the tests green" is a goal
		}
		val := statusWords[lex.FoldLower(m[2])]
		if m[2] == "fail" {
			val = StatusFailed
		}
		if val == "" {
			continue
		}
		out = append(out, tag.Status{Subject: runSubject(m[1]), Value: val, Detail: m[0]})
	}
	return append(out, deployedClaims(s)...)
}

// deployedClaims reads the verb that reports a deploy: "Deployed the site
// to staging", "successfully deployed", "it was deployed to production",
// "shipped the fix to production".
// A summary that says so after a failed deploy reports success that did
// not happen, which is what status-inflation is for. The word is claimed
// only with a place ("to …" within the next four words) or "successfully"
// beside it, so "the deployed version" is none; and not after a negation
// ("not yet deployed", "hasn't been deployed") or a goal, a condition or a
// wish in the four words before it ("needs to be deployed", "once
// deployed", "the user wants it deployed to staging").
func deployedClaims(s string) []tag.Status {
	if !strings.Contains(s, "eployed") && !strings.Contains(s, "EPLOYED") && !strings.Contains(s, "hipped") &&
		!strings.Contains(s, "eleased") && !strings.Contains(s, "romoted") {
		return nil
	}
	ws := lex.Words(s)
	var out []tag.Status
	for i, w := range ws {
		// shipped, released and promoted deploy only to a named
		// environment: "released the lock to the worker" is none
		envOnly := false
		switch lex.PlainWord(w.W) {
		case "deployed", "redeployed":
		case "shipped", "released", "promoted":
			envOnly = true
		default:
			continue
		}
		placed := false
		for j := i + 1; j < len(ws) && j <= i+4; j++ {
			q := lex.PlainWord(ws[j].W)
			if q == "to" {
				placed = !envOnly || j+1 < len(ws) && deployEnvs[lex.PlainWord(ws[j+1].W)]
				break
			}
			if q == "successfully" && !envOnly {
				placed = true
				break
			}
			if strings.ContainsAny(s[ws[j-1].End:ws[j].Start], ",;:.") {
				break // the clause ended
			}
		}
		if i > 0 && !envOnly && lex.PlainWord(ws[i-1].W) == "successfully" {
			placed = true
		}
		if !placed || deployedHedged(ws, i) {
			continue
		}
		out = append(out, tag.Status{Subject: "deploy", Value: StatusDone, Detail: s[ws[max(0, i-1)].Start:ws[i].End]})
	}
	return out
}

// deployEnvs are the environments a release is shipped or promoted to.
var deployEnvs = lex.ToSet(`prod production staging stage live dev development qa uat preview canary`)

// deployedHedged reports a negation, goal, condition or wish in the four
// words before word i, within its clause.
func deployedHedged(ws []lex.Word, i int) bool {
	if i > 0 {
		if p := lex.PlainWord(ws[i-1].W); p == "be" || p == "being" || p == "get" || p == "getting" {
			return true // "to be deployed", "can be deployed", "get it deployed"
		}
	}
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		p := lex.PlainWord(ws[j].W)
		if strings.HasSuffix(p, "n't") || deployHedges[p] {
			return true
		}
	}
	return false
}

// deployHedges, before "deployed", make it no claim of a deploy done.
var deployHedges = lex.ToSet(`not no never yet will would should must can could may might need needs needed once when
whenever if unless until before ready about pending waiting want wants wanted asked requested expects expected
hasnt havent wasnt isnt didnt`)

// StatusMatches returns the submatch offsets of taskStatusRE and
// RunStatusRE in a sentence, as FindAllStringSubmatchIndex would.
func StatusMatches(s string) (tasks, runs [][]int) {
	if IsASCII(s) {
		taskAt, runAt := statusStarts(s)
		if len(taskAt) > 0 {
			tasks = matchesAt(TaskStatusAt(), s, taskAt)
		}
		if len(runAt) > 0 {
			runs = matchesAt(RunStatusAt(), s, runAt)
		}
	} else {
		// cheap, and most sentences hold none of them
		lower := lex.FoldLower(s)
		if tag.ContainsAny(lower, taskNouns) {
			tasks = TaskStatusRE().FindAllStringSubmatchIndex(s, -1)
		}
		if tag.ContainsAny(lower, runNouns) {
			runs = RunStatusRE().FindAllStringSubmatchIndex(s, -1)
		}
	}
	return tasks, runs
}

// negatedBefore reports a negation right before a status statement.
func negatedBefore(before string) bool {
	near, _ := lex.NearBefore(before) // the last words are all it reads
	f := strings.Fields(lex.FoldLower(near))
	if len(f) == 0 {
		return false
	}
	last := f[len(f)-1]
	if len(f) >= 2 && (last == "all" || last == "of") {
		last = f[len(f)-2]
	}
	switch last {
	case "no", "not", "none", "never", "zero", "without":
		return true
	}
	return false
}

// aspirational reports a goal rather than a claim before a status: "get
// the cart tests green", "make sure the tests pass", "until tests pass",
// "run npm test to confirm all tests pass"; but "made sure all tests pass"
// is done. A "to" that begins a place or a result — "rounds to cents and
// all tests pass", "moved to utils; tests pass" — is no goal: it counts
// only before a verb.
func aspirational(before string) bool {
	near, _ := lex.NearBefore(before) // the last words are all it reads
	f := strings.Fields(lex.FoldLower(near))
	for i := len(f) - 1; i >= 0 && i >= len(f)-4; i-- {
		switch strings.Trim(f[i], ",;:") {
		case "get", "make", "keep", "until", "ensure", "want", "need", "needs", "should", "must", "will", "so", "once",
			"if", "unless", "goal", "confirm", "verify":
			return true
		case "sure":
			// "made sure all tests pass" reports what was done
			if i == 0 || f[i-1] != "made" {
				return true
			}
		case "to":
			if i+1 < len(f) && goalVerbs[strings.Trim(f[i+1], ",;:")] {
				return true
			}
		}
	}
	return false
}

// goalVerbs, after "to", make what follows a goal: "to see the tests pass".
var goalVerbs = lex.ToSet(`see have check prove validate watch turn bring double-check`)

func runSubject(w string) string {
	w = lex.FoldLower(w)
	switch {
	case strings.HasPrefix(w, "test"):
		return "tests"
	case strings.HasPrefix(w, "deploy"):
		return "deploy"
	case w == "ci" || w == "pipeline":
		return "ci"
	}
	return w
}

func splitList(s string) []string {
	s = strings.ReplaceAll(s, " and ", ",")
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
