package parse

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Format names a transcript format.
type Format string

// The formats compaudit has always read, named here for the consumers
// that treat one of them apart (Claude Code's TodoWrite, say). A new
// format's name lives in its own package.
const (
	FormatClaudeCode Format = "claude-code"
	FormatCodex      Format = "codex"
	FormatCanonical  Format = "canonical"
	FormatChat       Format = "chat"
)

// FormatInfo describes a supported format for `compaudit formats`.
type FormatInfo struct {
	Name      Format `json:"name"`
	Title     string `json:"title"`
	Location  string `json:"location"`
	Detection string `json:"detection"`
	Boundary  string `json:"boundary"`
}

// A FormatReader is what the reader knows of one transcript format: its
// description, how to tell its records, and its decoder. Each format's
// package declares one; parse/formats registers them.
type FormatReader struct {
	Info FormatInfo
	// Aliases are other names --input-format takes for it.
	Aliases []string
	// Claims reports whether a record is one of this format's. No two
	// formats claim the same record, so detection does not depend on the
	// order they were registered in.
	Claims func(rec gjson.Result) bool
	// NewDecoder starts the decoder of one file, which writes to s.
	NewDecoder func(s *Sink) Decoder
	// OwnClock says the decoder checks its records' timestamps itself (a
	// Claude Code record against its parent), so the sink does not.
	OwnClock bool
}

// TypeIn reports whether a record's "type" is a string among types: the
// first test of most formats' Claims.
func TypeIn(rec gjson.Result, types []string) bool {
	typ := rec.Get("type")
	return typ.Type == gjson.String && slices.Contains(types, typ.Str)
}

// registry holds the registered formats in the order Formats lists them.
var registry []FormatReader

// Register adds formats to those the reader detects and --input-format
// names. It is called from an init function, before any file is read; a
// name or alias taken twice is a bug and panics.
func Register(readers ...FormatReader) {
	for _, r := range readers {
		for _, name := range append([]string{string(r.Info.Name)}, r.Aliases...) {
			if _, taken := lookup(name); taken {
				panic("parse: format name " + name + " registered twice")
			}
		}
		registry = append(registry, r)
	}
}

// lookup finds a format by its name or an alias.
func lookup(name string) (FormatReader, bool) {
	for _, r := range registry {
		if string(r.Info.Name) == name {
			return r, true
		}
		for _, a := range r.Aliases {
			if a == name {
				return r, true
			}
		}
	}
	return FormatReader{}, false
}

// Formats lists the registered formats.
func Formats() []FormatInfo {
	infos := make([]FormatInfo, len(registry))
	for i, r := range registry {
		infos[i] = r.Info
	}
	return infos
}

// formatNames is the registered formats' names, for messages.
func formatNames() string {
	names := make([]string, len(registry))
	for i, r := range registry {
		names[i] = string(r.Info.Name)
	}
	return strings.Join(names, ", ")
}

// ParseFormat accepts a format name as given to --input-format.
func ParseFormat(s string) (Format, error) {
	if s == "" || s == "auto" {
		return "", nil
	}
	if r, ok := lookup(s); ok {
		return r.Info.Name, nil
	}
	return "", fmt.Errorf("unknown input format %q (want auto, %s)", s, formatNames())
}

// classify says which format one record belongs to, or "" when it does not
// decide.
func classify(rec gjson.Result) Format {
	for _, r := range registry {
		if r.Claims(rec) {
			return r.Info.Name
		}
	}
	return ""
}

// readerOf is the registered reader of a format ReadFile has checked.
func readerOf(f Format) FormatReader {
	r, _ := lookup(string(f))
	return r
}
