package audit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/sharedstate"
)

// randomRun is a run of three agents over five keys, with every kind of
// item the index answers about, its Index values spread and interleaved.
func randomRun(rng *rand.Rand) *sharedstate.StateRun { return randomRunOf(rng, 300) }

// randomRunOf is randomRun with n items.
func randomRunOf(rng *rand.Rand, n int) *sharedstate.StateRun {
	r := &sharedstate.StateRun{Agents: []string{"a", "b", "c"}}
	agent := func() string { return r.Agents[rng.IntN(3)] }
	for index := range n {
		switch rng.IntN(6) {
		case 0, 1, 2:
			op := sharedstate.StateOp{Index: index, Agent: agent(), Key: fmt.Sprintf("k%d", rng.IntN(5)), Turn: index / 7,
				Write: rng.IntN(2) == 0, Private: rng.IntN(5) == 0}
			if rng.IntN(4) > 0 {
				op.Value = fmt.Sprint(rng.IntN(3))
			}
			r.Ops.Add(op)
		case 3:
			r.Compactions = append(r.Compactions, sharedstate.Compaction{Index: index, Agent: agent()})
		case 4:
			r.Messages = append(r.Messages, sharedstate.Message{Index: index, Agent: agent(), MessageContent: reading.PlainContent})
		default:
			t := sharedstate.RunOutcome{Index: index, Agent: agent()}
			if rng.IntN(2) == 0 {
				r.Tests = append(r.Tests, t)
			} else {
				r.Work = append(r.Work, t)
			}
		}
	}
	return r
}

// opsOf is a copy of the run's ops as one list.
func opsOf(r *sharedstate.StateRun) []sharedstate.StateOp {
	var out []sharedstate.StateOp
	for _, op := range r.Ops.All() {
		out = append(out, *op)
	}
	return out
}

// TestStateIndex holds every question the index answers to its definition,
// a walk over the whole run, on random runs.
func TestStateIndex(t *testing.T) {
	for seed := range uint64(12) {
		r := randomRun(rand.New(rand.NewPCG(seed, 1)))
		ops := opsOf(r)
		var shared []string // the keys of shared ops, by their first
		for _, op := range ops {
			if !op.Private && !slices.Contains(shared, op.Key) {
				shared = append(shared, op.Key)
			}
		}
		if got := r.SharedKeys(); !slices.Equal(got, shared) {
			t.Fatalf("seed %d: SharedKeys() = %v, want %v", seed, got, shared)
		}
		for _, agent := range append(r.Agents, "nobody") {
			if got, want := r.Shares(agent), slices.ContainsFunc(ops, func(op sharedstate.StateOp) bool { return op.Agent == agent && !op.Private }); got != want {
				t.Fatalf("seed %d: Shares(%s) = %v, want %v", seed, agent, got, want)
			}
			if got, want := r.Peers(agent), walkPeers(r, agent); !slices.Equal(got, want) {
				t.Fatalf("seed %d: Peers(%s) = %v, want %v", seed, agent, got, want)
			}
			var mine, agentOps []sharedstate.StateOp
			for _, op := range ops {
				if op.Agent == agent {
					mine = append(mine, op)
				}
			}
			for i, op := range r.AgentOps(agent) {
				if op != r.Ops.At(i) {
					t.Fatalf("seed %d: AgentOps(%s) yields an op not at its position %d", seed, agent, i)
				}
				agentOps = append(agentOps, *op)
			}
			if !slices.Equal(agentOps, mine) {
				t.Fatalf("seed %d: AgentOps(%s) yields %d ops, want its %d in order", seed, agent, len(agentOps), len(mine))
			}
			var myMessages, agentMessages []int
			for i, m := range r.Messages {
				if m.Agent == agent {
					myMessages = append(myMessages, i)
				}
			}
			for i, m := range r.AgentMessages(agent) {
				if m != &r.Messages[i] { // the run's own messages, not copies
					t.Fatalf("seed %d: AgentMessages(%s) yields a message not at its position %d", seed, agent, i)
				}
				agentMessages = append(agentMessages, i)
			}
			if !slices.Equal(agentMessages, myMessages) {
				t.Fatalf("seed %d: AgentMessages(%s) yields the run's messages %v, want %v", seed, agent, agentMessages, myMessages)
			}
			var turns []sharedstate.TurnBreadth
			var keys []string
			for _, op := range ops {
				if op.Agent != agent || !op.Write || op.Private {
					continue
				}
				if len(turns) == 0 || turns[len(turns)-1].Turn != op.Turn {
					turns = append(turns, sharedstate.TurnBreadth{Turn: op.Turn, FirstIndex: op.Index})
					keys = nil
				}
				if !slices.Contains(keys, op.Key) {
					keys = append(keys, op.Key)
					turns[len(turns)-1].Keys++
				}
			}
			got := sharedstate.WriteBreadth(r, agent)
			if !slices.Equal(got, turns) {
				t.Fatalf("seed %d: WriteBreadth(%s) = %v, want %v", seed, agent, got, turns)
			}
			for index := -1; index <= 301; index += 2 {
				for from := index - 40; from <= index; from += 13 {
					checkAt(t, r, ops, seed, agent, from, index)
				}
				var base []sharedstate.TurnBreadth
				for _, tb := range got {
					if tb.FirstIndex < index {
						base = append(base, tb)
					}
				}
				if len(base) > 3 {
					base = base[len(base)-3:]
				}
				sum := 0
				for _, tb := range base {
					sum += tb.Keys
				}
				if mean, n := sharedstate.Baseline(got, index, 3); n != len(base) || n > 0 && mean != float64(sum)/float64(n) {
					t.Fatalf("seed %d: Baseline(%s, %d) = %v over %d, want %d turns summing %d", seed, agent, index, mean, n, len(base), sum)
				}
			}
		}
	}
}

// checkAt compares the index's answers about an agent between two events
// with walks.
func checkAt(t *testing.T, r *sharedstate.StateRun, ops []sharedstate.StateOp, seed uint64, agent string, from, to int) {
	t.Helper()
	fail := func(q string, got, want any) {
		t.Helper()
		t.Fatalf("seed %d: %s(%s, %d, %d) = %v, want %v", seed, q, agent, from, to, got, want)
	}
	var last *sharedstate.Compaction
	n, next := 0, sharedstate.EndOfRun
	for i, c := range r.Compactions {
		if c.Agent != agent {
			continue
		}
		if c.Index < to {
			last, n = &r.Compactions[i], n+1
		}
		if c.Index > to && next == sharedstate.EndOfRun {
			next = c.Index
		}
	}
	if got := r.LastCompaction(agent, to); got != last {
		fail("LastCompaction", got, last)
	}
	if got := r.CompactionNumber(agent, to); got != n {
		fail("CompactionNumber", got, n)
	}
	if got := r.NextCompaction(agent, to); got != next {
		fail("NextCompaction", got, next)
	}
	var nextWrite *sharedstate.StateOp
	for i, op := range ops {
		if op.Agent == agent && op.Write && !op.Private && op.Index > to {
			nextWrite = r.Ops.At(i)
			break
		}
	}
	if got := r.NextWrite(agent, to); got != nextWrite {
		fail("NextWrite", got, nextWrite)
	}
	for k := range 6 {
		key := fmt.Sprintf("k%d", k)
		read := slices.ContainsFunc(ops, func(op sharedstate.StateOp) bool {
			return !op.Write && op.Agent == agent && op.Key == key && op.Index > from && op.Index < to
		})
		if got := r.ReadBetween(agent, key, from, to); got != read {
			fail("ReadBetween "+key, got, read)
		}
		var want []sharedstate.StateOp
		for _, op := range ops {
			if op.Agent == agent && op.Key == key && op.Index > from {
				want = append(want, op)
			}
		}
		var got []sharedstate.StateOp
		for i, op := range r.AgentKeyOps(agent, key, from) {
			if op != r.Ops.At(i) {
				t.Fatalf("seed %d: AgentKeyOps yields an op not at its position %d", seed, i)
			}
			got = append(got, *op)
		}
		if !slices.Equal(got, want) {
			fail("AgentKeyOps "+key, got, want)
		}
		var lastValue sharedstate.StateOp
		found := false
		for _, op := range ops {
			if op.Key == key && op.Index < to && op.Value != "" {
				lastValue, found = op, true
			}
		}
		if got, ok := r.LastValue(key, to); ok != found || got != lastValue {
			fail("LastValue "+key, got, lastValue)
		}
	}
	worked := slices.ContainsFunc(r.Work, func(w sharedstate.RunOutcome) bool { return w.Agent == agent && w.Index > from && w.Index < to })
	if got := r.WorkedBetween(agent, from, to); got != worked {
		fail("WorkedBetween", got, worked)
	}
	var lastTest *sharedstate.RunOutcome
	for i, tr := range r.Tests {
		if tr.Agent == agent && tr.Index <= to {
			lastTest = &r.Tests[i]
		}
	}
	if got := r.LastTest(agent, to); got != lastTest {
		fail("LastTest", got, lastTest)
	}
	var messages []sharedstate.Message
	for _, m := range r.Messages {
		if m.Agent == agent && m.Index > from && m.Index < to {
			messages = append(messages, m)
		}
	}
	if got := r.MessagesBetween(agent, from, to); !slices.Equal(got, messages) {
		fail("MessagesBetween", got, messages)
	}
}

// walkPeers is Peers by its definition: every other agent with an op on a
// key the agent touches shared, in order of that op.
func walkPeers(r *sharedstate.StateRun, agent string) []string {
	keys := map[string]bool{}
	for _, op := range opsOf(r) {
		if op.Agent == agent && !op.Private {
			keys[op.Key] = true
		}
	}
	var out []string
	for _, op := range opsOf(r) {
		if op.Agent != agent && keys[op.Key] && !slices.Contains(out, op.Agent) {
			out = append(out, op.Agent)
		}
	}
	return out
}

// BenchmarkStateIndex builds the index of a run shaped like the canonical
// multi-agent bench run: per task, a planner's write, an executor's read,
// four writes of the task and its lock, and a verifier's read.
func BenchmarkStateIndex(b *testing.B) {
	r := &sharedstate.StateRun{}
	add := func(agent, key string, write bool) {
		r.Ops.Add(sharedstate.StateOp{Index: r.Ops.Len(), Agent: agent, Key: key, Write: write, Value: "v"})
	}
	for n := range 80000 {
		task, lock := fmt.Sprintf("task/%d", n), fmt.Sprintf("lock/%d", n)
		add("planner", task, true)
		add("executor", task, false)
		add("executor", task, true)
		add("executor", lock, true)
		add("executor", task, true)
		add("executor", lock, true)
		add("verifier", task, false)
	}
	b.ReportAllocs()
	for b.Loop() {
		sharedstate.NewStateIndex(r)
	}
}

// TestIndexListsByKey holds the lists by key, made by counting ranks, to
// a sort of the positions by agent, key and position with string
// comparisons, on runs whose keys share prefixes, differ in case and
// bytes past ASCII, and include the empty key.
func TestIndexListsByKey(t *testing.T) {
	keys := []string{"", "k", "k1", "k10", "k2", "K", "task/9", "task/10", "é", "e\u0301", "\xff"}
	agents := []string{"planner", "executor", "verifier", "Executor", ""}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		r := &sharedstate.StateRun{}
		for i := range 50 + rng.IntN(3000) {
			op := sharedstate.StateOp{Index: i, Agent: agents[rng.IntN(len(agents))], Key: keys[rng.IntN(len(keys))], Write: rng.IntN(2) == 0}
			if rng.IntN(3) > 0 {
				op.Value = "v"
			}
			r.Ops.Add(op)
		}
		ix := sharedstate.NewStateIndex(r)
		all := make([]int32, r.Ops.Len())
		for i := range all {
			all[i] = int32(i)
		}
		byKey := func(byAgent bool) func(a, b int32) int {
			return func(a, b int32) int {
				x, y := r.Ops.At(int(a)), r.Ops.At(int(b))
				if byAgent {
					if c := strings.Compare(x.Agent, y.Agent); c != 0 {
						return c
					}
				}
				if c := strings.Compare(x.Key, y.Key); c != 0 {
					return c
				}
				return int(a - b)
			}
		}
		want := slices.Clone(all)
		slices.SortFunc(want, byKey(true))
		if !slices.Equal(ix.ByAgentKey, want) {
			t.Fatalf("seed %d: byAgentKey %v, want %v", seed, ix.ByAgentKey, want)
		}
		reads := slices.DeleteFunc(slices.Clone(want), func(p int32) bool { return r.Ops.At(int(p)).Write })
		if !slices.Equal(ix.ReadsByKey, reads) {
			t.Fatalf("seed %d: readsByKey %v, want %v", seed, ix.ReadsByKey, reads)
		}
		valued := slices.DeleteFunc(slices.Clone(all), func(p int32) bool { return r.Ops.At(int(p)).Value == "" })
		slices.SortFunc(valued, byKey(false))
		if !slices.Equal(ix.Valued, valued) {
			t.Fatalf("seed %d: valued %v, want %v", seed, ix.Valued, valued)
		}
		// KeyNumber: one number per key, from 0 up to Keys
		numbers := map[string]int{}
		for i, op := range r.Ops.All() {
			n := r.KeyNumber(i)
			if n < 0 || n >= r.Keys() {
				t.Fatalf("seed %d: key %q numbered %d of %d", seed, op.Key, n, r.Keys())
			}
			if m, ok := numbers[op.Key]; ok && m != n {
				t.Fatalf("seed %d: key %q numbered %d and %d", seed, op.Key, m, n)
			}
			numbers[op.Key] = n
		}
		distinct := map[int]bool{}
		for _, n := range numbers {
			distinct[n] = true
		}
		if len(distinct) != len(numbers) || r.Keys() != len(numbers) {
			t.Fatalf("seed %d: %d keys numbered with %d numbers, Keys() = %d", seed, len(numbers), len(distinct), r.Keys())
		}
	}
}

// TestWriteBreadthManyKeys: a turn's distinct keys are counted the same
// way whether it writes a few or many, with repeats on either side of the
// change from looking through them to a map.
func TestWriteBreadthManyKeys(t *testing.T) {
	r := &sharedstate.StateRun{Agents: []string{"a"}}
	write := func(turn int, key string) {
		r.Ops.Add(sharedstate.StateOp{Index: r.Ops.Len(), Agent: "a", Key: key, Turn: turn, Write: true})
	}
	for _, n := range []int{31, 32, 33, 100} {
		for range 2 {
			for k := range n {
				write(n, fmt.Sprintf("k%d", k))
			}
		}
	}
	write(200, "k0")
	write(200, "k1")
	write(200, "k0")
	var got []int
	for _, tb := range sharedstate.WriteBreadth(r, "a") {
		got = append(got, tb.Turn, tb.Keys)
	}
	if want := []int{31, 31, 32, 32, 33, 33, 100, 100, 200, 2}; !slices.Equal(got, want) {
		t.Errorf("turns and keys %v, want %v", got, want)
	}
}
