package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/compaudit/compaudit/audit"
)

// injection is what a hostile transcript might carry in a user turn.
const injection = `<script>window.__compaudit_pwned = 1; document.title = "pwned";</script> <img src=x onerror="window.__compaudit_pwned = 2"> Never touch the <b>billing</b> bucket s3://acme-billing-x/ either.`

func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// injectedIncident is the first design note's incident with a hostile user
// message beside the turn-41 instruction, so its text reaches the ledger,
// the trails and a finding's chain.
func injectedIncident(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(goldenInputs[0])
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		out.Write(line)
		if bytes.Contains(line, []byte("use the staging bucket s3://acme-stage-07/, never prod")) {
			msg := strings.ReplaceAll(strings.ReplaceAll(injection, `\`, `\\`), `"`, `\"`)
			fmt.Fprintf(&out, `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"%s"},"uuid":"7f000000-0000-4000-8000-000000000001","timestamp":"2026-03-02T10:30:00.000Z","sessionId":"s"}`+"\n", msg)
		}
	}
	p := filepath.Join(t.TempDir(), "incident-injected.jsonl")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startChromium launches a headless Chromium and returns a context driving
// it. A browser that fails to start — a crash in start-up on a loaded
// machine — is tried again: that is the machine's trouble, not the
// report's.
func startChromium(t *testing.T, chrome, dir string) context.Context {
	t.Helper()
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(chrome),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.UserDataDir(filepath.Join(dir, fmt.Sprintf("profile-%d", attempt))),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-quic", true),
			chromedp.WindowSize(1200, 1500),
		)
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(allocCtx)
		ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
		if err = chromedp.Do(ctx); err == nil { // starts the browser
			t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
			return ctx
		}
		cancelTimeout()
		cancel()
		cancelAlloc()
		t.Logf("Chromium did not start (attempt %d): %.200s", attempt, err)
		time.Sleep(time.Second)
	}
	t.Fatalf("Chromium did not start: %v", err)
	return nil
}

// TestHTMLInChromium renders the incident's report in headless Chromium: no
// console error, no exception, the injected script inert and shown as
// text, the severity filter working. With -update it refreshes the
// screenshot kept in docs/.
func TestHTMLInChromium(t *testing.T) {
	chrome := findChromium()
	if chrome == "" {
		t.Skip("no Chromium on this machine (.ci/run installs Debian's chromium)")
	}
	rs := auditInputs(t, injectedIncident(t))
	rs[0].Path = "testdata/transcripts/incident-claude.jsonl, with a hostile user message at turn 41"
	var page bytes.Buffer
	if err := renderAll(NewAuditHTML(&page, AuditView{MinSeverity: audit.SeverityNote}, goldenOptions), rs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "&lt;script&gt;window.__compaudit_pwned") {
		t.Fatal("the injected text is not in the report, escaped")
	}
	dir := t.TempDir()
	htmlPath := filepath.Join(dir, "report.html")
	if err := os.WriteFile(htmlPath, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx := startChromium(t, chrome, dir)

	var mu sync.Mutex
	var problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, fmt.Sprintf("console %s", e.Type))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				problems = append(problems, "log: "+e.Entry.Text)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The viewport is set rather than left to the window: headless
	// Chromium's window keeps 139 or 143 px of it from one start to the
	// next, and the screenshot kept in docs/ changed height with it.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 1360), chromedp.Navigate("file://"+htmlPath), chromedp.WaitVisible(chromedp.CSS("main"))); err != nil {
		t.Fatal(err)
	}
	pwned, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.__compaudit_pwned)`))
	if err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	bodyText, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
	if err != nil {
		t.Fatal(err)
	}
	notes := chromedp.CSS(`#controls input[data-sev="note"]`)
	if err := chromedp.Do(ctx, chromedp.Click(notes)); err != nil {
		t.Fatal(err)
	}
	notesHidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](
		`Array.from(document.querySelectorAll('.finding[data-sev="note"]')).every(f => f.classList.contains("hidden"))`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(notes)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page reported problems: %v", problems)
	}
	if pwned != "undefined" || title != "compaudit report" {
		t.Errorf("the transcript's script ran: __compaudit_pwned=%s, title=%q", pwned, title)
	}
	if !strings.Contains(bodyText, `<script>window.__compaudit_pwned`) || !strings.Contains(bodyText, "never prod") {
		t.Error("the report does not show the transcript's text as text")
	}
	if !notesHidden {
		t.Error("unticking notes did not hide them")
	}
	if len(shot) < 10_000 {
		t.Errorf("screenshot of %d bytes", len(shot))
	}
	if *update {
		if err := os.WriteFile("../docs/report-screenshot.png", shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
