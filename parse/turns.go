package parse

import "strings"

// side groups events for turn numbering.
type side uint8

const (
	sideNone      side = iota
	sideUser           // user, system and developer messages
	sideAssistant      // assistant messages, reasoning and tool calls
	sideTool           // tool results
	sideBoundary       // compactions
)

// turnCounter numbers turns the same way for every format: a turn is one
// message from the user side (a prompt, with whatever the harness injected
// beside it) or one response of the model (its text, thinking and tool
// calls); tool results belong to the response that asked for them.
type turnCounter struct {
	agents map[string]*agentTurns
}

type agentTurns struct {
	n    int
	last side
	msg  string // id of the current assistant message, where the format has one
}

func (t *turnCounter) get(agent string) *agentTurns {
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

// next returns the turn of an event on side s. msgID, when not empty, names
// the assistant message the event belongs to: a new id starts a new turn
// even when the previous event was also the assistant's.
func (t *turnCounter) next(agent string, s side, msgID string) int {
	a := t.get(agent)
	switch s {
	case sideUser:
		if a.last != sideUser {
			a.n++
		}
		a.msg = ""
	case sideAssistant:
		if a.last != sideAssistant || (msgID != "" && msgID != a.msg) {
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

// boundary numbers a compaction: it takes effect in the agent's next turn,
// the first that sees only the summary ("compaction fires at turn 63").
func (t *turnCounter) boundary(agent string) int {
	a := t.get(agent)
	a.last = sideBoundary
	return a.n + 1
}

// current is the turn the agent is in, without moving on.
func (t *turnCounter) current(agent string) int {
	a := t.get(agent)
	if a.n == 0 {
		return 1
	}
	return a.n
}

// set honours an explicit turn number and keeps counting from it.
func (t *turnCounter) set(agent string, s side, n int) int {
	a := t.get(agent)
	a.n, a.last = n, s
	return n
}
