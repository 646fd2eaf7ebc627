package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir is the shared folder of real transcripts written by the agents
// themselves. It is read-only input and lives outside the project.
const corpusDir = "../../shared/corpus"

// wantBoundary is what ../shared/corpus/README.md says a file must yield.
type wantBoundary struct {
	trigger   string
	preTokens int
	readable  bool
}

// corpusBoundaries transcribes the README's table; files not named here
// must yield no boundary.
var corpusBoundaries = map[string][]wantBoundary{
	"claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl":                       {{"auto", 167094, true}},
	"claude-code/4d5611e5-241a-462a-8d15-5122611a9569.jsonl":                       {{"auto", 170251, true}},
	"claude-code/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl":                       {{"auto", 167731, true}},
	"claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl":                       {{"manual", 142431, true}},
	"claude-code/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl":                       {{"auto", 167117, true}},
	"codex/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl": {{"", 0, false}},
}

func corpusFiles(t *testing.T) []string {
	t.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("../shared/corpus is not present")
	}
	var files []string
	err := filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCorpusReads reads every real transcript, subagents and summarizer
// runs included, and checks zero diagnostics and exactly the listed
// boundaries.
func TestCorpusReads(t *testing.T) {
	for _, path := range corpusFiles(t) {
		rel, _ := filepath.Rel(corpusDir, path)
		t.Run(rel, func(t *testing.T) {
			var got []*Boundary
			kinds := map[Kind]int{}
			res, err := ReadFile(File{Path: path, Agent: MainAgent}, Options{}, 0, func(ev *Event) error {
				kinds[ev.Kind]++
				if ev.Kind == KindBoundary {
					got = append(got, ev.Boundary)
				}
				if ev.Turn < 1 {
					t.Errorf("line %d: turn %d", ev.Line, ev.Turn)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range res.Diagnostics {
				t.Errorf("diagnostic: %s", d)
			}
			wantFormat := FormatClaudeCode
			if strings.HasPrefix(rel, "codex/") {
				wantFormat = FormatCodex
			}
			if res.Format != wantFormat {
				t.Errorf("format %q, want %q", res.Format, wantFormat)
			}
			if kinds[KindMessage] == 0 {
				t.Errorf("no messages read: %v", kinds)
			}
			want := corpusBoundaries[filepath.ToSlash(rel)]
			if len(got) != len(want) {
				t.Fatalf("%d boundaries, want %d", len(got), len(want))
			}
			for i, w := range want {
				b := got[i]
				if b.Trigger != w.trigger || b.PreTokens != w.preTokens || b.Readable != w.readable {
					t.Errorf("boundary %d: trigger %q preTokens %d readable %v; want %q %d %v",
						i+1, b.Trigger, b.PreTokens, b.Readable, w.trigger, w.preTokens, w.readable)
				}
				if b.Readable && !strings.HasPrefix(b.Summary, "This session is being continued from a previous conversation") {
					t.Errorf("boundary %d: summary starts %q", i+1, b.Summary[:min(60, len(b.Summary))])
				}
				if !b.Readable && b.Unreadable == "" {
					t.Errorf("boundary %d: unreadable without a reason", i+1)
				}
			}
		})
	}
}

// TestCorpusSessions discovers the corpus folder: each Claude Code session
// with its subagents, never the summarizer's own runs.
func TestCorpusSessions(t *testing.T) {
	corpusFiles(t)
	ts, diags := Discover([]string{filepath.Join(corpusDir, "claude-code")})
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if len(ts) != 8 {
		t.Fatalf("%d transcripts, want 8 (5 sessions and 3 single files)", len(ts))
	}
	subagents := 0
	for _, tr := range ts {
		for _, f := range tr.Files[1:] {
			subagents++
			if strings.Contains(f.Path, "acompact") {
				t.Errorf("summarizer run read as an agent: %s", f.Path)
			}
			if !strings.HasPrefix(filepath.Base(f.Path), "agent-"+f.Agent) {
				t.Errorf("agent %q from %s", f.Agent, f.Path)
			}
		}
		var agents = map[string]bool{}
		_, err := tr.Read(Options{}, func(ev *Event) error {
			agents[ev.Agent] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(agents) != len(tr.Files) {
			t.Errorf("%s: agents %v for %d files", tr.Path, agents, len(tr.Files))
		}
	}
	if subagents != 6 {
		t.Errorf("%d subagent files, want 6", subagents)
	}
}
