package claude

// ring remembers the turns of the last ringSize record ids. It grows to
// its size as records come, so a short session does not pay for a long one.
type ring struct {
	ids   []string
	turns []int
	n     int
}

const ringSize = 4096

func (r *ring) add(id string, turn int) {
	if r.n > 0 && r.ids[(r.n-1)%ringSize] == id {
		return // several events of one record
	}
	if len(r.ids) < ringSize {
		r.ids, r.turns = append(r.ids, id), append(r.turns, turn)
	} else {
		r.ids[r.n%ringSize], r.turns[r.n%ringSize] = id, turn
	}
	r.n++
}

func (r *ring) index(id string) int {
	if id == "" {
		return -1
	}
	for i := r.n - 1; i >= 0 && i >= r.n-ringSize; i-- {
		if r.ids[i%ringSize] == id {
			return i
		}
	}
	return -1
}

func (r *ring) turnOf(id string) (int, bool) {
	i := r.index(id)
	if i < 0 {
		return 0, false
	}
	return r.turns[i%ringSize], true
}

// turnsBetween lists the distinct turns of the records from head to tail.
func (r *ring) turnsBetween(head, tail string) ([]int, bool) {
	h, t := r.index(head), r.index(tail)
	if h < 0 || t < 0 || t < h {
		return nil, false
	}
	var out []int
	for i := h; i <= t; i++ {
		turn := r.turns[i%ringSize]
		if len(out) == 0 || out[len(out)-1] != turn {
			out = append(out, turn)
		}
	}
	return out, true
}
