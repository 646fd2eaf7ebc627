package audit

import (
	"regexp"
	"testing"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/reading"
)

var taskRefCases = []string{"", "Finished task/35: failed, confidence 0.7.", "Closed task T-12 and Task\tB-3.",
	"tasks 4 and 5", "entry\nX9", "key K1", "the keystone", "TASK 9", "task", "tasks", "a task.", "Entry\rZ",
	"retried task/7 — task  9 next", "ta sk 9", "tas\u212a 9", "key\v7"}

// checkMayReferTask holds the check made before taskRefRE to what it is
// for: wherever the expression matches a message, the check passes.
func checkMayReferTask(t *testing.T, text string) {
	t.Helper()
	if reading.TaskRefRE().MatchString(text) && !reading.MayReferTask(lex.FoldLower(text)) {
		t.Fatalf("taskRefRE matches %q, but mayReferTask says it cannot", text)
	}
}

func TestMayReferTask(t *testing.T) {
	for _, c := range taskRefCases {
		checkMayReferTask(t, c)
	}
	for _, c := range []string{"Finished task/35: failed.", "the keystone", "tasks:", "TASK"} {
		if reading.MayReferTask(lex.FoldLower(c)) {
			t.Errorf("mayReferTask(%q) = true: no word it looks for is followed by a space", c)
		}
	}
}

func FuzzMayReferTask(f *testing.F) {
	for _, c := range taskRefCases {
		f.Add(c)
	}
	f.Fuzz(checkMayReferTask)
}

// confidenceRE is what confidenceOf reads, as the expression it replaced.
var confidenceRE = regexp.MustCompile(`(?i)\bconfidence\s*(?:[:=]|is|of)?\s*(0?\.\d+|1\.0|\d{1,3}\s*%)`)

var confidenceCases = []string{"", "confidence 0.7", "Finished task/35: complete, confidence 0.7.", "CONFIDENCE: .75",
	"confidence is 90 %", "Confidence of 1.0", "confidence=1.05", "confidence 1.5", "confidence 1000%", "confidence 100%",
	"confidence 0.", "confidence 00.5", "confidence 0%", "overconfidence 0.9 but confidence 0.4", "confidence is high; confidence 0.6",
	"confidence iſ 0.3", "confidence IS\t.2", "confidence\n:\n0.1", "confidence: is 0.5", "confidences 0.5", "confidence0.5",
	"confidence_0.5", "éconfidence 0.8", "\xffconfidence .9", "confidence 0.5%", "confidence  7 \f%", "confidence ofis 0.2",
	"confiDENCE of 12%", "confidence 1.0.", "confidence 0.25, confidence 0.75", "conﬁdence 0.5", "confidence 'is' 0.1"}

// checkConfidenceOf holds confidenceOf to the expression on one text.
func checkConfidenceOf(t *testing.T, text string) {
	t.Helper()
	var want string
	m := confidenceRE.FindStringSubmatch(text)
	if m != nil {
		want = m[1]
	}
	got, ok := reading.ConfidenceOf(text, lex.FoldLower(text))
	if got != want || ok != (m != nil) {
		t.Fatalf("confidenceOf(%q) = %q, %v; the expression reads %q, %v", text, got, ok, want, m != nil)
	}
}

// TestConfidenceOf: the confidence read is the one the expression reads,
// on cases near each of its parts.
func TestConfidenceOf(t *testing.T) {
	for _, c := range confidenceCases {
		checkConfidenceOf(t, c)
	}
	if got, _ := reading.ConfidenceOf("Verified: confidence is 85 %.", lex.FoldLower("Verified: confidence is 85 %.")); got != "85 %" {
		t.Errorf("got %q, want %q", got, "85 %")
	}
}

// FuzzConfidenceOf compares confidenceOf with the expression on any text.
func FuzzConfidenceOf(f *testing.F) {
	for _, c := range confidenceCases {
		f.Add(c)
	}
	f.Fuzz(checkConfidenceOf)
}
