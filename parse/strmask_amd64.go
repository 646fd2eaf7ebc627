package parse

import "golang.org/x/sys/cpu"

// blockStrings says whether stringMasks can run here.
var blockStrings = cpu.X86.HasAVX2

// stringMasks marks, one bit per byte, which of the 64 bytes at p are
// backslashes, quotes, control bytes, bytes with the high bit set, and
// bytes that no backslash may escape but as the u of a \u escape
// (strmask_amd64.s). The 64 bytes must be readable.
//
//go:noescape
func stringMasks(p *byte) (backslash, quote, control, high, plain uint64)
