// Package formats registers every transcript format compaudit reads, in
// the order `compaudit formats` lists them. A program that reads
// transcripts imports it for its effect; a new format is a package under
// parse/ and one entry here.
//
// It owns that list and nothing else: what a format is and how it is
// read are parse's and the format's own package's.
package formats

import (
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/canonical"
	"github.com/compaudit/compaudit/parse/claude"
	"github.com/compaudit/compaudit/parse/codex"
)

func init() {
	parse.Register(
		claude.Reader,
		codex.Reader,
		canonical.Reader,
		canonical.ChatReader,
	)
}
