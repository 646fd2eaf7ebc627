// Command compaudit audits AI-agent transcripts for what context compaction
// destroyed.
package main

import (
	"os"
	"runtime/debug"

	"github.com/compaudit/compaudit/cmd"
)

// defaultMemoryLimit is the soft limit on the Go runtime's memory when the
// user sets none. Below it the collector works as Go's does by default,
// letting the heap grow to twice what is live; near it, it collects more
// often instead, so an audit whose live data nears the limit (100,000
// obligations in play, a 64 MB message) peaks near it rather than at twice
// its live data, for about a third more time. An audit that needs more
// than the limit still gets it: the limit is soft, and the collector's
// share of CPU is capped. GOMEMLIMIT, any value or "off", replaces it.
const defaultMemoryLimit = 160 << 20

// memoryLimit is the limit to set, and whether to set one: none when the
// environment sets GOMEMLIMIT, which the runtime has read already.
func memoryLimit(lookupEnv func(string) (string, bool)) (int64, bool) {
	if _, set := lookupEnv("GOMEMLIMIT"); set {
		return 0, false
	}
	return defaultMemoryLimit, true
}

func main() {
	if limit, ok := memoryLimit(os.LookupEnv); ok {
		debug.SetMemoryLimit(limit)
	}
	os.Exit(cmd.Main(os.Args[1:], cmd.System()))
}
