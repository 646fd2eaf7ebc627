package tag_test

import (
	"testing"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
)

// checkMayCommit holds findCommitment's first check to what it checks
// for: wherever the full reading finds a promise, the check passes.
func checkMayCommit(t *testing.T, s string) {
	t.Helper()
	if _, ok := tag.CommitmentIn(s); ok && !tag.MayCommit(s) {
		t.Fatalf("commitmentIn finds a promise in %q, but mayCommit says it cannot", s)
	}
}

func TestMayCommit(t *testing.T) {
	for _, s := range commitmentCases {
		checkMayCommit(t, s)
	}
	// the check passes over sentences with no "I" before a space or an
	// apostrophe, and findCommitment with it
	for _, s := range []string{"Verified task/1 is complete, confidence 0.8.", "multi-agent: I’ll add it later", "hi'll add it"} {
		if tag.MayCommit(s) {
			t.Errorf("mayCommit(%q) = true", s)
		}
	}
	if _, ok := tag.FindCommitment("Next, I will add the check later."); !ok {
		t.Error("findCommitment misses a promise mayCommit lets through")
	}
}

func FuzzMayCommit(f *testing.F) {
	for _, s := range commitmentCases {
		f.Add(s)
	}
	f.Fuzz(checkMayCommit)
}

var commitmentCases = []string{"", "I'll add the retry check later.", "Next, I will run the tests once the build is green.",
	"(i'm going to fix the flaky test after this)", "I won't touch prod again.", "Done; i promise to re-run the suite.",
	"I AM GOING TO rewrite the migration later", "Verified task/1 is complete, confidence 0.8.", "multi-agent: I’ll add it later",
	"hi'll add it", "I'll", "i", "I will never deploy on a Friday.", "\xffI'll add the check later", "ÍI'll add it later"}

// TestClip: an excerpt is cut at white space, so a word — a token the
// reports will mask — is shown whole or not at all; only a first word
// longer than the excerpt is cut inside it, and never inside a character.
func TestClip(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short enough", 20, "short enough"},
		{"  trimmed  ", 20, "trimmed"},
		{"wrote creds = ghp_0123456789abcdefghijABCDEFGHIJklmnop", 30, "wrote creds =…"},
		{"complete\neyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlMDEyMzQ", 40, "complete…"},
		{"exactly ten and more", 11, "exactly ten…"}, // the space right after the limit keeps the word
		{"exactly ten and more", 10, "exactly…"},
		{"averyveryverylongfirstword and more", 10, "averyveryv…"},
		{"ééééé", 5, "éé…"},
	} {
		if got := lex.Clip(c.s, c.n); got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
