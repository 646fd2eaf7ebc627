package parse

// Tuning the external tests set, to read small files as large ones are.
var (
	ParallelMin = &parallelMin
	BatchLines  = &batchLines
)
