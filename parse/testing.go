package parse

import "github.com/compaudit/compaudit/parse/linereader"

// ReadInSmallPieces makes every file read with two or more workers, in
// chunks of n bytes, until restore is called. It is for the tests of this
// package and of a consumer: records cut by chunk ends, carried into the
// next chunk, and batches out of order among the workers. Not safe while a
// file is being read.
func ReadInSmallPieces(n int) (restore func()) {
	from, chunk := parallelMin, linereader.ChunkBytes
	parallelMin, linereader.ChunkBytes = 0, n
	return func() { parallelMin, linereader.ChunkBytes = from, chunk }
}
