// Package config reads .compaudit.yaml: found upward from the working
// directory, or named with --config. Unknown keys are errors naming the file
// and the line, so a typo never silently disables a setting.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/sharedstate"
	"github.com/compaudit/compaudit/parse"
	"go.yaml.in/yaml/v3"
)

// FileName is the configuration file compaudit looks for.
const FileName = ".compaudit.yaml"

// Config is a parsed configuration file.
type Config struct {
	Path string
	// Disable lists rules not to run.
	Disable []string
	// Severity overrides rules' default severities.
	Severity map[string]audit.Severity
	// FailOn is the default for --fail-on; empty when not set.
	FailOn string
	// SideEffecting adds and removes tools per transcript format.
	SideEffecting map[parse.Format]audit.ToolAdjust
	// LiteralPatterns are extra regular expressions tagged as literals.
	LiteralPatterns []*regexp.Regexp
	// ProhibitionCues are extra phrases that forbid what follows them.
	ProhibitionCues []string
	State           []sharedstate.StateMapping
	Suppressions    []audit.Suppression
}

// Error is a configuration problem at a file and line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Find looks for the configuration file in dir and its parents.
func Find(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		p := filepath.Join(dir, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Load reads and validates a configuration file.
func Load(path string, ruleIDs []string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, data, ruleIDs)
}

// schema lists the keys each mapping may hold: nil for a scalar or a list
// of scalars, a schema for a nested mapping, a one-element []schema for a
// list of mappings, and mapOf for a mapping with free keys.
type schema map[string]any

// mapOf is a mapping whose keys are values (rule ids, formats) and whose
// values follow a schema (nil: scalars).
type mapOf struct{ value schema }

var topSchema = schema{
	"rules":          schema{"disable": nil, "severity": mapOf{}},
	"fail-on":        nil,
	"side-effecting": mapOf{schema{"add": nil, "remove": nil}},
	"patterns":       schema{"literals": nil, "prohibitions": nil},
	"state":          []schema{{"tool": nil, "op": nil, "key": nil, "value": nil, "revision": nil, "payload_hash": nil, "confidence": nil}},
	"suppressions":   []schema{{"rule": nil, "fingerprint": nil, "path": nil, "contains": nil, "reason": nil, "expires": nil}},
}

// raw mirrors the file for decoding once its keys are checked.
type raw struct {
	Rules struct {
		Disable  []string          `yaml:"disable"`
		Severity map[string]string `yaml:"severity"`
	} `yaml:"rules"`
	FailOn        string `yaml:"fail-on"`
	SideEffecting map[string]struct {
		Add    []string `yaml:"add"`
		Remove []string `yaml:"remove"`
	} `yaml:"side-effecting"`
	Patterns struct {
		Literals     []string `yaml:"literals"`
		Prohibitions []string `yaml:"prohibitions"`
	} `yaml:"patterns"`
	State []struct {
		Tool        string `yaml:"tool"`
		Op          string `yaml:"op"`
		Key         string `yaml:"key"`
		Value       string `yaml:"value"`
		Revision    string `yaml:"revision"`
		PayloadHash string `yaml:"payload_hash"`
		Confidence  string `yaml:"confidence"`
	} `yaml:"state"`
	Suppressions []struct {
		Rule        string `yaml:"rule"`
		Fingerprint string `yaml:"fingerprint"`
		Path        string `yaml:"path"`
		Contains    string `yaml:"contains"`
		Reason      string `yaml:"reason"`
		Expires     string `yaml:"expires"`
	} `yaml:"suppressions"`
}

// Parse validates and reads configuration data. ruleIDs are the known rule
// ids, to catch a misspelled one.
func Parse(path string, data []byte, ruleIDs []string) (*Config, error) {
	cfg := &Config{Path: path, Severity: map[string]audit.Severity{}, SideEffecting: map[parse.Format]audit.ToolAdjust{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(path, err)
	}
	if len(root.Content) == 0 {
		return cfg, nil
	}
	doc := root.Content[0]
	if doc.Kind == yaml.ScalarNode && doc.Tag == "!!null" {
		return cfg, nil
	}
	if err := check(path, doc, topSchema); err != nil {
		return nil, err
	}
	var r raw
	if err := doc.Decode(&r); err != nil {
		return nil, yamlError(path, err)
	}
	rd := &reader{path: path, doc: doc, ruleIDs: ruleIDs, cfg: cfg}
	for _, step := range []func(*raw) error{rd.rules, rd.failOn, rd.sideEffecting, rd.patterns, rd.state, rd.suppressions} {
		if err := step(&r); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// reader reads the sections of one file's decoded settings into cfg,
// each step returning the first bad setting with its line.
type reader struct {
	path    string
	doc     *yaml.Node
	ruleIDs []string
	cfg     *Config
}

func (rd *reader) at(keys ...any) int { return lineOf(rd.doc, keys...) }

func (rd *reader) bad(line int, format string, args ...any) error {
	return &Error{File: rd.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (rd *reader) known(id string) bool { return rd.ruleIDs == nil || slices.Contains(rd.ruleIDs, id) }

func (rd *reader) rules(r *raw) error {
	for i, id := range r.Rules.Disable {
		if !rd.known(id) {
			return rd.bad(rd.at("rules", "disable", i), "rules.disable: no rule %q (compaudit rules lists them)", id)
		}
		rd.cfg.Disable = append(rd.cfg.Disable, id)
	}
	for id, sev := range r.Rules.Severity {
		if !rd.known(id) {
			return rd.bad(rd.at("rules", "severity", id), "rules.severity: no rule %q (compaudit rules lists them)", id)
		}
		s, err := audit.ParseSeverity(sev)
		if err != nil {
			return rd.bad(rd.at("rules", "severity", id), "rules.severity.%s: %v", id, err)
		}
		rd.cfg.Severity[id] = s
	}
	return nil
}

func (rd *reader) failOn(r *raw) error {
	if r.FailOn == "" {
		return nil
	}
	if _, err := audit.ParseSeverity(r.FailOn); err != nil && r.FailOn != "none" {
		return rd.bad(rd.at("fail-on"), "fail-on must be error, warning, note or none, not %q", r.FailOn)
	}
	rd.cfg.FailOn = r.FailOn
	return nil
}

// sideEffecting reads the tools added to and removed from each format's
// side-effecting set; the formats are those registered with parse.
func (rd *reader) sideEffecting(r *raw) error {
	var names []string
	for _, f := range parse.Formats() {
		names = append(names, string(f.Name))
	}
	for format, tl := range r.SideEffecting {
		if !slices.Contains(names, format) {
			return rd.bad(rd.at("side-effecting", format), "side-effecting: no format %q (want %s)", format, strings.Join(names, ", "))
		}
		rd.cfg.SideEffecting[parse.Format(format)] = audit.ToolAdjust{Add: tl.Add, Remove: tl.Remove}
	}
	return nil
}

func (rd *reader) patterns(r *raw) error {
	for i, p := range r.Patterns.Literals {
		re, err := regexp.Compile(p)
		if err != nil {
			return rd.bad(rd.at("patterns", "literals", i), "patterns.literals: %v", err)
		}
		rd.cfg.LiteralPatterns = append(rd.cfg.LiteralPatterns, re)
	}
	for i, p := range r.Patterns.Prohibitions {
		if strings.TrimSpace(p) == "" {
			return rd.bad(rd.at("patterns", "prohibitions", i), "patterns.prohibitions: an empty phrase")
		}
		rd.cfg.ProhibitionCues = append(rd.cfg.ProhibitionCues, strings.ToLower(strings.TrimSpace(p)))
	}
	return nil
}

func (rd *reader) state(r *raw) error {
	for i, s := range r.State {
		m := sharedstate.StateMapping{Tool: s.Tool, Op: s.Op, Key: s.Key, Value: s.Value, Revision: s.Revision,
			PayloadHash: s.PayloadHash, Confidence: s.Confidence}
		if err := m.Validate(); err != nil {
			return rd.bad(rd.at("state", i), "state: %v", err)
		}
		rd.cfg.State = append(rd.cfg.State, m)
	}
	return nil
}

func (rd *reader) suppressions(r *raw) error {
	for i, s := range r.Suppressions {
		sup, err := rd.suppression(rd.at("suppressions", i), s.Rule, s.Fingerprint, s.Path, s.Contains, s.Reason, s.Expires)
		if err != nil {
			return err
		}
		rd.cfg.Suppressions = append(rd.cfg.Suppressions, sup)
	}
	return nil
}

// suppression checks one suppression, at line.
func (rd *reader) suppression(line int, rule, fingerprint, path, contains, reason, expires string) (audit.Suppression, error) {
	var none audit.Suppression
	if strings.TrimSpace(reason) == "" {
		return none, rd.bad(line, "suppressions: every suppression needs a reason")
	}
	if rule == "" && fingerprint == "" && path == "" && contains == "" {
		return none, rd.bad(line, "suppressions: say what to suppress (rule, fingerprint, path or contains)")
	}
	if rule != "" && !rd.known(rule) {
		return none, rd.bad(line, "suppressions: no rule %q", rule)
	}
	if path != "" {
		if _, err := filepath.Match(path, ""); err != nil {
			return none, rd.bad(line, "suppressions: bad path pattern %q: %v", path, err)
		}
	}
	sup := audit.Suppression{Rule: rule, Fingerprint: fingerprint, Path: path, Contains: contains, Reason: reason,
		Source: fmt.Sprintf("%s:%d", rd.path, line)}
	if expires != "" {
		t, err := time.Parse("2006-01-02", expires)
		if err != nil {
			return none, rd.bad(line, "suppressions: expires must be a date like 2027-01-31, not %q", expires)
		}
		sup.Expires = t
	}
	return sup, nil
}

// check walks a node against a schema and reports the first unknown key
// with its line.
func check(path string, n *yaml.Node, s schema) error {
	if n.Kind != yaml.MappingNode {
		return &Error{File: path, Line: n.Line, Msg: "expected a mapping of settings"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sub, ok := s[k.Value]
		if !ok {
			return &Error{File: path, Line: k.Line, Msg: fmt.Sprintf("unknown key %q (known keys: %s)", k.Value, keysOf(s))}
		}
		if err := checkValue(path, k.Value, v, sub); err != nil {
			return err
		}
	}
	return nil
}

func checkValue(path, name string, v *yaml.Node, sub any) error {
	switch sub := sub.(type) {
	case schema:
		return check(path, v, sub)
	case mapOf:
		if v.Kind != yaml.MappingNode {
			return &Error{File: path, Line: v.Line, Msg: name + " must be a mapping"}
		}
		if sub.value == nil {
			return nil
		}
		for i := 1; i < len(v.Content); i += 2 {
			if err := check(path, v.Content[i], sub.value); err != nil {
				return err
			}
		}
	case []schema:
		if v.Kind != yaml.SequenceNode {
			return &Error{File: path, Line: v.Line, Msg: name + " must be a list"}
		}
		for _, item := range v.Content {
			if err := check(path, item, sub[0]); err != nil {
				return err
			}
		}
	}
	return nil
}

func keysOf(s schema) string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// lineOf finds the line of a value by its path of mapping keys and list
// indexes; 0 when it is not there.
func lineOf(n *yaml.Node, path ...any) int {
	line := n.Line
	for _, p := range path {
		switch p := p.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return line
			}
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == p {
					line, n, found = n.Content[i].Line, n.Content[i+1], true
					break
				}
			}
			if !found {
				return line
			}
		case int:
			if n.Kind != yaml.SequenceNode || p >= len(n.Content) {
				return line
			}
			n = n.Content[p]
			line = n.Line
		}
	}
	return line
}

// yamlError turns the YAML library's "yaml: line 3: …" into file:line.
func yamlError(path string, err error) error {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	var line int
	if _, scanErr := fmt.Sscanf(msg, "yaml: line %d:", &line); scanErr == nil {
		msg = msg[len(fmt.Sprintf("yaml: line %d: ", line)):]
	} else if _, scanErr := fmt.Sscanf(msg, "line %d:", &line); scanErr == nil {
		msg = msg[len(fmt.Sprintf("line %d: ", line)):]
	}
	return &Error{File: path, Line: line, Msg: msg}
}
