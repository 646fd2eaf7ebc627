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
	var pairs []int32 // (group, sentence), in sentence order
	for i, ts := range terms {
		for _, t := range ts {
			g, ok := x.slot[t]
			if !ok {
				g = int32(len(x.slot))
				x.slot[t] = g
			}
			pairs = append(pairs, g, int32(i))
		}
	}
	// a counting sort by group keeps each group's sentences in order
	x.start = make([]int32, len(x.slot)+1)
	for k := 0; k < len(pairs); k += 2 {
		x.start[pairs[k]+1]++
	}
	for g := 1; g < len(x.start); g++ {
		x.start[g] += x.start[g-1]
	}
	next := make([]int32, len(x.slot))
	copy(next, x.start)
	x.at = make([]int32, len(pairs)/2)
	for k := 0; k < len(pairs); k += 2 {
		g := pairs[k]
		x.at[next[g]] = pairs[k+1]
		next[g]++
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
