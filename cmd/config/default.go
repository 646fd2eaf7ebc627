package config

// Default is the file `compaudit config init` writes: every setting, with
// what it does, set to what compaudit does without a file.
const Default = `# compaudit configuration. compaudit reads the first .compaudit.yaml it finds
# from the working directory upward, or the file named with --config.
# Unknown keys are errors, so a misspelling never goes unnoticed.

# Rules to turn off, and severities to change (error, warning or note).
# compaudit rules lists the ids; compaudit explain ID documents one.
rules:
  disable: []
  # An override sets every finding of the rule to that severity.
  severity: {}
  #   unbound-reference: error
  #   ledger-shrink: warning

# The lowest severity that fails a run (exit 1): error, warning, note or
# none. --fail-on overrides it.
fail-on: error

# Tools that change things, per transcript format, added to or removed from
# the defaults (Claude Code: Bash, Write, Edit, MultiEdit, NotebookEdit, Task
# and MCP tools whose name does not read; Codex: shell, exec_command,
# apply_patch and other custom tools; canonical and chat: any tool whose
# name does not read).
side-effecting: {}
#   claude-code:
#     add: [mcp__deploy__release]
#     remove: [Task]

# Extra obligation patterns: regular expressions whose matches in the
# user's, system's and developer's words and in tool calls are literals, and
# phrases that forbid what follows them.
patterns:
  literals: []
  #   - 'PAY-[0-9]+'
  prohibitions: []
  #   - strictly no

# Tool calls that read or write shared state, for frameworks whose store is
# reached through tools. Selectors are gjson paths into the call's
# arguments (args.) or its result (result.).
state: []
#   - {tool: ledger_read, op: read, key: args.key, value: result.value, revision: result.revision}
#   - {tool: ledger_write, op: write, key: args.key, value: args.value, revision: args.revision, payload_hash: args.hash}

# Findings to suppress. Each needs a reason; expires (a date) ends it.
# Match on rule, fingerprint, path (a glob on the transcript) and text the
# message contains; every field given must match. Unused and expired
# suppressions are reported.
suppressions: []
#   - rule: dropped-literal
#     path: sessions/2026-01-*.jsonl
#     reason: known incident INC-4312, fixed by the ledger side channel
#     expires: 2027-01-31
`
