package audit

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"sync"

	"github.com/compaudit/compaudit/parse"
)

// prepared is the part of an event's audit that needs nothing but the event:
// finding its tokens and literals. The reader computes it on several events
// at once (parse.Options.Prepare); the ledger and the replay, which keep
// state, then take the events one by one.
type prepared struct {
	hashes   []uint64     // distinct tokens of the text or arguments, for the index
	literals []literalHit // literals of a call's strings or an assistant message
	toolHits []literalHit // literals worth holding a later turn to in tool output
	// a call's command, argument strings and their literals
	command     string
	runs        runSet // what the command runs (runsOf)
	readOnly    bool   // every command it chains only reads
	callTexts   []string
	callLits    [][]literalHit
	callNumbers []argNumber
	message     *MessageContent // what an outbound message cites and claims
	// the commitments and status claims of the agent's words
	claims     []sentenceClaims
	claimsRead bool

	// a tool result's run outcome, read once when a rule first asks
	outcome, outcomeDetail string
	outcomeRead            bool
}

// outcomeOf reads a tool result as the outcome of a run, once per event.
func outcomeOf(ev *parse.Event) (string, string) {
	p, ok := ev.Prepared.(*prepared)
	if !ok {
		return runOutcome(ev.Text, ev.IsError)
	}
	if !p.outcomeRead {
		p.outcome, p.outcomeDetail = runOutcome(ev.Text, ev.IsError)
		p.outcomeRead = true
	}
	return p.outcome, p.outcomeDetail
}

// runOf is a call's command line and what it runs, as the reader
// prepared them or worked out now.
func runOf(ev *parse.Event) (command string, runs runSet) {
	if p, ok := ev.Prepared.(*prepared); ok {
		return p.command, p.runs
	}
	command = commandOf(ev.Args)
	return command, runsOf(command)
}

// tokenHasher identifies tokens the way normLiteral compares them: quotes
// and a trailing slash trimmed, letters folded to lower case. One seed
// serves the whole audit, so hashes computed on any goroutine agree.
type tokenHasher struct{ seed uint64 }

func newTokenHasher() tokenHasher {
	return tokenHasher{maphash.String(maphash.MakeSeed(), "compaudit")}
}

// trimToken drops the quotes around a token and a trailing slash.
func trimToken(tok string) string {
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

// hash is called for every identifier-shaped token of every tool output,
// millions per session, so it reads eight bytes at a time and lowers ASCII
// letters within the word; only a token with a non-ASCII byte is folded
// first, through foldLower.
func (h tokenHasher) hash(tok string) uint64 {
	tok = trimToken(tok)
	sum, ascii := h.sum(tok)
	if !ascii {
		sum, _ = h.sum(foldLower(tok))
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
func (h tokenHasher) sum(s string) (uint64, bool) {
	acc := h.seed ^ uint64(len(s))*wyp0
	var high uint64
	for len(s) >= 8 {
		w := le64(s)
		high |= w
		acc = mum(acc^lowerWord(w), wyp1)
		s = s[8:]
	}
	if len(s) > 0 {
		var w uint64
		for i := len(s) - 1; i >= 0; i-- {
			w = w<<8 | uint64(s[i])
		}
		high |= w
		acc = mum(acc^lowerWord(w), wyp1)
	}
	return mum(acc, wyp0), high&laneHigh == 0
}

// Bytes as eight lanes of a word, for the word-at-a-time scans of the hash
// and the token search.
const (
	lanes    = 0x0101010101010101
	laneHigh = 0x8080808080808080
)

// le64 reads eight bytes little-endian, as one load.
func le64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// lowerWord lowers the ASCII capitals among eight bytes at once; bytes
// with the high bit set are left alone.
func lowerWord(w uint64) uint64 {
	b := w &^ laneHigh
	atLeastA := b + (0x80-'A')*lanes // high bit set where the byte is >= 'A'
	pastZ := b + (0x80-'Z'-1)*lanes  // high bit set where the byte is > 'Z'
	upper := atLeastA &^ pastZ &^ w & laneHigh
	return w | upper>>2 // 0x80 >> 2 is the 0x20 between the cases
}

func isQuote(c byte) bool { return c == '`' || c == '\'' || c == '"' }

// maxIndexedText bounds the text of one event searched for tokens.
const maxIndexedText = 256 << 10

// prepare does an event's stateless work. It is safe to call on several
// events at once.
func (h tokenHasher) prepare(ev *parse.Event) *prepared {
	switch ev.Kind {
	case parse.KindToolCall, parse.KindMessage, parse.KindToolResult:
	default:
		return preparedNothing
	}
	p := &prepared{}
	// hashes gather in a pooled buffer; the event keeps an exact copy
	sp := hashBuffers.Get().(*[]uint64)
	hs := (*sp)[:0]
	defer func() {
		*sp = hs[:0]
		hashBuffers.Put(sp)
	}()
	switch ev.Kind {
	case parse.KindToolCall:
		p.command, p.callTexts, p.callNumbers = readCall(ev.Args)
		p.readOnly, p.runs = readOnlyCommand(p.command), runsOf(p.command)
		for _, s := range p.callTexts {
			lits := findLiterals(s)
			p.callLits = append(p.callLits, lits)
			p.literals = append(p.literals, lits...)
		}
		scanTokens(string(ev.Args), func(tok string) { hs = append(hs, h.hash(tok)) })
	case parse.KindMessage, parse.KindToolResult:
		if ev.Kind == parse.KindMessage && ev.Role == parse.RoleAssistant {
			p.literals = findLiterals(ev.Text)
			p.claims, p.claimsRead = assistantClaims(ev.Text), true
			if ev.Origin == parse.OriginAuthored {
				p.message = messageContent(ev.Text, p.literals, p.claims)
			}
		}
		if src := sourceOf(ev); !src.Instructive() && src != SourceAssistant {
			// one pass feeds the index and the literals a tool's output
			// adds to the ledger
			var hits toolHits
			scanClassed(ev.Text, func(tok string, at int, classes uint8) {
				if at < maxIndexedText {
					hs = append(hs, h.hash(tok))
				}
				hits.consider(ev.Text, tok, at, classes, maxToolLiterals)
			})
			p.toolHits = hits.done()
			break
		}
		text := ev.Text
		if len(text) > maxIndexedText {
			text = text[:maxIndexedText]
		}
		scanTokens(text, func(tok string) { hs = append(hs, h.hash(tok)) })
	}
	for _, l := range p.literals {
		hs = append(hs, h.hash(l.value))
	}
	hs = distinct(hs)
	p.hashes = slices.Clone(hs)
	return p
}

// preparedNothing is what every event with nothing to prepare (reasoning,
// a boundary, a state operation) gets: one value, never written, where a
// multi-agent run of small records made one for each.
var preparedNothing = &prepared{}

// hashBuffers gather an event's token hashes: a long tool output holds
// thousands, and growing a fresh slice for each event showed in profiles.
var hashBuffers = sync.Pool{New: func() any { return new([]uint64) }}

// distinctSets are the scratch tables of distinct, reused: a tool output
// holds thousands of tokens, most of them repeated.
var distinctSets = sync.Pool{New: func() any { return new([]uint64) }}

// distinct drops the repeats of hs in place, keeping first sightings in
// order. The index would take the repeats too, but its owner is the one
// ordered goroutine of the audit, so repeats cost most there; a sort here
// cost more than the table.
func distinct(hs []uint64) []uint64 {
	if len(hs) < 16 {
		out := hs[:0]
	next:
		for _, h := range hs {
			for _, o := range out {
				if o == h {
					continue next
				}
			}
			out = append(out, h)
		}
		return out
	}
	size := 64
	for size < 2*len(hs) {
		size *= 2
	}
	tp := distinctSets.Get().(*[]uint64)
	defer distinctSets.Put(tp)
	if cap(*tp) < size {
		*tp = make([]uint64, size)
	}
	table := (*tp)[:size]
	clear(table)
	mask := size - 1
	out, zero := hs[:0], false
	for _, h := range hs {
		if h == 0 { // 0 marks an empty slot
			if !zero {
				zero = true
				out = append(out, h)
			}
			continue
		}
		for i := int(mix(h)) & mask; ; i = (i + 1) & mask {
			if table[i] == h {
				break
			}
			if table[i] == 0 {
				table[i] = h
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// preparedOf returns what the reader prepared for the event, or prepares it
// now when it was read without the audit's Prepare.
func (h tokenHasher) preparedOf(ev *parse.Event) *prepared {
	if p, ok := ev.Prepared.(*prepared); ok {
		return p
	}
	p := h.prepare(ev)
	ev.Prepared = p
	return p
}
