package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/compaudit/compaudit/audit"
)

// Stream renders a view of an audit a transcript at a time, so a run over
// many sessions need not hold every result until it renders: Transcript
// writes one transcript's part, Close what follows the last. Markdown and
// HTML, which order or draw every transcript's findings together, have
// none.
type Stream interface {
	Transcript(r *audit.Result) error
	Close() error
}

// partStream is a Stream whose output is one part per transcript, then
// what end renders, if anything: part renders a transcript's part, and is
// told whether it is the first.
type partStream struct {
	w    io.Writer
	n    int
	part func(b *strings.Builder, r *audit.Result, first bool) error
	end  func(b *strings.Builder) error
}

func (s *partStream) Transcript(r *audit.Result) error {
	var b strings.Builder
	if err := s.part(&b, r, s.n == 0); err != nil {
		return err
	}
	s.n++
	_, err := io.WriteString(s.w, b.String())
	return err
}

func (s *partStream) Close() error {
	if s.end == nil {
		return nil
	}
	var b strings.Builder
	if err := s.end(&b); err != nil {
		return err
	}
	_, err := io.WriteString(s.w, b.String())
	return err
}

// docStream is a Stream for an indented JSON document with an element per
// transcript in one array. A document that sums the transcripts (the
// audit's totals) is given as a pointer that element updates.
type docStream struct {
	array   splicedArray
	doc     any // with the array empty
	empty   any // the document when no transcript was given
	element func(r *audit.Result) any
}

// transcriptsDoc streams a document whose "transcripts" member holds an
// element per transcript, as every JSON document of the audit's and the
// views' does.
func transcriptsDoc(w io.Writer, doc, empty any, element func(r *audit.Result) any) Stream {
	return &docStream{array: splicedArray{w: w, key: `"transcripts": [`}, doc: doc, empty: empty, element: element}
}

// viewDoc is the JSON document of a view of the replay: the tool and an
// element per transcript.
type viewDoc[T any] struct {
	Tool        string `json:"tool"`
	Version     string `json:"version"`
	Transcripts []T    `json:"transcripts"`
}

func (s *docStream) Transcript(r *audit.Result) error { return s.array.add(s.doc, s.element(r)) }

func (s *docStream) Close() error { return s.array.close(s.doc, s.empty) }

// splicedArray writes an indented JSON document one of whose arrays is
// written element by element. The document is encoded with that array
// empty: before the first element, for what comes before the array, and at
// the end for what comes after it; each element is indented as encodeJSON
// would indent it in place. key is the array's member as encoded with the
// array empty but for its closing bracket, e.g. `"results": [`; it must be
// the first such member in the document.
type splicedArray struct {
	w      io.Writer
	key    string
	prefix string // the indentation of the line that holds key
	n      int    // elements written
}

// encodedAround encodes doc, with every line after the first indented by
// indent, cuts it after the first key and notes the indentation of key's
// line.
func (s *splicedArray) encodedAround(doc any, indent string) (before, after string, err error) {
	var b bytes.Buffer
	enc := newJSONEncoder(&b)
	enc.SetIndent(indent, "  ")
	if err := enc.Encode(doc); err != nil {
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

// add writes v as the array's next element; before the first, doc (the
// document with the array empty) up to the array.
func (s *splicedArray) add(doc, v any) error {
	start := ",\n"
	if s.n == 0 {
		before, _, err := s.encodedAround(doc, "")
		if err != nil {
			return err
		}
		start = before + "\n"
	}
	if sp, ok := v.(splicer); ok {
		shell, key, n, item := sp.splice()
		if n > 0 {
			return s.addSpliced(start, shell, key, n, item)
		}
		v = shell
	}
	var b bytes.Buffer
	enc := newJSONEncoder(&b)
	enc.SetIndent(s.prefix+"  ", "  ")
	if err := enc.Encode(v); err != nil {
		return err // nothing written
	}
	s.n++
	_, err := io.WriteString(s.w, start+s.prefix+"  "+strings.TrimSuffix(b.String(), "\n"))
	return err
}

// splicer is an element one of whose arrays is written item by item: a
// long session's findings, or its replayed boundaries, are tens or
// hundreds of megabytes of JSON, and encoding its element whole held them
// four times over (the compact encoding, the indented one, its buffer and
// the string written).
type splicer interface {
	// splice gives the element with the array empty, the array's member
	// as encoded (see splicedArray.key), its length and its items, which
	// may be made only when asked for.
	splice() (shell any, key string, n int, item func(i int) any)
}

// addSpliced writes the next element, shell with its array spliced in.
func (s *splicedArray) addSpliced(start string, shell any, key string, n int, item func(i int) any) error {
	inner := splicedArray{w: s.w, key: key}
	indent := s.prefix + "  "
	before, after, err := inner.encodedAround(shell, indent)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(start + indent + before)
	comma := false
	err = encodeEach(n, func(elem *bytes.Buffer, i int) error {
		enc := newJSONEncoder(elem)
		enc.SetIndent(inner.prefix+"  ", "  ")
		if err := enc.Encode(item(i)); err != nil {
			return err
		}
		elem.Truncate(elem.Len() - 1) // Encode's newline
		return nil
	}, func(elem []byte) error {
		if comma {
			b.WriteByte(',')
		}
		comma = true
		b.WriteString("\n" + inner.prefix + "  ")
		b.Write(elem)
		return writePiece(s.w, &b)
	})
	if err != nil {
		return err
	}
	b.WriteString("\n" + inner.prefix + strings.TrimSuffix(after, "\n"))
	if _, err := s.w.Write(b.Bytes()); err != nil {
		return err
	}
	s.n++
	return nil
}

// close ends the document: what follows the array in doc, the document
// with the array empty and as it ends; or, when no element was written,
// the whole of empty, the document as it is with no element.
func (s *splicedArray) close(doc, empty any) error {
	if s.n == 0 {
		return encodeJSON(s.w, empty, true)
	}
	_, after, err := s.encodedAround(doc, "")
	if err != nil {
		return err
	}
	_, err = io.WriteString(s.w, "\n"+s.prefix+after)
	return err
}

// encodeEach encodes the n items of a transcript's part one by one into
// one buffer and hands emit each item's bytes in order, so the output is
// written as it is made. emit must not keep the bytes. A panic of encode
// is an error naming the item, not the end of the run.
func encodeEach(n int, encode func(b *bytes.Buffer, i int) error, emit func(item []byte) error) (err error) {
	var buf bytes.Buffer
	i := 0
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("encoding item %d: %v", i, r)
		}
	}()
	for ; i < n; i++ {
		buf.Reset()
		if err := encode(&buf, i); err != nil {
			return err
		}
		if err := emit(buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
