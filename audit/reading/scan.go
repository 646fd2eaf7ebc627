package reading

import (
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
)

// ScanTokens calls fn with every identifier-shaped token of text: paths,
// URIs, hosts, ids, hashes, names with separators or digits. Plain words
// are skipped without work.
func ScanTokens(text string, fn func(tok string)) {
	ScanClassed(text, func(tok string, _ int, _ uint8) { fn(tok) })
}

// ScanClassed is scanTokens with each token's byte offset and the classes
// of its bytes, so a caller can pass over most tokens without searching
// them again.
func ScanClassed(text string, fn func(tok string, at int, classes uint8)) {
	scanWords(text, 0, fn)
}

// ToolHits collects tool-output literals as a scan passes over the text,
// so one pass can serve the index and the ledger.
type ToolHits []tag.LiteralHit

func (t *ToolHits) Consider(text, tok string, start int, classes uint8, limit int) {
	if len(*t) >= limit || !toolCandidate(tok, classes) {
		return
	}
	h, ok := tag.ClassifyToken(text, start, start+len(tok))
	if ok && toolLiteralKinds[h.Kind] {
		*t = append(*t, h)
	}
}

func (t ToolHits) Done() []tag.LiteralHit { return tag.DedupeHits(t) }

// MaxToolLiterals bounds the literals one tool call or result adds: a
// directory listing must not turn the ledger into a second transcript.
const MaxToolLiterals = 12

const (
	SourceUser      Source = iota + 1 // the user's request
	SourceSystem                      // system text and standing rule files
	SourceDeveloper                   // developer messages
	SourceAssistant                   // the agent's own words (commitments)
	SourceTool                        // tool calls, their output, and harness notices
)

// scanWords is scanClassed from i, a token boundary, eight bytes at a
// time.
func scanWords(text string, i int, fn func(tok string, at int, classes uint8)) {
	n := len(text)
	for i < n {
		// A token without a mark byte is passed over, so look for the next
		// mark first, eight bytes at a time, and only then for the token
		// around it: prose and most of a tool's output hold few marks.
		m := nextMark(text, i)
		if m == n {
			return
		}
		start := m
		var classes uint8 // of the token's bytes, those walked back over first
		for start > i && !tokenStartsAt(text, start) {
			start--
			classes |= ByteClass[text[start]]
		}
		end, rest := walkToken(text, m)
		emitToken(text, start, end, classes|rest, fn)
		i = end
	}
}

// toolCandidate rejects, without allocating, the tokens classifyToken could
// never give a tool-output kind (uri, email, host, id): most tokens of code
// and logs are paths and dotted names. classes are those of the bytes of
// the token it was cut from (a part of a refspec may hold fewer), so they
// only rule out.
func toolCandidate(tok string, classes uint8) bool {
	if classes&classAt != 0 && strings.IndexByte(tok, '@') >= 0 ||
		classes&(ClassColon|classSlash) == ClassColon|classSlash && strings.Contains(tok, "://") {
		return true
	}
	if classes&classSlash != 0 && strings.IndexByte(tok, '/') >= 0 {
		return false // a path; hosts and ids have no slash
	}
	if dot := strings.LastIndexByte(tok, '.'); dot >= 0 {
		// only a host has a dot: its last label is a top-level domain
		label := tok[dot+1:]
		if c := strings.IndexByte(label, ':'); c >= 0 {
			label = label[:c]
		}
		return IsTLD(label)
	}
	if tok[0] == '#' {
		return true
	}
	last := tok[len(tok)-1]
	return last >= '0' && last <= '9' && (classes&ClassColon != 0 && strings.IndexByte(tok, ':') > 0 || strings.IndexByte(tok, '-') > 0)
}

var (
	revisionRE    = lex.LiteralPattern(`(?i)\b(?:rev(?:ision)?\.?\s*#?\d+|r\d{2,})\b`)
	TaskRefRE     = lex.LiteralPattern(`\b(?:[Tt]asks?|[Ee]ntry|[Kk]ey)\s+([A-Z0-9][\w./-]*)`)
	categoricalRE = lex.LiteralPattern(`(?i)\b(?:the|all|both|remaining|other)\s+(?:the\s+)?(?:completed|finished|done|pending|failed|remaining|open|outstanding|relevant|affected|other)?\s*(?:tasks|entries|items|keys|ones|jobs|records|tickets|issues|rows|shards|steps|fields|cases|changes|updates)\b`)
)

// toolLiteralKinds are the literals worth holding a later turn to when a
// tool or the harness produced them: created resources, ids, addresses.
var toolLiteralKinds = map[string]bool{"uri": true, "id": true, "email": true, "host": true}

// ByteClass sorts the bytes a token scan looks at, so the scan does one
// table lookup per byte.
var ByteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n\r,;|()[]{}<>\"'`\\") {
		t[c] |= ClassSep
	}
	// identifiers carry separators or digits, prose words do not
	for _, c := range []byte("/:@.-_#0123456789") {
		t[c] |= ClassMark
	}
	t[':'] |= ClassColon
	t['@'] |= classAt
	t['/'] |= classSlash
	t[Arrow[0]] |= classArrow
	return t
}()

// The classes of byteClass, and what a token's bytes held.
const (
	ClassSep   = 1 << iota // ends a token
	ClassMark              // makes a token worth indexing
	ClassColon             // a token with one may name a scheme or a refspec
	classAt                // a token with one may be an email
	classSlash             // a token with one is a path or a URI
	classArrow             // the first byte of arrow
)

// walkToken returns where the token that holds text[i] ends (at the first
// separator or arrow from i on, or at the end of text) and the classes of
// its bytes from i.
func walkToken(text string, i int) (int, uint8) {
	var classes uint8
	for i < len(text) {
		c := ByteClass[text[i]]
		if c&ClassSep != 0 || ArrowAt(text, i, c) {
			break
		}
		classes |= c
		i++
	}
	return i, classes
}

// emitToken hands fn the token text[start:end] with its classes, trimmed,
// unless its length says it is not worth indexing; a refspec or key:value
// pair also hands fn its parts.
func emitToken(text string, start, end int, classes uint8, fn func(tok string, at int, classes uint8)) {
	if end-start < 3 || end-start > 512 {
		return
	}
	// trailing punctuation and markdown emphasis are not part of it
	for end > start && TrailTable[text[end-1]] {
		end--
	}
	for start < end && text[start] == '*' {
		start++
	}
	if end-start < 3 {
		return
	}
	tok := text[start:end]
	fn(tok, start, classes)
	if classes&ClassColon == 0 {
		return
	}
	if c := strings.IndexByte(tok, ':'); c > 0 && c < len(tok)-1 && !strings.Contains(tok, "://") && strings.Count(tok, ":") == 1 {
		if c >= 3 {
			fn(tok[:c], start, classes)
		}
		if len(tok)-c-1 >= 3 {
			fn(tok[c+1:], start+c+1, classes)
		}
	}
}

// tokenStartsAt reports whether a token may start at text[i]: the byte
// before it ends a token, or an arrow does.
func tokenStartsAt(text string, i int) bool {
	return ByteClass[text[i-1]]&ClassSep != 0 || i >= len(Arrow) && text[i-len(Arrow):i] == Arrow
}

// nextMark returns the index of the first byte at or after i whose class
// has classMark, or len(text). The marks are '#', '-' to ':' (which holds
// '.', '/' and the digits), '@' and '_'.
func nextMark(text string, i int) int {
	for ; i+8 <= len(text); i += 8 {
		w := lex.Le64(text[i:])
		// '-' <= b <= ':' for the ASCII lanes: with bit 7 cleared no
		// addition carries into the next lane
		x := w &^ lex.LaneHigh
		ranged := (x + (0x80-'-')*lex.Lanes) &^ (x + (0x80-':'-1)*lex.Lanes) &^ w & lex.LaneHigh
		// a lane equal to c becomes zero; a borrow can only mark lanes
		// above a true zero, so the lowest mark is exact
		h := w ^ '#'*lex.Lanes
		a := w ^ '@'*lex.Lanes
		u := w ^ '_'*lex.Lanes
		eq := ((h - lex.Lanes) &^ h) | ((a - lex.Lanes) &^ a) | ((u - lex.Lanes) &^ u)
		if m := ranged | eq&lex.LaneHigh; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(text); i++ {
		if ByteClass[text[i]]&ClassMark != 0 {
			return i
		}
	}
	return len(text)
}

// IsTLD reports whether label, in any case, is one of tlds. It is asked of
// every dotted token of a tool's output, so it lowers into a buffer rather
// than a new string; the top-level domains are short and ASCII, so a
// longer or non-ASCII label is none of them.
func IsTLD(label string) bool {
	if len(label) == 0 || len(label) > MaxTLD {
		return false
	}
	if c := label[0] | 0x20; c >= utf8.RuneSelf || !tldShapes[len(label)][c] {
		return false // most dotted names of code (fmt.Println) end here
	}
	return LookUpTLD(label)
}

// Arrow is what Claude Code's Read tool puts between a line's number and
// its text ("    12→func main() {"): it ends a token, so the line's first
// word is indexed on its own, not glued to the number.
const Arrow = "→"

// ArrowAt reports the arrow at text[i], whose byte class is c.
func ArrowAt(text string, i int, c uint8) bool {
	return c&classArrow != 0 && strings.HasPrefix(text[i:], Arrow)
}

// TrailTable marks the bytes trimmed from a token's end.
var TrailTable = tag.ByteSet(".,:;!?*")

// tldShapes marks the length and the first letter, lowered, of each of
// tlds, so that isTLD passes over most labels without a lookup.
var tldShapes = func() (t [MaxTLD + 1][128]bool) {
	for tld := range tag.Tlds {
		t[len(tld)][tld[0]] = true
	}
	return t
}()

// MaxTLD is the length of the longest of tlds.
const MaxTLD = 9

// LookUpTLD lowers label into a buffer, not a new string, and looks it up.
func LookUpTLD(label string) bool {
	var b [MaxTLD]byte
	if len(label) > len(b) {
		return false
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if c >= utf8.RuneSelf {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return tag.Tlds[string(b[:len(label)])]
}
