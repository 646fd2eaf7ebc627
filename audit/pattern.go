package audit

import (
	"regexp"
	"sync"
)

// patterns are the audit's regular expressions, each compiled when first
// used. Compiled as the package was initialized they took 2.4-2.6 ms of
// the 17-23 ms a run spent before main, while its other core idled;
// CompilePatterns compiles them on that core instead.
var patterns []func() *regexp.Regexp

// lazyPattern is a regular expression compiled once, when first asked
// for; expr builds its source, which may be another pattern's.
func lazyPattern(expr func() string) func() *regexp.Regexp {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr()) })
	patterns = append(patterns, re)
	return re
}

// literalPattern is lazyPattern of a fixed source.
func literalPattern(expr string) func() *regexp.Regexp {
	return lazyPattern(func() string { return expr })
}

// CompilePatterns compiles every pattern the audit uses. A command calls
// it on a goroutine of its own as it starts, so that the audit finds them
// ready; one the audit needs first waits for its compiling, never twice.
func CompilePatterns() {
	for _, re := range patterns {
		re()
	}
}
