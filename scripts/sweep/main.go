// Command sweep writes the Claude Code sessions of scripts/bench.sh's
// growth curves, each in the record shapes Claude Code writes:
//
//	sweep -kind obligations -n N   N distinct obligations in play (bucket
//	                               literals, host prohibitions and their
//	                               literals, which stay in
//	                               force), 100 to a user message,
//	                               then a compaction whose summary restates
//	                               them all, and calls that use some
//	sweep -kind boundaries -n B    B compactions spread over a session of
//	                               -size bytes, whatever B is
//	sweep -kind message -size S    one user message of S bytes of distinct
//	                               limits ("Job 7 must retry at most 10
//	                               times."), then a compaction and a call
//
// Sizes are decimal (1MB is 10^6 bytes), so a 64MB message stays under the
// readers' bound of 64 MiB for one record's line. The output goes to -o,
// or stdout.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	kind := flag.String("kind", "obligations", "obligations, boundaries or message")
	n := flag.Int("n", 1000, "obligations or boundaries")
	size := flag.String("size", "10MB", "file size (boundaries) or message size (message), with KB or MB")
	out := flag.String("o", "-", "output file")
	flag.Parse()
	bytes, err := parseSize(*size)
	if err != nil {
		fail(err)
	}
	w := os.Stdout
	if *out != "-" {
		if w, err = os.Create(*out); err != nil {
			fail(err)
		}
	}
	s := &session{w: bufio.NewWriterSize(w, 1<<20)}
	switch *kind {
	case "obligations":
		s.obligations(*n)
	case "boundaries":
		s.boundaries(*n, bytes)
	case "message":
		s.message(bytes)
	default:
		fail(fmt.Errorf("-kind must be obligations, boundaries or message, not %q", *kind))
	}
	if err := s.w.Flush(); err != nil {
		fail(err)
	}
	if err := w.Close(); err != nil {
		fail(err)
	}
}

// session writes one session's records, each parented on the one before.
type session struct {
	w       *bufio.Writer
	n       int // records written
	parent  string
	written int64
}

const sessionID = "7a3f0c2e-5b1d-4e8a-9c6f-0d2b4a6e8c10"

func (s *session) uuid() string { return fmt.Sprintf("4c1e8a2f-0000-4000-8000-%012d", s.n) }

func (s *session) stamp() string {
	return fmt.Sprintf("2026-03-02T%02d:%02d:%02d.000Z", 9+s.n/3600%12, s.n/60%60, s.n%60)
}

func (s *session) write(rec map[string]any) {
	s.n++
	id := s.uuid()
	rec["uuid"], rec["timestamp"], rec["sessionId"] = id, s.stamp(), sessionID
	rec["isSidechain"], rec["userType"], rec["cwd"], rec["version"], rec["gitBranch"] = false, "external", "/home/dev/acme-api", "2.1.39", "main"
	if _, ok := rec["parentUuid"]; !ok {
		if s.parent == "" {
			rec["parentUuid"] = nil
		} else {
			rec["parentUuid"] = s.parent
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		fail(err)
	}
	s.written += int64(len(b) + 1)
	s.w.Write(b)
	s.w.WriteByte('\n')
	s.parent = id
}

func (s *session) user(text string) {
	s.write(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
}

func (s *session) assistant(text string) {
	s.write(map[string]any{"type": "assistant", "message": map[string]any{"model": "claude-opus-4-6", "id": "msg_" + strconv.Itoa(s.n),
		"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}})
}

// bash writes a Bash call and its result.
func (s *session) bash(command, output string) {
	id := "toolu_" + strconv.Itoa(s.n)
	s.write(map[string]any{"type": "assistant", "message": map[string]any{"model": "claude-opus-4-6", "id": "msg_" + strconv.Itoa(s.n),
		"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash",
			"input": map[string]any{"command": command, "description": "Run it"}}}}})
	s.write(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{map[string]any{
		"tool_use_id": id, "type": "tool_result", "content": output}}},
		"toolUseResult": map[string]any{"stdout": output, "stderr": "", "interrupted": false, "isImage": false}})
}

// compact writes a compaction: the boundary record and its summary.
func (s *session) compact(summary string) {
	s.write(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
		"isMeta": false, "level": "info", "parentUuid": nil, "logicalParentUuid": s.parent,
		"compactMetadata": map[string]any{"trigger": "auto", "preTokens": 160000}})
	s.write(map[string]any{"type": "user", "isCompactSummary": true, "isVisibleInTranscriptOnly": true, "message": map[string]any{"role": "user",
		"content": "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n" + summary}})
}

// obligation i, a bucket to use or a host never to touch: each stays in
// force (a limit would replace the one before on its subject).
func obligation(i int) string {
	if i%2 == 0 {
		return fmt.Sprintf("Upload batch %d only to s3://acme-batch-%06d/.", i, i)
	}
	return fmt.Sprintf("Never touch db-%06d.internal.", i)
}

func (s *session) obligations(n int) {
	// a bucket's statement is one obligation (its literal), a host's two
	// (the prohibition and the host's literal): as many statements as make
	// n obligations
	m := 0
	for total := 0; total < n; m++ {
		total += 1 + m%2
	}
	n = m
	for start := 0; start < n; start += 100 {
		var b strings.Builder
		b.WriteString("More constraints for the migration. ")
		for i := start; i < min(start+100, n); i++ {
			b.WriteString(obligation(i))
			b.WriteByte(' ')
		}
		s.user(b.String())
		s.assistant("Noted; I will hold to these.")
	}
	// a faithful summary restates every obligation, so what the audit holds
	// is the ledger and its judgements, not tens of thousands of findings
	var summary strings.Builder
	summary.WriteString("The user gave these constraints for the migration, all still in force: ")
	for i := range n {
		summary.WriteString(obligation(i))
		summary.WriteByte(' ')
	}
	s.compact(summary.String())
	for i := 0; i < 50; i++ {
		s.bash(fmt.Sprintf("aws s3 cp out/ s3://acme-batch-%06d/ --recursive", (i*37)%max(n, 1)), "upload: done")
	}
}

func (s *session) boundaries(n int, size int64) {
	// the turns between boundaries fill the file to size, whatever n is:
	// each boundary ends where its share of the file does, so what one
	// overshoots the next makes up, and the files of every n are the same
	// size
	per := max(size/int64(max(n, 1)), 2048)
	s.user("Deploy the API to s3://acme-stage-07/ and never touch prod. Retry at most 3 times. Always run the tests before deploying.")
	turn := 0
	for b := 0; b < n; b++ {
		until := per * int64(b+1)
		for s.written < until-1200 {
			turn++
			s.bash(fmt.Sprintf("go test ./internal/handler%d/...", turn%17), strings.Repeat(fmt.Sprintf("ok  \tacme/internal/handler%d\t0.%03ds\n", turn%17, turn%1000), 8))
			s.assistant(fmt.Sprintf("Handler %d passes; moving on to the next package.", turn%17))
		}
		s.compact(fmt.Sprintf("Compaction %d. The user wants the API deployed to staging; tests are run package by package and pass so far. Retries should be limited.", b+1))
	}
	s.bash("aws s3 sync out/ s3://acme-staging/ --delete", "fatal error: NoSuchBucket")
}

func (s *session) message(size int64) {
	var b strings.Builder
	for i := 0; int64(b.Len()) < size; i++ {
		fmt.Fprintf(&b, "Job %d must retry at most %d times. ", i, i%97+3)
	}
	s.user(b.String())
	s.assistant("Understood.")
	s.compact("The user set retry limits for the jobs.")
	s.bash("./run-jobs.sh --retries 9", "ok")
}

func parseSize(v string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "KB"):
		mult, v = 1e3, strings.TrimSuffix(v, "KB")
	case strings.HasSuffix(v, "MB"):
		mult, v = 1e6, strings.TrimSuffix(v, "MB")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("-size: %v", err)
	}
	return n * mult, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sweep:", err)
	os.Exit(2)
}
