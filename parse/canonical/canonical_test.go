package canonical

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
	"github.com/compaudit/compaudit/parse/jsontext"
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

// canonicalMemberOf is each member members reads, by name.
var canonicalMemberOf = map[string]func(*canonicalMembers) string{
	"agent":        func(m *canonicalMembers) string { return m.agent },
	"ts":           func(m *canonicalMembers) string { return m.ts },
	"cwd":          func(m *canonicalMembers) string { return m.cwd },
	"type":         func(m *canonicalMembers) string { return m.typ },
	"role":         func(m *canonicalMembers) string { return m.role },
	"turn":         func(m *canonicalMembers) string { return m.turn },
	"content":      func(m *canonicalMembers) string { return m.content },
	"origin":       func(m *canonicalMembers) string { return m.origin },
	"id":           func(m *canonicalMembers) string { return m.id },
	"name":         func(m *canonicalMembers) string { return m.name },
	"arguments":    func(m *canonicalMembers) string { return m.arguments },
	"side_effect":  func(m *canonicalMembers) string { return m.sideEffect },
	"is_error":     func(m *canonicalMembers) string { return m.isError },
	"trigger":      func(m *canonicalMembers) string { return m.trigger },
	"pre_tokens":   func(m *canonicalMembers) string { return m.preTokens },
	"summary":      func(m *canonicalMembers) string { return m.summary },
	"kind":         func(m *canonicalMembers) string { return m.kind },
	"kept":         func(m *canonicalMembers) string { return m.kept },
	"notified":     func(m *canonicalMembers) string { return m.notified },
	"cleared":      func(m *canonicalMembers) string { return m.cleared },
	"op":           func(m *canonicalMembers) string { return m.op },
	"key":          func(m *canonicalMembers) string { return m.key },
	"value":        func(m *canonicalMembers) string { return m.value },
	"payload_hash": func(m *canonicalMembers) string { return m.payloadHash },
	"revision":     func(m *canonicalMembers) string { return m.revision },
	"confidence":   func(m *canonicalMembers) string { return m.confidence },
	"tool_call_id": func(m *canonicalMembers) string { return m.toolCallID },
	"tool_calls":   func(m *canonicalMembers) string { return m.toolCalls },
}

// checkCanonicalMembers holds a record's members, read from the
// validator's index in one pass, to gjson's Get on the whole record, which
// decode asked before: of a key written twice, the first; a key written
// with escapes, as it decodes.
func checkCanonicalMembers(t *testing.T, line string) {
	t.Helper()
	rec, ok := parse.ReadRecord(line, jsontext.RecordIndex{})
	if !ok {
		return
	}
	cr := newCanonicalRecord(rec.Raw, rec.Fields)
	m := cr.members()
	whole := gjson.Parse(line)
	for name, of := range canonicalMemberOf {
		got, want := rawResult(of(&m)), whole.Get(name)
		if got.Type != want.Type || got.Raw != want.Raw || got.Str != want.Str || got.Num != want.Num {
			t.Fatalf("record %s, member %q: %v %q %q, gjson gives %v %q %q", line, name, got.Type, got.Raw, got.Str, want.Type, want.Raw, want.Str)
		}
	}
}

// TestCanonicalRecordGet checks the members of the cases, and that the
// table names every member members reads.
func TestCanonicalRecordGet(t *testing.T) {
	if n := reflect.TypeFor[canonicalMembers]().NumField(); n != len(canonicalMemberOf) {
		t.Fatalf("canonicalMembers has %d members, the table names %d", n, len(canonicalMemberOf))
	}
	for _, c := range canonicalGetCases {
		checkCanonicalMembers(t, c)
	}
}

func FuzzCanonicalRecordGet(f *testing.F) {
	for _, c := range canonicalGetCases {
		f.Add(c)
	}
	f.Fuzz(checkCanonicalMembers)
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
		Kind         parse.Kind
		Turn         int
		Text         string
		ReplacesUpTo int
		StateKey     string
		ToolName     string
		ToolID       string
	}
	want := []got{
		{Line: 1, Agent: parse.MainAgent, Kind: parse.KindMessage, Turn: 1, Text: "deploy to staging"},
		{Line: 2, Agent: "planner", Kind: parse.KindMessage, Turn: 1, Text: "on it"},
		{Line: 3, Agent: parse.MainAgent, Kind: parse.KindToolCall, Turn: 2, ToolName: "shell", ToolID: "1"},
		{Line: 4, Agent: parse.MainAgent, Kind: parse.KindToolResult, Turn: 2, Text: "a b", ToolID: "1"},
		// a compaction replaces the turns so far and takes effect in the next
		{Line: 6, Agent: parse.MainAgent, Kind: parse.KindBoundary, Turn: 3, ReplacesUpTo: 2},
		{Line: 7, Agent: parse.MainAgent, Kind: parse.KindMessage, Turn: 9, Text: "later"},
		{Line: 8, Agent: "planner", Kind: parse.KindStateWrite, Turn: 4, StateKey: "task/1"},
		// a chat message's turns are counted from the last, whatever it says
		{Line: 9, Agent: parse.MainAgent, Kind: parse.KindMessage, Turn: 10, Text: "calling f"},
		{Line: 9, Agent: parse.MainAgent, Kind: parse.KindToolCall, Turn: 10, ToolName: "f", ToolID: "c1"},
		{Line: 11, Agent: parse.MainAgent, Kind: parse.KindMessage, Turn: 11, Text: "caf\uFFFD"},
	}
	wantDiags := []struct {
		line int
		sev  parse.Severity
		has  string
	}{
		{5, parse.Warning, `unknown event type "bogus"`},
		{10, parse.Error, `neither "type" nor "role"`},
		{11, parse.Warning, "UTF-8"},
		{12, parse.Error, `role "tool"`},
	}
	data := strings.Join(lines, "\n") + "\n"
	for _, workers := range []int{1, 2} {
		var evs []got
		res, err := parse.ReadFile(parse.File{Path: "-"}, parse.Options{Format: parse.FormatCanonical, Stdin: strings.NewReader(data), Workers: workers}, 0, func(ev *parse.Event) error {
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

var rawValueCases = []string{`"plain"`, `"esc\"aped\n\u00e9"`, "\"\xff\\n\"", `""`, `7`, `-0`, `12.5`, `1e3`, `-12345678901234567890`,
	`123456789012345`, `1234567890123456`, `9007199254740993`, `1e400`, `true`, `false`, `null`, `[]`, `[{"text":"a"},"b"]`,
	`{"a": 1, "b" : [true]}`, `0.7`, `-1.5e-3`}

// checkRawValue holds the raw-value readers of the canonical decoder to
// gjson's reading of the same value, which they replaced.
func checkRawValue(t *testing.T, raw string) {
	t.Helper()
	if ok, _ := jsontext.ValidJSON(raw); !ok || raw != strings.TrimSpace(raw) {
		return
	}
	v := gjson.Parse(raw)
	if got := jsontext.JsonString(raw); got != v.Str {
		t.Fatalf("jsonString(%s) = %q, gjson reads %q", raw, got, v.Str)
	}
	if _, ok := jsontext.RawString(raw); ok != (v.Type == gjson.String) {
		t.Fatalf("rawString(%s) says string = %v", raw, ok)
	}
	if f, ok := jsonNumber(raw); ok != (v.Type == gjson.Number) || ok && f != v.Num {
		t.Fatalf("jsonNumber(%s) = %v, %v; gjson reads %v, %v", raw, f, ok, v.Num, v.Type == gjson.Number)
	}
	if n, ok := jsonInt(raw); ok != (v.Type == gjson.Number) || ok && n != v.Int() {
		t.Fatalf("jsonInt(%s) = %v, %v; gjson reads %v", raw, n, ok, v.Int())
	}
	if got, want := rawID(raw), idString(v); got != want {
		t.Fatalf("rawID(%s) = %q, want %q", raw, got, want)
	}
	if got, want := rawTextOf(raw), textOf(v); got != want {
		t.Fatalf("rawTextOf(%s) = %q, want %q", raw, got, want)
	}
	want := ""
	switch v.Type {
	case gjson.String:
		want = v.Str
	case gjson.Null:
	default:
		if out, err := json.Marshal(json.RawMessage(v.Raw)); err == nil {
			want = string(out)
		} else {
			want = v.Raw
		}
	}
	if got := valueString(raw); got != want {
		t.Fatalf("valueString(%s) = %q, want %q", raw, got, want)
	}
}

func TestRawValue(t *testing.T) {
	for _, c := range rawValueCases {
		checkRawValue(t, c)
	}
}

func FuzzRawValue(f *testing.F) {
	for _, c := range rawValueCases {
		f.Add(c)
	}
	f.Fuzz(checkRawValue)
}
