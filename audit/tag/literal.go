package tag

import (
	"cmp"
	"iter"
	"slices"
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

// RawTokens splits text at white space and brackets, keeping the characters
// paths, URIs and identifiers are made of, and trims trailing punctuation.
func RawTokens(text string) []lex.Word { return slices.Collect(RawTokenSeq(text)) }

// RawTokenSeq yields the tokens of text one by one, for a reader that
// needs no list.
func RawTokenSeq(text string) iter.Seq[lex.Word] {
	return func(yield func(lex.Word) bool) {
		i := 0
		for i < len(text) {
			for i < len(text) && IsTokenSep(text[i]) {
				i++
			}
			j := i
			for j < len(text) && !IsTokenSep(text[j]) {
				j++
			}
			if j > i {
				s, e := i, j
				for e > s && TokenTrail[text[e-1]] {
					e--
				}
				for s < e && TokenLead[text[s]] {
					s++
				}
				if e > s && !yield(lex.Word{W: text[s:e], Start: s, End: e}) {
					return
				}
			}
			i = j
		}
	}
}

func IsTokenSep(c byte) bool { return tokenSeps[c] }

// The bytes that end a raw token, and those trimmed from its ends: tables,
// as every byte of a call's content is looked at.
var (
	tokenSeps  = ByteSet(" \t\n\r,;|()[]{}<>\"`")
	TokenTrail = ByteSet(".,;:!?)'\"`*]}>")
	TokenLead  = ByteSet("('\"`*[{<")
)

func ByteSet(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
}

// ClassifyToken decides whether text[start:end] is a literal, and which.
func ClassifyToken(text string, start, end int) (LiteralHit, bool) {
	if t := text[start:end]; ProseWord(t) {
		// most tokens of prose and of a heredoc are words: of the readings
		// below only a file name takes one (FuzzClassifyProseWord)
		if strings.EqualFold(t, "makefile") || strings.EqualFold(t, "dockerfile") {
			return LiteralHit{Value: t, Kind: "file", Start: start, End: end}, true
		}
		return LiteralHit{}, false
	}
	return ClassifyAny(text, start, end)
}

// ProseWord: ASCII letters with no capital after a small letter — a word,
// not camelCase.
func ProseWord(t string) bool {
	small := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= 'a' && c <= 'z':
			small = true
		case c >= 'A' && c <= 'Z':
			if small {
				return false
			}
		default:
			return false
		}
	}
	return t != ""
}

// ClassifyAny is classifyToken for any token.
func ClassifyAny(text string, start, end int) (LiteralHit, bool) {
	t := text[start:end]
	if strings.ContainsAny(t, "*?[]{}<>") && !strings.Contains(t, "://") {
		return LiteralHit{}, false // a glob or a placeholder, not a value
	}
	h := LiteralHit{Value: t, Start: start, End: end}
	lower := lex.FoldLower(t)
	switch {
	case isURI(t):
		h.Kind = "uri"
	case isEmail(t):
		h.Kind = "email"
	case isAbsPath(t):
		if devicePaths[t] {
			return h, false
		}
		h.Kind = "path"
	case isRelPath(t):
		h.Kind = "path"
	case isEnvVar(t):
		h.Kind = "env"
	case strings.HasPrefix(t, "--") && len(t) > 3 && isLowerIdent(strings.SplitN(t[2:], "=", 2)[0]):
		h.Kind = "flag"
	case isHost(lower):
		h.Kind = "host"
	case isTicketID(t):
		h.Kind = "id"
	case isHash(lower):
		h.Kind = "hash"
	case isVersion(text, start, lower):
		h.Kind = "version"
	case isFileName(lower):
		h.Kind = "file"
	case isIdentifierName(t):
		h.Kind = "name"
	default:
		return h, false
	}
	return h, true
}

func isURI(t string) bool {
	i := strings.Index(t, "://")
	if i <= 0 || i+3 >= len(t) {
		return false
	}
	for k, r := range t[:i] {
		if !(unicode.IsLetter(r) || k > 0 && (unicode.IsDigit(r) || r == '+' || r == '.' || r == '-')) {
			return false
		}
	}
	return true
}

func isEmail(t string) bool {
	at := strings.IndexByte(t, '@')
	if at <= 0 || strings.Count(t, "@") != 1 || strings.Contains(t, "/") {
		return false
	}
	domain := t[at+1:]
	dot := strings.LastIndexByte(domain, '.')
	return dot > 0 && dot < len(domain)-2
}

func isAbsPath(t string) bool {
	if strings.HasPrefix(t, "~/") && len(t) > 2 {
		return true
	}
	if len(t) < 2 || t[0] != '/' || t[1] == '/' {
		return false
	}
	// "/s" or "/ms" as in "5 req/s" are units, not paths
	if strings.Count(t, "/") == 1 && len(t) <= 3 {
		return false
	}
	c := t[1]
	return c == '.' || c == '_' || c == '~' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
}

// isRelPath accepts relative paths that cannot be read as prose: with ./ or
// ../, with a file extension, with a trailing slash, or with two slashes.
func isRelPath(t string) bool {
	if !strings.Contains(t, "/") || strings.Contains(t, "://") || strings.Contains(t, " ") {
		return false
	}
	if strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") {
		return len(t) > 2
	}
	trimmed := strings.TrimSuffix(t, "/")
	nseg, last, first := 0, "", ""
	for rest := trimmed; ; {
		seg, tail, more := strings.Cut(rest, "/")
		if seg == "" || !isPathSegment(seg) {
			return false
		}
		if nseg == 0 {
			first = seg
		}
		nseg, last = nseg+1, seg
		if !more {
			break
		}
		rest = tail
	}
	if dot := strings.LastIndexByte(last, '.'); dot > 0 && fileExts[AsciiLower(last[dot+1:])] {
		return true
	}
	if nseg >= 3 {
		return true
	}
	// "src/" and "out/" name folders; "and/or" does not end in a slash.
	return strings.HasSuffix(t, "/") && !notFolders[AsciiLower(first)]
}

// notFolders are words that pair with a slash in prose: and/or, yes/no.
var notFolders = lex.ToSet(`and or yes no true false either on off he she his her`)

func isPathSegment(s string) bool {
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-@+~*", r)) {
			return false
		}
	}
	return true
}

func isEnvVar(t string) bool {
	s := strings.TrimPrefix(strings.TrimPrefix(t, "$"), "{")
	s = strings.TrimSuffix(s, "}")
	if len(s) < 4 {
		return false
	}
	if t[0] != '$' && !strings.Contains(s, "_") {
		return false
	}
	for i, r := range s {
		if !(r >= 'A' && r <= 'Z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func isLowerIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// isHost accepts host names (db-3.internal, api.example.com) with an
// optional port.
func isHost(lower string) bool {
	host := lower
	if i := strings.LastIndexByte(host, ':'); i > 0 {
		if !AllDigits(host[i+1:]) {
			return false
		}
		if host[:i] == "localhost" {
			return true
		}
		host = host[:i]
	}
	labels, lastLabel := 0, ""
	for rest := host; ; {
		l, tail, more := strings.Cut(rest, ".")
		if l == "" || !isLowerIdent(l) {
			return false
		}
		labels, lastLabel = labels+1, l
		if !more {
			break
		}
		rest = tail
	}
	if labels < 2 {
		return false
	}
	if !Tlds[lastLabel] || fileExts[lastLabel] && labels == 2 {
		return false
	}
	return true
}

// AsciiLower lowers a short ASCII word without allocating when it is
// already lower case.
func AsciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return lex.FoldLower(s)
		}
	}
	return s
}

func AllDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// isTicketID accepts JIRA-123, entry:4471, #1234 and PR-style ids.
func isTicketID(t string) bool {
	if strings.HasPrefix(t, "#") && len(t) >= 3 && AllDigits(t[1:]) {
		return true
	}
	// a chat channel: #ops-cutover
	if strings.HasPrefix(t, "#") && len(t) >= 4 && strings.Contains(t, "-") && isLowerIdent(t[1:]) {
		return true
	}
	if i := strings.IndexByte(t, ':'); i > 0 && i < len(t)-1 {
		return isLowerIdent(lex.FoldLower(t[:i])) && AllDigits(t[i+1:]) && !AllDigits(t[:i])
	}
	i := strings.LastIndexByte(t, '-')
	if i <= 0 || !AllDigits(t[i+1:]) {
		return false
	}
	prefix := t[:i]
	if len(prefix) < 2 || len(prefix) > 10 {
		return false
	}
	for _, r := range prefix {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return prefix[0] >= 'A' && prefix[0] <= 'Z'
}

// isHash accepts commit hashes and UUIDs: hex with letters and digits.
func isHash(lower string) bool {
	s := lower
	if len(s) == 36 && strings.Count(s, "-") == 4 {
		s = strings.ReplaceAll(s, "-", "")
	}
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	letters, digits := 0, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'f':
			letters++
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}

// isVersion accepts v1.2, 1.2.3, and 1.26 after "version", "go" or "@".
func isVersion(text string, start int, lower string) bool {
	s := lower
	if at := strings.LastIndexByte(s, '@'); at > 0 {
		s = s[at+1:]
	}
	explicit := strings.HasPrefix(s, "v") && len(s) > 1 && s[1] >= '0' && s[1] <= '9'
	s = strings.TrimPrefix(s, "v")
	if i := strings.IndexAny(s, "-+"); i > 0 {
		s = s[:i]
	}
	parts := 0
	for rest := s; ; {
		p, tail, more := strings.Cut(rest, ".")
		if !AllDigits(p) {
			return false
		}
		parts++
		if !more {
			break
		}
		rest = tail
	}
	if parts >= 3 || explicit && parts >= 1 || strings.Contains(lower, "@") && parts >= 2 {
		return true
	}
	if parts == 2 {
		before := lex.FoldLower(strings.TrimSpace(text[max(0, start-12):start]))
		return strings.HasSuffix(before, "version") || strings.HasSuffix(before, "go") || strings.HasSuffix(before, "python") ||
			strings.HasSuffix(before, "node") || strings.HasSuffix(before, "release")
	}
	return false
}

func isFileName(lower string) bool {
	dot := strings.LastIndexByte(lower, '.')
	if dot <= 0 || dot == len(lower)-1 {
		return strings.EqualFold(lower, "makefile") || strings.EqualFold(lower, "dockerfile")
	}
	stem := lower[:dot]
	if len(stem) < 2 && stem != "." {
		return false
	}
	return fileExts[lower[dot+1:]] && isPathSegment(stem)
}

// isIdentifierName accepts names no prose word has: snake_case,
// camelCase, names with digits and dashes (acme-stage-07), and
// Header-Style-Names (Co-Authored-By).
func isIdentifierName(t string) bool {
	if len(t) < 3 || strings.ContainsAny(t, "/:@=%$#'’") {
		return false
	}
	for _, r := range t {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	if strings.HasPrefix(t, "-") || strings.HasSuffix(t, "-") || strings.HasPrefix(t, "_") && len(t) < 4 {
		return false
	}
	hasLetter, hasDigit, inner := false, false, false
	for i, r := range t {
		switch {
		case unicode.IsDigit(r):
			hasDigit = true
		case unicode.IsLetter(r):
			hasLetter = true
			if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(t[i-1])) {
				inner = true
			}
		}
	}
	if !hasLetter {
		return false
	}
	if strings.Contains(t, "_") {
		return true
	}
	if strings.Contains(t, "-") {
		if hasDigit {
			return true
		}
		parts := strings.Split(t, "-")
		capital := 0
		for _, p := range parts {
			if p != "" && unicode.IsUpper(rune(p[0])) {
				capital++
			}
		}
		return len(parts) >= 3 && capital == len(parts)
	}
	if strings.Contains(t, ".") {
		return false
	}
	// camelCase with a lower-case start (getUserById); brand names with one
	// small letter in front (iPhone, eBay) and OS names are prose.
	if inner && unicode.IsLower(rune(t[0])) && len(t) > 2 && unicode.IsLower(rune(t[1])) {
		return !brandNames[lex.FoldLower(t)]
	}
	return false
}

var brandNames = lex.ToSet(`macos ipados watchos tvos visionos youtube github gitlab linkedin javascript typescript
postgresql mysql graphql openapi webassembly`)

// AppendLabelled finds names called out by a label word: "bucket X",
// "the X branch", "port 8080". A label's name is the word before or after
// it, so the words go by in a window of three: a pasted log of millions of
// words needs no list of them.
func AppendLabelled(text string, hits []LiteralHit) []LiteralHit {
	var win [3]lex.Word // the two words before the newest, and the newest
	n := 0
	visit := func(ws []lex.Word, i int) {
		if label := labelOf(ws[i].W); label != "" {
			hits = AppendLabelHit(hits, text, ws, i, label)
		}
	}
	for w := range lex.WordsOf(text, false) {
		win[0], win[1], win[2] = win[1], win[2], w
		n++
		switch {
		case n >= 3:
			visit(win[:], 1) // the word before the newest, with both neighbours
		case n == 2:
			visit(win[1:], 0)
		}
	}
	switch {
	case n >= 2:
		visit(win[1:], 1) // the last word, with the one before it
	case n == 1:
		visit(win[2:], 0)
	}
	return hits
}

// AppendLabelHit adds the name the label word ws[i] calls out, if any.
// The words may be lowered or as written.
func AppendLabelHit(hits []LiteralHit, text string, ws []lex.Word, i int, label string) []LiteralHit {
	// Label then name: "branch release-2", "port 8080"
	if i+1 < len(ws) {
		n := ws[i+1]
		raw := text[n.Start:n.End]
		if label == "port" && AllDigits(raw) && len(raw) >= 2 && len(raw) <= 5 {
			return append(hits, LiteralHit{Value: raw, Kind: "port", Label: "port", Start: n.Start, End: n.End})
		}
		if labelledName(raw) {
			return append(hits, LiteralHit{Value: raw, Kind: "name", Label: label, Start: n.Start, End: n.End})
		}
	}
	// name then label: "the acme-stage-07 bucket"
	if i > 0 {
		p := ws[i-1]
		raw := text[p.Start:p.End]
		if labelledName(raw) && !lex.StopWords[lex.FoldLower(lex.PlainWord(p.W))] {
			return append(hits, LiteralHit{Value: raw, Kind: "name", Label: label, Start: p.Start, End: p.End})
		}
	}
	return hits
}

// labelOf is the label word a word of a text is, lowered and trimmed of
// what is not a letter, or "". It lowers only a word as long as a label
// word: plainWord and foldLower commute, and every label word is ASCII.
func labelOf(w string) string {
	if w == "" {
		return ""
	}
	if !asciiAlnum(w[0]) || !asciiAlnum(w[len(w)-1]) {
		// plainWord trims the ends only, and a word that keeps anything
		// but ASCII letters is no label word: most words of code
		w = lex.PlainWord(w)
	}
	if len(w) < MinLabelWord || len(w) > MaxLabelWord {
		return ""
	}
	var lower [MaxLabelWord]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	if c := lower[0]; c < 'a' || c > 'z' || !labelShapes[len(w)][c-'a'] {
		return "" // most words of code are within the lengths
	}
	return labelNames[string(lower[:len(w)])]
}

// labelShapes marks the length and first letter of each label word.
var labelShapes = func() (t [MaxLabelWord + 1][26]bool) {
	for w := range LabelWords {
		t[len(w)][w[0]-'a'] = true
	}
	return t
}()

func asciiAlnum(c byte) bool { return lex.AsciiLetter(c) || '0' <= c && c <= '9' }

// labelNames maps each label word to itself, so a hit's label is the
// word of the set, not a copy: code names "file", "path" and "key" often.
var labelNames = func() map[string]string {
	m := map[string]string{}
	for w := range LabelWords {
		m[w] = w
	}
	return m
}()

// The shortest and longest label words.
const MinLabelWord, MaxLabelWord = 2, 12

// labelledName accepts a token a label word points at: it must look like
// a name (a separator or a digit), not an ordinary word.
func labelledName(t string) bool {
	// "any service, e.g. the web one": an abbreviation names nothing
	if len(t) < 2 || lex.StopWords[lex.FoldLower(t)] || lex.IsAbbrevEnd(t) {
		return false
	}
	return strings.ContainsAny(t, "-_.0123456789/") && !AllDigits(t)
}

// DedupeHits keeps one hit per span: overlapping hits keep the most
// specific kind, and a label found for a span is carried over. Each hit
// is merged into the first kept hit it overlaps, in the order they were
// kept.
func DedupeHits(hits []LiteralHit) []LiteralHit {
	var out []LiteralHit
	var index hitIndex
	for _, h := range hits {
		h.Value = strings.Trim(h.Value, "`'\"")
		if h.Value == "" {
			continue
		}
		k := index.firstOverlap(out, h)
		if k < 0 {
			out = append(out, h)
			index.add(out, len(out)-1)
			continue
		}
		o := &out[k]
		if h.Label != "" && o.Label == "" {
			o.Label = h.Label
		}
		if LiteralRank[h.Kind] < LiteralRank[o.Kind] || h.End-h.Start > o.End-o.Start && LiteralRank[h.Kind] <= LiteralRank[o.Kind] {
			label := o.Label
			index.remove(out, k)
			*o = h
			if o.Label == "" {
				o.Label = label
			}
			index.add(out, k)
		}
	}
	// by position, for stable output
	slices.SortStableFunc(out, func(a, b LiteralHit) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// hitIndex finds the kept hits a hit overlaps without walking them all: a
// pasted list or a written fixture file holds tens of thousands of
// Literals, and a walk for each would cost the square of that. Up to
// hitIndexFrom kept hits it is the walk; past that the hits are found by
// their starts, in buckets of 64 bytes, among those that can reach the hit.
type hitIndex struct {
	buckets map[int][]int // start/64 → kept hits, by their place in out
	maxSpan int           // the longest kept hit
}

const hitIndexFrom = 16

func overlaps(a, b LiteralHit) bool { return a.Start < b.End && b.Start < a.End }

func (x *hitIndex) firstOverlap(out []LiteralHit, h LiteralHit) int {
	if x.buckets == nil {
		for k := range out {
			if overlaps(h, out[k]) {
				return k
			}
		}
		return -1
	}
	first := -1
	// a kept hit that overlaps h starts after h.start-maxSpan and before h.end
	for b := max(0, h.Start-x.maxSpan) >> 6; b <= (h.End-1)>>6; b++ {
		for _, k := range x.buckets[b] {
			if (first < 0 || k < first) && overlaps(h, out[k]) {
				first = k
			}
		}
	}
	return first
}

func (x *hitIndex) add(out []LiteralHit, k int) {
	x.maxSpan = max(x.maxSpan, out[k].End-out[k].Start)
	if x.buckets == nil {
		if len(out) <= hitIndexFrom {
			return
		}
		x.buckets = map[int][]int{}
		for i := range out[:k] {
			x.put(out, i)
		}
	}
	x.put(out, k)
}

func (x *hitIndex) put(out []LiteralHit, k int) {
	b := max(0, out[k].Start) >> 6
	x.buckets[b] = append(x.buckets[b], k)
}

func (x *hitIndex) remove(out []LiteralHit, k int) {
	if x.buckets == nil {
		return
	}
	b := max(0, out[k].Start) >> 6
	x.buckets[b] = slices.DeleteFunc(x.buckets[b], func(i int) bool { return i == k })
}
