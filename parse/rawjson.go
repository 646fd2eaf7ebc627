package parse

import (
	"strings"

	"github.com/compaudit/compaudit/parse/jsontext"
)

// JSON text the audit reads itself — a call's arguments — with the
// reader's own walk: members and elements are found at memchr speed and a
// value is decoded only when asked for. gjson decodes every string it
// passes, and a Write or Edit call's arguments are a whole file the audit
// never reads.

// ValidJSON reports whether s is one JSON value. Members, Elements and
// String expect text it accepts.
func ValidJSON(s string) bool {
	ok, _ := jsontext.ValidJSON(s)
	return ok
}

// Members calls fn with each member of the JSON object in raw, in order:
// its key, decoded, and its value's raw text. fn returns false to stop.
func Members(raw string, fn func(key, val string) bool) {
	jsontext.Members(raw, func(k, v string) bool {
		if strings.IndexByte(k, '\\') >= 0 {
			k = jsontext.Unescape(k)
		}
		return fn(k, v)
	})
}

// Elements calls fn with the raw text of each element of the JSON array
// in raw. fn returns false to stop.
func Elements(raw string, fn func(val string) bool) { jsontext.Elements(raw, fn) }

// String returns the text of a raw JSON string value, and false for any
// other value.
func String(raw string) (string, bool) { return jsontext.RawString(raw) }
