package audit

import (
	"os"
	"path/filepath"
	"testing"
)

// checkProseWord holds classifyToken's shortcut for words to the readings
// it skips: on a word of letters they must say the same.
func checkProseWord(t *testing.T, before, tok string) {
	t.Helper()
	text := before + tok
	got, gotOK := classifyToken(text, len(before), len(text))
	want, wantOK := classifyAny(text, len(before), len(text))
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
		if proseWord(string(tok)) {
			checkProseWord(t, before, string(tok))
		}
	})
}

// TestClassifyProseWordsOfTranscripts checks the shortcut on every word of
// the testdata transcripts and, when present, the corpus.
func TestClassifyProseWordsOfTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", "*.jsonl"))
	corpus, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "*", "*.jsonl"))
	n := 0
	seen := map[string]bool{}
	for _, p := range append(files, corpus...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, w := range rawTokens(text) {
			if proseWord(w.w) && !seen[w.w] {
				seen[w.w] = true
				checkProseWord(t, text[max(0, w.start-12):w.start], w.w)
				n++
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d words checked", n)
	}
	t.Logf("%d distinct words checked", n)
}
