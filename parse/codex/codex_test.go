package codex

import "testing"

// TestCodexOutput reads each form a Codex tool output takes: an object
// with content and success, a JSON string with output and an exit code, and
// text that says how the process exited.
func TestCodexOutput(t *testing.T) {
	for _, c := range []struct {
		raw     string
		text    string
		isError bool
	}{
		{`{"content":"listed 3 files","success":true}`, "listed 3 files", false},
		{`{"content":"permission denied","success":false}`, "permission denied", true},
		{`{"output":"no content member","success":"false"}`, "no content member", true},
		{`{"content":"no success member"}`, "no success member", false},
		{`"{\"output\":\"ok\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.1}}"`, "ok\n", false},
		{`"{\"output\":\"error[E0061]\\n\",\"metadata\":{\"exit_code\":101}}"`, "error[E0061]\n", true},
		{`"{\"output\":\"no metadata\"}"`, "no metadata", false},
		{`"{\"not\":\"an output\"}"`, `{"not":"an output"}`, false},
		{`"{broken json"`, "{broken json", false},
		{`"Chunk ID: 7f2a\nWall time: 0.2 seconds\nProcess exited with code 2\nOutput:\nboom"`, "Chunk ID: 7f2a\nWall time: 0.2 seconds\nProcess exited with code 2\nOutput:\nboom", true},
		{`"Exit code: 0\nok"`, "Exit code: 0\nok", false},
		{`"plain text"`, "plain text", false},
	} {
		text, isError := codexOutput(c.raw)
		if text != c.text || isError != c.isError {
			t.Errorf("codexOutput(%s): %q, %v; want %q, %v", c.raw, text, isError, c.text, c.isError)
		}
	}
}
