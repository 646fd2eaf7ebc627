package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/policy"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenInputs are the transcripts every format is rendered from: the two
// design notes' incidents.
var goldenInputs = []string{
	"../testdata/transcripts/incident-claude.jsonl",
	"../testdata/transcripts/incident-drift-claude.jsonl",
	"../testdata/transcripts/multiagent-canonical.jsonl",
}

func auditInputs(t testing.TB, paths ...string) []*audit.Result {
	t.Helper()
	var rs []*audit.Result
	for _, p := range paths {
		ts, diags := parse.Discover([]string{p})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		res, err := audit.Audit(ts[0], parse.Options{}, audit.Options{Rules: rules.All()})
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, res)
	}
	return rs
}

var goldenOptions = Options{Version: "v0.0.0-golden", Rules: rules.All()}

// auditRenderers are the six formats of audit, each bound to a view and
// options, by name.
func auditRenderers(v AuditView, o Options) map[string]func(io.Writer) Stream {
	out := map[string]func(io.Writer) Stream{}
	for name, newStream := range map[string]func(io.Writer, AuditView, Options) Stream{
		"text": NewAuditText, "json": NewAuditJSON, "ndjson": NewAuditNDJSON,
		"sarif": NewAuditSARIF, "markdown": NewAuditMarkdown, "html": NewAuditHTML,
	} {
		out[name] = func(w io.Writer) Stream { return newStream(w, v, o) }
	}
	return out
}

// TestGolden renders each format and compares it with its golden file;
// go test ./report -update rewrites them.
func TestGolden(t *testing.T) {
	rs := auditInputs(t, goldenInputs...)
	note := AuditView{MinSeverity: audit.SeverityNote}
	warn := AuditView{MinSeverity: audit.SeverityWarning}
	for _, c := range []struct {
		name   string
		render func(*bytes.Buffer) error
	}{
		{"audit.txt", func(b *bytes.Buffer) error { return renderAll(NewAuditText(b, warn, goldenOptions), rs) }},
		{"audit.json", func(b *bytes.Buffer) error { return renderAll(NewAuditJSON(b, note, goldenOptions), rs) }},
		{"audit.ndjson", func(b *bytes.Buffer) error { return renderAll(NewAuditNDJSON(b, note, goldenOptions), rs) }},
		{"audit.sarif", func(b *bytes.Buffer) error { return renderAll(NewAuditSARIF(b, note, goldenOptions), rs) }},
		{"audit.md", func(b *bytes.Buffer) error { return renderAll(NewAuditMarkdown(b, warn, goldenOptions), rs) }},
		{"audit.html", func(b *bytes.Buffer) error { return renderAll(NewAuditHTML(b, note, goldenOptions), rs) }},
		{"replay.txt", func(b *bytes.Buffer) error { return renderAll(NewReplayText(b, ReplayView{}, goldenOptions), rs[1:2]) }},
		{"agents.txt", func(b *bytes.Buffer) error { return renderAll(NewAgentsText(b, 5, goldenOptions), rs[2:]) }},
		{"baseline.json", func(b *bytes.Buffer) error { return renderAll(NewBaseline(b, goldenOptions), rs) }},
		{"rules.txt", func(b *bytes.Buffer) error { return RulesText(b, rules.All(), goldenOptions) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.render(&b); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", c.name)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./report -update writes it)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from its golden file (go test ./report -update rewrites it)", c.name)
			}
		})
	}
}

// TestSARIFValidates checks the SARIF output against the official 2.1.0
// schema in ../shared/schemas, when it is there.
func TestSARIFValidates(t *testing.T) {
	const schemaPath = "../../shared/schemas/sarif-schema-2.1.0.json"
	if _, err := os.Stat(schemaPath); err != nil {
		t.Skip("../shared/schemas is not present")
	}
	c := jsonschema.NewCompiler()
	schema, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	rs := auditInputs(t, goldenInputs...)
	// a suppressed and a baselined finding exercise those fields too
	policy.Suppress(rs[0].Findings, []audit.Suppression{{Rule: "forbidden-action", Reason: "rolled back in INC-17"}}, timeZero)
	policy.ApplyBaseline(rs[1].Findings, map[string]bool{rs[1].Findings[0].Fingerprint: true})
	var b bytes.Buffer
	if err := renderAll(NewAuditSARIF(&b, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions), rs); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("SARIF does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID                   string `json:"id"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID              string            `json:"ruleId"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				RelatedLocations    []json.RawMessage `json:"relatedLocations"`
				Suppressions        []json.RawMessage `json:"suppressions"`
				BaselineState       string            `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("one run: %v", err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(rules.All()) {
		t.Errorf("%d rules in the driver", len(run.Tool.Driver.Rules))
	}
	suppressed, baselined := 0, 0
	for _, r := range run.Results {
		fp := r.PartialFingerprints[FingerprintKey]
		if len(fp) != 16 || strings.ContainsAny(fp, ":") {
			t.Errorf("%s: fingerprint %q", r.RuleID, fp)
		}
		if r.RuleID == "forbidden-action" && len(r.RelatedLocations) != 3 {
			t.Errorf("forbidden-action: %d related locations, want origin, boundary and turn", len(r.RelatedLocations))
		}
		suppressed += len(r.Suppressions)
		if r.BaselineState != "" {
			baselined++
		}
	}
	if suppressed == 0 || baselined == 0 {
		t.Errorf("suppressions %d, baseline states %d", suppressed, baselined)
	}
}

// TestMarkdownLimit renders a large audit: the comment stays under the limit
// and says it was cut.
func TestMarkdownLimit(t *testing.T) {
	rs := auditInputs(t, goldenInputs...)
	var many []audit.Finding
	for i := 0; i < 400; i++ {
		for _, f := range rs[0].Findings {
			f.Message = strings.Repeat("x", 40) + " " + f.Message
			many = append(many, f)
		}
	}
	big := []*audit.Result{{Path: "big.jsonl", Findings: many}}
	var b bytes.Buffer
	if err := renderAll(NewAuditMarkdown(&b, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions), big); err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(b.String())); n > MarkdownLimit {
		t.Errorf("%d characters, over %d", n, MarkdownLimit)
	}
	if !strings.Contains(b.String(), "Cut to fit a comment") || !strings.Contains(b.String(), "more findings not shown") {
		t.Error("no note says the comment was cut")
	}
	if !strings.Contains(b.String(), "| `dropped-literal` |") {
		t.Error("the counts table is missing")
	}
}

// TestMarkdownEscapes: transcript text cannot inject markup into a comment.
func TestMarkdownEscapes(t *testing.T) {
	got := mdText("<img src=x onerror=alert(1)> **bold** [link](http://x) | `code`")
	for _, bad := range []string{"<img", "**bold**", "[link]", "`code`"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q survives in %q", bad, got)
		}
	}
}

// timeZero keeps expiry decisions out of the golden output.
var timeZero = timeOf("2026-01-01")

// TestUnkeptShown: where a window stopped keeping turns past its budget,
// each boundary of the JSON report and of the replay says so, at the line
// of the first event it left out; the warnings name only the first ones.
func TestUnkeptShown(t *testing.T) {
	p := "../testdata/transcripts/multiagent-canonical.jsonl"
	ts, diags := parse.Discover([]string{p})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	res, err := audit.Audit(ts[0], parse.Options{}, audit.Options{Rules: rules.All(), WindowBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{} // boundary line → line of the first event left out
	for _, b := range res.Boundaries {
		if b.Unkept != nil {
			want[b.Line] = b.Unkept.Line
		}
	}
	if len(want) == 0 {
		t.Fatal("no window outgrew a 1-byte budget")
	}
	var out bytes.Buffer
	if err := renderAll(NewAuditJSON(&out, AuditView{}, goldenOptions), []*audit.Result{res}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Transcripts []struct {
			Boundaries []struct {
				Line   int `json:"line"`
				Unkept *struct {
					File string `json:"file"`
					Line int    `json:"line"`
					Turn int    `json:"turn"`
				} `json:"unkept"`
			} `json:"boundaries"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[int]int{}
	for _, b := range doc.Transcripts[0].Boundaries {
		if b.Unkept != nil {
			if b.Unkept.File == "" || b.Unkept.Turn == 0 {
				t.Errorf("boundary at line %d: unkept %+v names no file or turn", b.Line, *b.Unkept)
			}
			got[b.Line] = b.Unkept.Line
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("the JSON report's unkept lines by boundary %v, want %v", got, want)
	}
	out.Reset()
	if err := renderAll(NewReplayText(&out, ReplayView{}, goldenOptions), []*audit.Result{res}); err != nil {
		t.Fatal(err)
	}
	for b, l := range want {
		if s := fmt.Sprintf("line %d · compact", b); !strings.Contains(out.String(), s) {
			t.Fatalf("the replay shows no boundary at line %d:\n%s", b, out.String())
		}
		if s := fmt.Sprintf("window stopped keeping turns at line %d", l); !strings.Contains(out.String(), s) {
			t.Errorf("the replay does not say %q", s)
		}
	}
}
