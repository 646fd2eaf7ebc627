package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/sharedstate"
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

// naiveKeysIn is what keyFinder.appendIn must find: every key that occurs in
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

// checkKeysIn holds kf.appendIn to the search; its numbers name the keys
// through kf.names, and come in the keys' string order. It appends after
// every key already there, which must neither stop a key being found again
// nor be changed.
func checkKeysIn(t *testing.T, kf keyFinder, keys []string, text string) {
	t.Helper()
	before := make([]int32, len(kf.names))
	for i := range before {
		before[i] = int32(len(before) - 1 - i)
	}
	found := kf.appendIn(slices.Clone(before), text)
	if !slices.Equal(found[:len(before)], before) {
		t.Fatalf("keys in %q: the numbers before were changed: %v", text, found[:len(before)])
	}
	var got []string
	for _, n := range found[len(before):] {
		got = append(got, kf.names[n])
	}
	if want := naiveKeysIn(keys, text); !slices.Equal(got, want) {
		t.Fatalf("keys in %q: %q, want %q", text, got, want)
	}
}

func keyFinderOf(keys []string) keyFinder {
	st := &sharedstate.StateRun{}
	for i, k := range keys {
		st.Ops.Add(sharedstate.StateOp{Index: i, Key: k})
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

// TestConfidencesMerge holds confidences, which merges as it goes, to a
// stable sort of every confidence by place, a write before a message at the
// same place: writes with and without a confidence, another agent's, and
// messages that name no key, one key or several.
func TestConfidencesMerge(t *testing.T) {
	st := &sharedstate.StateRun{}
	for i, k := range []string{"task/1", "task/2", "task/3", "lock/9"} {
		st.Ops.Add(sharedstate.StateOp{Index: 2 * i, Agent: "executor", Key: k, Write: true, Confidence: 0.5 + float64(i)/10, HasConf: i != 1})
	}
	st.Ops.Add(sharedstate.StateOp{Index: 3, Agent: "planner", Key: "task/2", Write: true, Confidence: 0.9, HasConf: true})
	st.Ops.Add(sharedstate.StateOp{Index: 9, Agent: "executor", Key: "task/1", Write: true, Confidence: 0.7, HasConf: true})
	say := func(index int, text string, conf float64) sharedstate.Message {
		return sharedstate.Message{Agent: "executor", Index: index, MessageContent: &reading.MessageContent{Text: text, Confidence: conf, HasConf: true}}
	}
	st.Messages = []sharedstate.Message{
		say(0, "task/1 started, confidence 0.4", 0.4), // at a write's place
		say(1, "nothing named, confidence 0.3", 0.3),
		say(4, "task/3 and task/2 and lock/9, confidence 0.8", 0.8),
		{Agent: "executor", Index: 5, MessageContent: &reading.MessageContent{Text: "task/1 no confidence"}},
		{Agent: "planner", Index: 6, MessageContent: &reading.MessageContent{Text: "task/1, confidence 1", Confidence: 1, HasConf: true}},
		say(7, "task/2 done, confidence 0.95", 0.95),
		say(12, "task/1 task/1, confidence 0.6", 0.6), // after every write
	}
	keys := newKeyFinder(st)

	var want []confidence
	for i, op := range st.Ops.All() {
		if op.Agent == "executor" && op.HasConf {
			want = append(want, confidence{index: op.Index, value: op.Confidence, key: int32(st.KeyNumber(i)), at: int32(i)})
		}
	}
	for i, m := range st.Messages {
		if m.Agent == "executor" && m.HasConf {
			for _, key := range keys.appendIn(nil, m.Text) {
				want = append(want, confidence{index: m.Index, value: m.Confidence, key: key, at: int32(i), byMsg: true})
			}
		}
	}
	slices.SortStableFunc(want, func(a, b confidence) int { return a.index - b.index })

	got := confidences(st, "executor", keys)
	if !slices.Equal(got, want) {
		t.Fatalf("confidences:\n got %+v\nwant %+v", got, want)
	}
	if len(got) != 10 {
		t.Fatalf("%d confidences, want 10 (four writes, six keys named): %+v", len(got), got)
	}
}
