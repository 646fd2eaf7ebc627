package audit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/parsetest"
)

// incidentWithWrite is the incident with a parallel Write call of a
// size-byte file beside the deploy to acme-staging (line 270): Claude Code
// writes each tool_use block of one message as its own record, so the Write
// call is line 271 and its result follows the deploy's (line 274).
func incidentWithWrite(t *testing.T, size int) string {
	t.Helper()
	data, err := os.ReadFile(incident)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var deploy map[string]any
	if err := json.Unmarshal([]byte(lines[269]), &deploy); err != nil {
		t.Fatal(err)
	}
	msg := deploy["message"].(map[string]any)
	body := strings.Repeat("export const price = 49;\n", size/25+1)[:size]
	msg["content"] = []any{map[string]any{"type": "tool_use", "id": "toolu_write_gen", "name": "Write",
		"input": map[string]any{"file_path": "/home/dev/acme-site/src/gen/prices.ts", "content": body}}}
	deploy["uuid"] = "7d1c7a55-0000-4000-8000-000000000271"
	write, err := json.Marshal(deploy)
	if err != nil {
		t.Fatal(err)
	}
	result := fmt.Sprintf(`{"parentUuid":"%s","isSidechain":false,"userType":"external","cwd":"/home/dev/acme-site","sessionId":"bd2cb367-c66c-96fc-3dc2-2642db0a6f2a","version":"2.1.39","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_write_gen","type":"tool_result","content":"File created successfully at: /home/dev/acme-site/src/gen/prices.ts"}]},"uuid":"7d1c7a55-0000-4000-8000-000000000274","timestamp":"2026-03-02T09:26:01.000Z"}`,
		deploy["uuid"])
	out := append([]string(nil), lines[:270]...)
	out = append(out, string(write))
	out = append(out, lines[270:272]...)
	out = append(out, result)
	out = append(out, lines[272:]...)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// windowWarnings are the warnings of the windows that stopped keeping
// turns, whether their own turns or the open windows' together held the
// budget.
func windowWarnings(res *audit.Result) []parse.Diagnostic {
	var out []parse.Diagnostic
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			if strings.HasPrefix(d.Message, "the turns after the compaction at ") {
				out = append(out, d)
			}
		}
	}
	return out
}

// windowProbe is a rule that records what each window kept.
func windowProbe(kept *[][]*replay.WindowEvent) *audit.Rule {
	return &audit.Rule{ID: "window-probe", Scope: audit.ScopeBoundary, Run: func(p *audit.Pass) {
		*kept = append(*kept, append([]*replay.WindowEvent(nil), p.Replay.Window...))
	}}
}

func ruleLines(res *audit.Result) map[string][]int {
	m := map[string][]int{}
	for _, f := range res.Findings {
		m[f.Rule] = append(m[f.Rule], f.Line)
	}
	return m
}

// TestWindowBudget: a window that outgrows its budget keeps the turns
// before, still judges their calls with their results, says where it
// stopped keeping, and does not see what came after.
func TestWindowBudget(t *testing.T) {
	const budget = 64 << 10
	path := incidentWithWrite(t, budget)
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path, Agent: parse.MainAgent}}}
	var kept [][]*replay.WindowEvent
	all := append(rules.All(), windowProbe(&kept))

	whole, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: all})
	if err != nil {
		t.Fatal(err)
	}
	if got := ruleLines(whole); len(got["paraphrase-reference"]) != 1 || len(got["forbidden-action"]) != 1 {
		t.Fatalf("without a budget the deploys to acme-staging and acme-prod are both found: %v", got)
	}
	for _, d := range windowWarnings(whole) {
		t.Errorf("the default budget was reached by a 64 KiB call: %s", d)
	}

	kept = nil
	res, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: all, WindowBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	got := ruleLines(res)
	if fmt.Sprint(got["paraphrase-reference"]) != "[270]" {
		t.Errorf("the deploy to acme-staging before the budget ran out: paraphrase-reference at %v, want [270]", got["paraphrase-reference"])
	}
	if len(got["forbidden-action"]) != 0 {
		t.Errorf("the deploy to acme-prod came after the window stopped keeping turns, yet forbidden-action reported lines %v", got["forbidden-action"])
	}
	if fmt.Sprint(got["dropped-literal"]) != fmt.Sprint(ruleLines(whole)["dropped-literal"]) {
		t.Errorf("the boundary's own judgement does not depend on the window: dropped-literal %v, without a budget %v",
			got["dropped-literal"], ruleLines(whole)["dropped-literal"])
	}

	warnings := windowWarnings(res)
	if len(warnings) != 1 {
		t.Fatalf("%d warnings about the window, want 1: %v", len(warnings), warnings)
	}
	w := warnings[0]
	if w.Severity != parse.Warning || w.File != path || w.Line != 271 ||
		!strings.Contains(w.Message, fmt.Sprintf("compaction at %s:169", path)) || !strings.Contains(w.Message, "64 KiB") {
		t.Errorf("the warning does not name the Write call at line 271, the compaction at line 169 and the budget: %s", w)
	}
	if len(res.Boundaries) != 1 || res.Boundaries[0].Unkept == nil || res.Boundaries[0].Unkept.Line != 271 {
		t.Errorf("the boundary does not record line 271 as the first event it did not keep")
	}

	if len(kept) != 1 {
		t.Fatalf("%d windows, want 1", len(kept))
	}
	var deploy *replay.WindowEvent
	for _, ev := range kept[0] {
		if ev.Line >= 271 {
			t.Errorf("the window kept line %d, past its budget", ev.Line)
		}
		if ev.Line == 270 && ev.Kind == parse.KindToolCall {
			deploy = ev
		}
	}
	switch {
	case deploy == nil:
		t.Error("the window lost the deploy at line 270")
	case deploy.Result == nil || deploy.Result.Line != 273 || !deploy.Result.IsError && !strings.Contains(deploy.Result.Text, "fatal error"):
		t.Errorf("the deploy's result (line 273, after the budget ran out) is not joined to its call: %+v", deploy.Result)
	}
}

// TestWindowBudgetEachWindow: every window has a budget of its own, and
// each that outgrows it gets its own warning, naming its boundary.
func TestWindowBudgetEachWindow(t *testing.T) {
	path, err := filepath.Abs("../testdata/transcripts/incident-drift-claude.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path, Agent: parse.MainAgent}}}
	var kept [][]*replay.WindowEvent
	res, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: []*audit.Rule{windowProbe(&kept)}, WindowBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Boundaries) < 2 {
		t.Fatalf("%d boundaries; the case needs several", len(res.Boundaries))
	}
	var warned []string
	for _, d := range windowWarnings(res) {
		warned = append(warned, fmt.Sprintf("%d %s", d.Line, d.Message))
	}
	unkept := 0
	for i, b := range res.Boundaries {
		if len(kept[i]) != 0 {
			t.Errorf("boundary at line %d: a 1-byte budget kept %d events", b.Line, len(kept[i]))
		}
		if b.Unkept == nil {
			continue // no turn after it
		}
		unkept++
		if b.Unkept.Line <= b.Line {
			t.Errorf("boundary at line %d: first event not kept at line %d, before it", b.Line, b.Unkept.Line)
		}
		want := fmt.Sprintf("%d the turns after the compaction at %s:%d hold more than 1 byte ", b.Unkept.Line, path, b.Line)
		if !slices.ContainsFunc(warned, func(w string) bool { return strings.HasPrefix(w, want) }) {
			t.Errorf("no warning %q among %q", want, warned)
		}
	}
	if unkept < 2 || len(warned) != unkept {
		t.Errorf("%d windows outgrew the budget and %d warnings were given; want one each, for at least two", unkept, len(warned))
	}

	// With 1 KiB the first window outgrows its budget; the next ones start
	// afresh, and each keeps the turns a window without a budget keeps, up
	// to the first it did not keep.
	var whole, part [][]*replay.WindowEvent
	if _, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: []*audit.Rule{windowProbe(&whole)}}); err != nil {
		t.Fatal(err)
	}
	res, err = audit.Audit(tr, parse.Options{}, audit.Options{Rules: []*audit.Rule{windowProbe(&part)}, WindowBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Boundaries[0].Unkept == nil {
		t.Fatal("the first window did not outgrow 1 KiB; the case needs it to")
	}
	keptAfter := false
	for i, b := range res.Boundaries {
		n := len(part[i])
		if n > len(whole[i]) {
			t.Fatalf("boundary at line %d: %d events kept with a budget, %d without", b.Line, n, len(whole[i]))
		}
		for k := range n {
			if part[i][k].Line != whole[i][k].Line || part[i][k].Kind != whole[i][k].Kind {
				t.Errorf("boundary at line %d: kept event %d is line %d, without a budget line %d", b.Line, k, part[i][k].Line, whole[i][k].Line)
			}
		}
		size := 0
		for _, ev := range part[i] {
			size += ev.KeptBytes()
		}
		if size > 1<<10 {
			t.Errorf("boundary at line %d: kept %d bytes, over its budget", b.Line, size)
		}
		if n < len(whole[i]) && size+whole[i][n].KeptBytes() <= 1<<10 {
			t.Errorf("boundary at line %d: stopped keeping at line %d with %d bytes kept, though the event fit its budget", b.Line, whole[i][n].Line, size)
		}
		switch {
		case b.Unkept == nil && n != len(whole[i]):
			t.Errorf("boundary at line %d: kept %d of %d events and gave no warning", b.Line, n, len(whole[i]))
		case b.Unkept != nil && n < len(whole[i]) && whole[i][n].Line != b.Unkept.Line:
			t.Errorf("boundary at line %d: first event not kept is line %d, but line %d was the next", b.Line, b.Unkept.Line, whole[i][n].Line)
		}
		if i > 0 && n > 0 {
			keptAfter = true
		}
	}
	if !keptAfter {
		t.Error("no window after the first kept any turn: the budget is not each window's own")
	}
}

// TestWindowBudgetShared: the windows open at once share one budget, so
// thousands of agents cannot each keep a window's worth; a window closed
// gives its bytes back, and the warning says when other agents held part.
func TestWindowBudgetShared(t *testing.T) {
	const budget = 4096
	call := func(agent, id string, size, turn int) string {
		return fmt.Sprintf(`{"type":"tool_call","agent":%q,"id":%q,"name":"write_file","arguments":{"path":"gen/%s.ts","content":%q},"turn":%d}`,
			agent, id, id, strings.Repeat("x", size), turn)
	}
	result := func(agent, id string, turn int) string {
		return fmt.Sprintf(`{"type":"tool_result","agent":%q,"id":%q,"content":"ok","turn":%d}`, agent, id, turn)
	}
	compaction := func(agent string, turn int) string {
		return fmt.Sprintf(`{"type":"compaction","agent":%q,"summary":"write the generated files","trigger":"auto","pre_tokens":118000,"turn":%d}`, agent, turn)
	}
	lines := []string{
		`{"type":"message","agent":"planner","role":"user","content":"Write the generated files; never touch prod.","turn":1}`,
		`{"type":"message","agent":"executor","role":"user","content":"Write the generated files; never touch prod.","turn":1}`,
		compaction("planner", 2),        // 3
		call("planner", "p1", 3000, 3),  // 4: kept, 3000 of 4096
		result("planner", "p1", 3),      // 5
		compaction("executor", 2),       // 6
		call("executor", "e1", 2000, 3), // 7: over, with the planner's 3000
		result("executor", "e1", 3),     // 8
		compaction("planner", 4),        // 9: the planner's window gives its bytes back
		call("planner", "p2", 3000, 5),  // 10: kept
		call("executor", "e2", 10, 4),   // 11: the executor's window kept nothing since line 7
		compaction("executor", 5),       // 12
		call("executor", "e3", 500, 6),  // 13: kept, with the planner's 3000
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}
	keptLines := map[int][]int{} // boundary line → lines kept
	probe := &audit.Rule{ID: "window-probe", Scope: audit.ScopeBoundary, Run: func(p *audit.Pass) {
		for _, ev := range p.Replay.Window {
			keptLines[p.Replay.Line] = append(keptLines[p.Replay.Line], ev.Line)
		}
	}}
	res, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: []*audit.Rule{probe}, WindowBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Boundaries) != 4 {
		t.Fatalf("%d boundaries, want 4", len(res.Boundaries))
	}
	for _, want := range []struct {
		boundary int
		lines    string
	}{{3, "[4 5]"}, {6, "[]"}, {9, "[10]"}, {12, "[13]"}} {
		if got := fmt.Sprint(keptLines[want.boundary]); got != want.lines {
			t.Errorf("the window after line %d kept lines %s, want %s", want.boundary, got, want.lines)
		}
	}
	warnings := windowWarnings(res)
	if len(warnings) != 1 {
		t.Fatalf("%d warnings, want 1 (the executor's first window): %v", len(warnings), warnings)
	}
	w := warnings[0]
	if w.Line != 7 || !strings.Contains(w.Message, fmt.Sprintf("the compaction at %s:6 and the other agents' open windows hold more than 4 KiB", path)) ||
		!strings.Contains(w.Message, "from here (turn 3) to the agent's next compaction") {
		t.Errorf("the warning does not name line 7, the executor's compaction at line 6, the shared budget and the turn: %s", w)
	}
}

// FuzzWindowBudget audits any input under a window budget from 1 byte up:
// no window keeps more than its budget, and each that stopped keeping
// says so once, at the line of the first event it left out.
func FuzzWindowBudget(f *testing.F) {
	root := filepath.Join("..", "testdata", "transcripts")
	for name, data := range parsetest.Files(root, filepath.Join(root, "audit")) {
		if filepath.Ext(name) == ".jsonl" {
			f.Add(data, uint16(len(data)/64))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, budget uint16) {
		tr := parse.Transcript{Path: "-", Files: []parse.File{{Path: "-"}}}
		var kept [][]*replay.WindowEvent
		res, err := audit.Audit(tr, parse.Options{Stdin: bytes.NewReader(data)},
			audit.Options{Rules: append(rules.All(), windowProbe(&kept)), WindowBytes: int(budget) + 1})
		if err != nil {
			t.Fatalf("audit error: %v", err)
		}
		if len(kept) != len(res.Boundaries) {
			t.Fatalf("%d windows probed, %d boundaries", len(kept), len(res.Boundaries))
		}
		var warned []int
		for _, d := range windowWarnings(res) {
			warned = append(warned, d.Line)
		}
		for _, w := range kept {
			size := 0
			for _, ev := range w {
				size += ev.KeptBytes()
			}
			if size > int(budget)+1 {
				t.Fatalf("a window kept %d bytes, budget %d", size, int(budget)+1)
			}
		}
		var unkept []int
		for _, b := range res.Boundaries {
			if b.Unkept != nil {
				unkept = append(unkept, b.Unkept.Line)
			}
		}
		checkWindowWarnings(t, res, warned, unkept)
	})
}

// checkWindowWarnings: each window that stopped keeping is named by a
// warning at the line of the first event it left out, up to
// parse.MaxSameDiagnostic of them, and one more line counts the rest.
func checkWindowWarnings(t *testing.T, res *audit.Result, warned, unkept []int) {
	t.Helper()
	slices.Sort(warned)
	slices.Sort(unkept)
	shown := min(len(unkept), parse.MaxSameDiagnostic)
	if len(warned) != shown {
		t.Fatalf("%d warnings for %d windows that stopped keeping, want %d", len(warned), len(unkept), shown)
	}
	if len(slices.Compact(slices.Clone(warned))) != len(warned) {
		t.Fatalf("a window named twice: warnings at lines %v", warned)
	}
	for _, l := range warned {
		if _, ok := slices.BinarySearch(unkept, l); !ok {
			t.Fatalf("a warning at line %d, but no window stopped keeping there (%v)", l, unkept)
		}
	}
	var counted []string
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			if strings.Contains(d.Message, "more windows that stopped keeping turns not shown") {
				counted = append(counted, d.Message)
			}
		}
	}
	switch rest := len(unkept) - shown; {
	case rest == 0 && len(counted) != 0:
		t.Fatalf("no window left unnamed, yet %q", counted)
	case rest > 0 && (len(counted) != 1 || !strings.HasPrefix(counted[0], fmt.Sprintf("%d more windows", rest))):
		t.Fatalf("%d windows left unnamed, counted as %q", rest, counted)
	}
}

// TestWindowWarningsCapped: a swarm whose windows all outgrow the budget
// gets the first windows' warnings one by one and the rest counted in one
// line, as repeated reading problems are; every boundary still says where
// its window stopped.
func TestWindowWarningsCapped(t *testing.T) {
	const agents = 27
	var lines []string
	for i := range agents {
		lines = append(lines, fmt.Sprintf(`{"type":"message","agent":"worker-%02d","role":"user","content":"Write gen/%02d.ts; never touch prod.","turn":1}`, i, i))
	}
	for i := range agents {
		lines = append(lines,
			fmt.Sprintf(`{"type":"compaction","agent":"worker-%02d","summary":"write the generated file","trigger":"auto","pre_tokens":118000,"turn":2}`, i),
			fmt.Sprintf(`{"type":"tool_call","agent":"worker-%02d","id":"w%02d","name":"write_file","arguments":{"path":"gen/%02d.ts","content":%q},"turn":3}`, i, i, i, strings.Repeat("x", 2000)))
	}
	path := filepath.Join(t.TempDir(), "swarm.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}
	res, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: rules.All(), WindowBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var warned, unkept []int
	for _, d := range windowWarnings(res) {
		warned = append(warned, d.Line)
	}
	for _, b := range res.Boundaries {
		if b.Unkept == nil {
			t.Errorf("the window after line %d kept a 2,000-byte call under a 1,000-byte budget", b.Line)
			continue
		}
		if b.Unkept.Line != b.Line+1 {
			t.Errorf("the window after line %d stopped keeping at line %d, want %d", b.Line, b.Unkept.Line, b.Line+1)
		}
		unkept = append(unkept, b.Unkept.Line)
	}
	if len(unkept) != agents {
		t.Fatalf("%d windows stopped keeping, want %d", len(unkept), agents)
	}
	checkWindowWarnings(t, res, warned, unkept)
}

// liveHeap is what the heap holds once collected: twice, as a pooled
// buffer survives one collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestKeptStringsLetRecordsGo: an event's strings are pieces of its
// record, so whatever the audit keeps of an event — an agent's name as a
// map key, a pending call's id — must be copied, or it holds the whole
// record, a call's megabytes of arguments, for the rest of the audit.
// Each of 24 agents makes one call of 2 MB that no result answers: 8 write
// a file after a compaction, 8 run the tests with a 2 MB command, and 8
// start with the call; 8 more, after a compaction, read a 2 MB output, of
// which a window keeps the first 16 KB. The first window closes while the
// file is still being read, at its last line; of the calls the audit keeps
// nothing, as they do not fit the windows' budget of 1 MiB.
func TestKeptStringsLetRecordsGo(t *testing.T) {
	const group, size = 8, 2 << 20
	body := strings.Repeat("export const price = 49;\n", size/25)
	var b strings.Builder
	for i := range group {
		fmt.Fprintf(&b, `{"type":"message","agent":"w%d","role":"user","content":"Write shard %d of the price table; never touch prod.","turn":1}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"compaction","agent":"w%d","summary":"write the price table","trigger":"auto","pre_tokens":118000,"turn":2}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"tool_call","agent":"w%d","id":"w%d","name":"write_file","arguments":{"path":"gen/prices%d.ts","content":%q},"turn":3}`+"\n", i, i, i, body)
		fmt.Fprintf(&b, `{"type":"message","agent":"t%d","role":"user","content":"Run the tests.","turn":1}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"tool_call","agent":"t%d","id":"t%d","name":"shell","arguments":{"command":%q},"turn":2}`+"\n", i, i, "go test ./... -run '"+strings.Repeat("TestPrice|", size/10)+"'")
		fmt.Fprintf(&b, `{"type":"tool_call","agent":"x%d","id":"x%d","name":"write_file","arguments":{"path":"gen/x%d.ts","content":%q},"turn":1}`+"\n", i, i, i, body)
		fmt.Fprintf(&b, `{"type":"compaction","agent":"r%d","summary":"read the price table","trigger":"auto","pre_tokens":118000,"turn":1}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"tool_call","agent":"r%d","id":"r%d","name":"read_file","arguments":{"path":"gen/prices%d.ts"},"turn":2}`+"\n", i, i, i)
		fmt.Fprintf(&b, `{"type":"tool_result","agent":"r%d","id":"r%d","content":%q,"turn":2}`+"\n", i, i, body)
	}
	b.WriteString(`{"type":"compaction","agent":"w0","summary":"write the price table","trigger":"auto","pre_tokens":118000,"turn":4}` + "\n")
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b = strings.Builder{}
	before := liveHeap()
	var reading uint64
	probe := &audit.Rule{ID: "heap-probe", Scope: audit.ScopeBoundary, Run: func(p *audit.Pass) {
		if reading == 0 {
			reading = liveHeap()
		}
	}}
	tr := parse.Transcript{Path: path, Files: []parse.File{{Path: path}}}
	res, err := audit.Audit(tr, parse.Options{}, audit.Options{Rules: append(rules.All(), probe), WindowBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	after := liveHeap()
	runtime.KeepAlive(res)
	const most = 8 << 20 // of 64 MB of calls and outputs
	for _, m := range []struct {
		when string
		heap uint64
	}{{"while the file is read", reading}, {"after the audit", after}} {
		t.Logf("%s: %d KB more than before the audit", m.when, (int64(m.heap)-int64(before))>>10)
		if m.heap > before && m.heap-before > most {
			t.Errorf("%s, the audit holds %d MB of 32 records of 2 MB it keeps at most 16 KB of", m.when, (m.heap-before)>>20)
		}
	}
}
