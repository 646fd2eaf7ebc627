package audit

import (
	"fmt"
	"hash/maphash"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/parse"
)

// eventSpot is where an event a finding quotes was read from.
type eventSpot struct {
	file string
	at   parse.Spot
}

func spotOf(ev *replay.WindowEvent) eventSpot {
	return eventSpot{file: ev.File, at: parse.Spot{Offset: ev.Offset, Part: ev.Part}}
}

// rereadableFiles are the files of t that can be read a second time:
// regular files, gzipped or not. Standard input, and a pipe given by path
// (compaudit audit <(zcat s.jsonl.gz)), are gone once read.
func rereadableFiles(t parse.Transcript) map[string]bool {
	out := map[string]bool{}
	for _, f := range t.Files {
		if f.Path == "-" {
			continue
		}
		if st, err := os.Stat(f.Path); err == nil && st.Mode().IsRegular() {
			out[f.Path] = true
		}
	}
	return out
}

// quote is a text a finding let go: which text, where to read it back
// from, and a hash to know it by.
type quote struct {
	step int // its index in Evidence.Chain, or argumentsQuote
	spot eventSpot
	line int // for the warning when it cannot be read back
	sum  uint64
}

const argumentsQuote = -1

// quoteSeed keys the hashes quotes are checked by; they never leave the
// process.
var quoteSeed = maphash.MakeSeed()

// letGo returns the text a finding keeps in place of text quoted from the
// event at spot: text itself, copied, when the file cannot be read again;
// otherwise nothing, and the finding notes where to read it back.
func (f *Finding) letGo(step int, spot eventSpot, line int, text string, rereadable map[string]bool) string {
	if text == "" || !rereadable[spot.file] {
		return strings.Clone(text)
	}
	f.quotes = append(f.quotes, quote{step: step, spot: spot, line: line, sum: maphash.String(quoteSeed, text)})
	return ""
}

// QuoteCall puts a later call in the evidence: its tool and arguments.
func (f *Finding) QuoteCall(ev *replay.WindowEvent) {
	f.Evidence.Tool, f.Evidence.Arguments, f.Evidence.call = ev.ToolName, string(ev.Args), spotOf(ev)
}

// quoteText is the text a quote of ev holds: what AtEvent and QuoteCall
// took from it.
func quoteText(ev *parse.Event, step int) string {
	if step == argumentsQuote {
		return string(ev.Args)
	}
	return eventExcerpt(replay.WindowEventOf(ev))
}

// readBack reads the texts the findings let go back from their files, each
// file once, in offset order. A text that no longer reads back as it was —
// the file was rewritten while it was audited — is left out with a warning
// on its line, never replaced by what the file holds now.
func (res *Result) readBack() {
	type want struct {
		f *Finding
		q quote
	}
	byFile := map[string][]want{}
	for i := range res.Findings {
		f := &res.Findings[i]
		for _, q := range f.quotes {
			byFile[q.spot.file] = append(byFile[q.spot.file], want{f, q})
		}
		f.quotes = nil
	}
	for _, file := range slices.Sorted(maps.Keys(byFile)) {
		wants := byFile[file]
		fr := res.fileResult(file)
		spots := make([]parse.Spot, len(wants))
		for i, w := range wants {
			spots[i] = w.q.spot.at
		}
		var lost []int
		// findings that quote one event share one copy of its text; the
		// events come in offset order, so one event's quotes come together
		var last *parse.Event
		var texts [2]string // the step text and the arguments of last
		var read [2]bool
		err := parse.Reread(file, fr.Format, spots, func(i int, ev *parse.Event) {
			w := wants[i]
			if ev == nil {
				lost = append(lost, w.q.line)
				return
			}
			if ev != last {
				last, read = ev, [2]bool{}
			}
			k := 0
			if w.q.step == argumentsQuote {
				k = 1
			}
			if !read[k] {
				texts[k], read[k] = quoteText(ev, w.q.step), true
			}
			if maphash.String(quoteSeed, texts[k]) != w.q.sum {
				lost = append(lost, w.q.line)
				return
			}
			if k == 1 {
				w.f.Evidence.Arguments = texts[k]
			} else {
				w.f.Evidence.Chain[w.q.step].Text = texts[k]
			}
		})
		if err != nil {
			fr.Diagnostics = append(fr.Diagnostics, parse.Diagnostic{Severity: parse.Warning, File: file,
				Message: fmt.Sprintf("cannot read the file again for the excerpts findings quote (%v): they are left out", err)})
			continue
		}
		slices.Sort(lost)
		for _, line := range slices.Compact(lost) {
			fr.Diagnostics = append(fr.Diagnostics, parse.Diagnostic{Severity: parse.Warning, File: file, Line: line,
				Message: "the record changed after it was audited: the excerpt a finding quotes from it is left out"})
		}
	}
}

// fileResult is the result of reading file, added if the transcript's
// reading did not name it.
func (res *Result) fileResult(file string) *parse.FileResult {
	for i := range res.Files {
		if res.Files[i].Path == file {
			return &res.Files[i]
		}
	}
	res.Files = append(res.Files, parse.FileResult{Path: file, Format: res.Format})
	return &res.Files[len(res.Files)-1]
}
