//go:build !amd64

package audit

import "unsafe"

// blockTokens is false where tokenMasks has no vector code: the scan's
// word loop is faster than masks built a byte at a time.
var blockTokens = false

func tokenMasks(p *byte) (sep, mark, arrowAt, e2, colon, at, slash uint64) {
	return tokenMasksOf(unsafe.String(p, 66))
}
