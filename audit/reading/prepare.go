// Package reading owns what one event says when read on its own: the
// fingerprints of its tokens, its literals, a call's command and
// arguments, a message's citations and claims, and who spoke (Source).
// Each is a pure function of the event, so the reader computes it on
// its workers (parse.Options.Prepare) before the ledger, the replay and
// the shared-state collector take the events one by one. It knows
// nothing of those: it imports parse, lex and tag only.
package reading

import (
	"encoding/json"
	"hash/maphash"
	"math/bits"
	"slices"
	"sync"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/runstate"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// Prepared is the part of an event's audit that needs nothing but the event:
// finding its tokens and literals. The reader computes it on several events
// at once (parse.Options.Prepare); the ledger and the replay, which keep
// state, then take the events one by one.
type Prepared struct {
	Prints   []uint32         // fingerprints of the distinct tokens of the text or arguments, for the index
	Literals []tag.LiteralHit // literals of a call's strings or an assistant message
	ToolHits []tag.LiteralHit // literals worth holding a later turn to in tool output
	Call     *CallReading     // a call's: what its arguments say
	Message  *MessageContent  // what an outbound message cites and claims
	// the commitments and status claims of the agent's words
	Claims     []SentenceClaims
	ClaimsRead bool
	// a tool result's run outcome, read once when a rule first asks: a
	// fifth of the results are a run's, so the others do not carry room
	// for it
	outcome *runResult
}

// runResult is a tool result read as the outcome of a run (runOutcome).
type runResult struct{ value, detail string }

// OutcomeOf reads a tool result as the outcome of a run, once per event.
func OutcomeOf(ev *parse.Event) (string, string) {
	p, ok := ev.Prepared.(*Prepared)
	if !ok {
		return runstate.RunOutcome(ev.Text, ev.IsError)
	}
	if p.outcome == nil {
		value, detail := runstate.RunOutcome(ev.Text, ev.IsError)
		p.outcome = &runResult{value, detail}
	}
	return p.outcome.value, p.outcome.detail
}

// RunOf is a call's command line and what it runs, as the reader
// Prepared them or worked out now.
func RunOf(ev *parse.Event) (command string, runs runstate.RunSet) {
	if p, ok := ev.Prepared.(*Prepared); ok {
		if p.Call == nil {
			return "", runstate.RunSet{}
		}
		return p.Call.Command, p.Call.runs
	}
	command = runstate.CommandOf(ev.Args)
	return command, runstate.RunsOf(command)
}

// CallReading is what a call's arguments say, read once: on the reading
// workers for the ledger, and kept by the window's event for its rules.
// Only a call has one, so the other events' prepared records and window
// events do not carry its fields (they were a third of each).
type CallReading struct {
	Command  string             // the shell command, or ""
	runs     runstate.RunSet    // what the command runs (runsOf)
	ReadOnly bool               // every command it chains only reads
	Texts    []string           // the strings that say what it does (readCall)
	Lits     [][]tag.LiteralHit // the literals of each of texts
	Numbers  []tag.ArgNumber    // the numbers its arguments give by name
}

// noCall is the reading of an event with no arguments: one value, never
// written.
var noCall = &CallReading{}

// ReadCallArgs reads a call's arguments.
func ReadCallArgs(args json.RawMessage) *CallReading {
	if len(args) == 0 {
		return noCall
	}
	c := &CallReading{}
	c.Command, c.Texts, c.Numbers = tag.ReadCall(args)
	c.ReadOnly, c.runs = runstate.ReadOnlyCommand(c.Command), runstate.RunsOf(c.Command)
	for _, s := range c.Texts {
		c.Lits = append(c.Lits, tag.FindLiterals(s))
	}
	return c
}

// TokenHasher identifies tokens the way normLiteral compares them: quotes
// and a trailing slash trimmed, letters folded to lower case. One seed
// serves the whole audit, so hashes computed on any goroutine agree.
type TokenHasher struct{ seed uint64 }

func NewTokenHasher() TokenHasher {
	return TokenHasher{maphash.String(maphash.MakeSeed(), "compaudit")}
}

// TrimToken drops the quotes around a token and a trailing slash.
func TrimToken(tok string) string {
	for len(tok) > 0 && isQuote(tok[0]) {
		tok = tok[1:]
	}
	for len(tok) > 0 && isQuote(tok[len(tok)-1]) {
		tok = tok[:len(tok)-1]
	}
	if len(tok) > 1 && tok[len(tok)-1] == '/' {
		tok = tok[:len(tok)-1]
	}
	return tok
}

// Hash is called for every identifier-shaped token of every tool output,
// millions per session, so it reads eight bytes at a time and lowers ASCII
// letters within the word; only a token with a non-ASCII byte is folded
// First, through foldLower.
func (h TokenHasher) Hash(tok string) uint64 {
	tok = TrimToken(tok)
	sum, ascii := h.sum(tok)
	if !ascii {
		sum, _ = h.sum(lex.FoldLower(tok))
	}
	return sum
}

// The multipliers of wyhash, whose mixing step sum uses.
const (
	wyp0 = 0xa0761d6478bd642f
	wyp1 = 0xe7037ed1a0b428db
)

func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// sum hashes s with its ASCII letters lowered, and says whether s was all
// ASCII.
func (h TokenHasher) sum(s string) (uint64, bool) {
	acc := h.seed ^ uint64(len(s))*wyp0
	var high uint64
	for len(s) >= 8 {
		w := lex.Le64(s)
		high |= w
		acc = mum(acc^lex.LowerWord(w), wyp1)
		s = s[8:]
	}
	if len(s) > 0 {
		var w uint64
		for i := len(s) - 1; i >= 0; i-- {
			w = w<<8 | uint64(s[i])
		}
		high |= w
		acc = mum(acc^lex.LowerWord(w), wyp1)
	}
	return mum(acc, wyp0), high&lex.LaneHigh == 0
}

func isQuote(c byte) bool { return c == '`' || c == '\'' || c == '"' }

// maxIndexedText bounds the text of one event searched for tokens.
const maxIndexedText = 256 << 10

// Prepare does an event's stateless work. It is safe to call on several
// events at once.
func (h TokenHasher) Prepare(ev *parse.Event) *Prepared {
	switch ev.Kind {
	case parse.KindToolCall, parse.KindMessage, parse.KindToolResult:
	default:
		return preparedNothing
	}
	p := &Prepared{}
	// fingerprints gather in a pooled buffer; the event keeps an exact copy
	sp := printBuffers.Get().(*[]uint32)
	hs := (*sp)[:0]
	defer func() {
		*sp = hs[:0]
		printBuffers.Put(sp)
	}()
	switch ev.Kind {
	case parse.KindToolCall:
		p.Call = ReadCallArgs(ev.Args)
		for _, lits := range p.Call.Lits {
			p.Literals = append(p.Literals, lits...)
		}
		ScanTokens(string(ev.Args), func(tok string) { hs = append(hs, Fingerprint(h.Hash(tok))) })
	case parse.KindMessage, parse.KindToolResult:
		if ev.Kind == parse.KindMessage && ev.Role == parse.RoleAssistant {
			p.Literals = tag.FindLiterals(ev.Text)
			p.Claims, p.ClaimsRead = AssistantClaims(ev.Text), true
			if ev.Origin == parse.OriginAuthored {
				p.Message = ReadMessageContent(ev.Text, p.Literals, p.Claims)
			}
		}
		if src := SourceOf(ev); !src.Instructive() && src != SourceAssistant {
			// one pass feeds the index and the literals a tool's output
			// adds to the ledger
			var hits ToolHits
			ScanClassed(ev.Text, func(tok string, at int, classes uint8) {
				if at < maxIndexedText {
					hs = append(hs, Fingerprint(h.Hash(tok)))
				}
				hits.Consider(ev.Text, tok, at, classes, MaxToolLiterals)
			})
			p.ToolHits = hits.Done()
			break
		}
		text := ev.Text
		if len(text) > maxIndexedText {
			text = text[:maxIndexedText]
		}
		ScanTokens(text, func(tok string) { hs = append(hs, Fingerprint(h.Hash(tok))) })
	}
	for _, l := range p.Literals {
		hs = append(hs, Fingerprint(h.Hash(l.Value)))
	}
	hs = Distinct(hs)
	p.Prints = slices.Clone(hs)
	return p
}

// preparedNothing is what every event with nothing to prepare (reasoning,
// a boundary, a state operation) gets: one value, never written, where a
// multi-agent run of small records made one for each.
var preparedNothing = &Prepared{}

// printBuffers gather an event's token fingerprints: a long tool output
// holds thousands, and growing a fresh slice for each event showed in
// profiles.
var printBuffers = sync.Pool{New: func() any { return new([]uint32) }}

// distinctSets are the scratch tables of distinct, reused: a tool output
// holds thousands of tokens, most of them repeated.
var distinctSets = sync.Pool{New: func() any { return new([]uint32) }}

// Distinct drops the repeats of fingerprints in place, keeping first
// sightings in order. The index would take the repeats too, but its owner
// is the one ordered goroutine of the audit, so repeats cost most there; a
// sort here cost more than the table. A fingerprint is never 0, which
// marks the table's empty slots.
func Distinct(fps []uint32) []uint32 {
	if len(fps) < 16 {
		out := fps[:0]
	next:
		for _, f := range fps {
			for _, o := range out {
				if o == f {
					continue next
				}
			}
			out = append(out, f)
		}
		return out
	}
	size := 64
	for size < 2*len(fps) {
		size *= 2
	}
	tp := distinctSets.Get().(*[]uint32)
	defer distinctSets.Put(tp)
	if cap(*tp) < size {
		*tp = make([]uint32, size)
	}
	table := (*tp)[:size]
	clear(table)
	mask := size - 1
	out := fps[:0]
	for _, f := range fps {
		for i := int(mix(uint64(f))) & mask; ; i = (i + 1) & mask {
			if table[i] == f {
				break
			}
			if table[i] == 0 {
				table[i] = f
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// PreparedOf returns what the reader prepared for the event, or prepares it
// now when it was read without the audit's Prepare.
func (h TokenHasher) PreparedOf(ev *parse.Event) *Prepared {
	if p, ok := ev.Prepared.(*Prepared); ok {
		return p
	}
	p := h.Prepare(ev)
	ev.Prepared = p
	return p
}
