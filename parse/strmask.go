package parse

// stringMasksOf is stringMasks byte by byte, for any 64-byte b: the
// reference the vector code is tested against, and the code where there
// is none.
func stringMasksOf(b string) (backslash, quote, control, high, plain uint64) {
	for k := range 64 {
		bit := uint64(1) << k
		if !simpleEscape[b[k]] {
			plain |= bit
		}
		switch c := b[k]; {
		case c == '\\':
			backslash |= bit
		case c == '"':
			quote |= bit
		case c < 0x20:
			control |= bit
		case c >= 0x80:
			high |= bit
		}
	}
	return
}

// escapes follows backslashes from one 64-byte block to the next.
type escapes struct {
	carry uint64 // 1 when the next block's first byte is escaped
}

// oddBits marks the odd bytes of a block.
const oddBits = 0xAAAAAAAAAAAAAAAA

// next returns the bytes of the block that a backslash escapes: those
// after a run of backslashes whose length is odd, counting from where the
// run starts (a backslash that is itself escaped starts nothing). It
// works on all runs at once: subtracting the runs' starts from the odd
// bits carries through each run, which flips whether its end is odd.
// The method is simdjson's (Langdale and Lemire, "Parsing Gigabytes of
// JSON per Second", 2019), written again here.
func (e *escapes) next(backslash uint64) uint64 {
	potential := backslash &^ e.carry
	maybe := potential<<1 | oddBits
	codes := (maybe - potential) ^ oddBits // escaped bytes, and the escaping backslashes
	escaped := codes ^ (backslash | e.carry)
	e.carry = (codes & backslash) >> 63
	return escaped
}
