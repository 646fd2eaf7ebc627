package parse

import (
	"strings"
	"unsafe"

	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/compaudit/compaudit/parse/linereader"
)

// textArena holds the unescaped tool output of one batch's records, for a
// consumer that reads it while the batch is applied and keeps none of it
// (Options.TransientToolOutput). Tool output is most of what a session's
// records hold; unescaped into strings of its own, it was a third of what
// an audit allocated, all of it thrown away within the batch.
type textArena struct {
	full [][]byte // blocks written, read until release
	cur  []byte   // the block being written, within its capacity, so views stay put

	// records holds the batch's Claude Code records, which are done with
	// once applied: one allocation per record was a tenth of what an
	// audit of a session allocated. Blocks, so a record never moves.
	records [][]claudeRecord
	used    int // records handed out, over all blocks
	// reuseEvents: a record reused keeps the room its events took, and
	// writes its own there (Options.TransientEvents)
	reuseEvents bool
}

// recordBlock is how many records a block of an arena's records holds.
const recordBlock = 64

// record returns a zero record, held until release; a nil arena is none,
// and the record is then the collector's.
func (a *textArena) record() *claudeRecord {
	if a == nil {
		return new(claudeRecord)
	}
	b, k := a.used/recordBlock, a.used%recordBlock
	if b == len(a.records) {
		a.records = append(a.records, make([]claudeRecord, recordBlock))
	}
	a.used++
	return &a.records[b][k]
}

// arenaBlock is the size of an arena's blocks; a text longer than
// arenaLarge gets a string of its own, as it would without the arena.
// Variables so that tests can fill blocks within a batch of a few lines
// (ReadInSmallPieces).
var (
	arenaBlock = 256 << 10
	arenaLarge = 64 << 10
)

// freeBlocks holds arena blocks for reuse, as freeChunks holds chunks.
var freeBlocks = make(linereader.Reuse[[]byte], 32)

// unescape is the package's unescape, written into the arena.
func (a *textArena) unescape(body string) string {
	if len(body) > arenaLarge {
		return jsontext.Unescape(body)
	}
	if cap(a.cur)-len(a.cur) < len(body) {
		if a.cur != nil {
			a.full = append(a.full, a.cur)
		}
		b, ok := freeBlocks.Take()
		if !ok || cap(b) < len(body) {
			b = make([]byte, 0, max(arenaBlock, len(body)))
		}
		a.cur = b[:0]
	}
	start := len(a.cur)
	// a body the validator read decodes to at most its own length, so this
	// stays in the block
	a.cur = jsontext.AppendUnescaped(a.cur, body)
	if len(a.cur) == start {
		return ""
	}
	return unsafe.String(&a.cur[start], len(a.cur)-start)
}

// jsonString is the package's jsonString, unescaping into the arena; a nil
// arena is none.
func (a *textArena) jsonString(raw string) string {
	if a == nil || len(raw) < 2 || raw[0] != '"' {
		return jsontext.JsonString(raw)
	}
	body := raw[1 : len(raw)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	return a.unescape(body)
}

// holds reports whether s is a piece of the arena.
func (a *textArena) holds(s string) bool {
	if a == nil {
		return false
	}
	if within(s, bytesView(a.cur)) {
		return true
	}
	for _, b := range a.full {
		if within(s, bytesView(b)) {
			return true
		}
	}
	return false
}

func bytesView(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// release hands the arena's blocks back once its batch is applied.
func (a *textArena) release() {
	if a == nil {
		return
	}
	for _, b := range append(a.full, a.cur) {
		if b == nil {
			continue
		}
		if linereader.PoisonReleased {
			clear(b[:cap(b)])
		}
		freeBlocks.Give(b[:0])
	}
	a.full, a.cur = a.full[:0], nil
	// zeroed, so a record reused starts empty and none holds what its
	// events and texts were; with reuseEvents it keeps its drafts' room
	for i := 0; a.used > 0; i++ {
		n := min(a.used, recordBlock)
		for k := range a.records[i][:n] {
			r := &a.records[i][k]
			var room []draft
			if a.reuseEvents {
				room = r.drafts[:0]
				clear(r.drafts)
			}
			*r = claudeRecord{drafts: room}
		}
		a.used -= n
	}
}

// freeArenas holds arenas for reuse, with the blocks they hold given back.
var freeArenas = make(linereader.Reuse[*textArena], 32)

func takeArena() *textArena {
	if a, ok := freeArenas.Take(); ok {
		return a
	}
	return &textArena{}
}

// releaseArena hands an arena and its blocks back once its batch is
// applied: no event of it is read again.
func releaseArena(a *textArena) {
	if a == nil {
		return
	}
	a.release()
	freeArenas.Give(a)
}
