//go:build !linux

package cmd

// prefaultHeap does nothing here: the faults it saves on Linux are cheap
// or taken differently elsewhere.
func prefaultHeap(int64) {}
