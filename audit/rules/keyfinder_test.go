package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
)

// keyFinderKeys are a run's keys: long ones that share their first four
// bytes or differ past them, short ones and an empty one.
var keyFinderKeys = []string{"task/1", "task/10", "task/B", "taskA", "lock/1", "k", "ab", "abc", "", "é/1", "db.rows"}

var keyFinderTexts = []string{
	"task/10 done, confidence 0.9",
	"tasks: task/1, task/B and taskA; lock/1 held",
	"nothing named here",
	"tas",
	"é/1 abc db.rows k",
	"",
}

// naiveKeysIn is what keyFinder.in must find: every key that occurs in
// text, sorted.
func naiveKeysIn(keys []string, text string) []string {
	var out []string
	for _, k := range keys {
		if strings.Contains(text, k) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// checkKeysIn holds kf.in to the search; its numbers name the keys through
// kf.names, and come in the keys' string order.
func checkKeysIn(t *testing.T, kf keyFinder, keys []string, text string) {
	t.Helper()
	var got []string
	for _, n := range kf.in(text) {
		got = append(got, kf.names[n])
	}
	if want := naiveKeysIn(keys, text); !slices.Equal(got, want) {
		t.Fatalf("keys in %q: %q, want %q", text, got, want)
	}
}

func keyFinderOf(keys []string) keyFinder {
	st := &audit.StateRun{}
	for i, k := range keys {
		st.Ops.Add(audit.StateOp{Index: i, Key: k})
	}
	return newKeyFinder(st)
}

// TestKeyFinderIn holds the finder, which tries only the places where a
// key's first four bytes are, to a search for every key.
func TestKeyFinderIn(t *testing.T) {
	kf := keyFinderOf(keyFinderKeys)
	for _, text := range keyFinderTexts {
		checkKeysIn(t, kf, keyFinderKeys, text)
	}
}

func FuzzKeyFinderIn(f *testing.F) {
	for _, text := range keyFinderTexts {
		f.Add(text, "task/")
	}
	f.Fuzz(func(t *testing.T, text, key string) {
		keys := append(slices.Clone(keyFinderKeys), key, key+"x")
		checkKeysIn(t, keyFinderOf(keys), keys, text)
	})
}
