package report

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// redactCases are secrets as sessions hold them, with the part that must
// not survive.
var redactCases = []struct{ in, secret string }{
	{"export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
	{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"git push https://ghp_0123456789abcdefghijABCDEFGHIJklmnop@github.com/acme/site", "ghp_0123456789abcdefghijABCDEFGHIJklmnop"},
	{"ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz0123", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz0123"},
	{"stripe key sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
	{"maps key AIzaSyA-1234567890abcdefghijklmnopqrstu", "AIzaSyA-1234567890abcdefghijklmnopqrstu"},
	{"SLACK_BOT=xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij"},
	{"curl -H 'Authorization: Bearer 9f8e7d6c5b4a39281706abcdef' https://api.acme.dev", "9f8e7d6c5b4a39281706abcdef"},
	{"token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
	{"psql postgres://deploy:hunter2@db-3.internal:5432/app", "hunter2"},
	{"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="},
	{"DB_PASSWORD=s3cr3tPa55", "s3cr3tPa55"},
	{`{"client_secret": "a8f5f167f44f4964e6c998dee827110c"}`, "a8f5f167f44f4964e6c998dee827110c"},
	{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH"},
	{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB"},
}

// redactKeeps are no secrets: identifiers the audit is about, words that
// start like a vendor's prefix and flags that name no secret.
var redactKeeps = []string{
	"Deploy only to s3://acme-stage-07/ — never prod.",
	"commit e4f5a6b2c9d8 and uuid 5100ee60-4552-6fbf-2f8c-1dc7b3c914c5",
	"/home/dev/acme-site/src/app/page.tsx",
	"token budget of 2048 and max_tokens: 4096",
	"retry ≤ 3 times; p95 under 250ms; port 9090",
	"the password field is required",
	"token = getToken()",
	"https://github.com/acme/site/pull/42",
}

func TestRedact(t *testing.T) {
	for _, s := range redactCases {
		// as the text renderer writes it, as JSON does and as HTML does
		j, _ := json.Marshal(s.in)
		for _, form := range []string{s.in, string(j), html.EscapeString(s.in)} {
			got := string(Redact([]byte(form)))
			if strings.Contains(got, s.secret) || strings.Contains(got, strings.ReplaceAll(s.secret, "/", `\/`)) {
				t.Errorf("secret survives in %q", got)
			}
			if len(got) > len(form) {
				t.Errorf("redacting made %q longer: %q", form, got)
			}
		}
	}
	for _, keep := range redactKeeps {
		if got := string(Redact([]byte(keep))); got != keep {
			t.Errorf("redacted what is no secret: %q → %q", keep, got)
		}
	}
}

// BenchmarkRedact masks the golden documents, as --redact does to every
// output: the time redaction adds to a run.
func BenchmarkRedact(b *testing.B) {
	for _, name := range []string{"audit.sarif", "audit.html", "audit.md"} {
		doc, err := os.ReadFile(filepath.Join("testdata", "golden", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				Redact(doc)
			}
		})
	}
}

// redactWhole is Redact as it was written first: every pattern searches the
// whole document once one of its hints occurs anywhere in it. Redact
// searches only the runs around hints, which must find the same.
func redactWhole(b []byte) []byte {
	for _, p := range secretPatterns() {
		text := b
		if p.fold {
			text = asciiLower(b)
		}
		found := false
		for _, h := range p.hints {
			found = found || bytes.Contains(text, []byte(h))
		}
		if !found {
			continue
		}
		var spans [][2]int
		for _, m := range p.re.FindAllSubmatchIndex(b, -1) {
			start, end := m[2*p.group], m[2*p.group+1]
			if start < 0 || end-start < p.min {
				continue
			}
			spans = append(spans, [2]int{start, end})
		}
		if spans != nil {
			b = maskSpans(b, spans)
		}
	}
	return b
}

// redactSeeds are documents for the equivalence of Redact and redactWhole:
// the golden reports, and every case of TestRedact on its own and run
// together with no space between.
func redactSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	for _, g := range golden {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	var all []byte
	for _, s := range redactCases {
		seeds = append(seeds, []byte(s.in))
		all = append(all, s.in...)
	}
	for _, k := range redactKeeps {
		seeds = append(seeds, []byte(k))
		all = append(all, k...)
	}
	return append(seeds, all)
}

func TestRedactFindsWhatWholeSearchFinds(t *testing.T) {
	masked := 0
	for i, doc := range redactSeeds(t) {
		got, want := Redact(bytes.Clone(doc)), redactWhole(bytes.Clone(doc))
		if !bytes.Equal(got, want) {
			t.Errorf("seed %d: searching runs gives\n%q\nsearching the whole document gives\n%q", i, got, want)
		}
		if !bytes.Equal(got, doc) {
			masked++
		}
	}
	if masked < len(redactCases) {
		t.Errorf("only %d seeds had a secret masked; the cases alone hold %d", masked, len(redactCases))
	}
}

func FuzzRedact(f *testing.F) {
	for _, doc := range redactSeeds(f) {
		// a golden report whole takes the instrumented search seconds
		f.Add(doc[:min(len(doc), 512)])
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got := Redact(bytes.Clone(doc))
		if want := redactWhole(bytes.Clone(doc)); !bytes.Equal(got, want) {
			t.Errorf("searching runs gives\n%q\nsearching the whole document gives\n%q", got, want)
		}
		if len(got) > len(doc) {
			t.Errorf("redacting made %d bytes into %d", len(doc), len(got))
		}
	})
}
