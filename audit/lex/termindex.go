package lex

// TermIndex lists, for each term of a long text, the sentences holding
// it. A summary that restates 100,000 rules has as many distinct terms,
// most in one sentence: a map of growing slices spent a fifth of a
// boundary's memory on slice headers and spare room, where one array of
// sentence numbers, grouped by term, spends four bytes a sentence.
type TermIndex struct {
	slot  map[string]int32 // term → its group
	start []int32          // group g is at[start[g]:start[g+1]]
	at    []int32
}

// NewTermIndex indexes the term sets of a text's sentences.
func NewTermIndex(terms []TermSet) *TermIndex {
	x := &TermIndex{slot: map[string]int32{}}
	n := 0
	for _, ts := range terms {
		n += len(ts)
	}
	// each occurrence's group, in sentence order; a counting sort by group
	// then keeps each group's sentences in order
	groups := make([]int32, 0, n)
	for _, ts := range terms {
		for _, t := range ts {
			g, ok := x.slot[t]
			if !ok {
				g = int32(len(x.slot))
				x.slot[t] = g
			}
			groups = append(groups, g)
		}
	}
	x.start = make([]int32, len(x.slot)+1)
	for _, g := range groups {
		x.start[g+1]++
	}
	for g := 1; g < len(x.start); g++ {
		x.start[g] += x.start[g-1]
	}
	next := make([]int32, len(x.slot))
	copy(next, x.start)
	x.at = make([]int32, n)
	k := 0
	for i, ts := range terms {
		for range ts {
			g := groups[k]
			x.at[next[g]] = int32(i)
			next[g]++
			k++
		}
	}
	return x
}

// Holding are, in order, the sentences whose terms hold term.
func (x *TermIndex) Holding(term string) []int32 {
	g, ok := x.slot[term]
	if !ok {
		return nil
	}
	return x.at[x.start[g]:x.start[g+1]]
}

// AppendHolding appends to to the sentences Holding term.
func (x *TermIndex) AppendHolding(to []int, term string) []int {
	for _, i := range x.Holding(term) {
		to = append(to, int(i))
	}
	return to
}
