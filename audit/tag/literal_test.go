package tag_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/lex"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// checkProseWord holds classifyToken's shortcut for words to the readings
// it skips: on a word of letters they must say the same.
func checkProseWord(t *testing.T, before, tok string) {
	t.Helper()
	text := before + tok
	got, gotOK := tag.ClassifyToken(text, len(before), len(text))
	want, wantOK := tag.ClassifyAny(text, len(before), len(text))
	if gotOK != wantOK || gotOK && got != want {
		t.Fatalf("classifyToken(%q) = %+v, %v; the readings give %+v, %v", tok, got, gotOK, want, wantOK)
	}
}

// FuzzClassifyProseWord turns its input into letters, so every input is a
// word the shortcut takes.
func FuzzClassifyProseWord(f *testing.F) {
	for _, s := range []string{"word", "The", "API", "HTTPServer", "makefile", "Dockerfile", "localhost", "v", "deadbeef",
		"cafe", "fetchRow", "iPhone", "ABCD", "PATH", "abcdefabcdef", "go", "version", "Makefile", "MAKEFILE"} {
		f.Add([]byte(s), "version ")
	}
	f.Fuzz(func(t *testing.T, raw []byte, before string) {
		tok := make([]byte, len(raw))
		for i, c := range raw {
			switch {
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				tok[i] = c
			case c&0x80 != 0:
				tok[i] = 'A' + c%26
			default:
				tok[i] = 'a' + c%26
			}
		}
		if tag.ProseWord(string(tok)) {
			checkProseWord(t, before, string(tok))
		}
	})
}

// TestClassifyProseWordsOfTranscripts checks the shortcut on every word of
// the testdata transcripts and, when present, the corpus.
func TestClassifyProseWordsOfTranscripts(t *testing.T) {
	n := 0
	seen := map[string]bool{}
	for _, p := range parsetest.Transcripts(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, w := range tag.RawTokens(text) {
			if tag.ProseWord(w.W) && !seen[w.W] {
				seen[w.W] = true
				checkProseWord(t, text[max(0, w.Start-12):w.Start], w.W)
				n++
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d words checked", n)
	}
	t.Logf("%d distinct words checked", n)
}

// dedupeHitsByWalk is dedupeHits as it was before the hits it keeps were
// indexed: each hit walks every kept hit. FuzzDedupeHits holds the index
// to it.
func dedupeHitsByWalk(hits []tag.LiteralHit) []tag.LiteralHit {
	var out []tag.LiteralHit
	for _, h := range hits {
		h.Value = strings.Trim(h.Value, "`'\"")
		if h.Value == "" {
			continue
		}
		merged := false
		for k := range out {
			o := &out[k]
			if h.Start < o.End && o.Start < h.End {
				if h.Label != "" && o.Label == "" {
					o.Label = h.Label
				}
				if tag.LiteralRank[h.Kind] < tag.LiteralRank[o.Kind] || h.End-h.Start > o.End-o.Start && tag.LiteralRank[h.Kind] <= tag.LiteralRank[o.Kind] {
					label := o.Label
					*o = h
					if o.Label == "" {
						o.Label = label
					}
				}
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, h)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Start < out[j-1].Start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// hitsOf reads hits from fuzz bytes, five a hit: where it starts (in 16-byte
// steps, so tens of them overlap or sit apart), its length, its kind, and
// whether it has a label and a value.
func hitsOf(data []byte) []tag.LiteralHit {
	kinds := []string{"pattern", "uri", "email", "path", "host", "id", "hash", "version", "env", "flag", "port", "file", "name", "code", "other"}
	values := []string{"acme-stage-07", "`x`", `""`, "'q'", "s3://b/", ""}
	var hits []tag.LiteralHit
	for ; len(data) >= 5; data = data[5:] {
		start := int(data[0])<<4 | int(data[1]&15)
		n := int(data[1]>>4) * int(data[2]&63)
		hits = append(hits, tag.LiteralHit{Start: start, End: start + n,
			Kind:  kinds[int(data[3])%len(kinds)],
			Label: []string{"", "bucket", "branch"}[int(data[4])%3],
			Value: values[int(data[4]>>2)%len(values)] + string(rune('a'+data[2]>>6))})
	}
	return hits
}

func FuzzDedupeHits(f *testing.F) {
	seed := make([]byte, 0, 500)
	for i := range 100 {
		seed = append(seed, byte(i*3), byte(i*7), byte(i*11), byte(i), byte(i*5))
	}
	f.Add(seed)
	f.Add([]byte("0123456789abcdefghij"))
	f.Fuzz(func(t *testing.T, data []byte) {
		hits := hitsOf(data)
		got := tag.DedupeHits(slices.Clone(hits))
		want := dedupeHitsByWalk(slices.Clone(hits))
		if !slices.Equal(got, want) {
			t.Fatalf("%d hits:\n got %v\nwant %v", len(hits), got, want)
		}
	})
}

// TestDedupeHitsMany: a pasted list of 30,000 buckets yields each once.
func TestDedupeHitsMany(t *testing.T) {
	var b strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&b, "then deploy to s3://acme-bucket-%d/ and ", i)
	}
	hits := tag.FindLiterals(b.String())
	if len(hits) != 30000 {
		t.Fatalf("%d literals, want 30000", len(hits))
	}
	for i, h := range hits {
		if want := fmt.Sprintf("s3://acme-bucket-%d/", i); h.Value != want || h.Kind != "uri" {
			t.Fatalf("literal %d is %s %q, want uri %q", i, h.Kind, h.Value, want)
		}
	}
}

// TestKeyBlocksHoldNoLiterals: a private key pasted into a turn, whole or
// cut short, and an encrypted one with its header fields, give no literal
// of their body lines; what the turn says around them still does.
func TestKeyBlocksHoldNoLiterals(t *testing.T) {
	const body = "MIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn\n"
	for _, text := range []string{
		"Use this deploy key for s3://acme-stage-07/:\n-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\nthen run deploy.sh on host web-3.internal.",
		"Use this deploy key for s3://acme-stage-07/:\n-----BEGIN RSA PRIVATE KEY-----\n" + body + "then run deploy.sh on host web-3.internal.",
		"Use this deploy key for s3://acme-stage-07/:\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n" + body + "-----END RSA PRIVATE KEY-----\nthen run deploy.sh on host web-3.internal.",
	} {
		var got []string
		for _, h := range tag.FindLiterals(text) {
			got = append(got, h.Value)
			if strings.Contains(body, h.Value) || strings.Contains(h.Value, "3F17F5316E2BAC89") {
				t.Errorf("%q: a literal from the key: %q", text[:60], h.Value)
			}
		}
		for _, want := range []string{"s3://acme-stage-07/", "deploy.sh", "web-3.internal"} {
			if !slices.Contains(got, want) {
				t.Errorf("%q: literals %q, want %q among them", text[:60], got, want)
			}
		}
	}
}

// appendLabelledLowered is appendLabelled's search as it was: every word
// lowered first, then looked up. What a label word calls out is
// appendLabelHit's in both.
func appendLabelledLowered(text string, hits []tag.LiteralHit) []tag.LiteralHit {
	ws := lex.AppendWords(nil, text)
	for i, w := range ws {
		label := w.W
		if !lex.AsciiLetters(label) {
			label = lex.PlainWord(label)
		}
		if tag.LabelWords[label] {
			hits = tag.AppendLabelHit(hits, text, ws, i, label)
		}
	}
	return hits
}

// FuzzAppendLabelled holds appendLabelled, which lowers only the words as
// long as a label word, to the lowering of every word.
func FuzzAppendLabelled(f *testing.F) {
	for _, s := range []string{"the acme-stage-07 bucket", "Bucket: acme-prod-1", "PORT 8080 and port 443", "deploy to the `acme-web-2` Service",
		"É bucket x-1", "‘bucket’ a-b", "DB prod-db-1", "ORGANIZATION acme-org-1", "Ｂucket z-9", "The-Bucket a-1", "THE acme-1 BUCKET",
		"K bucket k-1", "db_1 bucket", "ﬁle a-1", "Workspaces ws-1", "bucket’s name is b-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := tag.AppendLabelled(text, nil), appendLabelledLowered(text, nil); !slices.Equal(got, want) {
			t.Fatalf("appendLabelled(%q) = %+v, lowering every word %+v", text, got, want)
		}
	})
}

// TestLabelWordBounds: labelOf passes over words shorter or longer than
// any label word, and lowers only ASCII, so every label word must be
// lower-case ASCII letters within the bounds, which some attain.
func TestLabelWordBounds(t *testing.T) {
	shortest, longest := 100, 0
	for w := range tag.LabelWords {
		if !lex.AsciiLetters(w) || strings.ToLower(w) != w {
			t.Errorf("label word %q is not lower-case ASCII letters", w)
		}
		shortest, longest = min(shortest, len(w)), max(longest, len(w))
	}
	if shortest != tag.MinLabelWord || longest != tag.MaxLabelWord {
		t.Errorf("label words are %d to %d bytes; the bounds say %d to %d", shortest, longest, tag.MinLabelWord, tag.MaxLabelWord)
	}
}

// BenchmarkAppendLabelled is the label search on code, as a Write call's
// content brings it (this package's sources), by appendLabelled and by
// lowering every word first, side by side.
func BenchmarkAppendLabelled(b *testing.B) {
	var code strings.Builder
	for _, name := range []string{"literal.go", "scan.go", "replay.go"} {
		src, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		code.Write(src)
	}
	text := code.String()
	for _, way := range []struct {
		name   string
		search func(string, []tag.LiteralHit) []tag.LiteralHit
	}{{"rawWords", tag.AppendLabelled}, {"lowered", appendLabelledLowered}} {
		b.Run(way.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				way.search(text, nil)
			}
		})
	}
}

// TestTokenByteSets holds the tables of rawTokenSeq to the byte lists they
// were written as.
func TestTokenByteSets(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		sep := false
		switch b {
		case ' ', '\t', '\n', '\r', ',', ';', '|', '(', ')', '[', ']', '{', '}', '<', '>', '"', '`':
			sep = true
		}
		if tag.IsTokenSep(b) != sep {
			t.Errorf("isTokenSep(%q) = %v", b, !sep)
		}
		if trail := strings.IndexByte(".,;:!?)'\"`*]}>", b) >= 0; tag.TokenTrail[b] != trail {
			t.Errorf("tokenTrail[%q] = %v", b, !trail)
		}
		if lead := strings.IndexByte("('\"`*[{<", b) >= 0; tag.TokenLead[b] != lead {
			t.Errorf("tokenLead[%q] = %v", b, !lead)
		}
	}
}
