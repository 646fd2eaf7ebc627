package ledger

import "strings"

// copier copies strings out of event text for the ledger, sharing one copy
// of a string it copied a moment ago. The obligations of one message repeat
// its origin, those of one sentence the sentence, and a literal's text is
// its value: at 100,000 obligations the separate copies were a fifth of the
// heap. It compares with its copies, not with what they were copied from,
// so it pins no event's text: a run of many agents has a copier each.
type copier struct {
	recent [8]string
	next   int
	last   *Origin // the origin last copied
}

func (c *copier) own(s string) string {
	if s == "" {
		return ""
	}
	for _, r := range c.recent {
		if r == s {
			return r
		}
	}
	cp := strings.Clone(s)
	c.recent[c.next] = cp
	c.next = (c.next + 1) % len(c.recent)
	return cp
}

func (c *copier) ownAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = c.own(s)
	}
	return out
}

// origin is an Origin equal to o whose strings are the copier's: the
// obligations of one message share it.
func (c *copier) origin(o *Origin) *Origin {
	if o == nil || o == c.last {
		return o
	}
	if c.last != nil && *o == *c.last {
		return c.last
	}
	cp := *o
	cp.File, cp.Agent, cp.UUID, cp.ToolID = c.own(o.File), c.own(o.Agent), c.own(o.UUID), c.own(o.ToolID)
	c.last = &cp
	return &cp
}
