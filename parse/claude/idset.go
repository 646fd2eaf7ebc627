package claude

// idSet holds 64-bit hashes of record ids in an open-addressing table: 8
// bytes a slot, at most three quarters full. It keeps the ids that have
// left the decoder's window of recent records, so a duplicate is found
// however far back its first copy lies, at a cost of 11 to 21 bytes per
// record past the window (the 1 GB bench session: 2 MB) and none for a
// session that fits in the window.
type idSet struct {
	slots []uint64 // 0 is empty
	n     int
}

// key keeps 0 free to mark an empty slot.
func (s *idSet) key(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

// slot returns where h is, or the empty slot where it would go.
func (s *idSet) slot(h uint64) int {
	mask := len(s.slots) - 1
	// maphash output is uniform already; the high bits pick the slot so
	// a table that doubles keeps spreading them
	for i := int(h>>32^h) & mask; ; i = (i + 1) & mask {
		if v := s.slots[i]; v == 0 || v == h {
			return i
		}
	}
}

// has reports whether h was added.
func (s *idSet) has(h uint64) bool {
	if s.n == 0 {
		return false
	}
	h = s.key(h)
	return s.slots[s.slot(h)] == h
}

// add puts h in the set.
func (s *idSet) add(h uint64) {
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	h = s.key(h)
	if i := s.slot(h); s.slots[i] == 0 {
		s.slots[i] = h
		s.n++
	}
}

func (s *idSet) grow() {
	old := s.slots
	s.slots = make([]uint64, max(1024, 2*len(old)))
	clear(s.slots) // written first, each page is backed once (see audit's tokenIndex.grow)
	for _, h := range old {
		if h != 0 {
			s.slots[s.slot(h)] = h
		}
	}
}
