package replay

// appendInts appends sentence numbers from a lex.TermIndex.
func appendInts(to []int, from []int32) []int {
	for _, i := range from {
		to = append(to, int(i))
	}
	return to
}
