package main

import "testing"

// TestMemoryLimit: the default soft limit applies only where the user set
// no GOMEMLIMIT; any value of theirs, "off" or empty included, is theirs.
func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		env   map[string]string
		limit int64
		set   bool
	}{
		{env: map[string]string{}, limit: defaultMemoryLimit, set: true},
		{env: map[string]string{"GOGC": "50"}, limit: defaultMemoryLimit, set: true},
		{env: map[string]string{"GOMEMLIMIT": "1GiB"}},
		{env: map[string]string{"GOMEMLIMIT": "off"}},
		{env: map[string]string{"GOMEMLIMIT": ""}},
	} {
		limit, set := memoryLimit(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok })
		if limit != c.limit || set != c.set {
			t.Errorf("%v: limit %d, set %v; want %d, %v", c.env, limit, set, c.limit, c.set)
		}
	}
}
