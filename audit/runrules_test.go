package audit

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// runRulesOf runs rules through runRules with passes that carry nothing
// but the rule, and returns the messages of the findings in the order
// runRules gives them.
func runRulesOf(rules []*Rule) []string {
	var got []string
	for _, fs := range runRules(rules, func(rule *Rule, report func(Finding)) *Pass {
		return &Pass{rule: rule, report: report}
	}, func(f Finding) Finding { return f }) {
		for _, f := range fs {
			got = append(got, f.Message)
		}
	}
	return got
}

// TestRunRulesOrder: the run rules' findings come in the rules' order even
// when a later rule finishes first, and with two cores the rules do run at
// once: the first waits for the second to have reported.
func TestRunRulesOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	reported := make(chan struct{})
	overlapped := false
	slow := &Rule{ID: "slow", Scope: ScopeRun, Run: func(p *Pass) {
		select {
		case <-reported:
			overlapped = true
		case <-time.After(5 * time.Second):
		}
		p.Report(Finding{Message: "slow 1"})
		p.Report(Finding{Message: "slow 2"})
	}}
	fast := &Rule{ID: "fast", Scope: ScopeRun, Run: func(p *Pass) {
		p.Report(Finding{Message: "fast 1"})
		close(reported)
	}}
	boundary := &Rule{ID: "boundary", Scope: ScopeBoundary, Run: func(p *Pass) {
		p.Report(Finding{Message: "boundary rules do not run here"})
	}}
	got := runRulesOf([]*Rule{slow, boundary, fast})
	if want := []string{"slow 1", "slow 2", "fast 1"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	if !overlapped {
		t.Error("with GOMAXPROCS=2 the second rule had not reported while the first ran")
	}
}

// TestRunRulesOneCore: with one core the rules run one after another on
// the caller's goroutine, in order.
func TestRunRulesOneCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var ran []string
	var rules []*Rule
	for i := range 5 {
		id := fmt.Sprint("r", i)
		rules = append(rules, &Rule{ID: id, Scope: ScopeRun, Run: func(p *Pass) {
			ran = append(ran, id)
			p.Report(Finding{Message: id})
		}})
	}
	want := []string{"r0", "r1", "r2", "r3", "r4"}
	if got := runRulesOf(rules); !slices.Equal(got, want) || !slices.Equal(ran, want) {
		t.Errorf("findings %q, ran %q, want %q", got, ran, want)
	}
}

// TestRunRulesPanic: a rule's panic comes back on the caller's goroutine,
// naming the rule, once the other rules are done, so the command can report
// an internal error instead of the process dying in a worker.
func TestRunRulesPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	finished := false
	rules := []*Rule{
		{ID: "broken", Scope: ScopeRun, Run: func(*Pass) { panic("index out of range") }},
		{ID: "fine", Scope: ScopeRun, Run: func(p *Pass) {
			time.Sleep(20 * time.Millisecond)
			finished = true
		}},
	}
	defer func() {
		r := recover()
		msg := fmt.Sprint(r)
		if r == nil || !strings.Contains(msg, "rule broken") || !strings.Contains(msg, "index out of range") {
			t.Errorf("recovered %q, want the broken rule's panic", msg)
		}
		if !finished {
			t.Error("the panic came back before the other rule finished")
		}
	}()
	runRulesOf(rules)
	t.Error("runRules returned despite a panicking rule")
}
