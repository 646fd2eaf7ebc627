package parse

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Sink receives the events of one file, numbers them and reports problems.
type Sink struct {
	file    string
	format  Format
	agent   string // agent the file belongs to, MainAgent or a subagent id
	diag    *diagnostics
	skipped int // lines that were not records
	next    int
	emit    func(*Event) error
	prepare func(*Event)
	err     error
	// noReasoning: reasoning is not read (Options.NoReasoningText)
	noReasoning bool

	ownClock     bool   // the decoder checks timestamps (FormatReader.OwnClock)
	lastTime     string // latest timestamp so far, and its line
	lastTimeLine int
}

// Settle readies an event's content for the audit, once, on whichever
// goroutine has it first — a decoder's prepare on the reading workers, or
// put: text that is not UTF-8 is repaired, since raw bytes from a tool (a
// Latin-1 CSV) must not leak into JSON output, its terminal escape
// sequences are removed (plainText), and the consumer's Prepare runs. It reports a repair, for the caller to warn of; validUTF8 says
// every string of the record was UTF-8, so no text read from it needs the
// check: the escapes decode to UTF-8 too.
func Settle(ev *Event, validUTF8 bool, prepare func(*Event)) (repaired bool) {
	if !ev.textChecked {
		if !validUTF8 && !utf8.ValidString(ev.Text) {
			ev.Text = strings.ToValidUTF8(ev.Text, "\uFFFD")
			repaired = true
		}
		ev.Text = plainText(ev.Text)
		if b := ev.Boundary; b != nil {
			b.Summary = plainText(b.Summary)
		}
		ev.textChecked = true
	}
	if prepare != nil && !ev.prepared {
		prepare(ev)
		ev.prepared = true
	}
	return repaired
}

// Put numbers an event and hands it on.
func (s *Sink) Put(ev *Event) {
	if s.err != nil {
		return
	}
	ev.Index = s.next
	ev.File = s.file
	ev.Format = s.format
	if Settle(ev, false, s.prepare) {
		s.diag.add(Warning, ev.Line, InvalidUTF8Msg)
	}
	ev.Agent = s.AgentOr(ev.Agent)
	s.checkTime(ev)
	s.next++
	s.err = s.emit(ev)
}

// Report records a problem found at a line of the file; problems with the
// same message are capped (MaxSameDiagnostic).
func (s *Sink) Report(sev Severity, line int, format string, args ...any) {
	s.diag.add(sev, line, format, args...)
}

// FileAgent is the agent of the file being read, as its File names it.
func (s *Sink) FileAgent() string { return s.agent }

// AgentOr is agent, or the file's agent when it is empty, or MainAgent.
func (s *Sink) AgentOr(agent string) string {
	switch {
	case agent != "":
		return agent
	case s.agent != "":
		return s.agent
	}
	return MainAgent
}

// checkTime warns when a record's timestamp is earlier than the one before
// it in the file: merged or hand-edited files, clock skew. Events are still
// taken in file order, which the warning says.
func (s *Sink) checkTime(ev *Event) {
	if ev.Time == "" || s.ownClock {
		return // Claude Code's records are checked against their parents
	}
	if s.lastTime != "" && ev.Time < s.lastTime {
		t, err1 := time.Parse(time.RFC3339Nano, ev.Time)
		last, err2 := time.Parse(time.RFC3339Nano, s.lastTime)
		if err1 == nil && err2 == nil && t.Before(last) {
			s.diag.add(Warning, ev.Line, "out-of-order timestamp: %s is earlier than %s at line %d; events are taken in file order",
				ev.Time, s.lastTime, s.lastTimeLine)
			return // the later time stays the mark
		}
	}
	s.lastTime, s.lastTimeLine = ev.Time, ev.Line
}
