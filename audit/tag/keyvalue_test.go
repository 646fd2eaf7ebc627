package tag_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit/tag"
)

var keyValueSeeds = []string{
	"--retries 8", "max_workers=8", `{"timeout": 120}`, "timeout_ms: 900ms", "x: a1 5", "a 1 2", "8ms 9",
	"--max-retries=3 --timeout 30s && curl -m 5", "retries\n\n  8", `"limit": "25%"`, "x--retries 8", "1.5 2.25",
	"\u212Aey 4", "wait 5\u017F", "k=1.", "é 7", "_ 3", "a=1b=2 c:3", "n\t=\t'4'", "abc8 x", "--a 1 --b 2 3 4",
	strings.Repeat("word ", 50) + "retries 8" + strings.Repeat(" more", 50),
}

func TestKeyValueMatches(t *testing.T) {
	for _, s := range keyValueSeeds {
		if got, want := tag.KeyValueMatches(s), tag.KeyValueRE().FindAllStringSubmatch(s, -1); !reflect.DeepEqual(got, want) {
			t.Errorf("keyValueMatches(%q) = %q, want %q", s, got, want)
		}
	}
	if got := tag.KeyValueMatches("cat > a.txt <<'EOF'\nno numbers in this body at all\nEOF"); got != nil {
		t.Errorf("a text without digits matched %q", got)
	}
}

// FuzzKeyValueMatches holds keyValueMatches to the expression it runs on
// stretches of the text.
func FuzzKeyValueMatches(f *testing.F) {
	for _, s := range keyValueSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := tag.KeyValueMatches(s), tag.KeyValueRE().FindAllStringSubmatch(s, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("keyValueMatches(%q) = %q, want %q", s, got, want)
		}
	})
}
