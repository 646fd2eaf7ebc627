package tag

import (
	"slices"
	"strings"

	"github.com/compaudit/compaudit/parse"
	"github.com/tidwall/gjson"
)

// ReadCall reads a call's arguments in one pass for its command line
// (commandOf), its strings worth reading for literals (callStrings) and
// the numbers it gives by name (keyValuesOf): the reading workers need
// the first two of every call, and a Write or Edit call carries a whole
// file, passed over undecoded.
func ReadCall(args []byte) (command string, texts []string, numbers []ArgNumber) {
	if len(args) == 0 {
		return "", nil, nil
	}
	return ReadArgs(ArgsOf(args))
}

// SkipRegexpSpace passes over \s from s[i].
func SkipRegexpSpace(s string, i int) int {
	for i < len(s) && RegexpSpace(s[i]) {
		i++
	}
	return i
}

// ContainsAny reports whether s holds one of words.
func ContainsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// ArgNumber is a number a call's arguments give under a name: {"retries": 8}.
type ArgNumber struct{ Key, Text string }

func ReadArgs(whole CallValue) (command string, texts []string, numbers []ArgNumber) {
	if s, ok := whole.str(); ok {
		return s, PatchPaths(s), nil
	}
	object := whole.isObject()
	var first [len(commandKeys)]*CallValue // each command key's first value
	whole.each(func(k string, v CallValue) bool {
		if i := slices.Index(commandKeys[:], k); object && i >= 0 && first[i] == nil {
			first[i] = &v
		}
		if n, ok := v.number(); ok {
			numbers = append(numbers, ArgNumber{k, n})
		}
		if BulkKeys[k] {
			return true
		}
		if s, ok := v.str(); ok {
			if k == "input" || k == "patch" {
				texts = append(texts, PatchPaths(s)...)
			} else {
				texts = append(texts, s)
			}
		} else if v.isArray() {
			v.each(func(_ string, e CallValue) bool {
				if s, ok := e.str(); ok {
					texts = append(texts, s)
				}
				return true
			})
		}
		return true
	})
	for _, v := range first {
		if v == nil {
			continue
		}
		if s, ok := v.str(); ok {
			return s, texts, numbers
		}
		if v.isArray() {
			// ["bash", "-lc", "go test ./..."] runs its last element
			var last *CallValue
			v.each(func(_ string, e CallValue) bool { last = &e; return true })
			if last != nil {
				s, _ := last.str()
				return s, texts, numbers
			}
		}
	}
	return "", texts, numbers
}

// CallValue is a value of a call's arguments, decoded only when asked
// for: raw JSON, walked by the reader's own scan, or, when the arguments
// are not JSON (a model can write them cut short), what gjson's lenient
// reading makes of them.
type CallValue struct {
	raw     string
	loose   gjson.Result
	isLoose bool
}

// ArgsOf is a call's arguments as a value.
func ArgsOf(args []byte) CallValue {
	raw := string(args)
	if parse.ValidJSON(raw) {
		return CallValue{raw: strings.TrimSpace(raw)}
	}
	return LooseArgs(args)
}

// LooseArgs is the arguments as gjson reads them.
func LooseArgs(args []byte) CallValue { return CallValue{loose: gjson.ParseBytes(args), isLoose: true} }

func (v CallValue) str() (string, bool) {
	if v.isLoose {
		return v.loose.Str, v.loose.Type == gjson.String
	}
	return parse.String(v.raw)
}

func (v CallValue) isObject() bool {
	if v.isLoose {
		return v.loose.IsObject()
	}
	return strings.HasPrefix(v.raw, "{")
}

func (v CallValue) isArray() bool {
	if v.isLoose {
		return v.loose.IsArray()
	}
	return strings.HasPrefix(v.raw, "[")
}

// number is the number's text, when the value is one.
func (v CallValue) number() (string, bool) {
	if v.isLoose {
		return v.loose.Raw, v.loose.Type == gjson.Number
	}
	return v.raw, v.raw != "" && (v.raw[0] == '-' || v.raw[0] >= '0' && v.raw[0] <= '9')
}

// each calls fn as gjson's ForEach does: with each member of an object,
// each element of an array (with no key), or the value itself.
func (v CallValue) each(fn func(key string, v CallValue) bool) {
	switch {
	case v.isLoose:
		v.loose.ForEach(func(k, e gjson.Result) bool { return fn(k.Str, CallValue{loose: e, isLoose: true}) })
	case v.isObject():
		parse.Members(v.raw, func(k, e string) bool { return fn(k, CallValue{raw: e}) })
	case v.isArray():
		parse.Elements(v.raw, func(e string) bool { return fn("", CallValue{raw: e}) })
	case v.raw != "":
		fn("", v)
	}
}

// BulkKeys hold file contents and patches, whose every identifier would
// otherwise become a literal.
var BulkKeys = map[string]bool{"content": true, "new_string": true, "old_string": true, "new_source": true,
	"edits": true, "todos": true, "prompt": true, "description": true, "plan": true}

// commandKeys name a call's command line, in the order they are tried.
var commandKeys = [...]string{"command", "cmd", "script", "input"}

// PatchPaths reads the file names of an apply_patch body.
func PatchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		for _, p := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "} {
			if strings.HasPrefix(line, p) {
				out = append(out, strings.TrimSpace(line[len(p):]))
			}
		}
	}
	if out == nil && !strings.Contains(patch, "\n") {
		return []string{patch}
	}
	return out
}

// RegexpSpace is \s: [\t\n\f\r ].
func RegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
