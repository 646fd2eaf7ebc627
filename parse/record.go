package parse

import (
	"strings"
	"sync"

	"github.com/compaudit/compaudit/parse/jsontext"
	"github.com/tidwall/gjson"
)

// Detacher is a decoder whose prepare copies out every string it keeps, so
// it may read a line in place in a chunk: it reads tens of megabytes of
// tool output, most of which it never keeps, while a piece of a line that
// was kept would hold its whole chunk in memory.
type Detacher interface {
	Detaches()
}

func detaches(dec Decoder) bool {
	_, ok := dec.(Detacher)
	return ok
}

// Within reports whether s is a piece of buf: the same bytes, not a copy.
func Within(s, buf string) bool {
	_, ok := jsontext.OffsetIn(s, buf)
	return ok
}

// parseRecord validates one line as a JSON object. Invalid UTF-8 is tolerated:
// agents write raw tool output, and a stray byte must not cost the record.
func parseRecord(line string) (gjson.Result, bool) {
	rec, ok := ReadRecord(line, jsontext.RecordIndex{})
	if !ok {
		return gjson.Result{}, false
	}
	return rec.JSON(), true
}

// indexBuffers hold the index of a record while it is prepared; no
// decoder keeps it.
var indexBuffers = sync.Pool{New: func() any { return new(jsontext.RecordIndex) }}

// Record is a validated JSON object with its index.
type Record struct {
	Raw string
	jsontext.RecordIndex
	ValidUTF8 bool // every string is UTF-8, so no text read from it needs a check
	// NoReasoning: reasoning's text is not read (Options.NoReasoningText)
	NoReasoning bool
}

// Get returns the raw value of a top-level key, or "". Of a key written
// twice it is the last, as the decoders read the members in order.
func (r Record) Get(key string) string {
	for i := len(r.Fields) - 1; i >= 0; i-- {
		if f := r.Fields[i]; r.Raw[f.K0:f.K1] == key {
			return r.Raw[f.V0:f.V1]
		}
	}
	return ""
}

// JSON is the record for gjson's queries.
func (r Record) JSON() gjson.Result { return gjson.Parse(r.Raw) }

// ReadRecord validates one line as a JSON object and indexes it into idx
// (its buffers reused). Invalid UTF-8 does not make a line invalid (the
// validator, like encoding/json, does not ask for it): the decoders repair
// the texts they read and warn.
func ReadRecord(line string, idx jsontext.RecordIndex) (rec Record, ok bool) {
	idx, valid, validUTF8 := jsontext.ValidRecord(line, idx)
	if !valid {
		return Record{}, false
	}
	t := strings.TrimLeft(line, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return Record{}, false
	}
	return Record{Raw: line, RecordIndex: idx, ValidUTF8: validUTF8}, true
}

// Decoder turns the records of one format into events, in two steps:
// prepare reads one record on its own and may run on several at once;
// apply takes the prepared records in file order and keeps the state.
type Decoder interface {
	Prepare(rec Record, annotate func(*Event)) any
	Apply(p any, line int, off int64)
	Finish()
}

// Skipper is a decoder that passes over some types of record whole: they
// are validated like any other, so a cut or merged line is still reported,
// but never read.
type Skipper interface {
	Skips(typ string) bool
}

func newDecoder(f Format, s *Sink) Decoder {
	r := readerOf(f)
	s.ownClock = r.OwnClock
	return r.NewDecoder(s)
}

// Text is the reader of the record, valid while its index is.
func (r Record) Text() jsontext.Text { return jsontext.TextOf(r.Raw, r.Spans) }
