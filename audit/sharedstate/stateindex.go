package sharedstate

import (
	"cmp"
	"iter"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// stateIndex answers the state rules' questions about a run without
// walking it: a multi-agent run holds tens of thousands of operations and
// the rules ask about each of them, so a walk per question made an audit
// quadratic in the run (a 5 MB run took 73 s). Each list holds positions in
// one of the run's lists, which are in Index order, so a question is a
// binary search.
type stateIndex struct {
	agentOps     map[string][]int32  // an agent's ops
	ByAgentKey   []int32             // every op, by agent, key and position: an agent's ops of one key are a stretch of it
	ReadsByKey   []int32             // the reads, the same way
	Valued       []int32             // the ops that carry a value, by key and position
	sharedWrites map[string][]int32  // an agent's writes of shared keys
	sharedKeys   []string            // keys of shared ops, by first op
	peers        map[string][]string // see Peers
	compactions  map[string][]int    // positions in Compactions
	messages     map[string][]int    // positions in Messages
	tests        map[string][]int    // positions in Tests
	work         map[string][]int    // positions in Work
	shares       map[string]bool     // see Shares
	keyRank      []int32             // each op's key's place in string order (opRanks)
	keys         int                 // how many keys the run has
	// The lists by key hold one 4-byte position per op. They were maps of
	// lists per agent and key: a run of 80,000 tasks has 160,000 keys, and
	// the maps took 136 MB for its 562,000 ops.
}

// Index returns the run's index, building it on first use: the run is
// complete and in order by the time a rule asks anything.
func (r *StateRun) index() *stateIndex {
	r.indexOnce.Do(func() { r.ix = NewStateIndex(r) })
	return r.ix
}

// keyOrder compares an op with an agent (when byAgent) and a key.
func keyOrder(op *StateOp, byAgent bool, agent, key string) int {
	if byAgent {
		if c := strings.Compare(op.Agent, agent); c != 0 {
			return c
		}
	}
	return strings.Compare(op.Key, key)
}

// opRanks ranks each op's agent and key among the run's, in string order:
// the lists by key are then made by counting, stably, where sorting the
// positions with string comparisons was most of the index's time.
// It also gives the agents' names by rank.
func (r *StateRun) opRanks() (agent, key []int32, agents []string, keys int) {
	agentIDs, keyIDs := map[string]int32{}, map[string]int32{}
	var agentNames, keyNames []string
	id := func(ids map[string]int32, names *[]string, s string) int32 {
		i, ok := ids[s]
		if !ok {
			i = int32(len(*names))
			ids[s] = i
			*names = append(*names, s)
		}
		return i
	}
	agent, key = make([]int32, r.Ops.Len()), make([]int32, r.Ops.Len())
	for i, op := range r.Ops.All() {
		agent[i], key[i] = id(agentIDs, &agentNames, op.Agent), id(keyIDs, &keyNames, op.Key)
	}
	agentRank, keyRank := stringRanks(agentNames), stringRanks(keyNames)
	for i := range agent {
		agent[i], key[i] = agentRank[agent[i]], keyRank[key[i]]
	}
	agents = make([]string, len(agentNames))
	for i, name := range agentNames {
		agents[agentRank[i]] = name
	}
	return agent, key, agents, len(keyNames)
}

// stringRanks gives each of distinct names its place in string order.
func stringRanks(names []string) []int32 {
	order := make([]int32, len(names))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	rank := make([]int32, len(names))
	for r, i := range order {
		rank[i] = int32(r)
	}
	return rank
}

// sortByRank orders positions stably by rank[position], of n ranks.
func sortByRank(list, rank []int32, n int, scratch []int32) {
	count := make([]int32, n+1)
	for _, p := range list {
		count[rank[p]+1]++
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	out := scratch[:len(list)]
	for _, p := range list {
		out[count[rank[p]]] = p
		count[rank[p]]++
	}
	copy(list, out)
}

// stretch is the part of a list in order of agent (when byAgent), key and
// position that holds the agent's (when byAgent) ops of key.
func (r *StateRun) stretch(list []int32, byAgent bool, agent, key string) []int32 {
	at := func(i int) int { return keyOrder(r.Ops.At(int(list[i])), byAgent, agent, key) }
	lo := sort.Search(len(list), func(i int) bool { return at(i) >= 0 })
	hi := lo + sort.Search(len(list)-lo, func(i int) bool { return at(lo+i) > 0 })
	return list[lo:hi]
}

func NewStateIndex(r *StateRun) *stateIndex {
	ix := &stateIndex{agentOps: map[string][]int32{}, sharedWrites: map[string][]int32{}, peers: map[string][]string{},
		compactions: map[string][]int{}, messages: map[string][]int{}, tests: map[string][]int{}, work: map[string][]int{},
		shares: map[string]bool{}}
	agentRank, keyRank, agents, keys := r.opRanks()
	ix.keyRank, ix.keys = keyRank, keys
	// The lists by agent and those by key share nothing but the ranks, so
	// they are made on two goroutines: every run rule waits for the index,
	// and on one core its build was a tenth of a multi-agent run's time.
	var wg sync.WaitGroup
	wg.Go(func() { ix.listsByAgent(r, agentRank, keyRank, agents, keys) })
	ix.listsByKey(r, agentRank, keyRank, agents, keys)
	wg.Wait()
	return ix
}

// listsByAgent makes the index's lists of each agent's ops and writes,
// the ops with a value, the shared keys, and the positions of each
// Agent's compactions, messages, tests and work.
func (ix *stateIndex) listsByAgent(r *StateRun, agentRank, keyRank []int32, agents []string, keys int) {
	// by key and agent rank: a map by key or agent name was a lookup per op
	sharedKey := make([]bool, keys)
	agentOps, sharedWrites, shares := make([][]int32, len(agents)), make([][]int32, len(agents)), make([]bool, len(agents))
	// each list made at its size, or at most its agent's: grown by
	// appending, the lists of a long run were most of the garbage an
	// Index made (60 MB for 560,000 ops)
	perAgent := make([]int, len(agents))
	for _, a := range agentRank {
		perAgent[a]++
	}
	for a, n := range perAgent {
		agentOps[a] = make([]int32, 0, n)
	}
	ix.Valued = make([]int32, 0, r.Ops.Len())
	for i, op := range r.Ops.All() {
		p, a := int32(i), agentRank[i]
		agentOps[a] = append(agentOps[a], p)
		if op.Value != "" {
			ix.Valued = append(ix.Valued, p)
		}
		if op.Private {
			continue
		}
		shares[a] = true
		if op.Write {
			if sharedWrites[a] == nil {
				sharedWrites[a] = make([]int32, 0, perAgent[a])
			}
			sharedWrites[a] = append(sharedWrites[a], p)
		}
		if k := keyRank[i]; !sharedKey[k] {
			sharedKey[k] = true
			ix.sharedKeys = append(ix.sharedKeys, op.Key)
		}
	}
	for a, name := range agents {
		ix.agentOps[name] = agentOps[a]
		if shares[a] {
			ix.shares[name] = true
		}
		if len(sharedWrites[a]) > 0 {
			ix.sharedWrites[name] = sharedWrites[a]
		}
	}
	sortByRank(ix.Valued, keyRank, keys, make([]int32, len(ix.Valued)))
	for i, c := range r.Compactions {
		ix.compactions[c.Agent] = append(ix.compactions[c.Agent], i)
	}
	for i, m := range r.Messages {
		ix.messages[m.Agent] = append(ix.messages[m.Agent], i)
	}
	for i, t := range r.Tests {
		ix.tests[t.Agent] = append(ix.tests[t.Agent], i)
	}
	for i, w := range r.Work {
		ix.work[w.Agent] = append(ix.work[w.Agent], i)
	}
}

// listsByKey makes the index's lists of every op and of the reads by
// Agent, key and position, and the agents' peers.
func (ix *stateIndex) listsByKey(r *StateRun, agentRank, keyRank []int32, agents []string, keys int) {
	// by agent, key and position: the positions are in order, and each
	// counting pass keeps the order of the last
	ix.ByAgentKey = make([]int32, r.Ops.Len())
	for i := range ix.ByAgentKey {
		ix.ByAgentKey[i] = int32(i)
	}
	scratch := make([]int32, len(ix.ByAgentKey))
	sortByRank(ix.ByAgentKey, keyRank, keys, scratch)
	sortByRank(ix.ByAgentKey, agentRank, len(agents), scratch)
	ix.ReadsByKey = make([]int32, 0, len(ix.ByAgentKey))
	for _, p := range ix.ByAgentKey { // the reads are in the same order: no second sort
		if !r.Ops.At(int(p)).Write {
			ix.ReadsByKey = append(ix.ReadsByKey, p)
		}
	}
	ix.peers = peersOf(ix.ByAgentKey, agentRank, keyRank, agents, keys, func(p int32) bool { return r.Ops.At(int(p)).Private })
}

// peersOf finds each agent's peers (Peers) from the ops by agent and key:
// each stretch of one agent's ops of one key gives its first op of the
// Key, and whether it shares the key (a private op does not). Agents and
// Keys go by rank (opRanks), so nothing it sorts or looks up holds a
// string.
func peersOf(byAgentKey, agentRank, keyRank []int32, agents []string, keys int, private func(int32) bool) map[string][]string {
	type touch struct {
		agent, key int32 // ranks
		first      int32
		shared     bool
	}
	// One touch for each stretch of one agent's ops of one key, grouped by
	// Key as they are made: what follows takes each key's touches in any
	// Order (the least first op wins). Sorting them was a fifth of the
	// Index's time, and the list grown by appending most of what it made.
	starts := func(i int) bool {
		p := byAgentKey[i]
		return i == 0 || agentRank[p] != agentRank[byAgentKey[i-1]] || keyRank[p] != keyRank[byAgentKey[i-1]]
	}
	at := make([]int32, keys+1) // where each key's touches begin
	n := 0
	for i, p := range byAgentKey {
		if starts(i) {
			at[keyRank[p]+1]++
			n++
		}
	}
	for k := 1; k < len(at); k++ {
		at[k] += at[k-1]
	}
	touches := make([]touch, n)
	var t *touch
	for i, p := range byAgentKey {
		if starts(i) {
			k := keyRank[p]
			t = &touches[at[k]]
			at[k]++
			*t = touch{agent: agentRank[p], key: k, first: p}
		}
		t.shared = t.shared || !private(p)
	}
	first := map[[2]int32]int32{}  // agent and peer → the peer's first op on a key they share
	byAgent := map[int32][]int32{} // every agent that shares a key → its peers
	for i := 0; i < len(touches); {
		j := i
		for j < len(touches) && touches[j].key == touches[i].key {
			j++
		}
		for _, a := range touches[i:j] {
			if !a.shared {
				continue
			}
			if byAgent[a.agent] == nil {
				byAgent[a.agent] = []int32{}
			}
			for _, b := range touches[i:j] {
				pair := [2]int32{a.agent, b.agent}
				if p, ok := first[pair]; b.agent != a.agent && (!ok || b.first < p) {
					first[pair] = b.first
				}
			}
		}
		i = j
	}
	for pair := range first {
		byAgent[pair[0]] = append(byAgent[pair[0]], pair[1])
	}
	peers := map[string][]string{}
	for a, ps := range byAgent {
		slices.SortFunc(ps, func(x, y int32) int { return cmp.Compare(first[[2]int32{a, x}], first[[2]int32{a, y}]) })
		names := make([]string, len(ps))
		for i, p := range ps {
			names[i] = agents[p]
		}
		peers[agents[a]] = names
	}
	return peers
}

// countBefore is how many of positions, in Index order, have an Index
// below before.
func countBefore[P int | int32](positions []P, indexAt func(int) int, before int) int {
	return sort.Search(len(positions), func(i int) bool { return indexAt(int(positions[i])) >= before })
}

func (r *StateRun) opIndex(i int) int         { return r.Ops.At(i).Index }
func (r *StateRun) compactionIndex(i int) int { return r.Compactions[i].Index }

// LastCompaction is an agent's latest compaction before an event, or nil.
func (r *StateRun) LastCompaction(agent string, before int) *Compaction {
	cs := r.index().compactions[agent]
	n := countBefore(cs, r.compactionIndex, before)
	if n == 0 {
		return nil
	}
	return &r.Compactions[cs[n-1]]
}

// CompactionNumber is how many times an agent compacted before an event:
// the boundary a finding falls after.
func (r *StateRun) CompactionNumber(agent string, before int) int {
	return countBefore(r.index().compactions[agent], r.compactionIndex, before)
}

// EndOfRun is an Index past every event of a run: where a span that runs
// to the end stops. (1<<62, its value before, does not fit a 32-bit int.)
const EndOfRun = math.MaxInt

// NextCompaction is the Index of an agent's first compaction after an
// event, or EndOfRun when it never compacts again.
func (r *StateRun) NextCompaction(agent string, after int) int {
	cs := r.index().compactions[agent]
	if n := countBefore(cs, r.compactionIndex, after+1); n < len(cs) {
		return r.Compactions[cs[n]].Index
	}
	return EndOfRun
}

// AgentCompactions are an agent's compactions, in order.
func (r *StateRun) AgentCompactions(agent string) []Compaction {
	cs := r.index().compactions[agent]
	out := make([]Compaction, len(cs))
	for i, c := range cs {
		out[i] = r.Compactions[c]
	}
	return out
}

// MessagesBetween are an agent's messages after one event and before
// another, in order.
func (r *StateRun) MessagesBetween(agent string, from, to int) []Message {
	ms := r.index().messages[agent]
	at := func(i int) int { return r.Messages[i].Index }
	var out []Message
	for _, i := range ms[countBefore(ms, at, from+1):] {
		if r.Messages[i].Index >= to {
			break
		}
		out = append(out, r.Messages[i])
	}
	return out
}

// ReadBetween reports whether an agent read a key after one event and
// before another.
func (r *StateRun) ReadBetween(agent, key string, from, to int) bool {
	reads := r.stretch(r.index().ReadsByKey, true, agent, key)
	n := countBefore(reads, r.opIndex, from+1)
	return n < len(reads) && r.Ops.At(int(reads[n])).Index < to
}

// AgentKeyOps yields an agent's ops of one key after an event, in order,
// with their positions in Ops: the run's own, not copies.
func (r *StateRun) AgentKeyOps(agent, key string, after int) iter.Seq2[int, *StateOp] {
	ops := r.stretch(r.index().ByAgentKey, true, agent, key)
	return r.opsAt(ops[countBefore(ops, r.opIndex, after+1):])
}

// AgentOps yields an agent's ops, in order, with their positions in Ops:
// the run's own, not copies.
func (r *StateRun) AgentOps(agent string) iter.Seq2[int, *StateOp] {
	return r.opsAt(r.index().agentOps[agent])
}

// KeyNumber is a number for the key of the op at position i of Ops, from
// 0 up to Keys, the same for every op of one key: a rule that follows
// every key keeps what it knows in a list by number rather than a map by
// Key, whose hashing was most of such a rule's time on a run of as many
// Keys as tasks.
func (r *StateRun) KeyNumber(i int) int { return int(r.index().keyRank[i]) }

// Keys is how many keys the run's ops have between them.
func (r *StateRun) Keys() int { return r.index().keys }

// AgentMessages yields an agent's messages, in order, with their positions
// in Messages: the run's own, not copies.
func (r *StateRun) AgentMessages(agent string) iter.Seq2[int, *Message] {
	return func(yield func(int, *Message) bool) {
		for _, i := range r.index().messages[agent] {
			if !yield(i, &r.Messages[i]) {
				return
			}
		}
	}
}

// opsAt yields the ops at positions in Ops, with their positions.
func (r *StateRun) opsAt(positions []int32) iter.Seq2[int, *StateOp] {
	return func(yield func(int, *StateOp) bool) {
		for _, i := range positions {
			if !yield(int(i), r.Ops.At(int(i))) {
				return
			}
		}
	}
}

// NextWrite is an agent's first write of a shared key after an event, or
// nil.
func (r *StateRun) NextWrite(agent string, after int) *StateOp {
	ws := r.index().sharedWrites[agent]
	if n := countBefore(ws, r.opIndex, after+1); n < len(ws) {
		return r.Ops.At(int(ws[n]))
	}
	return nil
}

// SharedKeys are the keys of the run's shared ops, in order of their first
// Op.
func (r *StateRun) SharedKeys() []string { return r.index().sharedKeys }

// Shares reports whether an agent touches shared (not private) state.
func (r *StateRun) Shares(agent string) bool { return r.index().shares[agent] }

// Peers are the other agents that read or write a shared key the agent
// reads or writes, in order of their first op on such a key.
func (r *StateRun) Peers(agent string) []string { return r.index().peers[agent] }

// LastValue is the last value any agent read or wrote for a key before an
// event, with the op that carried it.
func (r *StateRun) LastValue(key string, before int) (StateOp, bool) {
	ops := r.stretch(r.index().Valued, false, "", key)
	n := countBefore(ops, r.opIndex, before)
	if n == 0 {
		return StateOp{}, false
	}
	return *r.Ops.At(int(ops[n-1])), true
}

// LastTest is an agent's latest test run up to and including an event, or
// nil.
func (r *StateRun) LastTest(agent string, through int) *RunOutcome {
	ts := r.index().tests[agent]
	n := countBefore(ts, func(i int) int { return r.Tests[i].Index }, through+1)
	if n == 0 {
		return nil
	}
	return &r.Tests[ts[n-1]]
}

// WorkedBetween reports whether an agent made a side-effecting call after
// one event and before another.
func (r *StateRun) WorkedBetween(agent string, from, to int) bool {
	ws := r.index().work[agent]
	n := countBefore(ws, func(i int) int { return r.Work[i].Index }, from+1)
	return n < len(ws) && r.Work[ws[n]].Index < to
}

// WriteBreadth lists an agent's writing turns with their distinct shared
// Keys, in order.
func WriteBreadth(r *StateRun, agent string) []TurnBreadth {
	writes := r.index().sharedWrites[agent]
	// At most a turn a write: grown by appending, a long run's list was
	// copied a dozen times over
	out := make([]TurnBreadth, 0, len(writes))
	// the current turn's keys: a turn writes a few, looked through; past
	// manyKeys they go in a map, which clearing for every turn cost more
	const manyKeys = 32
	var keys []string
	var many map[string]bool
	for _, i := range writes {
		op := r.Ops.At(int(i))
		if len(out) == 0 || out[len(out)-1].Turn != op.Turn {
			out = append(out, TurnBreadth{Turn: op.Turn, FirstIndex: op.Index, File: op.File, Line: op.Line, Offset: op.Offset})
			keys, many = keys[:0], nil
		}
		switch {
		case many != nil:
			if many[op.Key] {
				continue
			}
			many[op.Key] = true
		case slices.Contains(keys, op.Key):
			continue
		case len(keys) < manyKeys:
			keys = append(keys, op.Key)
		default:
			many = map[string]bool{op.Key: true}
			for _, k := range keys {
				many[k] = true
			}
		}
		out[len(out)-1].Keys++
	}
	return slices.Clip(out)
}

// TurnsFrom are the writing turns (from WriteBreadth) that begin at or
// after an event.
func TurnsFrom(turns []TurnBreadth, from int) []TurnBreadth {
	return turns[sort.Search(len(turns), func(i int) bool { return turns[i].FirstIndex >= from }):]
}

// Baseline is the mean breadth of the last n writing turns before an
// event, and how many turns it averaged.
func Baseline(turns []TurnBreadth, before, n int) (float64, int) {
	sel := turns[:len(turns)-len(TurnsFrom(turns, before))]
	if len(sel) > n {
		sel = sel[len(sel)-n:]
	}
	if len(sel) == 0 {
		return 0, 0
	}
	sum := 0
	for _, t := range sel {
		sum += t.Keys
	}
	return float64(sum) / float64(len(sel)), len(sel)
}
