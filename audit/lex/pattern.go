package lex

import (
	"regexp"
	"sync"
)

// LazyPattern is a regular expression compiled once, when first asked
// for, so that a command that audits nothing (rules, version) does not
// compile them; expr builds its source, which may be another pattern's.
func LazyPattern(expr func() string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr()) })
}

// LiteralPattern is lazyPattern of a fixed source.
func LiteralPattern(expr string) func() *regexp.Regexp {
	return LazyPattern(func() string { return expr })
}
