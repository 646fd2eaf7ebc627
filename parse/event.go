// Package parse is the reader's core: the events every transcript becomes
// (Event, Boundary, Diagnostic), the format registry, and the reading of a
// file — format detection, the hostile-input bounds, batches read in
// parallel and applied in order, numbering and diagnostics. Each format's
// records are read by its own package (parse/claude, parse/codex,
// parse/canonical), which parse/formats registers. It knows no format's
// records and nothing of obligations.
package parse

import "encoding/json"

// Kind is what an event is.
type Kind uint8

const (
	KindMessage    Kind = iota + 1 // text from a user, assistant, system or developer
	KindReasoning                  // assistant thinking; never shown to the user
	KindToolCall                   // the assistant invoking a tool
	KindToolResult                 // what a tool returned
	KindBoundary                   // a compaction boundary
	KindStateRead                  // a read of shared working state
	KindStateWrite                 // a write of shared working state
)

var kindNames = [...]string{"", "message", "reasoning", "tool_call", "tool_result", "boundary", "state_read", "state_write"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText makes kinds readable in JSON output.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Role is who produced an event.
type Role uint8

const (
	RoleUser Role = iota + 1
	RoleAssistant
	RoleSystem
	RoleDeveloper
	RoleTool
)

var roleNames = [...]string{"", "user", "assistant", "system", "developer", "tool"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "unknown"
}

// MarshalText makes roles readable in JSON output.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// ParseRole maps a role name to a Role; ok is false for unknown names.
func ParseRole(s string) (Role, bool) {
	for i, n := range roleNames {
		if i > 0 && n == s {
			return Role(i), true
		}
	}
	return 0, false
}

// Origin refines where text inside a role came from. Obligations depend on it:
// the user's words bind, a hook's compiler output does not.
type Origin uint8

const (
	// OriginAuthored is text a person or the model wrote in the conversation.
	OriginAuthored Origin = iota
	// OriginRules is a standing rule file (CLAUDE.md, AGENTS.md) that the
	// harness sends with every request, so compaction cannot remove it.
	OriginRules
	// OriginHarness is text the harness injected: hook output, reminders,
	// skill bodies, slash-command output, environment context.
	OriginHarness
)

var originNames = [...]string{"authored", "rules", "harness"}

func (o Origin) String() string {
	if int(o) < len(originNames) {
		return originNames[o]
	}
	return "unknown"
}

// MarshalText makes origins readable in JSON output.
func (o Origin) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// MainAgent names the top-level agent of a session.
const MainAgent = "main"

// Event is one normalized transcript event.
type Event struct {
	Index  int    // position in the stream of its transcript, from 0
	File   string // source file as given
	Format Format // format of the file
	Line   int    // 1-based line of the record
	Offset int64  // byte offset of the record's first byte
	Agent  string // MainAgent or a subagent id
	Role   Role
	Kind   Kind
	Origin Origin
	Turn   int    // 1-based turn of the agent's conversation
	Time   string // RFC 3339 when the record carries one
	UUID   string // record id where the format has one
	Cwd    string // working directory in effect, where known

	Text string // message text, tool result content, or reasoning

	ToolName   string
	ToolID     string
	Args       json.RawMessage // raw JSON arguments of a tool call
	IsError    bool            // tool result reported an error
	SideEffect *bool           // explicit side-effect flag; nil means infer from the name

	Boundary *Boundary // set when Kind == KindBoundary
	State    *StateOp  // set for state reads and writes

	// Prepared is what Options.Prepare computed for the event. The reader
	// never looks at it.
	Prepared any

	textChecked bool // Text is known to be valid UTF-8
	prepared    bool // Options.Prepare has run on it
}

// BoundaryKind distinguishes compactions.
type BoundaryKind uint8

const (
	// BoundaryCompact replaces earlier turns with a summary.
	BoundaryCompact BoundaryKind = iota + 1
	// BoundaryMicrocompact clears old tool results and writes no summary.
	BoundaryMicrocompact
)

func (b BoundaryKind) String() string {
	switch b {
	case BoundaryCompact:
		return "compact"
	case BoundaryMicrocompact:
		return "microcompact"
	}
	return "unknown"
}

// MarshalText makes boundary kinds readable in JSON output.
func (b BoundaryKind) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// Boundary is a compaction: what the agent could still see after it.
type Boundary struct {
	Kind      BoundaryKind
	Trigger   string // auto, manual, or empty when the format does not say
	PreTokens int    // context size before compaction, when recorded

	Summary     string // the summary text the agent sees afterwards
	Readable    bool   // false when the summary is encrypted or missing
	Unreadable  string // why the summary cannot be read, when !Readable
	SummaryLine int    // line of the summary record when it is separate

	// ReplacesThrough is the last turn the compaction replaced.
	ReplacesThrough int
	// ParentUUID is the record the boundary follows logically, when named.
	ParentUUID string

	Kept      []KeptItem // items kept verbatim, with their text (Codex)
	KeptUUIDs []string   // records kept verbatim, by id (Claude Code)
	KeptTurns []int      // turns kept verbatim (canonical, and resolved ids)

	ClearedToolIDs []string // tool results a microcompaction cleared
	Notified       []string // agents told of the compaction
}

// KeptItem is a message carried verbatim across a boundary.
type KeptItem struct {
	Role Role
	Text string
}

// StateOp is a read or write of shared working state.
type StateOp struct {
	Key         string
	Value       string
	Revision    int64
	HasRevision bool
	PayloadHash string
	Confidence  float64
	HasConf     bool
}
