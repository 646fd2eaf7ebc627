package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/audit/replay"
)

// ReplayView selects boundaries to show.
type ReplayView struct {
	Boundary int // 0: every boundary
	Agent    string
}

type replaySurvivalDoc struct {
	Obligation *ledger.Obligation `json:"obligation"`
	replay.Survival
	Trail []replay.TrailStep `json:"trail"`
}

type replayBoundaryDoc struct {
	boundaryDoc
	Summary     string              `json:"summary"`
	Obligations []replaySurvivalDoc `json:"obligations"`
}

func (v ReplayView) selects(b *replay.BoundaryReplay) bool {
	return (v.Boundary == 0 || b.Index == v.Boundary) && (v.Agent == "" || b.Agent == v.Agent)
}

type replayTranscriptDoc struct {
	Path       string              `json:"path"`
	Boundaries []replayBoundaryDoc `json:"boundaries"`

	selected []*replay.BoundaryReplay // made into Boundaries one by one (splice)
}

// splice writes the selected boundaries one by one, each made only when
// written: a long session's replay is every obligation at every boundary
// with its trail, hundreds of megabytes of JSON for a 1 GB rollout.
func (t replayTranscriptDoc) splice() (any, string, int, func(int) any) {
	return replayTranscriptDoc{Path: t.Path, Boundaries: []replayBoundaryDoc{}}, `"boundaries": [`, len(t.selected),
		func(i int) any { return replayBoundaryOf(t.selected[i]) }
}

func replayBoundaryOf(b *replay.BoundaryReplay) replayBoundaryDoc {
	bd := replayBoundaryDoc{boundaryDoc: boundaryDocOf(b), Summary: b.Summary(), Obligations: []replaySurvivalDoc{}}
	for _, s := range b.Survivals {
		bd.Obligations = append(bd.Obligations, replaySurvivalDoc{Obligation: s.Obligation, Survival: s, Trail: b.Trail(s.Obligation.ID)})
	}
	return bd
}

// NewReplayJSON streams each selected boundary with every obligation's
// survival and trail.
func NewReplayJSON(w io.Writer, v ReplayView, o Options) Stream {
	doc := viewDoc[replayTranscriptDoc]{Tool: "compaudit", Version: o.Version, Transcripts: []replayTranscriptDoc{}}
	empty := viewDoc[replayTranscriptDoc]{Tool: "compaudit", Version: o.Version} // no transcript: null, as it always was
	return transcriptsDoc(w, doc, empty, func(r *audit.Result) any {
		t := replayTranscriptDoc{Path: r.Path, Boundaries: []replayBoundaryDoc{}}
		for _, b := range r.Boundaries {
			if v.selects(b) {
				t.selected = append(t.selected, b)
			}
		}
		return t
	})
}

// NewReplayText streams each selected boundary: every obligation, what
// became of it, and its trail across boundaries.
func NewReplayText(w io.Writer, v ReplayView, o Options) Stream {
	st := newStyles(w, o)
	return &partStream{w: w, part: func(b *strings.Builder, r *audit.Result, _ bool) error {
		fmt.Fprintf(b, "%s %s\n", st.head.Render(Inert(r.Path)), st.dim.Render("("+string(r.Format)+")"))
		n := 0
		for _, bd := range r.Boundaries {
			if !v.selects(bd) {
				continue
			}
			n++
			fmt.Fprintf(b, "\n  %s %s\n", st.bold.Render(fmt.Sprintf("agent %s · boundary %d", Inert(bd.Agent), bd.Index)),
				st.dim.Render(boundaryLine(bd, bd.Counts())))
			for _, s := range bd.Survivals {
				state := fmt.Sprintf("%-12s", s.State)
				switch s.State {
				case replay.Preserved:
					state = st.added.Render(state)
				case replay.Unverifiable:
					state = st.dim.Render(state)
				default:
					state = st.rm.Render(state)
				}
				fmt.Fprintf(b, "    %s %s\n", state, obligationLine(st, s.Obligation))
				var why []string
				if s.Via != "" && s.State == replay.Preserved {
					why = append(why, "via "+s.Via)
				}
				if s.Detail != "" {
					why = append(why, s.Detail)
				}
				if len(why) > 0 {
					fmt.Fprintf(b, "                 %s\n", st.dim.Render(Inert(st.clip(strings.Join(why, "; "), 120))))
				}
				if t := bd.Trail(s.Obligation.ID); len(t) > 1 {
					var steps []string
					for _, x := range t {
						steps = append(steps, fmt.Sprintf("b%d %s", x.Boundary, x.State))
					}
					fmt.Fprintf(b, "                 %s\n", st.dim.Render("trail: "+strings.Join(steps, " → ")))
				}
				if err := writePiece(w, b); err != nil {
					return err
				}
			}
		}
		if n == 0 {
			b.WriteString(st.dim.Render("  no matching boundary") + "\n")
		}
		return nil
	}}
}
