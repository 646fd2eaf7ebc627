package replay

import (
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
)

// observedValue is a number a call sets.
type observedValue struct {
	value float64
	unit  string
	text  string
}

// valuesFor finds the numbers a call sets for a threshold's subject:
// --retries 8, max_workers=8, "timeout": 120.
func valuesFor(ev *WindowEvent, t *tag.Threshold) []observedValue {
	if t.Subject == "" || tag.IsGenericSubject(t.Subject) {
		return nil
	}
	var out []observedValue
	for _, kv := range KeyValuesOf(ev) {
		hit := false
		for _, p := range kv.Parts {
			if p == t.Subject {
				hit = true
			}
		}
		if hit {
			out = append(out, observedValue{value: kv.Value, unit: unitFromKey(kv.Key, kv.unit), text: kv.text})
		}
	}
	return out
}

// keyValue is a number a call's arguments give under a name:
// --retries=8, {"timeout_ms": 900}.
type keyValue struct {
	Key, unit, text string
	Parts           []string // the key's stemmed parts
	Value           float64
}

// KeyValuesOf reads a call's named numbers once per event.
func KeyValuesOf(ev *WindowEvent) []keyValue {
	if ev.kvRead {
		return ev.kvs
	}
	ev.kvRead = true
	add := func(key, num, unit, text string) {
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return
		}
		kv := keyValue{Key: key, unit: unit, text: strings.TrimSpace(text), Value: v}
		for _, p := range lex.SplitIdent(lex.FoldLower(key)) {
			kv.Parts = append(kv.Parts, lex.Stem(p))
		}
		ev.kvs = append(ev.kvs, kv)
	}
	for _, s := range CallTexts(ev) {
		for _, m := range tag.KeyValueMatches(s) {
			add(m[1], m[2], m[3], m[0])
		}
	}
	if !strings.EqualFold(ev.ToolName, "Bash") {
		// structured arguments, read with the call's strings: {"retries": 8}
		for _, n := range callOf(ev).Numbers {
			add(n.Key, n.Text, "", n.Key+"="+n.Text)
		}
	}
	return ev.kvs
}

// unitFromKey reads a unit from a suffix or from the key's name
// (timeout_ms, timeout_seconds).
func unitFromKey(key, suffix string) string {
	switch lex.FoldLower(suffix) {
	case "ms":
		return "ms"
	case "s", "sec", "secs", "seconds":
		return "s"
	case "m", "min", "minutes":
		return "min"
	case "h":
		return "h"
	case "%":
		return "%"
	}
	k := lex.FoldLower(key)
	switch {
	case strings.HasSuffix(k, "_ms") || strings.HasSuffix(k, "-ms") || strings.HasSuffix(k, "millis"):
		return "ms"
	case strings.HasSuffix(k, "_seconds") || strings.HasSuffix(k, "_secs") || strings.HasSuffix(k, "_s") || strings.HasSuffix(k, "-seconds"):
		return "s"
	case strings.HasSuffix(k, "_minutes") || strings.HasSuffix(k, "_mins"):
		return "min"
	}
	return ""
}

func isDurationOrSize(t *tag.Threshold) bool {
	b := baseOf(t.Unit)
	return b == "s" || b == "bytes"
}

// breaches reports a value past a limit. A value with no unit is read in
// the limit's own unit.
func breaches(v observedValue, t *tag.Threshold) bool {
	base := v.value
	if v.unit != "" {
		for _, u := range tag.UnitScale {
			if u.Unit == v.unit {
				if u.Base != baseOf(t.Unit) && baseOf(t.Unit) != "" {
					return false
				}
				base = v.value * u.Scale
				break
			}
		}
	} else if t.Unit != "" {
		for _, u := range tag.UnitScale {
			if u.Unit == t.Unit {
				base = v.value * u.Scale
				break
			}
		}
	}
	switch t.Comparator {
	case tag.CmpLE:
		return base > t.Base
	case tag.CmpLT:
		return base >= t.Base
	case tag.CmpGE:
		return base < t.Base
	case tag.CmpGT:
		return base <= t.Base
	case tag.CmpEQ:
		return base != t.Base
	}
	return false
}

// retryCounter counts repeats of the same call after it failed: the
// behaviour "retry ≤ 3" limits, whatever flags the call carries.
type retryCounter struct {
	last      uint64 // the last call's signature
	failures  int
	repeats   int
	reportedT map[retryReport]bool
}

type retryReport struct {
	obligation string
	call       uint64
}

func newRetryCounter() *retryCounter { return &retryCounter{reportedT: map[retryReport]bool{}} }

// callSeed keys call signatures, which never leave the process.
var callSeed = maphash.MakeSeed()

// CallSignature tells calls apart by tool and by the words of their
// strings, spacing aside. It is a hash of the tool, a NUL and the fields
// joined by single spaces, fed field by field: a call can carry a
// megabyte, and two different calls share a signature once in 2^64.
func CallSignature(ev *WindowEvent) uint64 {
	var h maphash.Hash
	h.SetSeed(callSeed)
	h.WriteString(ev.ToolName)
	h.WriteByte(0)
	first := true
	for _, t := range CallTexts(ev) {
		for f := range strings.FieldsSeq(t) {
			if !first {
				h.WriteByte(' ')
			}
			h.WriteString(f)
			first = false
		}
	}
	return h.Sum64()
}

// Observe returns the number of retries so far when this call repeats a
// Call that failed.
func (c *retryCounter) observe(ev *WindowEvent) (int, bool) {
	sig := CallSignature(ev)
	if sig == c.last && c.failures > 0 {
		c.repeats++
	} else {
		c.last, c.repeats, c.failures = sig, 0, 0
	}
	if ev.Result != nil && ev.Result.IsError {
		c.failures++
	} else {
		c.failures = 0
	}
	return c.repeats, c.repeats > 0
}

func (c *retryCounter) reported(id string) bool {
	k := retryReport{id, c.last}
	if c.reportedT[k] {
		return true
	}
	c.reportedT[k] = true
	return false
}
