// Command gentranscript writes synthetic Claude Code session transcripts
// (and, with -format codex, Codex CLI rollouts: codex.go; with -format
// multiagent, a multi-agent run in compaudit's canonical JSONL: package
// multiagent) for the benchmark in scripts/bench.sh. The records have the
// exact shapes Claude Code writes (see ../shared/corpus): assistant
// messages split one block per line under a shared message id, thinking
// blocks, tool results duplicated in toolUseResult, bash and hook progress
// records, file-history snapshots, turn durations, and a compact_boundary
// with its summary every few hundred turns. The proportions follow the public corpus: about half the
// bytes are tool results, a third progress records, the rest assistant turns.
//
// Obligations are in play throughout (a bucket, a prohibition, a retry limit,
// a latency budget), and the summaries lose some of them the way real ones
// do, so the audit has real work to do rather than an empty ledger.
//
//	gentranscript -size 100MB -o big.jsonl
//	gentranscript -sessions 1000 -size 200KB -dir folder/
//	gentranscript -format codex -size 100MB -o rollout.jsonl
//	gentranscript -format multiagent -size 25MB -o run.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/compaudit/compaudit/scripts/gentranscript/multiagent"
)

func main() {
	var (
		size     = flag.String("size", "100MB", "approximate size of each session (KB, MB, GB suffixes)")
		out      = flag.String("o", "", "output file (one session); - for stdout")
		dir      = flag.String("dir", "", "output folder (with -sessions)")
		sessions = flag.Int("sessions", 1, "number of session files to write into -dir")
		seed     = flag.Uint64("seed", 1, "random seed; the same seed writes the same bytes")
		every    = flag.Int("compact-every", 300, "turns between compactions")
		format   = flag.String("format", "claude", "claude (Claude Code session), codex (Codex CLI rollout) or multiagent (canonical multi-agent run)")
	)
	flag.Parse()
	target, err := parseSize(*size)
	if err != nil {
		fatal(err)
	}
	switch *format {
	case "claude", "codex":
	case "multiagent":
		if err := writeRun(*out, target); err != nil {
			fatal(err)
		}
		return
	default:
		fatal(fmt.Errorf("-format %q: want claude, codex or multiagent", *format))
	}
	gen := func(seed uint64) *generator {
		g := newGenerator(seed, *every)
		g.codex = *format == "codex"
		return g
	}
	switch {
	case *dir != "":
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			fatal(err)
		}
		for i := 0; i < *sessions; i++ {
			g := gen(*seed + uint64(i))
			path := filepath.Join(*dir, g.session+".jsonl")
			if g.codex {
				path = filepath.Join(*dir, "rollout-"+g.clock.Format("2006-01-02T15-04-05")+"-"+g.session+".jsonl")
			}
			if err := writeFile(path, g, target); err != nil {
				fatal(err)
			}
		}
	case *out == "-":
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		gen(*seed).write(w, target)
		if err := w.Flush(); err != nil {
			fatal(err)
		}
	case *out != "":
		if err := writeFile(*out, gen(*seed), target); err != nil {
			fatal(err)
		}
	default:
		fatal(fmt.Errorf("give -o FILE or -dir DIR"))
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "gentranscript:", err)
	os.Exit(1)
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	u := strings.ToUpper(strings.TrimSpace(s))
	for _, suf := range []struct {
		s string
		m int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, suf.s) {
			mult, u = suf.m, strings.TrimSuffix(u, suf.s)
			break
		}
	}
	n, err := strconv.ParseFloat(u, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(n * float64(mult)), nil
}

// writeRun writes a multi-agent run of about target bytes to path, or to
// standard output for -. Its tasks are numbered, not drawn, so it has no
// seed, and it is one run: no -dir.
func writeRun(path string, target int64) error {
	switch path {
	case "":
		return fmt.Errorf("-format multiagent writes one run: give -o FILE")
	case "-":
		return multiagent.WriteSize(os.Stdout, target)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := multiagent.WriteSize(f, target); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeFile(path string, g *generator, target int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	g.write(w, target)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type generator struct {
	codex   bool // write a Codex CLI rollout, not a Claude Code session
	rng     *rand.Rand
	every   int
	session string
	cwd     string
	branch  string
	slug    string
	clock   time.Time
	parent  string
	written int64
	turn    int
	// the obligations in play and how far each summary has worn them down
	bucket, nearBucket string
	retries            int
	budgetMS           int
	compactions        int
	// files is the session's working set: real sessions revisit the same
	// few dozen files far more often than they open new ones
	files []string
}

func newGenerator(seed uint64, every int) *generator {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	g := &generator{rng: rng, every: every}
	g.session = g.uuid()
	proj := pick(rng, projects)
	g.cwd = "/home/dev/" + proj
	g.branch = pick(rng, []string{"main", "feat/" + pick(rng, nouns), "fix/" + pick(rng, nouns) + "-" + strconv.Itoa(rng.IntN(900)+100)})
	g.slug = pick(rng, adjectives) + "-" + pick(rng, verbs) + "-" + pick(rng, surnames)
	g.clock = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(86400*30)) * time.Second)
	env := pick(rng, []string{"stage", "staging", "preview"})
	n := rng.IntN(90) + 10
	g.bucket = fmt.Sprintf("s3://%s-%s-%02d/", proj, env, n)
	g.nearBucket = fmt.Sprintf("s3://%s-%s/", proj, env)
	g.retries = rng.IntN(4) + 2
	g.budgetMS = (rng.IntN(8) + 2) * 50
	for i := rng.IntN(80) + 40; i > 0; i-- {
		g.files = append(g.files, g.newPath())
	}
	return g
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func (g *generator) uuid() string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(g.rng.UintN(256))
	}
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (g *generator) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.rng.IntN(16)]
	}
	return string(b)
}

func (g *generator) tick(maxSeconds int) string {
	g.clock = g.clock.Add(time.Duration(g.rng.IntN(maxSeconds*1000)+50) * time.Millisecond)
	return g.clock.Format("2006-01-02T15:04:05.000Z")
}

// envelope holds the fields every conversation record starts with, in the
// order Claude Code writes them.
type envelope struct {
	ParentUUID  *string `json:"parentUuid"`
	IsSidechain bool    `json:"isSidechain"`
	UserType    string  `json:"userType"`
	Cwd         string  `json:"cwd"`
	SessionID   string  `json:"sessionId"`
	Version     string  `json:"version"`
	GitBranch   string  `json:"gitBranch"`
	Slug        string  `json:"slug"`
}

func (g *generator) envelope() envelope {
	var parent *string
	if g.parent != "" {
		p := g.parent
		parent = &p
	}
	return envelope{parent, false, "external", g.cwd, g.session, "2.1.39", g.branch, g.slug}
}

func (g *generator) emit(w *bufio.Writer, rec any) string {
	b, err := json.Marshal(rec)
	if err != nil {
		fatal(err)
	}
	g.line(w, b)
	return ""
}

// line writes one encoded record.
func (g *generator) line(w *bufio.Writer, b []byte) {
	w.Write(b)
	w.WriteByte('\n')
	g.written += int64(len(b) + 1)
}

type usage struct {
	InputTokens  int    `json:"input_tokens"`
	CacheCreate  int    `json:"cache_creation_input_tokens"`
	CacheRead    int    `json:"cache_read_input_tokens"`
	OutputTokens int    `json:"output_tokens"`
	ServiceTier  string `json:"service_tier"`
}

type apiMessage struct {
	Model        string  `json:"model"`
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Role         string  `json:"role"`
	Content      []any   `json:"content"`
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
	Usage        usage   `json:"usage"`
}

type assistantRecord struct {
	envelope
	Message   apiMessage `json:"message"`
	RequestID string     `json:"requestId"`
	Type      string     `json:"type"`
	UUID      string     `json:"uuid"`
	Timestamp string     `json:"timestamp"`
}

type userMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type userRecord struct {
	envelope
	Type             string      `json:"type"`
	Message          userMessage `json:"message"`
	IsCompactSummary bool        `json:"isCompactSummary,omitempty"`
	IsVisible        *bool       `json:"isVisibleInTranscriptOnly,omitempty"`
	UUID             string      `json:"uuid"`
	Timestamp        string      `json:"timestamp"`
	ToolUseResult    any         `json:"toolUseResult,omitempty"`
}

type progressRecord struct {
	envelope
	Type            string         `json:"type"`
	Data            map[string]any `json:"data"`
	ParentToolUseID string         `json:"parentToolUseID"`
	ToolUseID       string         `json:"toolUseID"`
	Timestamp       string         `json:"timestamp"`
	UUID            string         `json:"uuid"`
}

type systemRecord struct {
	envelope
	Type              string         `json:"type"`
	Subtype           string         `json:"subtype"`
	Content           string         `json:"content,omitempty"`
	IsMeta            bool           `json:"isMeta"`
	Timestamp         string         `json:"timestamp"`
	UUID              string         `json:"uuid"`
	Level             string         `json:"level,omitempty"`
	LogicalParentUUID string         `json:"logicalParentUuid,omitempty"`
	CompactMetadata   map[string]any `json:"compactMetadata,omitempty"`
	DurationMs        int            `json:"durationMs,omitempty"`
}

func (g *generator) user(w *bufio.Writer, content any, result any) string {
	id := g.uuid()
	g.emit(w, userRecord{envelope: g.envelope(), Type: "user", Message: userMessage{"user", content}, UUID: id, Timestamp: g.tick(3), ToolUseResult: result})
	g.parent = id
	return id
}

// assistant writes one API message as Claude Code does: one line per block,
// all sharing message.id and requestId.
func (g *generator) assistant(w *bufio.Writer, blocks ...any) {
	msgID := "msg_01" + g.hex(22)
	req := "req_011C" + g.hex(20)
	u := usage{3, g.rng.IntN(9000), 20000 + g.rng.IntN(120000), g.rng.IntN(900) + 10, "standard"}
	for _, b := range blocks {
		id := g.uuid()
		g.emit(w, assistantRecord{envelope: g.envelope(), Message: apiMessage{"claude-opus-4-6", msgID, "message", "assistant", []any{b}, nil, nil, u}, RequestID: req, Type: "assistant", UUID: id, Timestamp: g.tick(8)})
		g.parent = id
	}
}

func (g *generator) progress(w *bufio.Writer, toolID string, data map[string]any) {
	g.emit(w, progressRecord{envelope: g.envelope(), Type: "progress", Data: data, ParentToolUseID: toolID, ToolUseID: toolID, Timestamp: g.tick(2), UUID: g.uuid()})
}

func (g *generator) write(w *bufio.Writer, target int64) {
	if g.codex {
		g.writeCodex(w, target)
		return
	}
	g.emit(w, map[string]any{"type": "file-history-snapshot", "messageId": g.uuid(), "snapshot": map[string]any{"messageId": g.uuid(), "trackedFileBackups": map[string]any{}, "timestamp": g.tick(1)}, "isSnapshotUpdate": false})
	g.user(w, fmt.Sprintf("We're shipping the %s release this week. Deploy the build only to %s — never push to main directly, open a PR instead. Retry flaky tests at most %d times, and keep p95 latency under %dms on the checkout path.", pick(g.rng, nouns), g.bucket, g.retries, g.budgetMS), nil)
	g.user(w, []any{map[string]any{"type": "text", "text": "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nContents of " + g.cwd + "/CLAUDE.md (project instructions, checked into the codebase):\n\n- Never commit secrets or .env files.\n- Run `make lint` before every commit.\n- Do not modify files under vendor/.\n</system-reminder>"}}, nil)
	for g.written < target {
		g.turn++
		if g.turn%g.every == 0 {
			g.compact(w)
			continue
		}
		g.work(w)
	}
}

// work writes one turn: thinking, a sentence, a tool call, its progress
// records and its result.
func (g *generator) work(w *bufio.Writer) {
	toolID := "toolu_01" + g.hex(24)
	thinking := map[string]any{"type": "thinking", "thinking": g.prose(g.rng.IntN(12) + 2), "signature": "Eu8BCkYIBRgCKkB" + g.hex(200)}
	text := map[string]any{"type": "text", "text": g.prose(1)}
	switch r := g.rng.IntN(10); {
	case r < 4: // Read a source file
		path := g.cwd + "/" + g.sourcePath()
		body, lines := g.sourceFile(g.rng.IntN(250) + 30)
		g.assistant(w, thinking, text, map[string]any{"type": "tool_use", "id": toolID, "name": "Read", "input": map[string]any{"file_path": path}})
		g.hook(w, toolID, "PreToolUse:Read")
		g.user(w, []any{map[string]any{"tool_use_id": toolID, "type": "tool_result", "content": numbered(body)}},
			map[string]any{"type": "text", "file": map[string]any{"filePath": path, "content": body, "numLines": lines, "startLine": 1, "totalLines": lines}})
		g.hook(w, toolID, "PostToolUse:Read")
	case r < 7: // a build or test command with streamed output
		cmd, out, failed := g.command()
		g.assistant(w, thinking, map[string]any{"type": "tool_use", "id": toolID, "name": "Bash", "input": map[string]any{"command": cmd, "description": "Run " + strings.Fields(cmd)[0]}})
		g.hook(w, toolID, "PreToolUse:Bash")
		lines := strings.Split(out, "\n")
		for i := 4; i < len(lines); i += 1 + len(lines)/6 {
			g.progress(w, toolID, map[string]any{"type": "bash_progress", "output": strings.Join(lines[max(0, i-5):i], "\n"), "fullOutput": strings.Join(lines[:i], "\n"), "elapsedTimeSeconds": i / 3, "totalLines": i})
		}
		content := out
		if failed {
			content = "Exit code 1\n" + out
		}
		g.user(w, []any{map[string]any{"tool_use_id": toolID, "type": "tool_result", "content": content, "is_error": failed}},
			map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false})
		g.hook(w, toolID, "PostToolUse:Bash")
	case r < 9: // an edit
		path := g.cwd + "/" + g.sourcePath()
		old, _ := g.sourceFile(g.rng.IntN(6) + 2)
		updated, _ := g.sourceFile(g.rng.IntN(8) + 2)
		g.assistant(w, thinking, text, map[string]any{"type": "tool_use", "id": toolID, "name": "Edit", "input": map[string]any{"file_path": path, "old_string": old, "new_string": updated, "replace_all": false}})
		g.hook(w, toolID, "PreToolUse:Edit")
		g.user(w, []any{map[string]any{"tool_use_id": toolID, "type": "tool_result", "content": "The file " + path + " has been updated successfully."}},
			map[string]any{"filePath": path, "oldString": old, "newString": updated, "originalFile": old + "\n" + updated, "structuredPatch": []any{}, "userModified": false, "replaceAll": false})
		g.hook(w, toolID, "PostToolUse:Edit")
	default: // a grep
		pattern := pick(g.rng, identifiers)
		var b strings.Builder
		for i := g.rng.IntN(40) + 3; i > 0; i-- {
			fmt.Fprintf(&b, "%s:%d:    %s\n", g.sourcePath(), g.rng.IntN(900)+1, g.codeLine())
		}
		g.assistant(w, thinking, map[string]any{"type": "tool_use", "id": toolID, "name": "Grep", "input": map[string]any{"pattern": pattern, "output_mode": "content", "-n": true}})
		g.user(w, []any{map[string]any{"tool_use_id": toolID, "type": "tool_result", "content": b.String()}},
			map[string]any{"mode": "content", "numFiles": 0, "filenames": []any{}, "content": b.String(), "numLines": strings.Count(b.String(), "\n")})
	}
	if g.rng.IntN(25) == 0 {
		g.emit(w, map[string]any{"type": "file-history-snapshot", "messageId": g.uuid(), "snapshot": map[string]any{"messageId": g.uuid(), "trackedFileBackups": map[string]any{g.sourcePath(): map[string]any{"backupFileName": g.hex(16) + "@v2", "version": 2, "backupTime": g.tick(1)}}, "timestamp": g.tick(1)}, "isSnapshotUpdate": true})
	}
	if g.rng.IntN(40) == 0 {
		g.emit(w, systemRecord{envelope: g.envelope(), Type: "system", Subtype: "turn_duration", DurationMs: g.rng.IntN(600000), Timestamp: g.tick(1), UUID: g.uuid(), IsMeta: false})
	}
	if g.rng.IntN(150) == 0 {
		g.user(w, fmt.Sprintf("Looks good. Next, look at the %s %s — and remember the deploy target is %s.", pick(g.rng, nouns), pick(g.rng, []string{"handler", "migration", "tests", "docs"}), g.bucket), nil)
	}
	if g.rng.IntN(200) == 0 {
		// the agent acts on the obligations: sometimes exactly, sometimes
		// on the summary's paraphrase
		bucket := g.bucket
		if g.compactions > 0 && g.rng.IntN(2) == 0 {
			bucket = g.nearBucket
		}
		id := "toolu_01" + g.hex(24)
		g.assistant(w, map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": "aws s3 sync dist/ " + bucket + " --delete", "description": "Deploy the build"}})
		g.user(w, []any{map[string]any{"tool_use_id": id, "type": "tool_result", "content": "upload: dist/index.html to " + bucket + "index.html\nupload: dist/app.js to " + bucket + "app.js"}},
			map[string]any{"stdout": "upload: dist/index.html", "stderr": "", "interrupted": false, "isImage": false})
	}
}

func (g *generator) hook(w *bufio.Writer, toolID, name string) {
	event, _, _ := strings.Cut(name, ":")
	g.progress(w, toolID, map[string]any{"type": "hook_progress", "hookEvent": event, "hookName": name, "command": "/home/dev/.claude/hooks/notify.sh"})
}

// What Claude Code puts around a compaction summary.
const (
	claudeSummaryLead = "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n\n"
	claudeSummaryTail = "\n\nPlease continue the conversation from where we left it off without asking the user any further questions."
)

// compact writes a boundary and its summary.
func (g *generator) compact(w *bufio.Writer) {
	g.compactions++
	logical := g.parent
	g.parent = ""
	id := g.uuid()
	g.emit(w, systemRecord{envelope: g.envelope(), Type: "system", Subtype: "compact_boundary", Content: "Conversation compacted", IsMeta: false, Timestamp: g.tick(2), UUID: id, Level: "info", LogicalParentUUID: logical,
		CompactMetadata: map[string]any{"trigger": "auto", "preTokens": 150000 + g.rng.IntN(20000)}})
	g.parent = id
	g.emit(w, userRecord{envelope: g.envelope(), Type: "user", Message: userMessage{"user", claudeSummaryLead + g.summary() + claudeSummaryTail}, IsCompactSummary: true, IsVisible: new(true), UUID: g.uuid(), Timestamp: g.tick(1)})
}

// summary writes a compaction summary. Each is written from the one before,
// as real ones are, and wears the obligations down a little further: the
// bucket becomes a paraphrase, the "never" a preference, the retry limit
// vague.
func (g *generator) summary() string {
	bucket, push, retry := g.bucket, "Never push to main directly; open a PR instead.", fmt.Sprintf("Retry flaky tests at most %d times.", g.retries)
	switch g.compactions % 4 {
	case 2:
		bucket = g.nearBucket
	case 3:
		bucket, push, retry = g.nearBucket, "The user prefers PRs over pushing to main.", "Retries should be limited."
	case 0:
		push, retry = "The user prefers PRs over pushing to main.", "Retry flaky tests a few times."
	}
	var b strings.Builder
	b.WriteString("Analysis:\n")
	b.WriteString(g.prose(6))
	fmt.Fprintf(&b, "\n\nSummary:\n1. Primary Request and Intent:\n   Ship the release. Deploy to %s. %s %s Keep p95 latency under %dms on the checkout path.\n\n2. Key Technical Concepts:\n", bucket, push, retry, g.budgetMS)
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "   - %s\n", g.prose(1))
	}
	b.WriteString("\n3. Files and Code Sections:\n")
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "   - %s/%s\n     %s\n", g.cwd, g.sourcePath(), g.prose(1))
	}
	fmt.Fprintf(&b, "\n4. Pending Tasks:\n   - %s\n\n5. Current Work:\n   %s", g.prose(1), g.prose(2))
	return b.String()
}

func (g *generator) prose(sentences int) string {
	var b strings.Builder
	for i := 0; i < sentences; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch g.rng.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "Let me look at %s to see how the %s is %s.", g.sourcePath(), pick(g.rng, nouns), pick(g.rng, participles))
		case 1:
			fmt.Fprintf(&b, "The %s in %s still %s the %s, so I'll %s it next.", pick(g.rng, nouns), pick(g.rng, identifiers), pick(g.rng, verbs), pick(g.rng, nouns), pick(g.rng, verbs))
		case 2:
			fmt.Fprintf(&b, "I need to check whether the %s handles the %s case before changing %s.", pick(g.rng, nouns), pick(g.rng, adjectives), pick(g.rng, identifiers))
		case 3:
			fmt.Fprintf(&b, "Now I understand: %s calls %s, which is why the %s was %s.", pick(g.rng, identifiers), pick(g.rng, identifiers), pick(g.rng, nouns), pick(g.rng, participles))
		default:
			fmt.Fprintf(&b, "The tests for the %s %s should cover this.", pick(g.rng, adjectives), pick(g.rng, nouns))
		}
	}
	return b.String()
}

func (g *generator) sourcePath() string {
	if g.rng.IntN(50) == 0 {
		g.files = append(g.files, g.newPath())
	}
	return pick(g.rng, g.files)
}

func (g *generator) newPath() string {
	return pick(g.rng, []string{"internal", "pkg", "src", "lib", "cmd"}) + "/" + pick(g.rng, nouns) + "/" + pick(g.rng, nouns) + pick(g.rng, []string{".go", ".ts", ".py", "_test.go", ".tsx"})
}

func (g *generator) codeLine() string {
	switch g.rng.IntN(6) {
	case 0:
		return fmt.Sprintf("func (%c *%s) %s(ctx context.Context, %s string) error {", 's', capitalize(pick(g.rng, nouns)), pick(g.rng, identifiers), pick(g.rng, nouns))
	case 1:
		return fmt.Sprintf("if err := %s.%s(%s); err != nil {", pick(g.rng, nouns), pick(g.rng, identifiers), pick(g.rng, nouns))
	case 2:
		return fmt.Sprintf("return fmt.Errorf(\"%s %s: %%w\", err)", pick(g.rng, verbs), pick(g.rng, nouns))
	case 3:
		return fmt.Sprintf("%s := %s[%d:]", pick(g.rng, nouns), pick(g.rng, nouns), g.rng.IntN(64))
	case 4:
		return fmt.Sprintf("// %s", g.prose(1))
	default:
		return "}"
	}
}

func (g *generator) sourceFile(lines int) (string, int) {
	var b strings.Builder
	indent := 0
	for i := 0; i < lines; i++ {
		line := g.codeLine()
		if line == "}" && indent > 0 {
			indent--
		}
		b.WriteString(strings.Repeat("\t", indent))
		b.WriteString(line)
		b.WriteByte('\n')
		if strings.HasSuffix(line, "{") && indent < 4 {
			indent++
		}
	}
	return b.String(), lines
}

// numbered renders a file the way the Read tool returns it.
func numbered(body string) string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		fmt.Fprintf(&b, "%6d→%s\n", i+1, line)
	}
	return b.String()
}

func (g *generator) command() (cmd, out string, failed bool) {
	var b strings.Builder
	switch g.rng.IntN(3) {
	case 0:
		cmd = "go test ./... 2>&1 | tail -80"
		failed = g.rng.IntN(4) == 0
		for i := g.rng.IntN(30) + 5; i > 0; i-- {
			fmt.Fprintf(&b, "ok  \tgithub.com/acme/%s/%s\t%.3fs\n", pick(g.rng, projects), pick(g.rng, nouns), g.rng.Float64()*3)
		}
		if failed {
			fmt.Fprintf(&b, "--- FAIL: Test%s (%.2fs)\n    %s:%d: got %d, want %d\nFAIL\nFAIL\tgithub.com/acme/%s/%s\t%.3fs\n", capitalize(pick(g.rng, identifiers)), g.rng.Float64(), g.sourcePath(), g.rng.IntN(400), g.rng.IntN(10), g.rng.IntN(10), pick(g.rng, projects), pick(g.rng, nouns), g.rng.Float64()*3)
		}
	case 1:
		cmd = "npm run build"
		for i := g.rng.IntN(60) + 10; i > 0; i-- {
			fmt.Fprintf(&b, "dist/assets/%s-%s.js   %d.%02d kB │ gzip: %d.%02d kB\n", pick(g.rng, nouns), g.hex(8), g.rng.IntN(400), g.rng.IntN(100), g.rng.IntN(100), g.rng.IntN(100))
		}
		b.WriteString("✓ built in " + strconv.Itoa(g.rng.IntN(20)+1) + ".4s\n")
	default:
		cmd = "git log --oneline -40"
		for i := 40; i > 0; i-- {
			fmt.Fprintf(&b, "%s %s %s %s\n", g.hex(7), pick(g.rng, verbs), pick(g.rng, adjectives), pick(g.rng, nouns))
		}
	}
	return cmd, b.String(), failed
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var (
	projects    = []string{"acme-site", "billing", "ledgerd", "checkout", "search-api", "notifier"}
	nouns       = []string{"handler", "session", "cache", "router", "invoice", "payload", "queue", "token", "schema", "client", "config", "worker", "batch", "index", "report", "cursor", "limit", "store", "event", "buffer"}
	identifiers = []string{"parseHeader", "loadConfig", "newSession", "retryPolicy", "flushQueue", "validateToken", "buildIndex", "writeReport", "openStore", "applyLimit", "decodeEvent", "resolveRoute"}
	verbs       = []string{"drops", "wraps", "caches", "validates", "retries", "parses", "flushes", "rejects", "rewrites", "indexes"}
	participles = []string{"wired up", "initialised", "cached", "validated", "retried", "serialised", "flushed"}
	adjectives  = []string{"empty", "stale", "concurrent", "partial", "expired", "nested", "unicode", "quiet", "bursty"}
	surnames    = []string{"lovelace", "hopper", "turing", "knuth", "liskov", "dijkstra", "ritchie"}
)
