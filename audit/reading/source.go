package reading

import "github.com/compaudit/compaudit/parse"

// SourceOf classifies an event's text.
func SourceOf(ev *parse.Event) Source {
	if ev.Origin == parse.OriginHarness {
		return SourceTool
	}
	switch ev.Role {
	case parse.RoleUser:
		return SourceUser
	case parse.RoleSystem:
		return SourceSystem
	case parse.RoleDeveloper:
		return SourceDeveloper
	case parse.RoleAssistant:
		if ev.Kind == parse.KindToolCall {
			return SourceTool
		}
		return SourceAssistant
	}
	return SourceTool
}

// Source is who made an obligation: it sets how much its loss matters.
type Source uint8

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "unknown"
}

// MarshalText makes sources readable in JSON output.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Instructive reports text that gives instructions: the user's, the
// system's and the developer's.
func (s Source) Instructive() bool {
	return s == SourceUser || s == SourceSystem || s == SourceDeveloper
}

var sourceNames = [...]string{"", "user", "system", "developer", "assistant", "tool"}
