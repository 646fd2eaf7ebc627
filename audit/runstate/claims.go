package runstate

import (
	"regexp"
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
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
