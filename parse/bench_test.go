package parse_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
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
		if _, err := parse.ReadFile(parse.File{Path: path}, parse.Options{Workers: workers}, 0, func(*parse.Event) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			b.Fatal("no events")
		}
	}
}

// BenchmarkScanClaude reads a Claude Code session on one goroutine.
func BenchmarkScanClaude(b *testing.B) { benchRead(b, "incident-drift-claude.jsonl", 1) }

// BenchmarkScanClaudeWorkers reads it with two reading workers, as a file
// of parallelMin or more is read. Beside BenchmarkScanClaude it says
// whether a file this small is better read on one goroutine.
func BenchmarkScanClaudeWorkers(b *testing.B) {
	defer func(n int64) { *parse.ParallelMin = n }(*parse.ParallelMin)
	*parse.ParallelMin = 0
	benchRead(b, "incident-drift-claude.jsonl", 2)
}

// BenchmarkScanCanonical reads a canonical multi-agent run.
func BenchmarkScanCanonical(b *testing.B) { benchRead(b, "multiagent-canonical.jsonl", 1) }

// BenchmarkSkipProgress is progress records validated and passed over.
func BenchmarkSkipProgress(b *testing.B) {
	line := `{"parentUuid":"f144eddc-6884-4cf2-8d86-523c88cf0467","isSidechain":false,"userType":"external","cwd":"/home/dev/acme","sessionId":"258c7280","version":"2.1.39","gitBranch":"main","type":"progress","data":{"type":"bash_progress","output":"warning: invalid association \"message_refs\"\n└─ lib/annotation.ex","fullOutput":"warning: invalid association\n└─ lib/annotation.ex\nGetting extensions in current project...","elapsedTimeSeconds":3,"totalLines":12},"parentToolUseID":"toolu_01","toolUseID":"toolu_01","timestamp":"2026-02-11T20:31:53.375Z","uuid":"dd4e7d64-cb8f-47cc-8998-3585601ec2c3"}`
	data := strings.Repeat(line+"\n", 1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		_, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Format: parse.FormatClaudeCode, Stdin: strings.NewReader(data), Workers: 1}, 0, func(*parse.Event) error { n++; return nil })
		if err != nil || n != 0 {
			b.Fatalf("%d events, %v: not skipped", n, err)
		}
	}
}

// BenchmarkScanClaudeCJK reads tool output written in Chinese, as a
// Claude Code session of a developer working in it holds: runes one after
// another, which the validator passes over and the reader checks once
// read. Decoding each in the validator made this 1.6× slower.
func BenchmarkScanClaudeCJK(b *testing.B) {
	lines := []string{
		"这是一个测试文件的内容，包含中文字符和一些English混合文本。部署到生产环境之前必须检查。",
		"日志输出：构建成功，测试通过 ✓", "错误：无法连接数据库", "  12→函数 main() {",
	}
	var in strings.Builder
	for i := range 200 {
		var text strings.Builder
		for j := range 40 {
			text.WriteString(lines[(i+j)%len(lines)])
			text.WriteString(`\n`)
		}
		fmt.Fprintf(&in, `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s"}]},"toolUseResult":{"stdout":"%s","stderr":"","interrupted":false},"uuid":"u%08d","timestamp":"2026-03-02T09:14:05.000Z","sessionId":"s1"}`+"\n",
			i, text.String(), text.String(), i)
	}
	data := in.String()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		res, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Stdin: strings.NewReader(data), Workers: 1}, 0, func(*parse.Event) error { n++; return nil })
		if err != nil || len(res.Diagnostics) > 0 || n != 200 {
			b.Fatalf("%d events, %v, %v", n, err, res.Diagnostics)
		}
	}
}
