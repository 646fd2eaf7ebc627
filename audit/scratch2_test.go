package audit

import ("testing"; "fmt"; "os"; "github.com/compaudit/compaudit/parse")

func TestScratchCorpus(t *testing.T) {
	path := os.Getenv("SCRATCH_FILE")
	if path == "" { t.Skip() }
	ls := map[string]*Ledger{}
	_, err := parse.ReadFile(parse.File{Path: path, Agent: "main"}, parse.Options{}, 0, func(ev *parse.Event) error {
		l := ls[ev.Agent]
		if l == nil { l = NewLedger(ev.Agent); ls[ev.Agent] = l }
		if ev.Kind == parse.KindBoundary { fmt.Printf("=== BOUNDARY turn %d line %d\n", ev.Turn, ev.Line); return nil }
		for _, o := range l.Observe(ev) {
			if os.Getenv("SCRATCH_ALL") == "" && (o.Origin.Source == SourceTool || o.Kind == KindLiteral) { continue }
			fmt.Printf("t%-4d %-9s %-11s %q\n", o.Origin.Turn, o.Origin.Source, o.Kind, clip(o.Text, 150))
		}
		return nil
	})
	if err != nil { t.Fatal(err) }
}
