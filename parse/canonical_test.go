package parse

import (
	"regexp"
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
	cr := &canonicalRecord{raw: rec.raw, fields: rec.fields}
	keys := canonicalKeys
	for _, f := range rec.fields {
		keys = append(keys, unescape(line[f.k0:f.k1]))
	}
	whole := gjson.Parse(line)
	for _, k := range keys {
		if !plainKey.MatchString(k) {
			continue // gjson reads it as a path (a dot, a wildcard, an escape): decode asks for none
		}
		got, want := cr.Get(k), whole.Get(k)
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
