// Package tag owns what the audit finds in one text or one tool call:
// Literals (paths, URIs, buckets, ids), directives (prohibitions,
// requirements, retractions, commitments), thresholds with their units,
// Status claims and the commands a shell line runs, and the vocabulary
// they are written in (Kind, Polarity, Comparator, Threshold, Status,
// Object). Its functions are pure: they know nothing of the ledger, of
// boundaries or of findings, and read only the text they are given.
package tag

// Kind is the kind of an obligation.
type Kind uint8

const (
	KindLiteral     Kind = iota + 1 // a token a later turn could be held to verbatim
	KindProhibition                 // "never X"
	KindRequirement                 // "always X", "use X"
	KindThreshold                   // "retry ≤ 3"
	KindCommitment                  // "I'll add an idempotency key check"
	KindState                       // the last authoritative status of a task or run
	KindRetraction                  // ends or replaces an earlier obligation
)

var kindNames = [...]string{"", "literal", "prohibition", "requirement", "threshold", "commitment", "state", "retraction"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText makes kinds readable in JSON output.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Polarity says whether an obligation requires or forbids.
type Polarity uint8

const (
	PolarityNone Polarity = iota
	PolarityRequire
	PolarityForbid
)

func (p Polarity) String() string {
	switch p {
	case PolarityRequire:
		return "require"
	case PolarityForbid:
		return "forbid"
	}
	return ""
}

// MarshalText makes polarities readable in JSON output.
func (p Polarity) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Object is what a prohibition or requirement is about.
type Object struct {
	Text     string   `json:"text"`
	Verb     string   `json:"verb,omitempty"`     // a specific action ("push", "deploy"); empty when generic
	Terms    []string `json:"terms"`              // stemmed content words, verb excluded
	Literals []string `json:"literals,omitempty"` // literals inside the object
}

// Comparator of a threshold.
type Comparator string

const (
	CmpLE Comparator = "<="
	CmpLT Comparator = "<"
	CmpGE Comparator = ">="
	CmpGT Comparator = ">"
	CmpEQ Comparator = "="
)

// Threshold is a numeric limit.
type Threshold struct {
	Subject    string     `json:"subject"` // stemmed ("retry", "timeout", "worker")
	Comparator Comparator `json:"comparator"`
	Value      float64    `json:"value"`
	Unit       string     `json:"unit,omitempty"` // "s", "%", "bytes", or a count noun
	// Base is Value in the unit's base (seconds, bytes), for comparison.
	Base float64 `json:"base"`
}

// Status is an authoritative state.
type Status struct {
	Subject string `json:"subject"` // "tests", "build", "task B"
	Value   string `json:"value"`   // failed, pending, in_progress, done
	Detail  string `json:"detail,omitempty"`
}
