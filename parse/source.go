package parse

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compaudit/compaudit/parse/linereader"
	"github.com/tidwall/gjson"
)

// File is one transcript file and the agent whose records it holds.
type File struct {
	Path  string
	Agent string
}

// Transcript is one session: its main file and its subagents' files.
type Transcript struct {
	Path  string // the main file, or "-"
	Files []File // main file first, then subagents sorted by path
}

// Discover expands paths into transcripts. A folder is searched for session
// files; each session takes its subagents along. The compaction summarizer's
// own runs (agent-acompact-*) are not agents and are left out. Problems with
// single entries are returned as diagnostics and the rest is still found.
func Discover(paths []string) ([]Transcript, []Diagnostic) {
	var out []Transcript
	var diags []Diagnostic
	seen := takenFiles{}
	for _, p := range paths {
		if p == "-" {
			out = append(out, Transcript{Path: "-", Files: []File{{Path: "-", Agent: MainAgent}}})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			diags = append(diags, Diagnostic{Severity: Error, File: p, Message: cleanOSError(err)})
			continue
		}
		if !st.IsDir() {
			if !seen.take(p, &diags) {
				continue
			}
			t, ds := sessionOf(p)
			out = append(out, t)
			diags = append(diags, ds...)
			continue
		}
		ts, ds := discoverDir(p, seen)
		out = append(out, ts...)
		diags = append(diags, ds...)
	}
	return out, diags
}

func isTranscriptName(name string) bool {
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.gz")
}

func stem(name string) string {
	name = strings.TrimSuffix(name, ".gz")
	return strings.TrimSuffix(name, ".jsonl")
}

// isSummarizerRun reports the compaction summarizer's own transcript.
func isSummarizerRun(name string) bool { return strings.HasPrefix(name, "agent-acompact-") }

// agentFromName reads a subagent id from agent-<id>.jsonl.
func agentFromName(name string) string {
	return strings.TrimPrefix(stem(name), "agent-")
}

// sessionOf builds the transcript of a session file with its subagents:
// <session>/subagents/agent-*.jsonl, as Claude Code writes them.
func sessionOf(path string) (Transcript, []Diagnostic) {
	agent := MainAgent
	if name := filepath.Base(path); strings.HasPrefix(name, "agent-") {
		agent = agentFromName(name)
	}
	t := Transcript{Path: path, Files: []File{{Path: path, Agent: agent}}}
	dir := filepath.Join(strings.TrimSuffix(path, filepath.Ext(path)), "subagents")
	if strings.HasSuffix(path, ".jsonl.gz") {
		dir = filepath.Join(strings.TrimSuffix(path, ".jsonl.gz"), "subagents")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return t, nil
	}
	var subs []File
	var diags []Diagnostic
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !isTranscriptName(name) || !strings.HasPrefix(name, "agent-") || isSummarizerRun(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if d, skip := notRegular(p, e.Type()); skip {
			diags = append(diags, d)
			continue
		}
		subs = append(subs, File{Path: p, Agent: agentFromName(name)})
	}
	slices.SortFunc(subs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	t.Files = append(t.Files, subs...)
	return t, diags
}

// notRegular reports a file found in a folder that is neither a regular
// file nor a link to one, with a warning that it is passed over: a named
// pipe would hold the audit until something wrote to it, and a socket or a
// device holds no transcript. Named on the command line, a pipe is read.
func notRegular(path string, typ fs.FileMode) (Diagnostic, bool) {
	if typ&fs.ModeSymlink != 0 {
		st, err := os.Stat(path)
		if err != nil {
			return Diagnostic{}, false // a dangling link: opened, and reported unreadable
		}
		typ = st.Mode().Type()
	}
	var kind string
	switch {
	case typ.IsRegular():
		return Diagnostic{}, false
	case typ&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case typ&fs.ModeSocket != 0:
		kind = "a socket"
	case typ&fs.ModeDevice != 0:
		kind = "a device"
	case typ.IsDir():
		kind = "a folder"
	default:
		kind = "not a regular file"
	}
	return Diagnostic{Severity: Warning, File: path,
		Message: fmt.Sprintf("%s, not a transcript file: skipped (name it on the command line to read from it)", kind)}, true
}

// discoverDir finds the sessions under a folder. Files under a
// <session>/subagents/ folder belong to that session; agent-*.jsonl files
// beside sessions (older Claude Code versions) belong to the session whose
// id their records carry.
func discoverDir(root string, seen takenFiles) ([]Transcript, []Diagnostic) {
	var diags []Diagnostic
	var sessions []string
	var looseAgents []string
	links := map[string]bool{} // the sessions and agents found as links
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			diags = append(diags, Diagnostic{Severity: Error, File: p, Message: "cannot read: " + cleanOSError(err)})
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		name := d.Name()
		if !isTranscriptName(name) {
			return nil
		}
		if filepath.Base(filepath.Dir(p)) == "subagents" {
			return nil // taken with its session
		}
		if diag, skip := notRegular(p, d.Type()); skip {
			diags = append(diags, diag)
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			links[p] = true
		}
		if strings.HasPrefix(name, "agent-") {
			if !isSummarizerRun(name) {
				looseAgents = append(looseAgents, p)
			}
			return nil
		}
		sessions = append(sessions, p)
		return nil
	})
	slices.Sort(sessions)
	slices.Sort(looseAgents)
	// a file and a link to it are taken as the file, whichever sorts first:
	// the file's name is the session's id, and its subagents are beside it
	takeFiles := func(ps []string) []string {
		var kept []string
		for _, wantLink := range []bool{false, true} {
			for _, p := range ps {
				if links[p] == wantLink && seen.take(p, &diags) {
					kept = append(kept, p)
				}
			}
		}
		slices.Sort(kept)
		return kept
	}
	sessions, looseAgents = takeFiles(sessions), takeFiles(looseAgents)
	var out []Transcript
	bySession := map[string]int{}
	for _, s := range sessions {
		bySession[stem(filepath.Base(s))] = len(out)
		t, ds := sessionOf(s)
		out = append(out, t)
		diags = append(diags, ds...)
	}
	for _, a := range looseAgents {
		f := File{Path: a, Agent: agentFromName(filepath.Base(a))}
		if i, ok := bySession[peekSessionID(a)]; ok {
			out[i].Files = append(out[i].Files, f)
			continue
		}
		// An agent whose session is not here is audited on its own.
		out = append(out, Transcript{Path: a, Files: []File{f}})
	}
	return out, diags
}

// takenFiles are the files Discover has taken, by what each is rather than
// how it was named: the real path of each (links followed, made absolute)
// and the name it was taken by. A link in a folder to a session beside it
// (a latest.jsonl), or a session named on its own as ./s.jsonl and inside
// its folder, is one session, and was audited once per name, its findings
// counted as many times.
type takenFiles map[string]string

// take reports whether path names a file not taken yet, and takes it. A
// file taken before under another name gets a warning, added to diags; one
// named again the same way does not.
func (t takenFiles) take(path string, diags *[]Diagnostic) bool {
	key := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		key = real
	}
	if abs, err := filepath.Abs(key); err == nil {
		key = abs
	}
	first, ok := t[key]
	if !ok {
		t[key] = path
		return true
	}
	if first != path {
		*diags = append(*diags, Diagnostic{Severity: Warning, File: path,
			Message: "the same file as " + first + ": audited once, as that"})
	}
	return false
}

// peekRecords calls fn with the first n records of a file, until fn
// returns true.
func peekRecords(path string, n int, fn func(rec gjson.Result) bool) {
	fh, err := os.Open(path)
	if err != nil {
		return
	}
	defer fh.Close()
	r, err := linereader.MaybeGunzip(bufio.NewReaderSize(fh, linereader.PeekBufSize))
	if err != nil {
		return
	}
	lr := linereader.NewLineReader(r, linereader.PeekBufSize)
	for i := 0; i < n; i++ {
		line, _, _, ok := lr.Next()
		if !ok {
			return
		}
		if rec, ok := parseRecord(string(line)); ok && fn(rec) {
			return
		}
	}
}

// peekSessionID reads the sessionId of the first record that has one.
func peekSessionID(path string) (id string) {
	peekRecords(path, 16, func(rec gjson.Result) bool {
		id = rec.Get("sessionId").Str
		return id != ""
	})
	return id
}

// SessionDir reads the working directory a session recorded: Claude Code's
// cwd field, or Codex's session_meta payload.cwd. Empty when none is found
// in its first records.
func SessionDir(path string) (cwd string) {
	peekRecords(path, 32, func(rec gjson.Result) bool {
		if cwd = rec.Get("cwd").Str; cwd == "" {
			cwd = rec.Get("payload.cwd").Str
		}
		return cwd != ""
	})
	return cwd
}

// ClaudeProjectDir is the folder where Claude Code keeps the sessions of a
// working directory: every character that is not a letter or a digit
// becomes a dash.
func ClaudeProjectDir(claudeHome, cwd string) string {
	b := []byte(cwd)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return filepath.Join(claudeHome, "projects", string(b))
}

// CodexSessionsFor finds the Codex rollouts under a sessions folder whose
// recorded working directory is cwd.
func CodexSessionsFor(sessions, cwd string) []string {
	var out []string
	_ = filepath.WalkDir(sessions, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "rollout-") || !isTranscriptName(d.Name()) {
			return nil
		}
		if _, skip := notRegular(p, d.Type()); skip {
			return nil // not a rollout, and a pipe would hold the look
		}
		if SessionDir(p) == cwd {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out
}
