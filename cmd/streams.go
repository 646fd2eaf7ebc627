package cmd

import (
	"bytes"
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// Streams are the program's input, output and terminal facts, in one place
// so commands never reach for os.Stdout and tests can swap them.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	OutTTY bool // stdout is a terminal
	ErrTTY bool // stderr is a terminal
	Getenv func(string) string
}

// System returns the process's own streams.
func System() *Streams {
	return &Streams{
		In:     os.Stdin,
		Out:    os.Stdout,
		Err:    os.Stderr,
		OutTTY: isTerminal(os.Stdout),
		ErrTTY: isTerminal(os.Stderr),
		Getenv: os.Getenv,
	}
}

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// TestStreams returns streams backed by buffers, for tests.
func TestStreams(in string) (*Streams, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &Streams{In: bytes.NewBufferString(in), Out: &out, Err: &errOut,
		Getenv: func(string) string { return "" }}, &out, &errOut
}

// useColor decides colour once: the flag, then NO_COLOR, then TERM=dumb,
// then whether the output is a terminal.
func (s *Streams) useColor(mode string, tty bool) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if s.Getenv("NO_COLOR") != "" || s.Getenv("TERM") == "dumb" {
		return false
	}
	return tty
}
