package multiagent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestWrite checks a run's shape: eleven records a task and three more at
// each of the executor's compactions, every one a JSON object with an agent
// and a type, and WriteSize stopping at the first task that reaches it.
func TestWrite(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, 80); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if want := 1 + 11*80 + 3*2; len(lines) != want {
		t.Fatalf("%d records for 80 tasks, want %d", len(lines), want)
	}
	compactions := 0
	for i, l := range lines {
		var rec struct{ Agent, Type string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Agent == "" || rec.Type == "" {
			t.Fatalf("record %d %q: %v", i+1, l, err)
		}
		if rec.Type == "compaction" {
			compactions++
		}
	}
	if compactions != 2 {
		t.Fatalf("%d compactions in 80 tasks, want 2", compactions)
	}

	var sized bytes.Buffer
	if err := WriteSize(&sized, int64(b.Len())); err != nil {
		t.Fatal(err)
	}
	if sized.String() != b.String() {
		t.Fatalf("WriteSize(%d) wrote %d bytes, not the 80 tasks", b.Len(), sized.Len())
	}
	sized.Reset()
	if err := WriteSize(&sized, int64(b.Len())-1); err != nil {
		t.Fatal(err)
	}
	if sized.String() != b.String() {
		t.Fatalf("WriteSize(%d) wrote %d bytes, want the 80 tasks that reach it", b.Len()-1, sized.Len())
	}
}
