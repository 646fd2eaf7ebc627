package audit

import "testing"

var taskRefCases = []string{"", "Finished task/35: failed, confidence 0.7.", "Closed task T-12 and Task\tB-3.",
	"tasks 4 and 5", "entry\nX9", "key K1", "the keystone", "TASK 9", "task", "tasks", "a task.", "Entry\rZ",
	"retried task/7 — task  9 next", "ta sk 9", "tas\u212a 9", "key\v7"}

// checkMayReferTask holds the check made before taskRefRE to what it is
// for: wherever the expression matches a message, the check passes.
func checkMayReferTask(t *testing.T, text string) {
	t.Helper()
	if taskRefRE.MatchString(text) && !mayReferTask(foldLower(text)) {
		t.Fatalf("taskRefRE matches %q, but mayReferTask says it cannot", text)
	}
}

func TestMayReferTask(t *testing.T) {
	for _, c := range taskRefCases {
		checkMayReferTask(t, c)
	}
	for _, c := range []string{"Finished task/35: failed.", "the keystone", "tasks:", "TASK"} {
		if mayReferTask(foldLower(c)) {
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
