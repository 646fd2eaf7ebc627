package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/scripts/gentranscript/multiagent"
)

// multiAgentRun writes a canonical multi-agent run of n tasks: a planner
// creates each task, an executor claims, runs and completes it (one in
// seven fails and is retried), a verifier reads the result and reports on
// it, and the executor compacts every 40 tasks, telling only the planner.
// After each compaction the executor, going by its summary, marks the
// latest failed task complete with more confidence and without reading it:
// every state rule has work to do on every task.
func multiAgentRun(n int) []byte {
	var b bytes.Buffer
	if err := multiagent.Write(&b, n); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// BenchmarkStateRules audits multi-agent runs of 1,000 and 4,000 tasks side
// by side: four times the run should cost about four times the time.
//
//	go test ./audit/rules -run XXX -bench StateRules -benchmem
func BenchmarkStateRules(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("tasks=%d", n), func(b *testing.B) {
			benchAudit(b, multiAgentRun(n), parse.FormatCanonical, 1)
		})
	}
}

// benchAudit audits a transcript with every rule, as the command does, and
// fails unless it finds at least want findings: a benchmark that finds
// nothing exercises nothing.
func benchAudit(b *testing.B, data []byte, format parse.Format, want int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		tr := parse.Transcript{Path: "-", Files: []parse.File{{Path: "-"}}}
		res, err := audit.Audit(tr, parse.Options{Stdin: bytes.NewReader(data), Format: format}, audit.Options{Rules: All()})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Findings) < want {
			b.Fatalf("%d findings, want at least %d", len(res.Findings), want)
		}
	}
}

// growingLedger writes a Claude Code session of n user turns that each
// bind the agent to a new bucket, a new prohibition and a new retry limit
// (superseding the last), with a compaction every 50 turns whose summary
// keeps none of them: a ledger that grows all session long.
func growingLedger(n int) []byte {
	var b bytes.Buffer
	parent, k := "null", 0
	rec := func(body string) {
		k++
		uuid := fmt.Sprintf(`"00000000-0000-4000-8000-%012d"`, k)
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/home/dev/etl","sessionId":"5e551011-0000-4000-8000-000000000001","version":"2.1.39",%s,"uuid":%s,"timestamp":"2026-03-02T%02d:%02d:%02d.000Z"}`+"\n",
			parent, body, uuid, 9+k/3600, k/60%60, k%60)
		parent = uuid
	}
	for i := 1; i <= n; i++ {
		rec(fmt.Sprintf(`"type":"user","message":{"role":"user","content":"Batch %d: upload to s3://acme-batch-%05d/ and never touch prod-db-%05d; keep retries under %d."}`, i, i, i, i%9+2))
		rec(fmt.Sprintf(`"type":"assistant","message":{"model":"claude-opus-4-6","id":"msg_%05d","type":"message","role":"assistant","content":[{"type":"text","text":"Uploading batch %d to s3://acme-batch-%05d/."}]}`, i, i, i))
		if i%50 == 0 {
			rec(`"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{"trigger":"auto","preTokens":160000}`)
			rec(fmt.Sprintf(`"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation. Summary: uploaded batches up to %d to their buckets."}`, i))
		}
	}
	return b.Bytes()
}

// BenchmarkGrowingLedger audits sessions of 1,000 and 4,000 turns whose
// ledger grows with every turn, side by side. Each boundary is replayed
// against every obligation in force, so this one grows with the square of
// the session: the replay is what compaudit is for.
//
//	go test ./audit/rules -run XXX -bench GrowingLedger -benchmem
func BenchmarkGrowingLedger(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("turns=%d", n), func(b *testing.B) {
			// each turn's bucket is lost at its boundary
			benchAudit(b, growingLedger(n), parse.FormatClaudeCode, n)
		})
	}
}

// largeCommands writes the incident session followed by n calls of the
// deploy it forbids, each preceded in its command by a heredoc of size
// bytes of words: a shell command carrying a file.
func largeCommands(b *testing.B, n, size int) []byte {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", "incident-claude.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	deploy := lines[274] // Bash: aws s3 sync out/ s3://acme-prod/ --delete
	if !strings.Contains(deploy, `"command":"aws s3 sync out/ s3://acme-prod/ --delete"`) {
		b.Fatal("line 275 of the incident session is not the deploy to acme-prod")
	}
	words := strings.Fields("const data fetch row value index table build deploy bucket stage cache key region report")
	rng := rand.New(rand.NewPCG(1, 2))
	var out strings.Builder
	out.WriteString(string(data))
	parent := "9e0b7c3a-6f15-4d2e-8a41-000000000000"
	for i := range n {
		var body strings.Builder
		for body.Len() < size {
			for w := range 12 {
				if w > 0 {
					body.WriteByte(' ')
				}
				body.WriteString(words[rng.IntN(len(words))])
			}
			body.WriteByte('\n')
		}
		// encoded as Claude Code writes JSON, with < and > as they are
		var cmd bytes.Buffer
		enc := json.NewEncoder(&cmd)
		enc.SetEscapeHTML(false)
		enc.Encode(fmt.Sprintf("cat > out/data-%d.txt <<'EOF'\n%sEOF\naws s3 sync out/ s3://acme-prod/ --delete", i, body.String()))
		uuid := fmt.Sprintf("9e0b7c3a-6f15-4d2e-8a41-%012d", i+1)
		rec := strings.NewReplacer(
			`"command":"aws s3 sync out/ s3://acme-prod/ --delete"`, `"command":`+strings.TrimSpace(cmd.String()),
			"0c32477e-a39e-1e79-91a5-ee9d74ce9087", uuid,
			"4a49d11f-9e21-a86d-3366-97070e21b5be", parent,
			"toolu_01579a000d17bd0b9ec91c06", fmt.Sprintf("toolu_01big%016d", i),
			"msg_0199c94f88bb4ae082c7234a", fmt.Sprintf("msg_01big%016d", i),
		).Replace(deploy)
		out.WriteString(rec)
		parent = uuid
	}
	return []byte(out.String())
}

// BenchmarkLargeCommands audits 10 MB of shell commands carrying heredocs,
// as 160 commands of 64 KB and as 10 of 1 MB, side by side, read from a
// file so the findings' quotes are read back: the time should follow the
// bytes, not the size of a command.
//
//	go test ./audit/rules -run XXX -bench LargeCommands -benchmem
func BenchmarkLargeCommands(b *testing.B) {
	for _, c := range []struct{ n, size int }{{160, 64 << 10}, {10, 1 << 20}} {
		b.Run(fmt.Sprintf("command=%dKB", c.size>>10), func(b *testing.B) {
			data := largeCommands(b, c.n, c.size)
			path := filepath.Join(b.TempDir(), "session.jsonl")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path, Agent: parse.MainAgent}}}
				res, err := audit.Audit(tr, parse.Options{Workers: 2}, audit.Options{Rules: All()})
				if err != nil {
					b.Fatal(err)
				}
				quoted := 0
				for _, f := range res.Findings {
					if f.Rule == "forbidden-action" && strings.Contains(f.Evidence.Arguments, "<<'EOF'") {
						quoted++
					}
				}
				if quoted < c.n {
					b.Fatalf("%d forbidden-action findings quote a heredoc call, want %d", quoted, c.n)
				}
			}
		})
	}
}

// longLists writes, in canonical records, the shapes of a long list: a
// user pastes n bucket names into one line with no full stop, the agent
// repeats them, the user sets n retry limits in one message, and states n
// prohibitions; then a compaction whose summary names every bucket once,
// near but not as stated, and never mentions the prohibitions.
func longLists(n int) []byte {
	var buckets, limits, never, summary strings.Builder
	for i := range n {
		fmt.Fprintf(&buckets, "then deploy to s3://acme-bucket-%d/ and ", i)
		fmt.Fprintf(&limits, "Keep retries for job%d under %d. ", i, i%9+1)
		fmt.Fprintf(&never, "Never touch prod-%d. ", i)
		fmt.Fprintf(&summary, "The agent deployed build %d to s3://acme-bucket-%d-old/ after review. ", i, i)
	}
	var out bytes.Buffer
	for turn, r := range []map[string]any{
		{"type": "message", "role": "user", "content": "Use these buckets: " + buckets.String()},
		{"type": "message", "role": "assistant", "content": "I will " + buckets.String()},
		{"type": "message", "role": "user", "content": limits.String()},
		{"type": "message", "role": "user", "content": never.String()},
		{"type": "compaction", "summary": summary.String(), "trigger": "auto", "pre_tokens": 118000},
		{"type": "message", "role": "assistant", "content": "Continuing with s3://acme-bucket-0-old/."},
	} {
		r["agent"], r["turn"] = "main", turn+1
		line, _ := json.Marshal(r)
		out.Write(append(line, '\n'))
	}
	return out.Bytes()
}

// BenchmarkLongLists audits the long lists of n = 2,500 and 5,000 side by
// side: twice the list should cost about twice the time. Each literal used
// to copy its whole one-line "sentence", dedupeHits walked every literal
// for each, each threshold walked the ledger, and each prohibition every
// sentence of the summary.
//
//	go test ./audit/rules -run XXX -bench LongLists -benchmem
func BenchmarkLongLists(b *testing.B) {
	for _, n := range []int{2500, 5000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchAudit(b, longLists(n), parse.FormatCanonical, n)
		})
	}
}
