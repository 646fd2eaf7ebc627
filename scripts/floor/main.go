// Command floor reads a Claude Code session the plainest way Go allows:
// every line through gjson, the text of each message, tool call and tool
// result taken out, nothing else done. scripts/bench.sh times it beside
// compaudit as the floor a simple reader sets: compaudit does far more per
// byte, and the ratio says what that costs.
//
//	floor FILE
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/tidwall/gjson"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var records, texts, bytes int
	for sc.Scan() {
		records++
		content := gjson.GetBytes(sc.Bytes(), "message.content")
		if content.Type == gjson.String {
			texts++
			bytes += len(content.Str)
			continue
		}
		content.ForEach(func(_, part gjson.Result) bool {
			for _, key := range []string{"text", "thinking", "content", "input"} {
				if v := part.Get(key); v.Exists() {
					texts++
					if v.Type == gjson.String {
						bytes += len(v.Str)
					} else {
						bytes += len(v.Raw)
					}
				}
			}
			return true
		})
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	fmt.Printf("%d records, %d texts, %d bytes of text\n", records, texts, bytes)
}
