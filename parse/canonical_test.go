package parse

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var canonicalGetCases = []string{
	`{"agent":"planner","turn":2,"type":"state","op":"write","key":"task/1","value":"pending","revision":1}`,
	`{"type":"message","role":"user","content":"never \"deploy\"\nto prod","origin":"rules"}`,
	`{ "type" : "tool_call" , "id" : 7 , "name":"shell","arguments":{"command":"ls -la"} , "side_effect":true }`,
	`{"type":"state","type":"message","key":"first","key":"second"}`,
	`{"type":"compaction","summary":null,"kept":[3,4],"notified":["a","b"],"cleared":[1,"t2"]}`,
	`{"role":"assistant","content":[{"type":"text","text":"hi"}],"tool_calls":[{"id":"c1","function":{"name":"f","arguments":"{}"}}]}`,
	`{"value":{"nested":{"deep":[1,2,{"x":"y"}]}},"confidence":0.75,"ts":"2026-11-30T10:00:00Z"}`,
	`{"k\u0065y":"escaped key","":"empty key","content":"caf\u00e9 \ud83d\ude00"}`,
	`{}`,
}

// canonicalKeys are the members decode asks a record for, and some it
// does not hold.
var canonicalKeys = []string{"agent", "ts", "cwd", "type", "role", "turn", "content", "origin", "id", "name",
	"arguments", "side_effect", "is_error", "trigger", "pre_tokens", "summary", "kind", "kept", "notified",
	"cleared", "op", "key", "value", "payload_hash", "revision", "confidence", "tool_call_id", "tool_calls",
	"", "nested", "absent"}

// checkCanonicalGet holds canonicalRecord.Get, which reads the validator's
// index, to gjson's Get on the whole record, which decode asked before.
func checkCanonicalGet(t *testing.T, line string) {
	t.Helper()
	rec, ok := readRecord(line, nil)
	if !ok {
		return
	}
	cr := newCanonicalRecord(rec.raw, rec.fields)
	crp := &cr
	keys := canonicalKeys
	for _, f := range rec.fields {
		keys = append(keys, unescape(line[f.k0:f.k1]))
	}
	whole := gjson.Parse(line)
	for _, k := range keys {
		if !plainKey.MatchString(k) {
			continue // gjson reads it as a path (a dot, a wildcard, an escape): decode asks for none
		}
		got, want := crp.Get(k), whole.Get(k)
		if got.Type != want.Type || got.Raw != want.Raw || got.Str != want.Str || got.Num != want.Num {
			t.Fatalf("record %s, key %q: Get = %v %q %q, gjson gives %v %q %q", line, k, got.Type, got.Raw, got.Str, want.Type, want.Raw, want.Str)
		}
	}
}

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_/ -]*$`)

func TestCanonicalRecordGet(t *testing.T) {
	for _, c := range canonicalGetCases {
		checkCanonicalGet(t, c)
	}
}

func FuzzCanonicalRecordGet(f *testing.F) {
	for _, c := range canonicalGetCases {
		f.Add(c)
	}
	f.Fuzz(checkCanonicalGet)
}

// A canonical record is read on a worker and numbered in order: the turns,
// agents and problems of a file must come out as the format defines them,
// however many workers read it.
func TestCanonicalTurnsAgentsProblems(t *testing.T) {
	lines := []string{
		`{"type":"message","role":"user","content":"deploy to staging"}`,
		`{"type":"message","role":"assistant","content":"on it","agent":"planner"}`,
		`{"type":"tool_call","name":"shell","id":1,"arguments":{"cmd":"ls"}}`,
		`{"type":"tool_result","id":1,"content":"a b"}`,
		`{"type":"bogus"}`,
		`{"type":"compaction","summary":"deploying"}`,
		`{"type":"message","role":"user","content":"later","turn":9}`,
		`{"type":"state","op":"write","key":"task/1","value":"done","agent":"planner","turn":4}`,
		`{"role":"assistant","content":"calling f","tool_calls":[{"id":"c1","function":{"name":"f","arguments":"{}"}}],"turn":50}`,
		`{"nope":1}`,
		"{\"type\":\"message\",\"role\":\"user\",\"content\":\"caf\xff\"}",
		`{"type":"message","role":"tool","content":"x"}`,
	}
	type got struct {
		Line         int
		Agent        string
		Kind         Kind
		Turn         int
		Text         string
		ReplacesUpTo int
		StateKey     string
		ToolName     string
		ToolID       string
	}
	want := []got{
		{Line: 1, Agent: MainAgent, Kind: KindMessage, Turn: 1, Text: "deploy to staging"},
		{Line: 2, Agent: "planner", Kind: KindMessage, Turn: 1, Text: "on it"},
		{Line: 3, Agent: MainAgent, Kind: KindToolCall, Turn: 2, ToolName: "shell", ToolID: "1"},
		{Line: 4, Agent: MainAgent, Kind: KindToolResult, Turn: 2, Text: "a b", ToolID: "1"},
		// a compaction replaces the turns so far and takes effect in the next
		{Line: 6, Agent: MainAgent, Kind: KindBoundary, Turn: 3, ReplacesUpTo: 2},
		{Line: 7, Agent: MainAgent, Kind: KindMessage, Turn: 9, Text: "later"},
		{Line: 8, Agent: "planner", Kind: KindStateWrite, Turn: 4, StateKey: "task/1"},
		// a chat message's turns are counted from the last, whatever it says
		{Line: 9, Agent: MainAgent, Kind: KindMessage, Turn: 10, Text: "calling f"},
		{Line: 9, Agent: MainAgent, Kind: KindToolCall, Turn: 10, ToolName: "f", ToolID: "c1"},
		{Line: 11, Agent: MainAgent, Kind: KindMessage, Turn: 11, Text: "caf\uFFFD"},
	}
	wantDiags := []struct {
		line int
		sev  Severity
		has  string
	}{
		{5, Warning, `unknown event type "bogus"`},
		{10, Error, `neither "type" nor "role"`},
		{11, Warning, "UTF-8"},
		{12, Error, `role "tool"`},
	}
	data := strings.Join(lines, "\n") + "\n"
	for _, workers := range []int{1, 2} {
		var evs []got
		res, err := ReadFile(File{Path: "-"}, Options{Format: FormatCanonical, Stdin: strings.NewReader(data), Workers: workers}, 0, func(ev *Event) error {
			g := got{Line: ev.Line, Agent: ev.Agent, Kind: ev.Kind, Turn: ev.Turn, Text: ev.Text, ToolName: ev.ToolName, ToolID: ev.ToolID}
			if ev.Boundary != nil {
				g.ReplacesUpTo = ev.Boundary.ReplacesThrough
			}
			if ev.State != nil {
				g.StateKey = ev.State.Key
			}
			evs = append(evs, g)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(evs, want) {
			t.Errorf("%d workers: events\n%+v\nwant\n%+v", workers, evs, want)
		}
		if len(res.Diagnostics) != len(wantDiags) {
			t.Fatalf("%d workers: diagnostics %+v, want %d", workers, res.Diagnostics, len(wantDiags))
		}
		for i, d := range res.Diagnostics {
			w := wantDiags[i]
			if d.Line != w.line || d.Severity != w.sev || !strings.Contains(d.Message, w.has) {
				t.Errorf("%d workers: diagnostic %d is %+v, want line %d, %v, saying %q", workers, i, d, w.line, w.sev, w.has)
			}
		}
	}
}
