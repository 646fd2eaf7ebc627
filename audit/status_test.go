package audit

import "testing"

func TestRunOutcome(t *testing.T) {
	for _, c := range []struct {
		text   string
		status string
		detail string
	}{
		{"ok  \tgithub.com/acme/site/internal/handler\t0.412s\nok  \tgithub.com/acme/site/internal/store\t1.020s\n", StatusDone, "ok"},
		{"--- FAIL: TestApplyDiscount (0.00s)\n    discount_test.go:31: got true, want false\nFAIL\nFAIL\tgithub.com/acme/shop\t0.214s\n", StatusFailed, "FAIL"},
		{"=========== 1 failed, 47 passed in 3.21s ===========", StatusFailed, "1 failed"},
		{"Test Suites: 1 failed, 5 passed, 6 total\nTests:       1 failed, 47 passed, 48 total", StatusFailed, "1 failed"},
		{"Tests:       48 passed, 48 total", StatusDone, "48 passed"},
		{"12 examples, 0 failures", StatusDone, "0 failures"},
		{"npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nExited with code 2", StatusFailed, "Exited with code 2"},
		{"build finished\nexit status 0", StatusDone, "exited without error"},
		{"test result: FAILED. 3 passed; 1 failed; 0 ignored", StatusFailed, "1 failed"},
		{"test result: ok. 4 passed; 0 failed; 0 ignored", StatusDone, "0 failed"},
		{"PASS\nok  \tgithub.com/acme/x\t0.1s", StatusDone, "ok"},
		{"FAILURE: build failed with 3 errors", StatusFailed, "3 errors"},
		{"compiled successfully", StatusDone, "exited without error"},
		{"İstanbul ok KELVIN 3 failed", StatusFailed, "3 failed"},
	} {
		st, detail := runOutcome(c.text, false)
		if st != c.status || detail != c.detail {
			t.Errorf("runOutcome(%.50q) = %s %q, want %s %q", c.text, st, detail, c.status, c.detail)
		}
	}
	if st, _ := runOutcome("anything", true); st != StatusFailed {
		t.Errorf("an error result is a failure, got %s", st)
	}
}
