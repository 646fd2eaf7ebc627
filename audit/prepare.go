package audit

import (
	"hash/maphash"
	"slices"

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
	command   string
	callTexts []string
	callLits  [][]literalHit
	message   *MessageContent // what an outbound message cites and claims
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

// tokenHasher identifies tokens the way normLiteral compares them. One
// seed serves the whole audit, so hashes computed on any goroutine agree.
type tokenHasher struct{ seed maphash.Seed }

func newTokenHasher() tokenHasher { return tokenHasher{maphash.MakeSeed()} }

// hash does not allocate: tokens are short, and an upper-case one is
// lowered in a buffer on the stack.
func (h tokenHasher) hash(tok string) uint64 {
	for len(tok) > 0 && isQuote(tok[0]) {
		tok = tok[1:]
	}
	for len(tok) > 0 && isQuote(tok[len(tok)-1]) {
		tok = tok[:len(tok)-1]
	}
	if len(tok) > 1 && tok[len(tok)-1] == '/' {
		tok = tok[:len(tok)-1]
	}
	var buf [128]byte
	lowered := false
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= 0x80 || len(tok) > len(buf) {
			if c >= 0x80 || c >= 'A' && c <= 'Z' {
				return maphash.String(h.seed, foldLower(tok))
			}
			continue
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
			lowered = true
		}
		buf[i] = c
	}
	if !lowered {
		return maphash.String(h.seed, tok)
	}
	return maphash.Bytes(h.seed, buf[:len(tok)])
}

func isQuote(c byte) bool { return c == '`' || c == '\'' || c == '"' }

// maxIndexedText bounds the text of one event searched for tokens.
const maxIndexedText = 256 << 10

// prepare does an event's stateless work. It is safe to call on several
// events at once.
func (h tokenHasher) prepare(ev *parse.Event) *prepared {
	p := &prepared{}
	switch ev.Kind {
	case parse.KindToolCall:
		p.command, p.callTexts = commandOf(ev.Args), callStrings(ev.Args)
		for _, s := range p.callTexts {
			lits := findLiterals(s)
			p.callLits = append(p.callLits, lits)
			p.literals = append(p.literals, lits...)
		}
		scanTokens(string(ev.Args), func(tok string) { p.hashes = append(p.hashes, h.hash(tok)) })
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
			scanTokensAt(ev.Text, func(tok string, at int) {
				if at < maxIndexedText {
					p.hashes = append(p.hashes, h.hash(tok))
				}
				hits.consider(ev.Text, tok, at, maxToolLiterals)
			})
			p.toolHits = hits.done()
			break
		}
		text := ev.Text
		if len(text) > maxIndexedText {
			text = text[:maxIndexedText]
		}
		scanTokens(text, func(tok string) { p.hashes = append(p.hashes, h.hash(tok)) })
	default:
		return p
	}
	for _, l := range p.literals {
		p.hashes = append(p.hashes, h.hash(l.value))
	}
	slices.Sort(p.hashes)
	p.hashes = slices.Compact(p.hashes)
	return p
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
