package jsontext

import (
	"encoding/json"
	"strings"
)

// PartsText joins the text parts of a message's raw content: a string, or a
// list of parts with text.
func PartsText(content string) string {
	if s, ok := RawString(content); ok {
		return s
	}
	var parts []string
	Each(content, func(c string) bool {
		if t, ok := RawString(Member(c, "text")); ok {
			parts = append(parts, t)
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// Arguments keeps arguments as raw JSON: a string holding a JSON object is
// unwrapped, anything else (a patch, a redacted value) stays a JSON string.
func Arguments(raw string) json.RawMessage {
	if raw == "" {
		return nil
	}
	if str, ok := RawString(raw); ok {
		s := strings.TrimSpace(str)
		if len(s) > 0 && (s[0] == '{' || s[0] == '[') {
			if ok, _ := ValidJSON(s); ok {
				return json.RawMessage(s)
			}
		}
		b, _ := json.Marshal(str)
		return b
	}
	return json.RawMessage(raw)
}

// Each calls fn with the elements of an array, or once with any other value
// but null: a list that holds one item is sometimes written as the item.
func Each(raw string, fn func(val string) bool) {
	switch {
	case raw == "" || raw == "null":
	case raw[0] == '[':
		Elements(raw, fn)
	default:
		fn(raw)
	}
}
