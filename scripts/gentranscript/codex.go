package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// writeCodex writes a Codex CLI rollout in the record shapes of the public
// corpus and of Codex 0.104: session_meta; per turn task_started,
// turn_context and the user's message; reasoning with its encrypted
// content, exec_command calls whose output carries the exit code, apply_patch
// edits, token counts and the agent's messages, each response item mirrored
// by the event_msg the UI reads; and a local compaction (a compacted record
// with the summary and the kept user messages) every few hundred steps. The
// work and the obligations are those of the Claude Code sessions.
func (g *generator) writeCodex(w *bufio.Writer, target int64) {
	g.codexRecord(w, "session_meta", obj("id", g.session, "timestamp", g.clock.Format("2006-01-02T15:04:05.000Z"), "cwd", g.cwd,
		"originator", "codex_cli_rs", "cli_version", "0.104.0", "source", "cli", "model_provider", "openai",
		"base_instructions", obj("text", "You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user's computer."),
		"git", obj("commit_hash", g.hex(40), "branch", g.branch, "repository_url", "git@github.com:acme/"+g.cwd[strings.LastIndexByte(g.cwd, '/')+1:]+".git")))
	ask := fmt.Sprintf("We're shipping the %s release this week. Deploy the build only to %s — never push to main directly, open a PR instead. Retry flaky tests at most %d times, and keep p95 latency under %dms on the checkout path.", pick(g.rng, nouns), g.bucket, g.retries, g.budgetMS)
	g.codexUserTurn(w, "# AGENTS.md instructions for "+g.cwd+"\n\n<INSTRUCTIONS>\n- Never commit secrets or .env files.\n- Run `make lint` before every commit.\n- Do not modify files under vendor/.\n</INSTRUCTIONS>")
	g.codexUserTurn(w, ask)
	asked := []string{ask}
	for g.written < target {
		g.turn++
		switch {
		case g.turn%g.every == 0:
			g.codexCompact(w, asked)
		case g.rng.IntN(150) == 0:
			next := fmt.Sprintf("Looks good. Next, look at the %s %s — and remember the deploy target is %s.", pick(g.rng, nouns), pick(g.rng, []string{"handler", "migration", "tests", "docs"}), g.bucket)
			g.codexUserTurn(w, next)
			asked = append(asked, next)
		default:
			g.codexWork(w)
		}
	}
}

// codexRecord writes a rollout line. It is encoded here, not by emit:
// json.Marshal would escape the <, > and & that Codex writes as they are.
func (g *generator) codexRecord(w *bufio.Writer, typ string, payload object) {
	b, err := obj("timestamp", g.tick(3), "type", typ, "payload", payload).MarshalJSON()
	if err != nil {
		fatal(err)
	}
	g.line(w, b)
}

func (g *generator) codexUserTurn(w *bufio.Writer, text string) {
	g.codexRecord(w, "event_msg", obj("type", "task_started", "turn_id", g.uuid(), "model_context_window", 258400, "collaboration_mode_kind", "default"))
	g.codexRecord(w, "turn_context", obj("turn_id", g.uuid(), "cwd", g.cwd, "approval_policy", "on-request",
		"sandbox_policy", obj("type", "workspace-write", "writable_roots", []string{g.cwd}, "network_access", false),
		"model", "gpt-5.3-codex", "effort", "high", "summary", "auto", "truncation_policy", obj("mode", "tokens", "limit", 10000)))
	g.codexRecord(w, "response_item", obj("type", "message", "role", "user", "content", []any{obj("type", "input_text", "text", text)}))
	g.codexRecord(w, "event_msg", obj("type", "user_message", "message", text, "images", []any{}, "local_images", []any{}, "text_elements", []any{}))
}

// codexWork writes one step: reasoning, a call and its output, a token
// count, and now and then a message to the user.
func (g *generator) codexWork(w *bufio.Writer) {
	thought := g.prose(g.rng.IntN(3) + 1)
	sealed := make([]byte, 600+g.rng.IntN(2400))
	for i := range sealed {
		sealed[i] = byte(g.rng.UintN(256))
	}
	g.codexRecord(w, "response_item", obj("type", "reasoning", "summary", []any{obj("type", "summary_text", "text", thought)},
		"content", nil, "encrypted_content", "gAAAAA"+base64.StdEncoding.EncodeToString(sealed)))
	g.codexRecord(w, "event_msg", obj("type", "agent_reasoning", "text", thought))
	callID := "call_" + g.hex(24)
	switch r := g.rng.IntN(10); {
	case r < 4: // read a source file
		body, _ := g.sourceFile(g.rng.IntN(250) + 30)
		g.codexExec(w, callID, "sed -n '1,300p' "+g.sourcePath(), body, 0)
	case r < 7: // a build or test command
		cmd, out, failed := g.command()
		code := 0
		if failed {
			code = 1
		}
		g.codexExec(w, callID, cmd, out, code)
	case r < 9: // an edit
		path := g.sourcePath()
		old, _ := g.sourceFile(g.rng.IntN(6) + 2)
		updated, _ := g.sourceFile(g.rng.IntN(8) + 2)
		patch := "*** Begin Patch\n*** Update File: " + path + "\n@@\n-" + strings.ReplaceAll(strings.TrimSuffix(old, "\n"), "\n", "\n-") +
			"\n+" + strings.ReplaceAll(strings.TrimSuffix(updated, "\n"), "\n", "\n+") + "\n*** End Patch\n"
		g.codexRecord(w, "response_item", obj("type", "custom_tool_call", "status", "completed", "call_id", callID, "name", "apply_patch", "input", patch))
		result, _ := json.Marshal(obj("output", "Success. Updated the following files:\nM "+path+"\n", "metadata", obj("exit_code", 0, "duration_seconds", 0.0)))
		g.codexRecord(w, "response_item", obj("type", "custom_tool_call_output", "call_id", callID, "output", string(result)))
	default: // a search
		var b strings.Builder
		for i := g.rng.IntN(40) + 3; i > 0; i-- {
			fmt.Fprintf(&b, "%s:%d:    %s\n", g.sourcePath(), g.rng.IntN(900)+1, g.codeLine())
		}
		g.codexExec(w, callID, "rg -n "+pick(g.rng, identifiers), b.String(), 0)
	}
	if g.rng.IntN(200) == 0 {
		// the agent acts on the obligations: sometimes exactly, sometimes
		// on the summary's paraphrase
		bucket := g.bucket
		if g.compactions > 0 && g.rng.IntN(2) == 0 {
			bucket = g.nearBucket
		}
		g.codexExec(w, "call_"+g.hex(24), "aws s3 sync dist/ "+bucket+" --delete",
			"upload: dist/index.html to "+bucket+"index.html\nupload: dist/app.js to "+bucket+"app.js\n", 0)
	}
	total := 20000 + g.rng.IntN(200000)
	g.codexRecord(w, "event_msg", obj("type", "token_count", "info", obj(
		"total_token_usage", obj("input_tokens", total, "cached_input_tokens", total*9/10, "output_tokens", total/40, "reasoning_output_tokens", total/80, "total_tokens", total+total/40),
		"last_token_usage", obj("input_tokens", 3000+g.rng.IntN(9000), "cached_input_tokens", 2000, "output_tokens", g.rng.IntN(900), "reasoning_output_tokens", g.rng.IntN(400), "total_tokens", 4000),
		"model_context_window", 258400), "rate_limits", obj("primary", obj("used_percent", g.rng.Float64()*100, "window_minutes", 300))))
	if g.rng.IntN(6) == 0 {
		say := g.prose(g.rng.IntN(3) + 1)
		g.codexRecord(w, "response_item", obj("type", "message", "role", "assistant", "content", []any{obj("type", "output_text", "text", say)}, "phase", "commentary"))
		g.codexRecord(w, "event_msg", obj("type", "agent_message", "message", say, "phase", "commentary"))
	}
}

// codexExec writes an exec_command call and its output as Codex does: the
// exit code and wall time ahead of the output.
func (g *generator) codexExec(w *bufio.Writer, callID, cmd, out string, code int) {
	args, _ := json.Marshal(obj("cmd", cmd, "workdir", g.cwd, "yield_time_ms", 1000))
	g.codexRecord(w, "response_item", obj("type", "function_call", "name", "exec_command", "arguments", string(args), "call_id", callID))
	g.codexRecord(w, "response_item", obj("type", "function_call_output", "call_id", callID,
		"output", fmt.Sprintf("Chunk ID: %s\nWall time: %.4f seconds\nProcess exited with code %d\nOriginal token count: %d\nOutput:\n%s", g.hex(6), g.rng.Float64()*9, code, len(out)/4, out)))
}

// codexCompact writes a local compaction: the summary in message, and the
// replacement history Codex carries on with (the user's messages, then the
// summary as a user message with Codex's fixed prefix).
func (g *generator) codexCompact(w *bufio.Writer, asked []string) {
	g.compactions++
	summary := g.summary()
	var history []any
	for _, a := range recentAsks(asked, codexKeptUserTokens) {
		history = append(history, obj("type", "message", "role", "user", "content", []any{obj("type", "input_text", "text", a)}))
	}
	history = append(history, obj("type", "message", "role", "user", "content", []any{obj("type", "input_text",
		"text", "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\n"+summary)}))
	g.codexRecord(w, "compacted", obj("message", summary, "replacement_history", history))
	g.codexRecord(w, "event_msg", obj("type", "context_compacted"))
}

// codexKeptUserTokens is the budget Codex gives the user's messages in a
// replacement history (COMPACT_USER_MESSAGE_MAX_TOKENS in codex-rs), at its
// estimate of four bytes a token. Without it the history, and so each
// compacted record, grew with the session, as no real rollout's does.
const codexKeptUserTokens = 20000

// recentAsks keeps the latest messages that fit the budget, in order; the
// one that crosses it is cut to what is left, as Codex truncates it.
func recentAsks(asked []string, tokens int) []string {
	left := tokens * 4
	i := len(asked)
	var cut string
	for i > 0 && left > 0 {
		a := asked[i-1]
		if len(a) > left {
			cut = strings.ToValidUTF8(a[:left], "")
			break
		}
		left -= len(a)
		i--
	}
	out := slices.Clone(asked[i:])
	if cut != "" {
		out = append([]string{cut}, out...)
	}
	return out
}

// object is a JSON object whose members keep the order given, as Codex
// writes them (type first), with no HTML escaping.
type object []any

// obj makes an object of keys and values: obj("type", "message", ...).
func obj(kv ...any) object { return kv }

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; i+1 < len(o); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeJSON(&b, o[i]); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := writeJSON(&b, o[i+1]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSON writes v as JSON without HTML escaping, as Rust's serde_json
// does.
func writeJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}
