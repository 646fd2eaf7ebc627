// Package mask finds secret-shaped strings (private keys, cloud and vendor
// tokens, webhooks, credentials in URLs and headers, assigned secrets) in
// rendered bytes and masks them, never with a mask longer than the
// secret. It knows nothing of findings or formats: report and cmd decide
// what is masked and when.
package mask

import (
	"bytes"
	"iter"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Transcripts hold credentials: keys pasted into prompts, tokens echoed by
// tools, .env files an agent read. Redact masks the secret-shaped strings
// of a rendered report, whatever its format, so a report can be attached to
// a pull request or a postmortem without leaking them. It works on the
// rendered bytes — one pass that no format can escape — and never makes the
// output longer than the secret it replaces.

// secretPattern is one shape of secret. Group names the submatch to mask;
// 0 masks the whole match.
type secretPattern struct {
	Name string
	// Hints: one of them occurs inside every match, so only the text around
	// a hint is searched. A pattern that folds case has its hints in lower
	// case and looks for them whatever their ASCII case.
	Hints []string
	Fold  bool
	Re    *regexp.Regexp
	Group int
	Min   int // shortest value masked; shorter ones are left as they are
	// Standalone: the match must not follow a letter or a digit
	Standalone bool
	// inMatch holds the bytes a match can be made of, read from the
	// expression itself (matchBytes), so it cannot fall out of step with it.
	inMatch *[256]bool
}

func newPattern(name string, hints []string, expr string, group, min int) secretPattern {
	p := secretPattern{Name: name, Hints: hints, Re: regexp.MustCompile(expr), Group: group, Min: min}
	p.Fold = strings.HasPrefix(expr, "(?i)")
	if p.Fold {
		for i, h := range hints {
			hints[i] = strings.ToLower(h)
		}
	}
	p.inMatch = matchBytes(expr)
	return p
}

// secretValue is the value of a named secret: a digit and a letter
// together, so a word ("required", "getToken") or a variable ("$API_KEY")
// is left as it is.
const secretValue = `[A-Za-z0-9_\-+/.=]*[0-9][A-Za-z0-9_\-+/.=]*[A-Za-z][A-Za-z0-9_\-+/.=]*|[A-Za-z0-9_\-+/.=]*[A-Za-z][A-Za-z0-9_\-+/.=]*[0-9][A-Za-z0-9_\-+/.=]*`

// SecretPatterns are compiled on first use: a run that does not redact (the
// machine formats, unless asked) needs none of them, and compiling them cost
// every run a few milliseconds at start.
var SecretPatterns = sync.OnceValue(func() []secretPattern {
	patterns := []secretPattern{
		// a whole block, or what is left of one an excerpt cut short: the
		// body (base64, an encrypted key's Proc-Type: and DEK-Info: lines,
		// line breaks, which JSON's \n is once blanked) and its END line if it has
		// one. The body is read as what it may hold, not as anything up to
		// the END line: that lazy [\s\S]*? searched the rest of the
		// document for each BEGIN without an END, and 256 KB of such lines
		// took 30 seconds.
		newPattern("private key", []string{"PRIVATE KEY"},
			`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:[A-Za-z0-9+/=\s:,]|-[A-Za-z0-9])*(?:-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)?`, 0, 0),
		newPattern("AWS access key", []string{"AKIA", "ASIA", "ABIA", "ACCA"},
			`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`, 0, 0),
		newPattern("AWS secret key", []string{"secret"},
			`(?i)aws.{0,20}?secret.{0,20}?(?:key)?(?:["'\\]|&#34;|&#39;|&quot;)*\s*[:=]\s*(?:["'\\]|&#34;|&#39;|&quot;)*([A-Za-z0-9/+]{40})\b`, 1, 0),
		newPattern("GitHub token", []string{"gh", "github_pat_"},
			`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`, 0, 0),
		newPattern("API key", []string{"sk-", "sk_", "rk_"},
			`\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|[sr]k_(?:live|test)_[0-9A-Za-z]{16,})`, 0, 0),
		newPattern("Google API key", []string{"AIza"},
			`\bAIza[0-9A-Za-z_\-]{35}\b`, 0, 0),
		newPattern("Slack token", []string{"xox", "xapp-"},
			`\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}\b`, 0, 0),
		newPattern("Azure key", []string{"AccountKey", "SharedAccessKey"},
			`(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/=]{40,})`, 1, 0),
		// a header, a payload and a signature; or the first two, or the
		// first and part of the second, with the rest cut off by an
		// excerpt (…): a JWT is long, and an excerpt that ends inside it
		// showed what it kept
		newPattern("JSON web token", []string{"eyJ"},
			`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ(?:[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}|[A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]*)?…)`, 0, 0),
		newPattern("bearer token", []string{"bearer", "basic"},
			`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9\-._~+/]{16,}=*)`, 1, 0),
		newPattern("password in URL", []string{"://"},
			`\b[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@"'<>\\]+:([^/\s@"'<>\\]+)@`, 1, 0),
		newPattern("webhook URL", []string{"hooks.slack.com", "/api/webhooks/"},
			`(?:hooks\.slack\.com/(?:services|workflows|triggers)/|discord(?:app)?\.com/api/webhooks/[0-9]+/)([A-Za-z0-9_/\-]{16,})`, 1, 0),
		// API_KEY=…, "client_secret": "…", password: …, X-API-Key: …,
		// JWT_SIGNING_KEY=…, APP_KEY=base64:…
		newPattern("secret assignment", []string{"key", "secret", "token", "passwd", "password"},
			`(?i)(?:(?:api|access|private|secret|signing|encryption|master|client|auth|app)[_-]?key|secret|token|passw(?:or)?d)(?:["'\\]|&#34;|&#39;|&quot;)*\s*[:=]\s*(?:["'\\]|&#34;|&#39;|&quot;)*(?:base64:)?(`+secretValue+`)`, 1, 6),
		// --token …, --api-key=…, --password '…': how agents hand
		// credentials to CLIs (glab, doctl, huggingface-cli, docker login);
		// the name must end the flag, so --max-tokens 4096 and --token-file
		// PATH stay
		newPattern("secret flag", []string{"--"},
			`(?i)--[a-z0-9\-]*(?:api-?key|auth-?key|secret|token|passw(?:or)?d)(?:=|\s+)(?:["']|\\"|&#34;|&#39;|&quot;)?(`+secretValue+`)`, 1, 6),
	}
	for _, v := range vendorTokenShapes {
		p := newPattern(v.name, []string{v.hint}, v.expr, 0, 0)
		p.Standalone = true
		patterns = append(patterns, p)
	}
	for _, v := range inWordTokenShapes {
		patterns = append(patterns, newPattern(v.name, []string{v.hint}, v.expr, 0, 0))
	}
	return patterns
})

// Redact returns b with every secret-shaped string masked.
//
// A document of findings is mostly text that holds no secret, and an
// expression that does not start with a fixed string is tried at every
// byte: searching whole documents ran at 6–8 MB/s. So each pattern
// searches only the runs of bytes it can match (inMatch) that hold one of
// its hints. A match cannot reach past such a run, and holds a hint, so
// this finds every match the whole document holds. The byte either side of
// a run goes with it, for \b to see.
//
// The patterns search the document with its escapes blanked (escapesBlanked)
// and mask the same bytes of the document itself.
func Redact(b []byte) []byte {
	patterns := SecretPatterns()
	doc := searched{view: EscapesBlanked(b)}
	present := SecretHints().Present(doc.view, len(patterns))
	for k, p := range patterns {
		if !present[k] {
			continue // none of its hints occurs
		}
		if spans := p.spans(&doc); spans != nil {
			b = MaskSpans(b, spans)
			doc = searched{view: EscapesBlanked(b)}
		}
	}
	return b
}

// searched is a document as the patterns search it: its view (escapes
// blanked), and the view in ASCII lower case, made once, when a pattern
// that folds case first needs it.
type searched struct{ view, lower []byte }

// text is what p matches its hints in: the view, or its lower case.
func (d *searched) text(p *secretPattern) []byte {
	if !p.Fold {
		return d.view
	}
	if d.lower == nil {
		d.lower = AsciiLower(d.view)
	}
	return d.lower
}

// spans are the spans of the document that p masks, in order.
func (p *secretPattern) spans(d *searched) [][2]int {
	view := d.view
	var spans [][2]int
	for lo, hi := range p.runs(view, d.text(p)) {
		lo, hi = max(lo-1, 0), min(hi+1, len(view))
		for _, m := range p.Re.FindAllSubmatchIndex(view[lo:hi], -1) {
			start, end := m[2*p.Group], m[2*p.Group+1]
			if start < 0 || end-start < p.Min || p.Standalone && FollowsWord(view, lo+m[0]) {
				continue
			}
			spans = append(spans, [2]int{lo + start, lo + end})
		}
	}
	return spans
}

// SecretPieces is what Redact masks in s, in the pieces a report may quote
// apart from the words around them: each word of a masked span that is
// long enough to be told again (eight bytes and a digit, or sixteen) — a
// value without its name, a line of a private key.
func SecretPieces(s string) []string {
	patterns := SecretPatterns()
	doc := searched{view: EscapesBlanked([]byte(s))}
	present := SecretHints().Present(doc.view, len(patterns))
	var pieces []string
	for k, p := range patterns {
		if !present[k] {
			continue
		}
		for _, sp := range p.spans(&doc) {
			for _, w := range strings.Fields(s[sp[0]:sp[1]]) {
				if len(w) >= 16 || len(w) >= 8 && strings.ContainsAny(w, "0123456789") {
					pieces = append(pieces, w)
				}
			}
		}
	}
	return pieces
}

// EscapesBlanked returns b with every backslash escape that ends in a
// letter or a digit — \n, \t, \a, \u0007, \x1b — made spaces of the
// same length, or b itself when it holds no backslash. A format writes a
// line break or a control character before a token as such an escape
// (JSON \n and \u0007, the text views' \x07), and its last letter or digit
// glued to the token hid it from every pattern that wants a token to start
// a word: the JSON report showed a GitHub token or an AWS key that a tool
// printed on a line of its own. Blanked, the escape separates words as the
// character it stands for does in the transcript. A backslash before a
// letter that starts no escape (a Windows path's C:\Users) is blanked too,
// and so are the backslashes before an escape (\\n, a line break in JSON
// inside a JSON string): no secret holds a backslash, so that only
// separates more.
func EscapesBlanked(b []byte) []byte {
	i := bytes.IndexByte(b, '\\')
	if i < 0 {
		return b
	}
	v := bytes.Clone(b)
	for i < len(v) {
		// a run of backslashes: JSON inside a JSON string (a call's
		// arguments) writes a line break as \\n, and the backslashes
		// before the escape go with it
		last := i
		for last+1 < len(v) && v[last+1] == '\\' {
			last++
		}
		if n := wordEscapeLen(v[last:]); n > 0 {
			for j := i; j < last+n; j++ {
				v[j] = ' '
			}
		}
		next := bytes.IndexByte(v[last+1:], '\\')
		if next < 0 {
			break
		}
		i = last + 1 + next
	}
	return v
}

// wordEscapeLen is the length of the escape that starts b (at a backslash) when
// it ends in a letter or a digit: \u and four hex digits, \x and two, \U and
// eight, or a backslash and one letter; else 0.
func wordEscapeLen(b []byte) int {
	if len(b) < 2 || !isLetter(b[1]) {
		return 0
	}
	digits := 0
	switch b[1] {
	case 'u':
		digits = 4
	case 'x':
		digits = 2
	case 'U':
		digits = 8
	}
	if digits > 0 && len(b) >= 2+digits && allHex(b[2:2+digits]) {
		return 2 + digits
	}
	return 2
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// runs yields, in order and once each, the runs of b's bytes that p can
// match and that hold one of its hints (looked for in text: b, or b in
// lower case).
func (p *secretPattern) runs(b, text []byte) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		// next[i] is where hint i next occurs at or after from, or -1 when
		// it no longer does; kept from run to run, so each hint is looked
		// for once over the text, not once a run
		next := make([]int, len(p.Hints))
		find := func(i, from int) {
			next[i] = bytes.Index(text[from:], []byte(p.Hints[i]))
			if next[i] >= 0 {
				next[i] += from
			}
		}
		for i := range next {
			find(i, 0)
		}
		from := 0
		for {
			h := -1
			for i := range next {
				if next[i] >= 0 && next[i] < from {
					find(i, from)
				}
				if next[i] >= 0 && (h < 0 || next[i] < h) {
					h = next[i]
				}
			}
			if h < 0 {
				return
			}
			lo, hi := h, h
			for lo > 0 && p.inMatch[b[lo-1]] {
				lo--
			}
			for hi < len(b) && p.inMatch[b[hi]] {
				hi++
			}
			if hi == h { // only if a hint held a byte no match can: move on
				hi = h + 1
			}
			if !yield(lo, hi) {
				return
			}
			from = hi
		}
	}
}

// hintTable finds, in one pass over a document, which patterns have a hint
// in it. Looking for each hint on its own went over the document once a
// hint, 80 times, and most hints (the vendors' prefixes) occur nowhere: that
// was most of what redaction cost once patterns searched only around their
// Hints.
type hintTable struct {
	// slot[pair] is 1 + the index in refs of the hints that start with the
	// two bytes pair (either case for a folding pattern's), or 0
	slot [1 << 16]uint8
	refs [][]hintRef
}

type hintRef struct {
	pattern int
	hint    []byte
	fold    bool // matched whatever its ASCII case
}

var SecretHints = sync.OnceValue(func() *hintTable {
	t := &hintTable{}
	add := func(pair uint16, r hintRef) {
		if t.slot[pair] == 0 {
			t.refs = append(t.refs, nil)
			t.slot[pair] = uint8(len(t.refs))
		}
		i := t.slot[pair] - 1
		t.refs[i] = append(t.refs[i], r)
	}
	for k, p := range SecretPatterns() {
		for _, h := range p.Hints {
			if len(h) < 2 {
				panic("redact: a hint needs two bytes: " + h) // the patterns are the package's own
			}
			r := hintRef{pattern: k, hint: []byte(h), fold: p.Fold}
			c0, c1 := h[0], h[1]
			add(uint16(c0)<<8|uint16(c1), r)
			if p.Fold { // the hints are in lower case; the text may not be
				up := strings.ToUpper(h[:2])
				u0, u1 := up[0], up[1]
				for _, pair := range []uint16{uint16(u0)<<8 | uint16(c1), uint16(c0)<<8 | uint16(u1), uint16(u0)<<8 | uint16(u1)} {
					if pair != uint16(c0)<<8|uint16(c1) {
						add(pair, r)
					}
				}
			}
		}
	}
	if len(t.refs) > 255 {
		panic("redact: more hint pairs than a slot can index")
	}
	return t
})

// Present reports, for each of n patterns, whether one of its hints occurs
// in b.
func (t *hintTable) Present(b []byte, n int) []bool {
	found := make([]bool, n)
	for i := 0; i+1 < len(b); i++ {
		e := t.slot[uint16(b[i])<<8|uint16(b[i+1])]
		if e == 0 {
			continue
		}
		for _, r := range t.refs[e-1] {
			if !found[r.pattern] && hasPrefixFold(b[i:], r.hint, r.fold) {
				found[r.pattern] = true
			}
		}
	}
	return found
}

// hasPrefixFold is bytes.HasPrefix, ignoring case when fold. The hints are
// ASCII, so as many bytes of b as the hint has can equal it, folded, only
// if they are ASCII too: this is the ASCII folding the hints ask for.
func hasPrefixFold(b, prefix []byte, fold bool) bool {
	if len(b) < len(prefix) {
		return false
	}
	if fold {
		return bytes.EqualFold(b[:len(prefix)], prefix)
	}
	return bytes.Equal(b[:len(prefix)], prefix)
}

// FollowsWord reports whether the byte before i is a letter or a digit.
func FollowsWord(b []byte, i int) bool {
	return i > 0 && isAlnum(b[i-1])
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isAlnum(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9'
}

func AsciiLower(b []byte) []byte {
	l := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	return l
}

// MaskSpans masks the spans of b, which are in order and do not overlap.
func MaskSpans(b []byte, spans [][2]int) []byte {
	var out bytes.Buffer
	out.Grow(len(b))
	last := 0
	for _, s := range spans {
		out.Write(b[last:s[0]])
		out.WriteString(mask(s[1] - s[0]))
		last = s[1]
	}
	out.Write(b[last:])
	return out.Bytes()
}

// mask is the replacement for a secret of n bytes, never longer than it.
func mask(n int) string {
	const marker = "[REDACTED]"
	if n >= len(marker) {
		return marker
	}
	return "***"[:min(3, n)]
}

// vendorTokenShapes are credentials a vendor marks with a prefix of its own,
// so they are secrets wherever they stand — after a CLI flag, in a URL, on a
// line of a tool's output — with no name beside them. Each is what is issued
// today: the prefix and the length and alphabet of the rest, so a word that
// happens to start the same way is left alone.
var vendorTokenShapes = []struct{ name, hint, expr string }{
	{"GitLab", "gl", `gl(?:pat|ptt|dt|rt|cbt|imt|soat|ft|agent|oas)-[0-9A-Za-z_\-]{20,}`},
	{"npm token", "npm_", `npm_[A-Za-z0-9]{36}\b`},
	{"Hugging Face", "hf_", `hf_[A-Za-z]{34}\b`},
	{"PyPI upload token", "pypi-AgEI", `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}`},
	{"SendGrid", "SG.", `SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b`},
	{"DigitalOcean", "_v1_", `do[opr]_v1_[a-f0-9]{64}\b`},
	{"Shopify", "shp", `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`},
	{"Databricks", "dapi", `dapi[a-f0-9]{32}(?:-[0-9])?\b`},
	{"HashiCorp Vault", "hv", `hv[sbr]\.[A-Za-z0-9_\-]{24,}`},
	{"Google OAuth access token", "ya29.", `ya29\.[0-9A-Za-z_\-]{20,}`},
	{"Google OAuth client secret", "GOCSPX-", `GOCSPX-[A-Za-z0-9_\-]{28}\b`},
	{"Groq", "gsk_", `gsk_[A-Za-z0-9]{40,}\b`},
	{"xAI", "xai-", `xai-[A-Za-z0-9]{60,}\b`},
	{"Replicate", "r8_", `r8_[A-Za-z0-9]{37}\b`},
	{"Perplexity", "pplx-", `pplx-[A-Za-z0-9]{40,}\b`},
	{"Docker Hub", "dckr_pat_", `dckr_pat_[A-Za-z0-9_\-]{20,}`},
	{"Stripe webhook signing secret", "whsec_", `whsec_[A-Za-z0-9+/=]{24,}`},
	{"Tailscale", "tskey-", `tskey-[a-z]+-[A-Za-z0-9]+-[A-Za-z0-9]{16,}`},
	{"Postman", "PMAK-", `PMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`},
	{"Pulumi", "pul-", `pul-[a-f0-9]{40}\b`},
	{"Linear", "lin_api_", `lin_api_[A-Za-z0-9]{40}\b`},
	{"Supabase", "sbp_", `sbp_[a-f0-9]{40}\b`},
	{"Fly.io", "fo1_", `fo1_[A-Za-z0-9_\-]{43}\b`},
	{"Sentry", "sntry", `sntry[su]_[A-Za-z0-9+/=_\-]{40,}`},
	{"Doppler", "dp.", `dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`},
	{"Atlassian", "ATATT3", `ATATT3[A-Za-z0-9_\-=]{100,}`},
	{"Grafana service account", "glsa_", `glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b`},
	{"Grafana Cloud", "glc_", `glc_[A-Za-z0-9+/]{32,}={0,2}`},
	{"Alibaba Cloud", "LTAI", `LTAI[A-Za-z0-9]{20}\b`},
	{"age", "AGE-SECRET-KEY-", `AGE-SECRET-KEY-1[0-9A-Z]{58}`},
	{"Mailgun", "key-", `key-[0-9a-f]{32}\b`},
	{"RubyGems token", "rubygems_", `rubygems_[a-f0-9]{48}\b`},
	{"Netlify", "nfp_", `nfp_[A-Za-z0-9]{36}\b`},
	{"Figma", "figd_", `figd_[A-Za-z0-9_\-]{40,}`},
	{"Notion", "ntn_", `ntn_[A-Za-z0-9]{40,}\b`},
	{"Artifactory", "AKCp", `AKCp[A-Za-z0-9]{69}\b`},
	{"1Password service account", "ops_eyJ", `ops_eyJ[A-Za-z0-9+/]{250,}={0,3}`},
	{"Heroku", "HRKU-", `HRKU-[A-Za-z0-9_\-]{20,}`},
}

// inWordTokenShapes are vendor tokens whose first bytes are not a fixed
// prefix, so they may follow a letter or a digit.
var inWordTokenShapes = []struct{ name, hint, expr string }{
	{"Telegram bot token", ":AA", `(?:bot)?[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}\b`}, // and the /bot… of its API URLs
	{"Azure AD client secret", "Q~", `[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}`},
}

// matchBytes is the set of bytes a match of expr can be made of: every
// literal (in each case, when it folds), every class and every "any" it
// holds. Empty-width assertions (\b, ^) match no byte.
func matchBytes(expr string) *[256]bool {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(err) // the expressions are the package's own
	}
	var set [256]bool
	addRune := func(r rune) {
		var buf [utf8.UTFMax]byte
		for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
			set[c] = true
		}
	}
	addRange := func(lo, hi rune) {
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			set[r] = true
		}
		if hi >= utf8.RuneSelf { // any byte a multi-byte rune is written with
			for c := 0x80; c < 0x100; c++ {
				set[c] = true
			}
		}
	}
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				addRune(r)
				if re.Flags&syntax.FoldCase != 0 {
					for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
						addRune(f)
					}
				}
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				addRange(re.Rune[i], re.Rune[i+1])
			}
		case syntax.OpAnyCharNotNL:
			addRange(0, '\n'-1)
			addRange('\n'+1, unicode.MaxRune)
		case syntax.OpAnyChar:
			addRange(0, unicode.MaxRune)
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re)
	return &set
}
