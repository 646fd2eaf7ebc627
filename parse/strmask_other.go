//go:build !amd64

package parse

import "unsafe"

// blockStrings is false where stringMasks has no vector code: the
// validator's word loop is faster than masks built a word at a time.
var blockStrings = false

func stringMasks(p *byte) (backslash, quote, control, high, plain uint64) {
	return stringMasksOf(unsafe.String(p, 64))
}
