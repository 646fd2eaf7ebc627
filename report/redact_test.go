package report

import (
	"encoding/json"
	"html"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	secrets := []struct{ in, secret string }{
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
	for _, s := range secrets {
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
	// what must stay: identifiers the audit is about
	for _, keep := range []string{
		"Deploy only to s3://acme-stage-07/ — never prod.",
		"commit e4f5a6b2c9d8 and uuid 5100ee60-4552-6fbf-2f8c-1dc7b3c914c5",
		"/home/dev/acme-site/src/app/page.tsx",
		"token budget of 2048 and max_tokens: 4096",
		"retry ≤ 3 times; p95 under 250ms; port 9090",
		"the password field is required",
		"token = getToken()",
		"https://github.com/acme/site/pull/42",
	} {
		if got := string(Redact([]byte(keep))); got != keep {
			t.Errorf("redacted what is no secret: %q → %q", keep, got)
		}
	}
}
