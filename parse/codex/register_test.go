package codex

import "github.com/compaudit/compaudit/parse"

// the package's tests read through parse, which knows no format it is not
// given
func init() { parse.Register(Reader) }
