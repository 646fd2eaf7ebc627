package tag

import (
	"iter"
	"slices"
	"strings"
	"unicode"

	"github.com/compaudit/compaudit/audit/lex"
)

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
	if !nameShaped(t) {
		return false
	}
	hasLetter, hasDigit, inner := identLetters(t)
	switch {
	case !hasLetter:
		return false
	case strings.Contains(t, "_"):
		return true
	case strings.Contains(t, "-"):
		return hasDigit || headerStyle(t)
	case strings.Contains(t, "."):
		return false
	}
	// camelCase with a lower-case start (getUserById); brand names with one
	// small letter in front (iPhone, eBay) and OS names are prose.
	if inner && unicode.IsLower(rune(t[0])) && len(t) > 2 && unicode.IsLower(rune(t[1])) {
		return !brandNames[lex.FoldLower(t)]
	}
	return false
}

// nameShaped: three or more letters, digits, '_', '-' and '.', neither
// starting nor ending with a dash, nor a short name led by '_'.
func nameShaped(t string) bool {
	if len(t) < 3 || strings.ContainsAny(t, "/:@=%$#'’") {
		return false
	}
	for _, r := range t {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return !(strings.HasPrefix(t, "-") || strings.HasSuffix(t, "-") || strings.HasPrefix(t, "_") && len(t) < 4)
}

// identLetters says whether t has a letter, a digit, and a capital right
// after a small letter (camelCase).
func identLetters(t string) (hasLetter, hasDigit, inner bool) {
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
	return hasLetter, hasDigit, inner
}

// headerStyle: three or more dashed parts, each capitalised
// (Co-Authored-By).
func headerStyle(t string) bool {
	parts := strings.Split(t, "-")
	capital := 0
	for _, p := range parts {
		if p != "" && unicode.IsUpper(rune(p[0])) {
			capital++
		}
	}
	return len(parts) >= 3 && capital == len(parts)
}

var brandNames = lex.ToSet(`macos ipados watchos tvos visionos youtube github gitlab linkedin javascript typescript
postgresql mysql graphql openapi webassembly`)
