package rules

// the tests read transcripts of every format
import _ "github.com/compaudit/compaudit/parse/formats"
