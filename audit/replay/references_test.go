package replay_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// FuzzSpacedIn holds spacedIn to the search it replaced, on the texts
// joined by spaces. The texts are the input cut at NULs.
func FuzzSpacedIn(f *testing.F) {
	for _, s := range []string{"aws s3 sync\x00x", "rm\x00-rf /", "deploy", "cp\x00cp", " push ", "xpush push"} {
		f.Add(s, "push")
		f.Add(s, "rm")
	}
	f.Fuzz(func(t *testing.T, joined, word string) {
		if word == "" || strings.Contains(word, " ") {
			return
		}
		texts := strings.Split(joined, "\x00")
		if got, want := replay.SpacedIn(texts, word), strings.Contains(" "+strings.Join(texts, " ")+" ", " "+word+" "); got != want {
			t.Fatalf("spacedIn(%q, %q) = %v, want %v", texts, word, got, want)
		}
	})
}

// FuzzCallSignature: two calls share a signature exactly when the string
// it was before — tool, NUL, the fields joined by spaces — is the same.
// The inputs are cut at NULs into the call's tool and strings.
func FuzzCallSignature(f *testing.F) {
	f.Add("Bash\x00npm  test", "Bash\x00npm test")
	f.Add("Bash\x00npm test", "Bash\x00npm\x00test")
	f.Add("Bash\x00a b", "Bash\x00ab")
	f.Add("Bash\x00x", "Edit\x00x")
	f.Add("Bash\x00\u00a0x\u2003y", "Bash\x00x y")
	call := func(s string) *replay.WindowEvent {
		parts := strings.Split(s, "\x00")
		return &replay.WindowEvent{ToolName: parts[0], Call: &reading.CallReading{Texts: parts[1:]}}
	}
	was := func(ev *replay.WindowEvent) string {
		return ev.ToolName + "\x00" + strings.Join(strings.Fields(strings.Join(replay.CallTexts(ev), " ")), " ")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		x, y := call(a), call(b)
		if same, want := replay.CallSignature(x) == replay.CallSignature(y), was(x) == was(y); same != want {
			t.Fatalf("calls %q and %q: same signature %v, same string %v", a, b, same, want)
		}
	})
}

// FuzzNearMissIndex: through the index, a token is found a near miss of
// the same literal as when every literal is tested in turn. The inputs are
// lists cut at spaces: the tokens, and the literals bound.
func FuzzNearMissIndex(f *testing.F) {
	f.Add("s3://acme-staging/ acme-stag-07 /srv/app/totals.ts prod-17", "s3://acme-stage-07/ acme-stage-07 /srv/app/total.ts prod-1 prod-170")
	f.Add("/home/dev/proj-fix-123 https://api.acme.io/v2 v1.2.4", "/home/dev/proj https://api.acme.io/v1 v1.2.3 ~/src/config.ts")
	f.Add("db-big.internal:5432 config.yaml", "db-big.internal:5433 conifg.yaml db.internal")
	f.Fuzz(func(t *testing.T, tokens, literals string) {
		var cands []ledger.WindowObligation
		for _, l := range strings.Fields(literals) {
			cands = append(cands, ledger.WindowObligation{O: &ledger.Obligation{Kind: tag.KindLiteral, Literal: l}, Lit: true})
		}
		x := replay.NewNearMissIndex(cands)
		for _, tok := range strings.Fields(tokens) {
			want := -1
			for i, c := range cands {
				if replay.NearMiss(tok, c.O.Literal) {
					want = i
					break
				}
			}
			got := -1
			for _, i := range x.Candidates(ledger.NormLiteral(tok)) {
				if replay.NearMiss(tok, cands[i].O.Literal) {
					got = i
					break
				}
			}
			if got != want {
				t.Fatalf("%q: the index finds literal %d, testing each %d (%v)", tok, got, want, strings.Fields(literals))
			}
		}
	})
}

// TestKeyValuesOfStructuredArguments: a call that sets a limit as a named
// number of its arguments ({"max_workers": 8}) shows it to the threshold
// rules, whether the reader prepared the call or not; a shell call's
// arguments are its command line, read as text only.
func TestKeyValuesOfStructuredArguments(t *testing.T) {
	args := []byte(`{"max_workers": 8, "timeout_ms": 900, "target": "acme-stage-07", "flags": [3]}`)
	read := func(we *replay.WindowEvent) string {
		var got []string
		for _, kv := range replay.KeyValuesOf(we) {
			got = append(got, fmt.Sprintf("%s=%g %v", kv.Key, kv.Value, kv.Parts))
		}
		return strings.Join(got, "; ")
	}
	want := "max_workers=8 [max worker]; timeout_ms=900 [timeout ms]"
	for _, name := range []string{"mcp__loadtest__run", "Bash"} {
		ev := &parse.Event{Kind: parse.KindToolCall, ToolName: name, ToolID: "toolu_01", Args: args}
		unprepared := replay.WindowEventOf(ev)
		p := reading.NewTokenHasher().Prepare(ev)
		prepared := replay.WindowEventOf(ev)
		prepared.Call = p.Call
		for how, we := range map[string]*replay.WindowEvent{"unprepared": unprepared, "prepared": prepared} {
			got := read(we)
			if name == "Bash" && strings.Contains(got, "max_workers") || name != "Bash" && got != want {
				t.Errorf("%s call, %s: %q, want %q", name, how, got, want)
			}
		}
	}
}

// FuzzExtendsPath holds extendsPath to the prefix it stands for.
func FuzzExtendsPath(f *testing.F) {
	for _, c := range [][2]string{{"/a/b", "/a"}, {"/a", "/a"}, {"/ab", "/a"}, {"/a/", "/a"}, {"", ""}, {"/", ""}, {"x", "/"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, p string) {
		if got, want := replay.ExtendsPath(s, p), strings.HasPrefix(s, p+"/"); got != want {
			t.Fatalf("extendsPath(%q, %q) = %v, want %v", s, p, got, want)
		}
	})
}
