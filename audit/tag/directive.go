package tag

import (
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
)

// Directive is a prohibition, requirement, retraction or commitment found
// in one sentence.
type Directive struct {
	Kind     Kind
	Polarity Polarity
	// span of the whole directive (cue and object) within the sentence
	Start, End int
	Object     string // the object phrase as written
	objStart   int
	// for retractions: what is ended, and the replacing value if any
	Retracts    string
	Replacement string
	Lift        bool // a permission that lifts a prohibition ("you can deploy to prod now")
}

// subjectPronouns start statements, not instructions: "I never saw",
// "it doesn't work".
var subjectPronouns = lex.ToSet(`i we they he she it that this these those which who what there i've we've it's that's
has have had was were is are been`)

// imperativeLead may stand before an imperative cue: "please never",
// "and don't", "so never".
var imperativeLead = lex.ToSet(`please and but so also just then always you remember important note again
rule rules crucially critically also, — - *`)

// notProhibition follows "don't" in sentences that forbid nothing.
var notProhibition = lex.ToSet(`worry hesitate need have know think see understand mind care recall remember
want wish expect believe seem appear get matter bother`)

// noExclusions follow a clause-initial "no" that is not a ban.
var noExclusions = lex.ToSet(`problem problems worries worry idea need longer more less fewer thanks thank way matter one doubt
change changes issue issues error errors result results output luck wait rush pressure hurry
test tests failure failures warning warnings difference match matches data file files response
reply answer action`)

// descriptiveVerbs make "no X was found" a report, not a ban.
var descriptiveVerbs = lex.ToSet(`is are was were found failed passed appears appeared seems seemed exists existed
remain remains remained left happened occurred`)

// forbidTail are predicates that forbid what precedes them.
var forbidTail = []string{"is strictly forbidden", "are strictly forbidden", "is forbidden", "are forbidden",
	"is prohibited", "are prohibited", "is not allowed", "are not allowed", "is not permitted", "are not permitted",
	"is off-limits", "are off-limits", "is off limits", "are off limits", "is banned", "are banned",
	"is out of bounds", "are out of bounds", "is a no-go", "is not to be touched", "are not to be touched",
	"stays off-limits", "is off the table"}

// objectEnds cut an object phrase: conditions, reasons and the next clause.
var objectEnds = []string{", ", "; ", ": ", " but ", " unless ", " except ", " without ", " because ", " since ",
	" until ", " so that ", " — ", " -- ", " - ", " (", " and never ", " and don't ", " and do not ", " and always ",
	" or else ", " otherwise ", " instead of ", " rather than ", " if ", " when ", " while ", " as ", " for now", " even if "}

// maxCue is the length of the longest cue findDirectives reads at a word
// ("under no circumstances").
const maxCue = 32

// objectAt returns the object phrase starting at byte i of s, at most
// maxObject bytes, cut at a word.
func objectAt(s string, i int) (string, int) {
	for i < len(s) && (s[i] == ' ' || s[i] == ',') {
		i++
	}
	rest := lex.NearAfter(s[i:])
	end := len(rest)
	lower := lex.FoldLower(rest)
	for _, e := range objectEnds {
		if k := strings.Index(lower, e); k >= 0 && k < end {
			end = k
		}
	}
	obj := strings.TrimRight(rest[:end], " .!?,;:)*_")
	return obj, i
}

// modalDirective builds "X must (not) Y": when X is not the agent, it is
// part of what is required or forbidden ("migrations must not run on
// prod"), and the span runs from X to the end of Y.
func modalDirective(s string, ws []lex.Word, i, j int, subj string, youSubject bool, kind Kind, pol Polarity) Directive {
	obj, at := objectAt(s, ws[j].End)
	d := Directive{Kind: kind, Polarity: pol, Start: ws[i].Start, Object: obj, objStart: at, End: at + len(obj)}
	if subj != "" && !youSubject && !isAgentSubject(subj) {
		if k := strings.LastIndex(s[:ws[i].Start], subj); k >= 0 {
			d.Start, d.objStart = k, k
			d.Object = strings.TrimSpace(subj + " " + obj)
		}
	}
	return d
}

// subjectBefore returns the words between the clause start and word i, as
// written, at most maxObject bytes of them: a list with no clause break
// before its "must not" is no subject, and reading all of it for each of
// its modals was quadratic.
func subjectBefore(s string, ws []lex.Word, i int) string {
	near, off := lex.NearBefore(s[:ws[i].Start])
	begin := off + strings.LastIndexAny(near, ",;:") + 1
	subj := strings.TrimSpace(s[begin:ws[i].Start])
	for _, p := range []string{"and ", "but ", "so ", "also ", "please "} {
		if strings.HasPrefix(lex.FoldLower(subj), p) {
			subj = subj[len(p):]
		}
	}
	return subj
}

func isPronounSubject(subj string) bool {
	f := strings.Fields(lex.FoldLower(subj))
	return len(f) > 0 && subjectPronouns[f[len(f)-1]]
}

// isAgentSubject names the agent itself: "the agent must not", "Claude
// should never".
func isAgentSubject(subj string) bool {
	switch lex.FoldLower(subj) {
	case "you", "the agent", "the assistant", "claude", "codex", "the model", "agents", "the ai":
		return true
	}
	return false
}

func hasDescriptiveVerb(obj string) bool {
	for _, w := range lex.Words(obj) {
		if descriptiveVerbs[lex.PlainWord(w.W)] {
			return true
		}
	}
	return false
}

// permissionCues lift a prohibition on what follows them.
var permissionCues = []string{"you can now ", "you may now ", "you can ", "you may ", "feel free to ", "go ahead and ",
	"it's fine to ", "it is fine to ", "it's ok to ", "it's okay to ", "it is ok to ", "it is okay to ",
	"you're allowed to ", "you are allowed to ", "you are now allowed to ", "you're now allowed to "}

// retractCues end an earlier rule about what follows them.
var retractCues = []string{"forget about ", "forget the ", "forget my ", "disregard the ", "disregard my ", "disregard ",
	"ignore the earlier ", "ignore my earlier ", "ignore the previous ", "ignore my previous ", "never mind ",
	"you no longer need to ", "you don't need to ", "no need to ", "drop the ", "lift the ", "remove the "}

// ruleNouns make "drop the X rule" a retraction rather than a task.
var ruleNouns = []string{" rule", " constraint", " restriction", " requirement", " instruction", " limit", " ban", " policy"}

// FindRetraction reads a retraction or supersession from one sentence.
func FindRetraction(s string) (Directive, bool) {
	lower := lex.FoldLower(s)
	for _, find := range retractionFinders {
		if d, ok := find(s, lower); ok {
			return d, true
		}
	}
	return Directive{}, false
}

// retractionFinders are the shapes of a retraction, tried in order; the
// first that reads the sentence wins. Each gets the sentence and its
// lowered copy.
var retractionFinders = []func(s, lower string) (Directive, bool){
	scratchThat, insteadOf, insteadAtEnd, switchFrom, permitted, liftedTail, retractCue,
}

// scratchThat: "scratch that", a bare "never mind".
func scratchThat(s, lower string) (Directive, bool) {
	trimmed := strings.TrimSpace(lower)
	if strings.HasPrefix(trimmed, "scratch that") || strings.HasPrefix(trimmed, "never mind") && len(trimmed) < 14 {
		return Directive{Kind: KindRetraction, Retracts: "the previous instruction", Start: 0, End: len(s)}, true
	}
	return Directive{}, false
}

// insteadOf is a supersession: "use Y instead of X", "instead of X, use Y".
func insteadOf(s, lower string) (Directive, bool) {
	k := strings.Index(lower, " instead of ")
	if k < 0 {
		return Directive{}, false
	}
	old, _ := objectAt(s, k+len(" instead of "))
	newPart := s[:k]
	if u := strings.LastIndex(lex.FoldLower(newPart), "use "); u >= 0 {
		newPart = newPart[u+4:]
	}
	if strings.HasPrefix(strings.TrimSpace(lower), "instead of ") {
		// "instead of X, use Y"
		if c := strings.Index(s, ","); c > 0 {
			old = strings.TrimSpace(s[strings.Index(lower, "instead of ")+len("instead of ") : c])
			newPart, _ = objectAt(s, c+1)
			newPart = strings.TrimPrefix(strings.TrimPrefix(newPart, "use "), "Use ")
		}
	}
	return Directive{Kind: KindRetraction, Retracts: strings.TrimSpace(old), Replacement: strings.TrimSpace(newPart), Start: 0, End: len(s)}, true
}

// insteadAtEnd: "use port 9090 instead", "use Y instead, …".
func insteadAtEnd(s, lower string) (Directive, bool) {
	k := strings.Index(lower, " instead")
	if k < 0 || !(strings.HasSuffix(strings.TrimRight(lower, ".! "), " instead") || strings.Contains(lower, " instead,")) {
		return Directive{}, false
	}
	newPart := s[:k]
	if u := strings.LastIndex(lex.FoldLower(newPart), "use "); u >= 0 {
		newPart = newPart[u+4:]
	}
	return Directive{Kind: KindRetraction, Replacement: strings.TrimSpace(newPart), Start: 0, End: len(s)}, true
}

// switchFrom: "switch from X to Y", "change from", "move from".
func switchFrom(s, lower string) (Directive, bool) {
	for _, cue := range []string{"switch from ", "change from ", "move from "} {
		if k := strings.Index(lower, cue); k >= 0 {
			rest := s[k+len(cue):]
			if t := strings.Index(lex.FoldLower(rest), " to "); t > 0 {
				newVal, _ := objectAt(rest, t+4)
				return Directive{Kind: KindRetraction, Retracts: strings.TrimSpace(rest[:t]), Replacement: newVal, Start: 0, End: len(s)}, true
			}
		}
	}
	return Directive{}, false
}

// cueAtClause is where cue starts in lower, at the sentence's start or
// after a clause break, or -1.
func cueAtClause(lower, cue string) int {
	k := strings.Index(lower, cue)
	if k < 0 || k > 0 && !strings.ContainsAny(lower[max(0, k-2):k], ",.;: ") {
		return -1
	}
	return k
}

// permitted lifts a rule: "you can now …", "feel free to …".
func permitted(s, lower string) (Directive, bool) {
	for _, cue := range permissionCues {
		k := cueAtClause(lower, cue)
		if k < 0 {
			continue
		}
		obj, at := objectAt(s, k+len(cue))
		obj = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(obj), " now"), " again")
		return Directive{Kind: KindRetraction, Retracts: obj, Lift: true, Start: k, objStart: at, End: at + len(obj)}, true
	}
	return Directive{}, false
}

// liftedTails end a sentence that lifts what comes before them.
var liftedTails = []string{" is fine now", " is ok now", " is okay now", " is allowed now", " is no longer forbidden",
	" is no longer off-limits", " is no longer off limits", " is no longer prohibited", " is no longer blocked",
	" no longer applies", " is lifted", " is no longer required", " is no longer needed"}

// liftedTail: "prod is fine now", "the freeze no longer applies".
func liftedTail(s, lower string) (Directive, bool) {
	for _, tail := range liftedTails {
		if k := strings.Index(lower, tail); k > 0 {
			begin := strings.LastIndexAny(s[:k], ",;:") + 1
			obj := strings.TrimSpace(s[begin:k])
			return Directive{Kind: KindRetraction, Retracts: obj, Lift: true, Start: begin, objStart: begin, End: k + len(tail)}, true
		}
	}
	return Directive{}, false
}

// retractCue: "forget the X rule", "drop the limit", "disregard …"; the
// cues that name any object ("drop the ") count only for a rule's name.
func retractCue(s, lower string) (Directive, bool) {
	for _, cue := range retractCues {
		k := cueAtClause(lower, cue)
		if k < 0 {
			continue
		}
		obj, at := objectAt(s, k+len(cue))
		ruleLike := false
		for _, n := range ruleNouns {
			if strings.Contains(lex.FoldLower(obj), n) {
				ruleLike = true
			}
		}
		if (cue == "drop the " || cue == "lift the " || cue == "remove the " || cue == "forget the " || cue == "disregard the " || cue == "disregard ") && !ruleLike {
			continue
		}
		return Directive{Kind: KindRetraction, Retracts: obj, Lift: true, Start: k, objStart: at, End: at + len(obj)}, true
	}
	return Directive{}, false
}

// commitment cues in the assistant's own words.
var commitCues = []string{"i'll ", "i will ", "i'm going to ", "i am going to ", "i promise to ", "i'll make sure ",
	"i won't ", "i will not ", "i'll never ", "i will never "}

// exploreVerbs start what the agent does at once, not what it promises.
var exploreVerbs = lex.ToSet(`check look read examine explore search investigate see find review inspect analyze analyse
verify run start begin try dig grep list open fetch get go first now take help continue proceed launch summarize
explain walk outline show compare trace query ask wait re-run rerun test examine gather understand scan glance
create write update fix implement add edit modify change make do set build install commit push use call`)

// FindCommitment reads a promise from one sentence of assistant text.
func FindCommitment(s string) (Directive, bool) {
	if !MayCommit(s) {
		return Directive{}, false
	}
	return CommitmentIn(s)
}

// commitLead holds the bytes a commitment's cue may follow: it starts the
// sentence or comes after one of them. mayCommit and commitmentIn must
// agree on it.
const commitLead = " ,.;:("

// MayCommit reports an "I" that starts a word and is followed by an
// apostrophe or a space, as every one of commitCues is where
// CommitmentIn takes it: most of the agent's sentences hold none, and
// reading one lowered a copy of it first.
func MayCommit(s string) bool {
	for k := 0; k+1 < len(s); k++ {
		if s[k]|0x20 == 'i' && (s[k+1] == '\'' || s[k+1] == ' ') && (k == 0 || strings.IndexByte(commitLead, s[k-1]) >= 0) {
			return true
		}
	}
	return false
}

// CommitmentIn is findCommitment without mayCommit's check first.
func CommitmentIn(s string) (Directive, bool) {
	lower := lex.FoldLower(s)
	for _, cue := range commitCues {
		k := strings.Index(lower, cue)
		if k < 0 || k > 0 && strings.IndexByte(commitLead, lower[k-1]) < 0 {
			continue
		}
		obj, at := objectAt(s, k+len(cue))
		fw := strings.Fields(lex.FoldLower(obj))
		if len(fw) < 2 {
			continue
		}
		neg := strings.Contains(cue, "won't") || strings.Contains(cue, "not") || strings.Contains(cue, "never")
		// "I'll add the check later" is a promise; "I'll check the logs" is
		// the next step, done in the same turn.
		deferred := strings.Contains(lower, " later") || strings.Contains(lower, " next ") || strings.Contains(lower, " before ") ||
			strings.Contains(lower, " after ") || strings.Contains(lower, " once ") || strings.Contains(lower, " going forward") ||
			strings.Contains(lower, "from now on") || strings.Contains(lower, " always ") || strings.Contains(lower, " make sure")
		if exploreVerbs[lex.PlainWord(fw[0])] && !neg && !deferred {
			continue
		}
		pol := PolarityRequire
		if neg {
			pol = PolarityForbid
		}
		return Directive{Kind: KindCommitment, Polarity: pol, Start: k, Object: obj, objStart: at, End: at + len(obj)}, true
	}
	return Directive{}, false
}

// SpecificVerbs name actions a tool call must show for a prohibition on
// them to apply: "never push to main" is not broken by "git checkout main".
var SpecificVerbs = map[string][]string{
	"deploy":    {"deploy", "sync", "cp", "apply", "push", "release", "publish", "upload", "rollout", "ship", "promote", "put"},
	"push":      {"push"},
	"delet":     {"delete", "rm", "rmdir", "drop", "remove", "destroy", "truncate", "purge", "del", "unlink", "prune", "wipe"},
	"drop":      {"drop", "delete", "truncate", "destroy", "rm"},
	"remov":     {"remove", "rm", "delete", "drop", "uninstall", "unlink"},
	"commit":    {"commit"},
	"merg":      {"merge"},
	"rebas":     {"rebase"},
	"install":   {"install", "add", "get", "require"},
	"upgrad":    {"upgrade", "update", "bump", "install"},
	"restart":   {"restart", "reboot", "reload", "kill"},
	"publish":   {"publish", "release", "push", "upload"},
	"send":      {"send", "mail", "post", "notify"},
	"email":     {"mail", "email", "send"},
	"reset":     {"reset"},
	"migration": {"migrate", "migration", "migrations"},
	"refund":    {"refund"},
	"charg":     {"charge"},
	"forc":      {"force", "-f", "--force", "--force-with-lease"},
	"overwrit":  {"overwrite", "write", "cp", "mv", ">"},
	"disabl":    {"disable", "off", "false", "stop"},
	"enabl":     {"enable", "on", "true", "start"},
	"expos":     {"expose", "public", "open"},
	"shutdown":  {"shutdown", "stop", "halt", "poweroff"},
	"stop":      {"stop", "kill", "halt", "shutdown"},
	"kill":      {"kill", "pkill", "killall"},
	"truncat":   {"truncate"},
	"downgrad":  {"downgrade", "install"},
	"rm":        {"rm"},
}

// MakeObject analyses an object phrase.
func MakeObject(phrase string) *Object {
	o := &Object{Text: phrase, Terms: []string{}}
	for _, h := range FindLiterals(phrase) {
		o.Literals = append(o.Literals, h.Value)
	}
	terms := lex.ContentTerms(phrase)
	// the first word, when it names a specific action, is the verb
	if ws := lex.Words(phrase); len(ws) > 0 {
		first := lex.PlainWord(ws[0].W)
		if lex.GenericVerbs[first] && len(ws) > 1 {
			first = lex.PlainWord(ws[1].W)
		}
		if _, ok := SpecificVerbs[lex.Stem(first)]; ok {
			o.Verb = lex.Stem(first)
		}
	}
	here := agentPlaceTerms(phrase)
	for _, t := range terms {
		if t == o.Verb || labelNoise[t] || here[t] {
			continue
		}
		o.Terms = append(o.Terms, t)
	}
	if len(o.Terms) == 0 && o.Verb != "" {
		// "never force push": the verb is all there is
		o.Terms = []string{o.Verb}
	}
	return o
}

// agentPlaceRE finds where a rule says an action must not be done from:
// the machine the agent itself runs on. Every call an agent makes is made
// from there, so "never run terraform apply from a workstation" is broken
// by any terraform apply, though no call names the workstation.
var agentPlaceRE = lex.LiteralPattern(`(?i)\b(?:locally|(?:from|on)\s+(?:a|an|the|your|my|this|our|any)\s+(?:local\s+|own\s+|dev\s+|developer\s+)?(?:workstation|laptop|computer|desktop|machine|dev\s+box)s?)\b`)

// agentPlaceTerms are the terms of phrase that only name the agent's own
// machine (agentPlaceRE), which a call is not held to show.
func agentPlaceTerms(phrase string) map[string]bool {
	var here map[string]bool
	for _, m := range agentPlaceRE().FindAllString(phrase, -1) {
		for _, t := range lex.ContentTerms(m) {
			if here == nil {
				here = map[string]bool{}
			}
			here[t] = true
		}
	}
	return here
}

// labelNoise are words that only say what kind of thing follows.
var labelNoise = lex.ToSet(`tool tools command commands file files folder folders directory directories thing things
bucket buckets branch branches anything stuff`)

// CueDirectives reads prohibitions introduced by configured phrases: with
// "strictly no", "Strictly no deploys on Fridays" forbids deploys on
// Fridays.
func CueDirectives(s string, cues []string) []Directive {
	var out []Directive
	lower := lex.FoldLower(s)
	for _, cue := range cues {
		k := indexWord(lower, cue)
		if k < 0 {
			continue
		}
		obj, at := objectAt(s, k+len(cue))
		if strings.TrimSpace(obj) == "" {
			continue
		}
		out = append(out, Directive{Kind: KindProhibition, Polarity: PolarityForbid, Start: k, Object: obj, objStart: at, End: at + len(obj)})
	}
	return out
}
