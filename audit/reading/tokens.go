package reading

// TokenIndex remembers every identifier-shaped token an agent's events
// held: the epoch (how many compactions had happened) when it was first
// seen, and the latest window it stood in. A long session holds millions of
// such tokens (hashes, ids, paths in tool output), so each costs 8 bytes in
// an open-addressing table rather than a map entry: a 32-bit fingerprint
// and two 16-bit epochs. A fingerprint collision can only make a token look
// seen when it was not — a missed finding, never a false one.
type TokenIndex struct {
	slots []uint64 // fingerprint<<32 | first<<16 | window; 0 is empty
	n     int
}

// tokenSight is what the index knows of a token.
type tokenSight struct {
	First  uint16 // epoch of first sight
	Window uint16 // latest window it stood in; 0 before the first boundary
}

// Fingerprint is what the index keeps of a token's hash: its high half,
// never 0, which marks an empty slot. The reading workers hand the index
// fingerprints, half the size of the hashes they come from.
func Fingerprint(h uint64) uint32 {
	return max(uint32(h>>32), 1)
}

func (t *TokenIndex) find(fp uint32) int {
	mask := len(t.slots) - 1
	for i := int(mix(uint64(fp))) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 || uint32(s>>32) == fp {
			return i
		}
	}
}

// Get returns what is known of a token hash.
func (t *TokenIndex) Get(h uint64) (tokenSight, bool) {
	if t.n == 0 {
		return tokenSight{}, false
	}
	s := t.slots[t.find(Fingerprint(h))]
	if s == 0 {
		return tokenSight{}, false
	}
	return tokenSight{First: uint16(s >> 16), Window: uint16(s)}, true
}

// See notes a token, by its fingerprint, in an event of epoch first, inside
// Window (0 outside any window).
func (t *TokenIndex) See(fp uint32, epoch, window int) {
	if t.n+1 > len(t.slots)*3/4 {
		t.grow()
	}
	i := t.find(fp)
	s := t.slots[i]
	if s == 0 {
		t.slots[i] = uint64(fp)<<32 | uint64(clampEpoch(epoch))<<16 | uint64(clampEpoch(window))
		t.n++
		return
	}
	if window != 0 {
		t.slots[i] = s&^0xffff | uint64(clampEpoch(window))
	}
}

func clampEpoch(n int) uint16 { return uint16(min(n, 0xffff)) }

func (t *TokenIndex) grow() {
	old := t.slots
	t.slots = make([]uint64, max(1<<12, 2*len(old)))
	// A large table comes from pages the kernel has not backed yet, and
	// the rehash below reads a slot before it writes one: each page was
	// First mapped to the shared zero page, then copied on the write, and
	// the copy flushed the other threads' TLBs (an IPI per page; 2.5% of
	// an audit's cycles). Written first, each page is backed once.
	clear(t.slots)
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		// a slot is placed by its fingerprint alone, so it can move
		for i := int(mix(s>>32)) & mask; ; i = (i + 1) & mask {
			if t.slots[i] == 0 {
				t.slots[i] = s
				break
			}
		}
	}
}

func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}
