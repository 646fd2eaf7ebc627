// Command compaudit audits AI-agent transcripts for what context compaction
// destroyed.
package main

import (
	"os"

	"github.com/compaudit/compaudit/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:], cmd.System()))
}
