package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/reading"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
	"github.com/compaudit/compaudit/parse"
)

// The hot paths, measured on the incident transcripts with allocation
// counts: go test ./audit -run XXX -bench . -benchmem

// incidentEvents reads a transcript of testdata once.
func incidentEvents(b *testing.B, name string) []*parse.Event {
	b.Helper()
	path := filepath.Join("..", "testdata", "transcripts", name)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	var evs []*parse.Event
	_, err = parse.ReadFile(parse.File{Path: path}, parse.Options{}, 0, func(ev *parse.Event) error {
		evs = append(evs, ev)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	return evs
}

// unprepared copies events without what a previous run prepared for them.
func unprepared(evs []*parse.Event) []*parse.Event {
	out := make([]*parse.Event, len(evs))
	for i, ev := range evs {
		c := *ev
		c.Prepared = nil
		out[i] = &c
	}
	return out
}

// BenchmarkTagging is obligation tagging: the stateless preparation of
// every event (tokens, literals, claims) and the ledger's tagging.
func BenchmarkTagging(b *testing.B) {
	evs := incidentEvents(b, "incident-drift-claude.jsonl")
	h := reading.NewTokenHasher()
	b.ReportAllocs()
	for b.Loop() {
		l := ledger.NewLedger(parse.MainAgent)
		for _, ev := range unprepared(evs) {
			if ev.Kind != parse.KindBoundary {
				l.ObserveRead(ev, h.Prepare(ev))
			}
		}
	}
}

// BenchmarkPrepare is the stateless part alone, as the reading workers run
// it: tokens hashed for the index, literals, claims.
func BenchmarkPrepare(b *testing.B) {
	evs := incidentEvents(b, "incident-drift-claude.jsonl")
	h := reading.NewTokenHasher()
	b.ReportAllocs()
	for b.Loop() {
		for _, ev := range evs {
			h.Prepare(ev)
		}
	}
}

// replayed builds the ledger up to each boundary and returns the
// boundaries' post-contexts with the live obligations to judge.
func replayed(b *testing.B) []*replay.BoundaryReplay {
	b.Helper()
	evs := incidentEvents(b, "incident-drift-claude.jsonl")
	a := replay.NewAgentReplay(parse.MainAgent, parse.FormatClaudeCode, reading.NewTokenHasher(), DefaultSideEffecting, &replay.WindowBudget{Limit: replay.DefaultWindowBytes})
	var out []*replay.BoundaryReplay
	for _, ev := range evs {
		if ev.Kind == parse.KindBoundary {
			if r := a.CloseWindow(ev.Turn); r != nil {
				out = append(out, r)
			}
			a.OpenBoundary(ev)
			continue
		}
		a.Observe(ev)
	}
	out = append(out, a.CloseWindow(0))
	return out
}

// BenchmarkSurvival is survival matching: judging every obligation in
// force at each boundary against a fresh post-boundary context.
func BenchmarkSurvival(b *testing.B) {
	rs := replayed(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range rs {
			// the boundary keeps no texts; the incident's summaries are
			// its whole post-compaction texts, as it keeps no messages
			bd := *r.Boundary
			bd.Summary = r.Context.Text
			pc := replay.NewPostContext(&parse.Event{Boundary: &bd, Cwd: r.Context.Cwd}, r.Context.Project, nil)
			pc.Known = r.Context.Known
			for _, o := range r.Before {
				pc.Judge(o)
			}
		}
	}
}

// BenchmarkReferences is reference matching: scanning each boundary's
// window for near misses, forbidden actions, breaches and re-asks.
func BenchmarkReferences(b *testing.B) {
	rs := replayed(b)
	l := rs[0].Owner.Ledger
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range rs {
			replay.FindReferences(r, l)
		}
	}
}

// BenchmarkReadCall times the reading of Write calls' arguments — this
// package's sources as a file_path and its content — by the reader's walk
// and by gjson, side by side: gjson decodes the content it is asked to
// pass over.
func BenchmarkReadCall(b *testing.B) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		b.Fatal(err)
	}
	var calls [][]byte
	var size int64
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		args, err := json.Marshal(map[string]string{"file_path": "/repo/audit/" + name, "content": string(src)})
		if err != nil {
			b.Fatal(err)
		}
		calls, size = append(calls, args), size+int64(len(args))
	}
	for name, read := range map[string]func([]byte) tag.CallValue{"walk": tag.ArgsOf, "gjson": tag.LooseArgs} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, args := range calls {
					if _, texts, _ := tag.ReadArgs(read(args)); len(texts) != 1 {
						b.Fatalf("strings %q", texts)
					}
				}
			}
		})
	}
}
