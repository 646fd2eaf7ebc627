package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/compaudit/compaudit/audit"
)

// AuditStream renders an audit a transcript at a time, so a run over many
// sessions need not hold every result until it renders: Transcript writes
// one transcript's part, Close what follows the last. Markdown and HTML,
// which order or draw every transcript's findings together, have none.
type AuditStream interface {
	Transcript(r *audit.Result) error
	Close() error
}

// renderAll renders every result through s.
func renderAll(s AuditStream, rs []*audit.Result) error {
	for _, r := range rs {
		if err := s.Transcript(r); err != nil {
			return err
		}
	}
	return s.Close()
}

// splicedArray writes an indented JSON document one of whose arrays is
// written element by element: the document is encoded with that array
// empty, once for what comes before it and once, at the end, for what
// comes after, and each element is indented as encodeJSON would indent it
// in place. key is the array's member as encoded, e.g. `"results": [`; it
// must be the first such member in the document.
type splicedArray struct {
	w      io.Writer
	key    string
	prefix string // the indentation of the line that holds key
	n      int
}

// encodedAround encodes doc and cuts it after the first key.
func (s *splicedArray) encodedAround(doc any) (before, after string, err error) {
	var b bytes.Buffer
	if err := encodeJSON(&b, doc, true); err != nil {
		return "", "", err
	}
	text := b.String()
	i := strings.Index(text, s.key)
	if i < 0 {
		return "", "", fmt.Errorf("report: %s not in the document", s.key)
	}
	line := text[strings.LastIndexByte(text[:i], '\n')+1 : i]
	s.prefix = line[:len(line)-len(strings.TrimLeft(line, " "))]
	return text[:i+len(s.key)], text[i+len(s.key):], nil
}

// open writes doc up to the array's opening bracket.
func (s *splicedArray) open(doc any) error {
	before, _, err := s.encodedAround(doc)
	if err != nil {
		return err
	}
	_, err = io.WriteString(s.w, before)
	return err
}

func (s *splicedArray) add(v any) error {
	var b bytes.Buffer
	enc := newJSONEncoder(&b)
	enc.SetIndent(s.prefix+"  ", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	sep := ",\n"
	if s.n == 0 {
		sep = "\n"
	}
	s.n++
	_, err := io.WriteString(s.w, sep+s.prefix+"  "+strings.TrimSuffix(b.String(), "\n"))
	return err
}

// close writes what follows the array in doc, the document as it ends.
func (s *splicedArray) close(doc any) error {
	_, after, err := s.encodedAround(doc)
	if err != nil {
		return err
	}
	if s.n > 0 {
		after = "\n" + s.prefix + after
	}
	_, err = io.WriteString(s.w, after)
	return err
}
