package cmd

import (
	"fmt"
	"time"
)

// progress shows files done, rate and time left on stderr while many files
// are audited on a terminal; never on a pipe, in CI or with --quiet.
type progress struct {
	a       *app
	total   int
	done    int
	start   time.Time
	last    time.Time
	now     func() time.Time
	enabled bool
	shown   bool // the line is on the terminal
}

func newProgress(a *app, total int) *progress {
	p := &progress{a: a, total: total, now: time.Now}
	p.enabled = total > 1 && a.streams.ErrTTY && !a.global.quiet && a.streams.Getenv("CI") == ""
	p.start = p.now()
	return p
}

// step counts one file done and redraws at most ten times a second.
func (p *progress) step() {
	p.done++
	if !p.enabled {
		return
	}
	now := p.now()
	if now.Sub(p.last) < 100*time.Millisecond && p.done < p.total {
		return
	}
	p.last = now
	elapsed := now.Sub(p.start).Seconds()
	rate := float64(p.done) / max(elapsed, 1e-3)
	left := time.Duration(float64(p.total-p.done)/max(rate, 1e-9)) * time.Second
	fmt.Fprintf(p.a.streams.Err, "\r\033[Kaudited %d/%d files · %.1f files/s · %s left", p.done, p.total, rate, left.Round(time.Second))
	p.shown = true
}

// clear takes the line off the terminal, so what is written next — a
// warning, a transcript's part of a streamed report on the same terminal —
// starts a line of its own; the next step draws it again.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.a.streams.Err, "\r\033[K")
		p.shown = false
	}
}

// finish clears the line.
func (p *progress) finish() { p.clear() }
