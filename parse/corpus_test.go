package parse_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
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

// moreBoundaries transcribes claude-code-more/README.md, which gives only
// how many compactions each file holds (an inherited summary included);
// files not named here must yield none.
var moreBoundaries = map[string]int{
	"EchoContext-Factory/feae44a9-b1b4-4be5-94dd-78894c9a67ca.jsonl":      1,
	"GistConsole/7f7d6019-9f5a-413a-8099-d792360a2535.jsonl":              1,
	"GistConsole/a56a0459-82c5-45be-9ee6-c8324ade4f9f.jsonl":              1,
	"Golfgod_v1/cf0615a9-0823-45ae-a214-03337c48795b.jsonl":               1,
	"Golfgod_v1/fb36f7a7-925d-4642-b220-ec2be3569883.jsonl":               1,
	"adhs-working/03b36817-ed29-4577-ac8a-070a0e13a21f.jsonl":             1,
	"cdev/a806d921-2aab-43b2-9f61-48a7325b088e.jsonl":                     4,
	"cdev/08e71d8b-0aea-497b-a055-c2b46fcdcdc4.jsonl":                     1,
	"claude-agentic-framework/05fe2b0c-a7aa-4d44-b626-460d3a20d77b.jsonl": 1,
	"claude-personal-commands/5a20e59f-ad6e-4dc3-8444-4411bf1c38bd.jsonl": 1,
	"iMatrix_src/544eb189-f003-4236-818a-4b7f8a6de0c2.jsonl":              2,
	"iMatrix_src/8e272239-f944-440f-a60f-6fb053f17e57.jsonl":              1,
	"iMatrix_src/dd2b098a-0487-4e66-9b74-c2607d7c3715.jsonl":              3,
	"moai-flow/f6fc8c95-f7ee-4865-9134-86cbbd45847a.jsonl":                1,
	"myblog/4d3a8057-77d1-4251-87b1-bf5ead0961b0.jsonl":                   1,
	"restaurant-app/24133cc4-b185-4c5f-91ea-2a775628023e.jsonl":           2,
	"uluwatu-surf-school/b31b52be-79d3-43f2-a605-5b544554d2f4.jsonl":      1,
	"uluwatu-surf-school/cba2adf3-84fb-4bd4-951b-e6b6d4768fee.jsonl":      1,
}

// moreWarnings are the only diagnostics the claude-code-more files may
// yield, each true of the files themselves: Claude Code 1.0.x wrote a
// compaction as its summary record alone, and a Stop hook's copy of a
// session holds records whose timestamps run backwards.
var moreWarnings = []string{
	"compaction summary with no compact_boundary record before it",
	"out-of-order timestamp",
	`more like "out-of-order timestamp" not shown`,
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
		if more, ok := strings.CutPrefix(filepath.ToSlash(rel), "claude-code-more/"); ok {
			t.Run(rel, func(t *testing.T) { checkMore(t, path, more) })
			continue
		}
		t.Run(rel, func(t *testing.T) {
			var got []*parse.Boundary
			kinds := map[parse.Kind]int{}
			res, err := parse.ReadFile(parse.File{Path: path, Agent: parse.MainAgent}, parse.Options{}, 0, func(ev *parse.Event) error {
				kinds[ev.Kind]++
				if ev.Kind == parse.KindBoundary {
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
			wantFormat := parse.FormatClaudeCode
			if strings.HasPrefix(rel, "codex/") {
				wantFormat = parse.FormatCodex
			}
			if res.Format != wantFormat {
				t.Errorf("format %q, want %q", res.Format, wantFormat)
			}
			if kinds[parse.KindMessage] == 0 {
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

// checkMore reads one claude-code-more file: the README's number of
// compactions, messages, and no diagnostic but moreWarnings.
func checkMore(t *testing.T, path, rel string) {
	boundaries, messages := 0, 0
	res, err := parse.ReadFile(parse.File{Path: path, Agent: parse.MainAgent}, parse.Options{}, 0, func(ev *parse.Event) error {
		switch ev.Kind {
		case parse.KindBoundary:
			boundaries++
		case parse.KindMessage:
			messages++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		ok := d.Severity == parse.Warning
		ok = ok && slices.ContainsFunc(moreWarnings, func(w string) bool { return strings.Contains(d.Message, w) })
		if !ok {
			t.Errorf("diagnostic: %s", d)
		}
	}
	if res.Format != parse.FormatClaudeCode {
		t.Errorf("format %q", res.Format)
	}
	if messages == 0 {
		t.Error("no messages read")
	}
	if want := moreBoundaries[rel]; boundaries != want {
		t.Errorf("%d boundaries, want %d", boundaries, want)
	}
}

// TestCorpusSessions discovers the corpus folder: each Claude Code session
// with its subagents, never the summarizer's own runs.
func TestCorpusSessions(t *testing.T) {
	corpusFiles(t)
	ts, diags := parse.Discover([]string{filepath.Join(corpusDir, "claude-code")})
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
		_, err := tr.Read(parse.Options{}, func(ev *parse.Event) error {
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
