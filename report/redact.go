package report

import (
	"bytes"
	"regexp"
	"sync"
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
	name  string
	hint  []string // one of these must occur before the expression runs
	re    *regexp.Regexp
	group int
	min   int // shortest value masked; shorter ones are left as they are
}

// secretPatterns are compiled on first use: a run that does not redact (the
// machine formats, unless asked) needs none of them, and compiling them cost
// every run a few milliseconds at start.
var secretPatterns = sync.OnceValue(func() []secretPattern {
	return []secretPattern{
		{"private key", []string{"PRIVATE KEY"},
			// a whole block, or what is left of one an excerpt cut short;
			// JSON writes its line breaks as \n
			regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|(?:[A-Za-z0-9+/=\s]|\\[nr])*)`), 0, 0},
		{"AWS access key", []string{"AKIA", "ASIA", "ABIA", "ACCA"},
			regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`), 0, 0},
		{"AWS secret key", []string{"ecret"},
			regexp.MustCompile(`(?i)aws.{0,20}?secret.{0,20}?(?:key)?(?:["'\\]|&#34;|&#39;|&quot;)*\s*[:=]\s*(?:["'\\]|&#34;|&#39;|&quot;)*([A-Za-z0-9/+]{40})\b`), 1, 0},
		{"GitHub token", []string{"gh", "github_pat_"},
			regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), 0, 0},
		{"API key", []string{"sk-", "sk_", "rk_"},
			regexp.MustCompile(`\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|[sr]k_(?:live|test)_[0-9A-Za-z]{16,})`), 0, 0},
		{"Google API key", []string{"AIza"},
			regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`), 0, 0},
		{"Slack token", []string{"xox"},
			regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`), 0, 0},
		{"Azure key", []string{"AccountKey", "SharedAccessKey"},
			regexp.MustCompile(`(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/=]{40,})`), 1, 0},
		{"JSON web token", []string{"eyJ"},
			regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), 0, 0},
		{"bearer token", []string{"earer", "EARER", "asic ", "ASIC "},
			regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9\-._~+/]{16,}=*)`), 1, 0},
		{"password in URL", []string{"://"},
			regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@"'<>\\]+:([^/\s@"'<>\\]+)@`), 1, 0},
		{"secret assignment", []string{"KEY", "key", "Key", "SECRET", "ecret", "TOKEN", "oken", "PASSWORD", "assword", "PASSWD", "asswd"},
			// API_KEY=…, "client_secret": "…", password: … — a value with a
			// digit and a letter, long enough not to be a word
			regexp.MustCompile(`(?i)\b[A-Za-z0-9_.\-]*(?:api_?key|secret|token|passw(?:or)?d)(?:["'\\]|&#34;|&#39;|&quot;)*\s*[:=]\s*(?:["'\\]|&#34;|&#39;|&quot;)*((?:[A-Za-z0-9_\-+/.=]*[0-9][A-Za-z0-9_\-+/.=]*[A-Za-z][A-Za-z0-9_\-+/.=]*|[A-Za-z0-9_\-+/.=]*[A-Za-z][A-Za-z0-9_\-+/.=]*[0-9][A-Za-z0-9_\-+/.=]*))`), 1, 6},
	}
})

// Redact returns b with every secret-shaped string masked.
func Redact(b []byte) []byte {
	for _, p := range secretPatterns() {
		if !containsAny(b, p.hint) {
			continue
		}
		b = maskAll(b, p)
	}
	return b
}

func containsAny(b []byte, hints []string) bool {
	for _, h := range hints {
		if bytes.Contains(b, []byte(h)) {
			return true
		}
	}
	return false
}

func maskAll(b []byte, p secretPattern) []byte {
	matches := p.re.FindAllSubmatchIndex(b, -1)
	if matches == nil {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b))
	last := 0
	for _, m := range matches {
		start, end := m[2*p.group], m[2*p.group+1]
		if start < 0 || end-start < p.min {
			continue
		}
		out.Write(b[last:start])
		out.WriteString(mask(end - start))
		last = end
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
