package audit_test

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/rules"
	"github.com/compaudit/compaudit/parse"
)

func TestZZProf(t *testing.T) {
	path := os.Getenv("PROF_FILE")
	if path == "" {
		t.Skip()
	}
	if os.Getenv("PROF_CPU") != "" {
		f, _ := os.Create("/tmp/cpu.prof")
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if os.Getenv("PROF_CPU") == "" {
		runtime.MemProfileRate = 4096
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		trs, _ := parse.Discover([]string{path})
		for range 1 {
			for _, tr := range trs {
				if _, err := audit.Audit(tr, parse.Options{Workers: 2}, audit.Options{Rules: rules.All()}); err != nil {
					t.Error(err)
				}
			}
		}
	}()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var max uint64
	for {
		select {
		case <-done:
			t.Logf("max live %d MB", max>>20)
			return
		case <-time.After(5 * time.Millisecond):
		}
		metrics.Read(s)
		if v := s[0].Value.Uint64(); v > max*102/100 {
			max = v
			f, _ := os.Create("/tmp/heap.prof")
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
}
