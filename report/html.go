package report

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/replay"
	"github.com/compaudit/compaudit/audit/tag"
)

// The HTML report is one file for postmortems: no network, inline CSS and
// a few lines of script that only show and hide findings. Transcripts are
// untrusted input: html/template escapes every piece of their text by
// context, so a <script> in a user turn shows as text and never runs.

type htmlData struct {
	Version     string
	Totals      totalsDoc
	Transcripts []htmlTranscript
}

type htmlTranscript struct {
	Path       string
	Format     string
	Agents     []htmlAgent
	Findings   []htmlFinding
	Hidden     int // findings below the view's severity
	Suppressed int
}

type htmlAgent struct {
	Name       string
	Turns      int
	Timeline   htmlTimeline
	Chart      htmlChart
	Trails     []htmlTrail
	Boundaries []int // boundary indexes, for the trail table's columns
	Earlier    int   // boundaries before those, which the table leaves out
}

// maxTrailBoundaries bounds the trail table's columns to the agent's last
// boundaries. Every column is a cell for every obligation judged: a 1 GB
// Codex rollout's 432 boundaries made a 159 MB page, which took 46 s and
// 592 MB to write and no browser shows. compaudit replay has them all.
const maxTrailBoundaries = 24

type htmlTimeline struct {
	Width, Height int
	Axis          []htmlTick
	Boundaries    []htmlMark
	Obligations   []htmlMark
	Findings      []htmlMark
}

type htmlTick struct {
	X     int
	Label string
}

type htmlMark struct {
	X, Y  int
	Class string
	Title string
}

type htmlChart struct {
	Width, Height int
	Bars          []htmlBar
}

type htmlBar struct {
	X, Y, W, H int
	Class      string
	Title      string
	Label      string
	LabelX     int
	LabelY     int
}

type htmlTrail struct {
	Kind   string
	Text   string
	Turn   int
	States []htmlState
}

type htmlState struct {
	State string
	Title string
}

type htmlFinding struct {
	audit.Finding
	Sev      string
	DiffLeft []audit.DiffOp
	DiffRght []audit.DiffOp
}

// NewAuditHTML renders the postmortem report from results given one by
// one. Each transcript's part of the page is made as its result comes, so
// a run over a folder keeps those parts, not every result whole with its
// ledgers and judgements (417 MB for 1,000 sessions); the page is written
// at Close, as it opens with the totals.
func NewAuditHTML(w io.Writer, v AuditView, o Options) Stream {
	return &htmlStream{w: w, v: v, data: htmlData{Version: o.Version}, redact: o.Redact}
}

type htmlStream struct {
	w      io.Writer
	v      AuditView
	data   htmlData
	redact bool // Options.Redact
}

func (s *htmlStream) Transcript(r *audit.Result) error {
	v := s.v
	t := htmlTranscript{Path: r.Path, Format: string(r.Format)}
	for _, f := range orderedBySeverity(r.Findings) {
		switch {
		case f.Severity < v.MinSeverity:
			t.Hidden++
			continue
		case f.Suppressed != nil:
			t.Suppressed++
		}
		hf := htmlFinding{Finding: f, Sev: f.Severity.String()}
		if len(f.Evidence.Diff) > 0 {
			for _, op := range f.Evidence.Diff {
				if op.Op != "insert" {
					hf.DiffLeft = append(hf.DiffLeft, op)
				}
				if op.Op != "delete" {
					hf.DiffRght = append(hf.DiffRght, op)
				}
			}
		}
		t.Findings = append(t.Findings, hf)
	}
	count(&s.data.Totals, shown(r.Findings, v))
	s.data.Totals.Transcripts++
	s.data.Totals.Boundaries += len(r.Boundaries)
	for _, name := range r.Agents {
		t.Agents = append(t.Agents, htmlAgentOf(r, name, v, s.redact))
	}
	s.data.Transcripts = append(s.data.Transcripts, t)
	return nil
}

// Close writes the page. html/template escapes by context but leaves
// control characters and bidi overrides as they are, which a browser shows
// or obeys; the page is made inert as a whole, as it holds no such
// character of its own.
//
// html/template also writes + as &#43; in text and attributes (against
// UTF-7, which a page declared UTF-8 is not read as). That broke the shape
// of every base64 secret (a private key's body, an AWS secret key) for
// Redact, which masked a key only up to its first +; a plain + means the
// same there.
func (s *htmlStream) Close() error {
	var page strings.Builder
	if err := htmlPage().Execute(&page, s.data); err != nil {
		return err
	}
	_, err := io.WriteString(s.w, InertLines(strings.ReplaceAll(page.String(), "&#43;", "+")))
	return err
}

const (
	timelineW = 960
	timelineH = 150
	marginL   = 40
	marginR   = 20
)

// htmlAgentOf draws an agent's timeline, chart and trails; redact is
// Options.Redact, for the text it cuts (clip).
func htmlAgentOf(r *audit.Result, name string, v AuditView, redact bool) htmlAgent {
	a := htmlAgent{Name: name, Turns: r.Turns[name]}
	maxTurn := max(a.Turns, 2)
	x := func(turn int) int {
		return marginL + (turn-1)*(timelineW-marginL-marginR)/(maxTurn-1)
	}
	tl := htmlTimeline{Width: timelineW, Height: timelineH}
	step := max(1, maxTurn/10)
	for t := 1; t <= maxTurn; t += step {
		tl.Axis = append(tl.Axis, htmlTick{X: x(t), Label: fmt.Sprint(t)})
	}
	var bs []*replay.BoundaryReplay
	for _, b := range r.Boundaries {
		if b.Agent == name {
			bs = append(bs, b)
			a.Boundaries = append(a.Boundaries, b.Index)
			tl.Boundaries = append(tl.Boundaries, htmlMark{X: x(b.Turn), Class: "boundary",
				Title: fmt.Sprintf("boundary %d at turn %d (line %d): %d obligations, %d came through", b.Index, b.Turn, b.Line, b.Obligations(), b.After())})
		}
	}
	if l := r.Ledgers[name]; l != nil {
		for _, o := range l.Obligations {
			if o.Kind == tag.KindRetraction || !o.Origin.Source.Instructive() && o.Kind == tag.KindLiteral {
				continue
			}
			tl.Obligations = append(tl.Obligations, htmlMark{X: x(o.Origin.Turn), Y: 40 + 8*int(o.Kind), Class: "ob-" + o.Kind.String(),
				Title: fmt.Sprintf("turn %d: %s %s", o.Origin.Turn, o.Kind, clip(o.Text, 100, redact))})
		}
	}
	for _, f := range r.Findings {
		if f.Agent != name || f.Severity < v.MinSeverity {
			continue
		}
		tl.Findings = append(tl.Findings, htmlMark{X: x(f.Turn), Y: 120, Class: "sev-" + f.Severity.String(),
			Title: fmt.Sprintf("turn %d: %s: %s", f.Turn, f.Rule, clip(f.Message, 140, redact))})
	}
	a.Timeline = tl
	a.Chart = ledgerChart(bs)
	if n := len(bs) - maxTrailBoundaries; n > 0 {
		a.Earlier, a.Boundaries = n, a.Boundaries[n:]
		a.Trails = trails(bs[n:], redact)
	} else {
		a.Trails = trails(bs, redact)
	}
	return a
}

// ledgerChart draws the ledger's size before and after each boundary.
func ledgerChart(bs []*replay.BoundaryReplay) htmlChart {
	c := htmlChart{Width: timelineW, Height: 170}
	if len(bs) == 0 {
		return c
	}
	top := 1
	for _, b := range bs {
		top = max(top, b.Obligations())
	}
	slot := min(160, (timelineW-marginL)/len(bs))
	for i, b := range bs {
		x0 := marginL + i*slot
		for j, n := range []int{b.Obligations(), b.After()} {
			h := n * 120 / top
			class, what := "before", "in force before"
			if j == 1 {
				class, what = "after", "came through"
			}
			c.Bars = append(c.Bars, htmlBar{X: x0 + j*(slot/3), Y: 140 - h, W: slot/3 - 6, H: h, Class: class,
				Title: fmt.Sprintf("boundary %d (turn %d): %d %s", b.Index, b.Turn, n, what), Label: fmt.Sprint(n),
				LabelX: x0 + j*(slot/3) + 4, LabelY: 136 - h})
		}
		c.Bars = append(c.Bars, htmlBar{Label: fmt.Sprintf("boundary %d · turn %d", b.Index, b.Turn), LabelX: x0, LabelY: 160})
	}
	return c
}

// trails lists every obligation judged at some boundary with its state at
// each one.
func trails(bs []*replay.BoundaryReplay, redact bool) []htmlTrail {
	type entry struct {
		o     *ledger.Obligation
		order int
	}
	seen := map[string]*entry{}
	var list []*entry
	for _, b := range bs {
		for _, s := range b.Survivals {
			if _, ok := seen[s.Obligation.ID]; !ok {
				e := &entry{o: s.Obligation, order: len(list)}
				seen[s.Obligation.ID] = e
				list = append(list, e)
			}
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		// the instructions first: they are what a postmortem reads
		a, b := list[i].o.Origin.Source.Instructive(), list[j].o.Origin.Source.Instructive()
		if a != b {
			return a
		}
		return list[i].order < list[j].order
	})
	var out []htmlTrail
	for _, e := range list {
		t := htmlTrail{Kind: e.o.Kind.String(), Text: clip(e.o.Text, 120, redact), Turn: e.o.Origin.Turn}
		for _, b := range bs {
			st := htmlState{State: "", Title: "not yet stated"}
			if s := b.Survival(e.o.ID); s != nil {
				st = htmlState{State: s.State.String(), Title: clip(s.Detail, 200, redact)}
			}
			t.States = append(t.States, st)
		}
		out = append(out, t)
	}
	return out
}

// htmlPage is parsed on first use, so the other formats do not pay for it
// at start.
var htmlPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(htmlSource))
})

const htmlSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>compaudit report</title>
<style>
:root { --fg:#1d1f23; --dim:#6a707a; --bg:#fff; --panel:#f6f7f9; --line:#d9dce1;
  --err:#c62828; --warn:#d98200; --note:#1e6fd9; --ok:#2e7d32; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
header { padding: 18px 28px; border-bottom: 1px solid var(--line); background: var(--panel); }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
main { padding: 0 28px 40px; max-width: 1100px; }
.dim { color: var(--dim); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
svg { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; display: block; }
svg text { font: 11px system-ui, sans-serif; fill: var(--dim); }
.boundary { stroke: #7b1fa2; stroke-width: 2; stroke-dasharray: 4 3; }
.ob-literal { fill: #0097a7; } .ob-prohibition { fill: var(--err); } .ob-requirement { fill: var(--ok); }
.ob-threshold { fill: #f9a825; } .ob-commitment { fill: var(--note); } .ob-state { fill: #8e24aa; }
.sev-error { fill: var(--err); } .sev-warning { fill: var(--warn); } .sev-note { fill: var(--note); }
.before { fill: #90a4ae; } .after { fill: var(--ok); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { font-weight: 600; background: var(--panel); }
td.state { font-size: 12px; text-align: center; }
.s-preserved { background: #e8f5e9; } .s-paraphrased, .s-drifted { background: #fff3e0; }
.s-softened, .s-dropped, .s-inverted { background: #ffebee; } .s-unverifiable { background: #eceff1; }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--note); border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
.finding.error { border-left-color: var(--err); } .finding.warning { border-left-color: var(--warn); }
.finding .rule { font-weight: 600; } .badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 12px; color: #fff; }
.badge.error { background: var(--err); } .badge.warning { background: var(--warn); } .badge.note { background: var(--note); }
.chain { margin: 8px 0 0; padding-left: 18px; } .chain li { margin: 2px 0; }
.excerpt { white-space: pre-wrap; word-break: break-word; background: var(--panel); padding: 2px 6px; border-radius: 4px; }
.diff { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; margin-top: 8px; }
.diff div { white-space: pre-wrap; word-break: break-word; background: var(--panel); padding: 6px 8px; border-radius: 4px; }
.del { background: #ffcdd2; text-decoration: line-through; } .ins { background: #c8e6c9; }
.controls label { margin-right: 14px; }
.hidden { display: none; }
.suppressed { opacity: 0.6; }
</style>
</head>
<body>
<header>
<h1>compaudit report</h1>
<div class="dim">{{.Totals.Transcripts}} transcript(s) · {{.Totals.Boundaries}} boundar{{if eq .Totals.Boundaries 1}}y{{else}}ies{{end}} ·
{{.Totals.Errors}} error(s), {{.Totals.Warnings}} warning(s), {{.Totals.Notes}} note(s) · compaudit {{.Version}}</div>
<div class="controls" id="controls">
<label><input type="checkbox" data-sev="error" checked> errors</label>
<label><input type="checkbox" data-sev="warning" checked> warnings</label>
<label><input type="checkbox" data-sev="note" checked> notes</label>
</div>
</header>
<main>
{{range .Transcripts}}
<h2 class="mono">{{.Path}} <span class="dim">({{.Format}})</span></h2>
{{range .Agents}}
<h3>Agent {{.Name}} · {{.Turns}} turns</h3>
<p class="dim">Timeline: boundaries as dashed lines, obligations where they were stated, findings where they happened. Hover for details.</p>
<svg width="{{.Timeline.Width}}" height="{{.Timeline.Height}}" viewBox="0 0 {{.Timeline.Width}} {{.Timeline.Height}}" role="img" aria-label="timeline of agent {{.Name}}">
<line x1="40" y1="136" x2="{{.Timeline.Width}}" y2="136" stroke="#b0b6bf"/>
{{range .Timeline.Axis}}<text x="{{.X}}" y="148" text-anchor="middle">{{.Label}}</text>{{end}}
{{range .Timeline.Boundaries}}<line class="{{.Class}}" x1="{{.X}}" y1="10" x2="{{.X}}" y2="136"><title>{{.Title}}</title></line>{{end}}
{{range .Timeline.Obligations}}<circle class="{{.Class}}" cx="{{.X}}" cy="{{.Y}}" r="4"><title>{{.Title}}</title></circle>{{end}}
{{range .Timeline.Findings}}<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="8" height="8" transform="translate(-4,-4)"><title>{{.Title}}</title></rect>{{end}}
<text x="8" y="20">stated</text><text x="8" y="124">found</text>
</svg>
{{if .Chart.Bars}}
<p class="dim">Ledger size across boundaries: obligations in force before (grey) and those that came through as they were (green).</p>
<svg width="{{.Chart.Width}}" height="{{.Chart.Height}}" viewBox="0 0 {{.Chart.Width}} {{.Chart.Height}}" role="img" aria-label="ledger size across boundaries">
{{range .Chart.Bars}}{{if .H}}<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>{{end}}<text x="{{.LabelX}}" y="{{.LabelY}}">{{.Label}}</text>{{end}}
</svg>
{{end}}
{{if .Trails}}
<h3>Obligation trails</h3>
{{if .Earlier}}<p>The last {{len .Boundaries}} boundaries; {{.Earlier}} earlier ones are left out here. <code>compaudit replay</code> shows every one.</p>
{{end}}<table>
<tr><th>kind</th><th>obligation</th><th>turn</th>{{range .Boundaries}}<th>boundary {{.}}</th>{{end}}</tr>
{{range .Trails}}<tr><td>{{.Kind}}</td><td class="mono">{{.Text}}</td><td>{{.Turn}}</td>{{range .States}}<td class="state s-{{.State}}" title="{{.Title}}">{{.State}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{end}}
<h3>Findings</h3>
{{if .Suppressed}}<p class="dim">{{.Suppressed}} suppressed finding(s) are shown faded.</p>{{end}}
{{if .Hidden}}<p class="dim">{{.Hidden}} finding(s) below the chosen severity are not shown.</p>{{end}}
{{range .Findings}}
<div class="finding {{.Sev}}{{if .Suppressed}} suppressed{{end}}" data-sev="{{.Sev}}">
<div><span class="badge {{.Sev}}">{{.Sev}}</span> <span class="rule">{{.Rule}}</span>
<span class="dim mono">{{.File}}:{{.Line}} · turn {{.Turn}}{{if .Boundary}} · boundary {{.Boundary}}{{end}} · agent {{.Agent}}</span></div>
<div>{{.Message}}</div>
{{if .Suppressed}}<div class="dim">suppressed: {{.Suppressed.Reason}}</div>{{end}}
{{if .BaselineState}}<div class="dim">baseline: {{.BaselineState}}</div>{{end}}
<ol class="chain">
{{range .Evidence.Chain}}<li><b>{{.Kind}}</b>{{if .Line}} <span class="dim">turn {{.Turn}}, line {{.Line}}{{if .Role}}, {{.Role}}{{end}}</span>{{end}}{{if .Text}} <span class="excerpt">{{.Text}}</span>{{end}}{{if .Detail}} <span class="dim">— {{.Detail}}</span>{{end}}</li>
{{end}}</ol>
{{if .DiffLeft}}<div class="diff"><div>{{range .DiffLeft}}{{if eq .Op "delete"}}<span class="del">{{.Text}}</span>{{else}}{{.Text}}{{end}}{{end}}</div><div>{{range .DiffRght}}{{if eq .Op "insert"}}<span class="ins">{{.Text}}</span>{{else}}{{.Text}}{{end}}{{end}}</div></div>{{end}}
</div>
{{else}}<p>No findings.</p>{{end}}
{{end}}
</main>
<script>
document.getElementById("controls").addEventListener("change", function () {
  var show = {};
  document.querySelectorAll("#controls input").forEach(function (c) { show[c.dataset.sev] = c.checked; });
  document.querySelectorAll(".finding").forEach(function (f) { f.classList.toggle("hidden", !show[f.dataset.sev]); });
});
</script>
</body>
</html>
`
