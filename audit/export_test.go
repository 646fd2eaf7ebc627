package audit

import "github.com/compaudit/compaudit/parse"

// Stream and ReadBack are Audit's two halves, for tests to look between.
func Stream(t parse.Transcript, popts parse.Options, opts Options) (*Result, error) {
	return stream(t, popts, opts)
}

func (res *Result) ReadBack() { res.readBack() }

// Quotes counts the texts a finding let go and has yet to read back.
func (f *Finding) Quotes() int { return len(f.quotes) }
