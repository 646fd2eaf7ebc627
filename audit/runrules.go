package audit

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// runRules runs the rules of the run scope on up to GOMAXPROCS goroutines
// and returns each one's findings, in the rules' order. They run once the
// stream is read, and read nothing but the run's shared-state history, which
// no rule writes (its index is built once, under a sync.Once); in a
// multi-agent run they were a third of the audit's time, all of it on one
// core while the other waited. Each rule's findings are kept apart and
// joined in order, so the result does not depend on which rule finished
// first. pass makes a rule's pass, reporting through report; keep readies
// a finding to outlive the events (Finding.detach), on the rule's
// goroutine.
//
// A panic is a bug in a rule: it is raised again on the caller's goroutine,
// where the command reports it as an internal error, rather than ending
// the process from a goroutine no one recovers.
func runRules(rules []*Rule, pass func(rule *Rule, report func(Finding)) *Pass, keep func(Finding) Finding) [][]Finding {
	var scoped []*Rule
	for _, rule := range rules {
		if rule.Scope == ScopeRun {
			scoped = append(scoped, rule)
		}
	}
	found := make([][]Finding, len(scoped))
	failed := make([]any, len(scoped))
	run := func(i int) {
		defer func() {
			if r := recover(); r != nil {
				failed[i] = fmt.Sprintf("rule %s: %v\n%s", scoped[i].ID, r, debug.Stack())
			}
		}()
		scoped[i].Run(pass(scoped[i], func(f Finding) { found[i] = append(found[i], keep(f)) }))
	}
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < len(scoped); i = int(next.Add(1) - 1) {
			run(i)
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(scoped)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for _, r := range failed {
		if r != nil {
			panic(r)
		}
	}
	return found
}
