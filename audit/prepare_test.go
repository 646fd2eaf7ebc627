package audit

import (
	"strings"
	"testing"
)

// The token hash must agree with hashing the lowered token, however it
// gets there.
func TestTokenHashFolds(t *testing.T) {
	h := newTokenHasher()
	for _, c := range [][2]string{
		{"S3://Acme-Stage-07/", "s3://acme-stage-07"},
		{"`acme-stage-07`", "acme-stage-07"},
		{"'\"Ref\"'", "ref"},
		{"ÉCOLE-7", foldLower("ÉCOLE-7")},
		{strings.Repeat("AB", 100), strings.Repeat("ab", 100)},
	} {
		if h.hash(c[0]) != h.hash(c[1]) {
			t.Errorf("hash(%q) != hash(%q)", c[0], c[1])
		}
	}
}
