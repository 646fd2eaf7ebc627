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

	"github.com/compaudit/compaudit/audit"
	"go.yaml.in/yaml/v3"
)

// FileName is the configuration file compaudit looks for.
const FileName = ".compaudit.yaml"

// Config is a parsed configuration file.
type Config struct {
	Path  string
	State []audit.StateMapping
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
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

// schema lists the keys each mapping may hold; a nested schema is a map
// value, a list of schemas a list of mappings.
type schema map[string]any

var topSchema = schema{
	"state": []schema{stateSchema},
}

var stateSchema = schema{"tool": nil, "op": nil, "key": nil, "value": nil, "revision": nil, "payload_hash": nil, "confidence": nil}

// Parse validates and reads configuration data.
func Parse(path string, data []byte) (*Config, error) {
	cfg := &Config{Path: path}
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
	if err := check(path, doc, topSchema); err != nil {
		return nil, err
	}
	var raw struct {
		State []struct {
			Tool        string `yaml:"tool"`
			Op          string `yaml:"op"`
			Key         string `yaml:"key"`
			Value       string `yaml:"value"`
			Revision    string `yaml:"revision"`
			PayloadHash string `yaml:"payload_hash"`
			Confidence  string `yaml:"confidence"`
		} `yaml:"state"`
	}
	if err := doc.Decode(&raw); err != nil {
		return nil, yamlError(path, err)
	}
	for i, s := range raw.State {
		m := audit.StateMapping{Tool: s.Tool, Op: s.Op, Key: s.Key, Value: s.Value, Revision: s.Revision,
			PayloadHash: s.PayloadHash, Confidence: s.Confidence}
		if err := m.Validate(); err != nil {
			return nil, &Error{File: path, Line: itemLine(doc, "state", i), Msg: "state: " + err.Error()}
		}
		cfg.State = append(cfg.State, m)
	}
	return cfg, nil
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
			return &Error{File: path, Line: k.Line, Msg: fmt.Sprintf("unknown key %q%s", k.Value, known(s))}
		}
		switch sub := sub.(type) {
		case schema:
			if err := check(path, v, sub); err != nil {
				return err
			}
		case []schema:
			if v.Kind != yaml.SequenceNode {
				return &Error{File: path, Line: v.Line, Msg: fmt.Sprintf("%s must be a list", k.Value)}
			}
			for _, item := range v.Content {
				if err := check(path, item, sub[0]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func known(s schema) string {
	var keys []string
	for k := range s {
		keys = append(keys, k)
	}
	sortStrings(keys)
	out := " (known keys:"
	for _, k := range keys {
		out += " " + k
	}
	return out + ")"
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// itemLine is the line of the i-th item of a top-level list.
func itemLine(doc *yaml.Node, key string, i int) int {
	for j := 0; j+1 < len(doc.Content); j += 2 {
		if doc.Content[j].Value == key && i < len(doc.Content[j+1].Content) {
			return doc.Content[j+1].Content[i].Line
		}
	}
	return 0
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
