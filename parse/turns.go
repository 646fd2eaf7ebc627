package parse

import "strings"

// Side groups events for turn numbering.
type Side uint8

const (
	SideNone      Side = iota
	SideUser           // user, system and developer messages
	SideAssistant      // assistant messages, reasoning and tool calls
	SideTool           // tool results
	SideBoundary       // compactions
)

// Turns numbers turns the same way for every format: a turn is one
// message from the user side (a prompt, with whatever the harness injected
// beside it) or one response of the model (its text, thinking and tool
// calls); tool results belong to the response that asked for them.
type Turns struct {
	agents map[string]*agentTurns
}

type agentTurns struct {
	n    int
	last Side
	msg  string // id of the current assistant message, where the format has one
}

func (t *Turns) get(agent string) *agentTurns {
	if t.agents == nil {
		t.agents = map[string]*agentTurns{}
	}
	a := t.agents[agent]
	if a == nil {
		a = &agentTurns{}
		// the name is a piece of the agent's first record, which the key
		// would otherwise hold for the rest of the file
		t.agents[strings.Clone(agent)] = a
	}
	return a
}

// Next returns the turn of an event on side s. msgID, when not empty, names
// the assistant message the event belongs to: a new id starts a new turn
// even when the previous event was also the assistant's.
func (t *Turns) Next(agent string, s Side, msgID string) int {
	a := t.get(agent)
	switch s {
	case SideUser:
		if a.last != SideUser {
			a.n++
		}
		a.msg = ""
	case SideAssistant:
		if a.last != SideAssistant || (msgID != "" && msgID != a.msg) {
			a.n++
		}
		if msgID != "" {
			a.msg = msgID
		}
	}
	if a.n == 0 {
		a.n = 1
	}
	a.last = s
	return a.n
}

// Boundary numbers a compaction: it takes effect in the agent's next turn,
// the first that sees only the summary ("compaction fires at turn 63").
func (t *Turns) Boundary(agent string) int {
	a := t.get(agent)
	a.last = SideBoundary
	return a.n + 1
}

// Current is the turn the agent is in, without moving on.
func (t *Turns) Current(agent string) int {
	a := t.get(agent)
	if a.n == 0 {
		return 1
	}
	return a.n
}

// Set honours an explicit turn number and keeps counting from it.
func (t *Turns) Set(agent string, s Side, n int) int {
	a := t.get(agent)
	a.n, a.last = n, s
	return n
}
