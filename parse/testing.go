package parse

import "github.com/compaudit/compaudit/parse/linereader"

// ReadInSmallPieces makes every file read with two or more workers, in
// chunks of n bytes, and clears each chunk as it is released, until
// restore is called. It is for the tests of this package and of a
// consumer: a piece of a line that an event keeps past its emit then reads
// as NULs instead of as another record's text. Not safe while a file is
// being read.
func ReadInSmallPieces(n int) (restore func()) {
	from, chunk, poison := parallelMin, linereader.ChunkBytes, linereader.PoisonReleased
	parallelMin, linereader.ChunkBytes, linereader.PoisonReleased = 0, n, true
	return func() {
		parallelMin, linereader.ChunkBytes, linereader.PoisonReleased = from, chunk, poison
	}
}
