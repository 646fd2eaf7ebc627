package parse

import (
	"os"
	"path/filepath"
	"testing"
)

// Record scanning, with allocation counts: go test ./parse -run XXX -bench . -benchmem

func benchRead(b *testing.B, name string, workers int) {
	path := filepath.Join("..", "testdata", "transcripts", name)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if _, err := ReadFile(File{Path: path}, Options{Workers: workers}, 0, func(*Event) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			b.Fatal("no events")
		}
	}
}

// BenchmarkScanClaude reads a Claude Code session on one goroutine.
func BenchmarkScanClaude(b *testing.B) { benchRead(b, "incident-drift-claude.jsonl", 1) }

// BenchmarkScanClaudeWorkers reads it with two reading workers.
func BenchmarkScanClaudeWorkers(b *testing.B) { benchRead(b, "incident-drift-claude.jsonl", 2) }

// BenchmarkScanCanonical reads a canonical multi-agent run.
func BenchmarkScanCanonical(b *testing.B) { benchRead(b, "multiagent-canonical.jsonl", 1) }

// BenchmarkSkipProgress is a progress record validated and passed over.
func BenchmarkSkipProgress(b *testing.B) {
	line := `{"parentUuid":"f144eddc-6884-4cf2-8d86-523c88cf0467","isSidechain":false,"userType":"external","cwd":"/home/dev/acme","sessionId":"258c7280","version":"2.1.39","gitBranch":"main","type":"progress","data":{"type":"bash_progress","output":"warning: invalid association \"message_refs\"\n└─ lib/annotation.ex","fullOutput":"warning: invalid association\n└─ lib/annotation.ex\nGetting extensions in current project...","elapsedTimeSeconds":3,"totalLines":12},"parentToolUseID":"toolu_01","toolUseID":"toolu_01","timestamp":"2026-02-11T20:31:53.375Z","uuid":"dd4e7d64-cb8f-47cc-8998-3585601ec2c3"}`
	s := &sink{}
	d := newClaudeDecoder(s)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if p := s.prepareLine(d, line, false, lineOwned); p != nil {
			b.Fatalf("not skipped: %v", p)
		}
	}
}
