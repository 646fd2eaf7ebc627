package audit

import (
	"regexp"
	"sync"
)

// lazyPattern is a regular expression compiled once, when first asked
// for, so that a command that audits nothing (rules, version) does not
// compile them; expr builds its source, which may be another pattern's.
func lazyPattern(expr func() string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr()) })
}

// literalPattern is lazyPattern of a fixed source.
func literalPattern(expr string) func() *regexp.Regexp {
	return lazyPattern(func() string { return expr })
}
