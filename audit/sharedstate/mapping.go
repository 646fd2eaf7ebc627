package sharedstate

import (
	"fmt"
	"strings"

	"github.com/compaudit/compaudit/parse"
	"github.com/tidwall/gjson"
)

// StateMapping turns a tool call into a state read or write, for
// frameworks whose shared store is reached through tools. Selectors are
// gjson paths into the call's arguments ("args.key") or its result
// ("result.revision").
type StateMapping struct {
	Tool        string
	Op          string // read or write
	Key         string
	Value       string
	Revision    string
	PayloadHash string
	Confidence  string
}

// Validate checks a mapping's op and selectors.
func (m StateMapping) Validate() error {
	if m.Tool == "" {
		return fmt.Errorf("a state mapping needs a tool")
	}
	if m.Op != "read" && m.Op != "write" {
		return fmt.Errorf("op must be read or write, not %q", m.Op)
	}
	if m.Key == "" {
		return fmt.Errorf("a state mapping needs a key selector")
	}
	for _, sel := range []string{m.Key, m.Value, m.Revision, m.PayloadHash, m.Confidence} {
		if sel != "" && !strings.HasPrefix(sel, "args.") && !strings.HasPrefix(sel, "result.") && sel != "args" && sel != "result" {
			return fmt.Errorf("selector %q must start with \"args.\" or \"result.\"", sel)
		}
	}
	return nil
}

// usesResult reports whether the mapping needs the call's result.
func (m StateMapping) usesResult() bool {
	for _, sel := range []string{m.Key, m.Value, m.Revision, m.PayloadHash, m.Confidence} {
		if strings.HasPrefix(sel, "result") {
			return true
		}
	}
	return false
}

// mapped applies a mapping to a call and, when it has one, its result.
func (c *StateCollector) mapped(call, result *parse.Event, m StateMapping) {
	args := gjson.ParseBytes(call.Args)
	var res gjson.Result
	if result != nil {
		res = gjson.Parse(result.Text)
		if !res.IsObject() && !res.IsArray() {
			res = gjson.Parse(`{"text":` + QuoteJSON(result.Text) + `}`)
		}
	}
	get := func(sel string) gjson.Result {
		switch {
		case sel == "":
			return gjson.Result{}
		case sel == "args":
			return args
		case sel == "result":
			return res
		case strings.HasPrefix(sel, "args."):
			return args.Get(sel[len("args."):])
		case strings.HasPrefix(sel, "result."):
			return res.Get(sel[len("result."):])
		}
		return gjson.Result{}
	}
	key := get(m.Key)
	if !key.Exists() || key.String() == "" {
		return
	}
	at := call
	if result != nil {
		at = result
	}
	clone := strings.Clone
	op := StateOp{Index: at.Index, Time: clone(at.Time), File: at.File, Line: at.Line, Offset: at.Offset, Turn: call.Turn, Agent: c.agent(call.Agent),
		Write: m.Op == "write", Key: c.Intern(key.String()), Value: c.Intern(valueOf(get(m.Value))), Via: c.Intern(call.ToolName)}
	if r := get(m.Revision); r.Exists() {
		op.Revision, op.HasRevision = r.Int(), true
	}
	op.PayloadHash = clone(get(m.PayloadHash).String())
	if cf := get(m.Confidence); cf.Exists() {
		op.Confidence, op.HasConf = cf.Float(), true
	}
	c.addOp(op)
}

func valueOf(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	return v.Raw
}

func QuoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
