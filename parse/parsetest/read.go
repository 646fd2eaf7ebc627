package parsetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/parse"
)

// ReadString reads in as standard input, as opts say, and returns its
// events and what the reading found.
func ReadString(t *testing.T, in string, opts parse.Options) ([]parse.Event, parse.FileResult) {
	t.Helper()
	opts.Stdin = strings.NewReader(in)
	var evs []parse.Event
	res, err := parse.ReadFile(parse.File{Path: "-"}, opts, 0, func(ev *parse.Event) error {
		evs = append(evs, *ev)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs, res
}

// EventTexts are the events' texts, joined with commas.
func EventTexts(evs []parse.Event) string {
	var texts []string
	for _, ev := range evs {
		texts = append(texts, ev.Text)
	}
	return strings.Join(texts, ",")
}

// DiagLines are a reading's diagnostics, "LINE MESSAGE" each, one a line.
func DiagLines(res parse.FileResult) string {
	var lines []string
	for _, d := range res.Diagnostics {
		lines = append(lines, fmt.Sprintf("%d %s", d.Line, d.Message))
	}
	return strings.Join(lines, "\n")
}

// readOutputRecords are this package's sources as the records of Claude
// Code's Read tool: the output in the message, the file again under
// toolUseResult, in the record shape of the corpus.
func ReadOutputRecords(b testing.TB) []string {
	files, err := filepath.Glob("*.go")
	if err != nil {
		b.Fatal(err)
	}
	var lines []string
	for i, out := range ReadOutputs(b) {
		src, err := os.ReadFile(files[i])
		if err != nil {
			b.Fatal(err)
		}
		rec, err := json.Marshal(map[string]any{
			"type": "user", "uuid": "0f5b3c1e-5f7a-4c1e-9a43-4c7a1e2b9d10",
			"message": map[string]any{"role": "user", "content": []any{map[string]any{
				"type": "tool_result", "tool_use_id": "toolu_01", "content": out,
			}}},
			"toolUseResult": map[string]any{"type": "text", "file": map[string]any{"filePath": files[i], "content": string(src)}},
		})
		if err != nil {
			b.Fatal(err)
		}
		lines = append(lines, string(rec))
	}
	return lines
}
