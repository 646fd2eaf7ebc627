// Package multiagent writes a multi-agent run in compaudit's canonical
// JSONL: a planner, an executor and a verifier over numbered tasks, seven
// state operations a task, with the executor compacting every 40 tasks and,
// after each compaction, marking a failed task complete without reading it
// again. The state rules' benchmark audits it in memory, and gentranscript
// writes it to a file for scripts/bench.sh, so both measure the same run.
package multiagent

import (
	"bufio"
	"fmt"
	"io"
)

// Write writes a run of n tasks.
func Write(w io.Writer, n int) error {
	return write(w, func(task int, _ int64) bool { return task > n })
}

// WriteSize writes tasks until the run is at least size bytes.
func WriteSize(w io.Writer, size int64) error {
	return write(w, func(_ int, written int64) bool { return written >= size })
}

// write writes tasks from the first until done says to stop before one.
func write(w io.Writer, done func(task int, written int64) bool) error {
	b := bufio.NewWriter(w)
	var written int64
	turn := map[string]int{}
	line := func(agent, format string, args ...any) {
		turn[agent]++
		n, _ := fmt.Fprintf(b, `{"agent":%q,"turn":%d,`, agent, turn[agent])
		m, _ := fmt.Fprintf(b, format, args...)
		k, _ := b.WriteString("}\n")
		written += int64(n + m + k)
	}
	line("planner", `"type":"message","role":"user","content":"Run every task once, verify each, and never mark a task done without reading it."`)
	for i := 1; !done(i, written); i++ {
		key := fmt.Sprintf("task/%d", i)
		line("planner", `"type":"state","op":"write","key":%q,"value":"pending","revision":1`, key)
		line("executor", `"type":"state","op":"read","key":%q,"value":"pending","revision":1`, key)
		line("executor", `"type":"state","op":"write","key":%q,"value":"running","revision":2,"confidence":0.6`, key)
		line("executor", `"type":"state","op":"write","key":"lock/%d","value":"executor","revision":1`, i)
		line("executor", `"type":"tool_call","id":"c%d","name":"run_task","arguments":{"task":%q}`, i, key)
		outcome, value := "done", "complete"
		if i%7 == 0 {
			outcome, value = "timeout after 600s", "failed"
		}
		line("executor", `"type":"tool_result","id":"c%d","content":"%s: %s","is_error":%t`, i, key, outcome, value == "failed")
		line("executor", `"type":"state","op":"write","key":%q,"value":%q,"revision":3,"confidence":0.7`, key, value)
		line("executor", `"type":"state","op":"write","key":"lock/%d","value":"released","revision":2`, i)
		line("executor", `"type":"message","role":"assistant","content":"Finished %s: %s, confidence 0.7."`, key, value)
		if i%40 == 0 {
			line("executor", `"type":"compaction","summary":"Ran tasks up to %s; the failed ones are retried.","notified":["planner"]`, key)
			failed := fmt.Sprintf("task/%d", i/7*7)
			line("executor", `"type":"state","op":"write","key":%q,"value":"complete","revision":4,"confidence":0.95`, failed)
			line("executor", `"type":"message","role":"assistant","content":"Retried %s: complete, confidence 0.95."`, failed)
		}
		line("verifier", `"type":"state","op":"read","key":%q,"value":%q,"revision":3`, key, value)
		line("verifier", `"type":"message","role":"assistant","content":"Verified %s is %s, confidence 0.8."`, key, value)
	}
	return b.Flush()
}
