package parse

import "strings"

// tagBody returns the text between <tag> and </tag>, and whether it was there.
func TagBody(text, tag string) (string, bool) {
	open, close := "<"+tag+">", "</"+tag+">"
	i := strings.Index(text, open)
	if i < 0 {
		return "", false
	}
	body := text[i+len(open):]
	if j := strings.Index(body, close); j >= 0 {
		body = body[:j]
	}
	return body, true
}
