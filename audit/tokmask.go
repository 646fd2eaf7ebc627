package audit

// tokenMasksOf is tokenMasks byte by byte, for any b of 66 bytes or more:
// the reference the vector code is tested against, and the code where
// there is none.
func tokenMasksOf(b string) (sep, mark, arrowAt, e2, colon, at, slash uint64) {
	for k := range 64 {
		bit := uint64(1) << k
		c := byteClass[b[k]]
		if c&classSep != 0 {
			sep |= bit
		}
		if c&classMark != 0 {
			mark |= bit
		}
		if b[k:k+len(arrow)] == arrow {
			arrowAt |= bit
		}
		if c&classArrow != 0 {
			e2 |= bit
		}
		if c&classColon != 0 {
			colon |= bit
		}
		if c&classAt != 0 {
			at |= bit
		}
		if c&classSlash != 0 {
			slash |= bit
		}
	}
	return
}
