package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
)

// TestSealedFingerprint: a finding keeps only the start of a long key, and
// its fingerprint is still the hash of the whole one, with and without a
// repeat's suffix, as it was computed when the whole key was kept.
func TestSealedFingerprint(t *testing.T) {
	heredoc := "cat > out/data.txt <<'EOF'\n" + strings.Repeat("const data fetch row value\n", 40000) + "EOF\naws s3 sync out/ s3://acme-prod/ --delete"
	for _, tc := range []struct {
		name string
		o    *ledger.Obligation
		key  []string
	}{
		{"short key", &ledger.Obligation{ID: "neg-1"}, []string{"prod", "Bash", "aws s3 sync out/ s3://acme-prod/ --delete"}},
		{"a megabyte of command", &ledger.Obligation{ID: "neg-1"}, []string{"prod", "Bash", heredoc}},
		{"no obligation", nil, []string{strings.Repeat("k", keyOrderLen+1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Finding{Rule: "forbidden-action", Transcript: "/x/session.jsonl", Agent: "main", Boundary: 3, Obligation: tc.o}
			f.Key(tc.key...)
			whole := func(suffix string) string {
				parts := []string{f.Rule, filepath.Base(f.Transcript), f.Agent, "3"}
				if tc.o != nil {
					parts = append(parts, tc.o.ID)
				}
				parts = append(parts, strings.Join(tc.key, "\x00")+suffix)
				h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
				return hex.EncodeToString(h[:8])
			}
			f.detach()
			if len(f.key) > keyOrderLen+17 {
				t.Errorf("the finding keeps %d bytes of its key", len(f.key))
			}
			for _, suffix := range []string{"", "#2", "#13"} {
				if got, want := f.fingerprint(suffix), whole(suffix); got != want {
					t.Errorf("fingerprint(%q) = %s, want %s, the hash of the whole key", suffix, got, want)
				}
			}
		})
	}
}

// TestSealedKeysOrder: two findings whose long keys share their start are
// still told apart and ordered the same way every time.
func TestSealedKeysOrder(t *testing.T) {
	start := strings.Repeat("s", keyOrderLen)
	a, b := Finding{Rule: "r"}, Finding{Rule: "r"}
	a.Key(start + "apple")
	b.Key(start + "banana")
	a.detach()
	b.detach()
	if a.key == b.key {
		t.Fatal("two long keys that differ after their start sealed alike")
	}
	fs := []Finding{b, a}
	finishFindings(fs, nil)
	fs2 := []Finding{a, b}
	finishFindings(fs2, nil)
	if fs[0].Fingerprint != fs2[0].Fingerprint || fs[0].Fingerprint == fs[1].Fingerprint {
		t.Errorf("order or identity depends on the order reported: %s %s / %s %s", fs[0].Fingerprint, fs[1].Fingerprint, fs2[0].Fingerprint, fs2[1].Fingerprint)
	}
}
