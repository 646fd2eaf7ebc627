package parse

import "github.com/compaudit/compaudit/parse/linereader"

// ReadInSmallPieces makes every file read with two or more workers, in
// chunks of n bytes, with tool output of up to 1 KB in arena blocks of 2
// KB that a batch fills, and clears each chunk and each arena of tool
// output as it is released, until restore is called. It is for the tests
// of this package and of a consumer: a piece of a line, or of a tool's
// output handed out under TransientToolOutput, that the consumer keeps
// past its emit then reads as NULs instead of as another record's text.
// Not safe while a file is being read.
func ReadInSmallPieces(n int) (restore func()) {
	from, chunk, poison, block, large := parallelMin, linereader.ChunkBytes, linereader.PoisonReleased, arenaBlock, arenaLarge
	parallelMin, linereader.ChunkBytes, linereader.PoisonReleased, arenaBlock, arenaLarge = 0, n, true, 2<<10, 1<<10
	return func() {
		parallelMin, linereader.ChunkBytes, linereader.PoisonReleased, arenaBlock, arenaLarge = from, chunk, poison, block, large
	}
}
