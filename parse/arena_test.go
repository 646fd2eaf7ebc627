package parse

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/compaudit/compaudit/parse/linereader"
)

// An arena's texts stay as written while it fills block after block, and
// are let go together: a text held past release reads as the NULs a
// poisoned release clears it to, which is what the consumers' tests look
// for (ReadInSmallPieces).
func TestArenaKeepsTextsUntilReleased(t *testing.T) {
	defer func(p bool) { linereader.PoisonReleased = p }(linereader.PoisonReleased)
	linereader.PoisonReleased = true
	var a textArena
	var texts, want []string
	for i := range 200 {
		body := fmt.Sprintf(`output %d:\n%s\u00e9`, i, strings.Repeat(`ok\tpkg/x\n`, 10*i))
		texts = append(texts, a.unescape(body))
		want = append(want, jsontext.Unescape(body))
	}
	if len(a.full) < 2 {
		t.Fatalf("the texts took %d full blocks; the test needs them to cross blocks", len(a.full))
	}
	for i := range texts {
		if texts[i] != want[i] || !a.holds(texts[i]) {
			t.Fatalf("text %d: %q (in the arena: %v), want %q", i, texts[i], a.holds(texts[i]), want[i])
		}
	}
	if a.holds(want[3]) || a.holds("") {
		t.Error("holds a string that is not the arena's")
	}
	kept := texts[150]
	a.release()
	if kept != strings.Repeat("\x00", len(kept)) {
		t.Errorf("a text held past release reads %q, not NULs", kept[:20])
	}
	long := strings.Repeat(`x\n`, arenaLarge)
	if got := a.unescape(long); got != jsontext.Unescape(long) || a.holds(got) {
		t.Errorf("a text over %d bytes: in the arena %v", arenaLarge, a.holds(got))
	}
}

// An arena's records stay where they were handed out while it hands out
// block after block, and come back zero once it is released: a record
// reused must not carry its last batch's fields, nor hold its events.
func TestArenaRecords(t *testing.T) {
	var a textArena
	var got []*claudeRecord
	for i := range 3*recordBlock + 5 {
		r := a.record()
		if r.uuid != "" || r.drafts != nil {
			t.Fatalf("record %d handed out holding %q, %d drafts", i, r.uuid, len(r.drafts))
		}
		r.uuid, r.drafts = fmt.Sprint("u", i), []draft{{ev: Event{Text: "t"}}}
		got = append(got, r)
	}
	for i, r := range got {
		if r.uuid != fmt.Sprint("u", i) {
			t.Fatalf("record %d reads %q after later ones were handed out", i, r.uuid)
		}
	}
	first := got[0]
	a.release()
	for i, r := range got {
		if r.uuid != "" || r.drafts != nil {
			t.Fatalf("record %d still holds %q after release", i, r.uuid)
		}
	}
	if r := a.record(); r != first {
		t.Errorf("the first record after release is a new one, not the first block's reused")
	}
	var none *textArena
	if r := none.record(); r == nil || r.uuid != "" {
		t.Errorf("no arena: %v, want a fresh zero record", r)
	}
}

// With reuseEvents (Options.TransientEvents) a record reused writes its
// events where the last batch's were, and holds nothing of them: the
// room is kept, its drafts are zero. Without it, a consumer may keep an
// event, so no record hands its room on.
func TestArenaReusesEventsOnlyWhenAsked(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		a := textArena{reuseEvents: reuse}
		var rooms []*draft
		for i := range recordBlock + 3 {
			r := a.record()
			r.drafts = append(r.drafts, draft{ev: Event{Text: fmt.Sprint("t", i), Prepared: i}}, draft{ev: Event{ToolID: "x"}})
			rooms = append(rooms, &r.drafts[0])
		}
		a.release()
		for i := range recordBlock + 3 {
			r := a.record()
			if len(r.drafts) != 0 || r.uuid != "" {
				t.Fatalf("reuse %v: record %d handed out again with %d drafts", reuse, i, len(r.drafts))
			}
			if held := r.drafts[:cap(r.drafts)]; slices.ContainsFunc(held, func(d draft) bool { return d.ev.Text != "" || d.ev.ToolID != "" || d.ev.Prepared != nil }) {
				t.Fatalf("reuse %v: record %d's room still holds its last events", reuse, i)
			}
			r.drafts = append(r.drafts, draft{ev: Event{Text: "again"}})
			if same := &r.drafts[0] == rooms[i]; same != reuse {
				t.Errorf("reuse %v: record %d wrote its event where the last one's was: %v", reuse, i, same)
			}
			// without reuse the old room is the consumer's, untouched
			want := fmt.Sprint("t", i)
			if reuse {
				want = "again"
			}
			if rooms[i].ev.Text != want {
				t.Errorf("reuse %v: record %d: the event handed out before release reads %q, want %q", reuse, i, rooms[i].ev.Text, want)
			}
		}
	}
}
