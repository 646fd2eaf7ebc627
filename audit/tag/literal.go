package tag

import (
	"strings"
	"unicode"

	"github.com/compaudit/compaudit/audit/lex"
)

// LiteralHit is a literal found in text.
type LiteralHit struct {
	Value      string // as written, without quotes
	Kind       string // uri, path, email, id, hash, version, env, flag, port, host, name, code, file
	Label      string // the word that named it: bucket, branch, port, …
	Start, End int    // byte span in the text
}

// Literal kinds ranked from most to least specific; when two readings of
// one span compete, the more specific wins.
var LiteralRank = map[string]int{"pattern": 0, "uri": 1, "email": 2, "path": 3, "host": 4, "id": 5, "hash": 6,
	"version": 7, "env": 8, "flag": 9, "port": 10, "file": 11, "name": 12, "code": 13}

// LabelWords name the thing a following (or preceding) token is.
var LabelWords = lex.ToSet(`bucket branch host hostname service cluster namespace database db table queue topic
repo repository project environment env region port account org organization workspace image tag
container pod deployment channel key secret endpoint domain zone stack function lambda tool model
directory dir folder file path package module crate gem library`)

var fileExts = lex.ToSet(`go mod sum py pyi js mjs cjs ts tsx jsx json jsonl yaml yml toml md mdx txt sh bash zsh fish
rb rs java kt kts scala c h cc cpp hpp cs fs ex exs erl hrl heex eex sql html htm css scss sass less
env lock cfg ini conf xml csv tsv log proto tf tfvars hcl gradle swift php vue svelte ipynb rst
dockerfile mk makefile cmake bat ps1 lua pl r dart zig nim elm clj cljs edn graphql gql prisma`)

// Tlds end host names; words that are also file extensions or common
// English (app, run, page) are left out so "compile.app" stays a file.
// devicePaths are plumbing, not places a later turn is held to.
var devicePaths = lex.ToSet(`/dev/null /dev/stdout /dev/stderr /dev/stdin /dev/zero /dev/tty /tmp /tmp/`)

var Tlds = lex.ToSet(`com net org io dev ai co internal local localhost cloud svc gov edu corp lan`)

// FindLiterals extracts every literal from text.
func FindLiterals(text string) []LiteralHit {
	var hits []LiteralHit
	hits = appendQuoted(text, hits)
	for w := range RawTokenSeq(text) {
		if w.Start > 0 && text[w.Start-1] == '<' {
			continue // a closing markup tag: </task-id>
		}
		if h, ok := ClassifyToken(text, w.Start, w.End); ok {
			hits = append(hits, h)
			continue
		}
		// a refspec or a key:value pair: HEAD:release-2026-03
		if t := text[w.Start:w.End]; strings.Count(t, ":") == 1 && !strings.Contains(t, "://") {
			i := strings.IndexByte(t, ':')
			for _, part := range [][2]int{{w.Start, w.Start + i}, {w.Start + i + 1, w.End}} {
				if part[1] > part[0] {
					if h, ok := ClassifyToken(text, part[0], part[1]); ok {
						hits = append(hits, h)
					}
				}
			}
		}
	}
	hits = AppendLabelled(text, hits)
	return DedupeHits(outsideKeyBlocks(text, hits))
}

// outsideKeyBlocks drops the hits inside a PEM block: a private key or a
// certificate pasted into a turn or written by a call. Each of its body
// lines read as a literal of its own, and a summary that left the block
// out dropped two dozen of them; quoted alone, a line of a private key is
// no longer anything redaction can tell for a secret, so every report
// showed it.
func outsideKeyBlocks(text string, hits []LiteralHit) []LiteralHit {
	if !strings.Contains(text, "-----BEGIN ") {
		return hits
	}
	blocks := pemBlocks(text)
	kept := hits[:0]
	for _, h := range hits {
		inside := false
		for _, b := range blocks {
			inside = inside || h.Start >= b[0] && h.Start < b[1]
		}
		if !inside {
			kept = append(kept, h)
		}
	}
	return kept
}

// pemBlocks are the spans of text's PEM blocks: a -----BEGIN LABEL----- line,
// the body, and the END line; or, where the END line is missing (a block
// cut short), the body lines that follow, made of base64 and the header
// fields an encrypted key has (Proc-Type:, DEK-Info:).
func pemBlocks(text string) [][2]int {
	var blocks [][2]int
	for from := 0; ; {
		i := strings.Index(text[from:], "-----BEGIN ")
		if i < 0 {
			return blocks
		}
		start := from + i
		end := lineEnd(text, start)
		for end < len(text) {
			next := lineEnd(text, end+1)
			line := strings.TrimSpace(text[end+1 : next])
			if strings.HasPrefix(line, "-----END ") {
				end = next
				break
			}
			if !isPEMBodyLine(line) {
				break
			}
			end = next
		}
		blocks = append(blocks, [2]int{start, end})
		from = max(end, start+1)
	}
}

// lineEnd is the index of the line break that ends the line holding i, or
// len(text).
func lineEnd(text string, i int) int {
	if i >= len(text) {
		return len(text)
	}
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}

// isPEMBodyLine reports a line a PEM body holds: base64, a header field,
// or nothing.
func isPEMBodyLine(line string) bool {
	if strings.HasPrefix(line, "Proc-Type:") || strings.HasPrefix(line, "DEK-Info:") || strings.HasPrefix(line, "Comment:") {
		return true
	}
	for i := 0; i < len(line); i++ {
		if c := line[i]; !(lex.AsciiLetter(c) || lex.IsDigit(c) || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// appendQuoted finds `code spans` and "quoted identifiers". A quoted
// phrase with spaces is prose, not a literal.
func appendQuoted(text string, hits []LiteralHit) []LiteralHit {
	for i := 0; i < len(text); i++ {
		q := text[i]
		if q != '`' && q != '"' && q != '\'' {
			continue
		}
		if q == '`' && strings.HasPrefix(text[i:], "```") {
			// skip a fence marker
			i += 2
			continue
		}
		if q == '\'' && i > 0 && lex.IsIdentByte(text[i-1]) {
			continue // an apostrophe: don't, user's
		}
		j := strings.IndexByte(text[i+1:], q)
		if j < 0 {
			break
		}
		body := text[i+1 : i+1+j]
		end := i + 1 + j
		if len(body) == 0 || len(body) > 200 || strings.ContainsAny(body, "\n") {
			i = end
			continue
		}
		if q != '`' && (strings.ContainsAny(body, " \t") || !looksIdentifier(body)) {
			i = end
			continue
		}
		if q == '`' && (strings.ContainsAny(body, " \t<>*?") || !hasAlnum(body) || len(body) < 2) {
			// a command or phrase in backticks is not one token; its
			// Literals are found one by one
			i = end
			continue
		}
		kind := "code"
		if q != '`' {
			kind = "name"
		}
		if h, ok := ClassifyToken(text, i+1, end); ok && !strings.ContainsAny(body, " \t") {
			kind = h.Kind
		}
		hits = append(hits, LiteralHit{Value: body, Kind: kind, Start: i + 1, End: end})
		i = end
	}
	return hits
}

func hasAlnum(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// looksIdentifier accepts quoted text that reads as a name, not a word of
// prose: it has a digit, a separator or inner capitals.
func looksIdentifier(s string) bool {
	if len(s) < 2 {
		return false
	}
	if strings.ContainsAny(s, "0123456789_-./:@=$") {
		return true
	}
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// The bytes that end a raw token, and those trimmed from its ends: tables,
// as every byte of a call's content is looked at.
var (
	tokenSeps  = ByteSet(" \t\n\r,;|()[]{}<>\"`")
	TokenTrail = ByteSet(".,;:!?)'\"`*]}>")
	TokenLead  = ByteSet("('\"`*[{<")
)

func overlaps(a, b LiteralHit) bool { return a.Start < b.End && b.Start < a.End }
