package audit

import ("testing"; "fmt"; "github.com/compaudit/compaudit/parse")

func TestScratchTag(t *testing.T) {
	l := NewLedger("main")
	for i, s := range []string{
		"Deploy the frontend build. Use the staging bucket s3://acme-stage-07/, never prod. Retry ≤ 3 on failure.",
		"Also: do not run migrations against the production database, and never add Co-Authored-By trailers. Keep the timeout under 30s. At least 80% coverage. No more than 5 files per commit. Use port 8080.",
		"I don't think that's right. It doesn't work. We never got results. No problem. Don't worry about the tests. Don't forget to update the changelog.",
		"Don't touch /home/dev/proj/. Never call the refund_all tool. The vendor/ folder is off-limits. Under no circumstances should you force push.",
		"Use 9090 instead of 8080. You can deploy to prod now. Forget the coverage rule.",
		"Task B failed with retry pending. Tasks A and C are complete.",
	} {
		ev := &parse.Event{Agent: "main", Kind: parse.KindMessage, Role: parse.RoleUser, Text: s, Turn: i + 1}
		fmt.Println("turn", i+1, s)
		for _, o := range l.Observe(ev) {
			ex := ""
			if o.Object != nil { ex = fmt.Sprintf("verb=%q terms=%v lits=%v", o.Object.Verb, o.Object.Terms, o.Object.Literals) }
			if o.Threshold != nil { ex = fmt.Sprintf("%+v", *o.Threshold) }
			if o.Status != nil { ex = fmt.Sprintf("%+v", *o.Status) }
			fmt.Printf("   %-11s %-7s %q %s retired=%d %s\n", o.Kind, o.Polarity, o.Text, ex, o.RetiredAt, o.Retracts)
		}
	}
	for _, s := range []string{"I'll add an idempotency key check before the deploy.", "I'll check the logs now.", "I won't touch prod again.", "Let me run the tests."} {
		ev := &parse.Event{Agent: "main", Kind: parse.KindMessage, Role: parse.RoleAssistant, Text: s, Turn: 9}
		for _, o := range l.Observe(ev) { fmt.Printf("   %-11s %-7s %q\n", o.Kind, o.Polarity, o.Text) }
	}
}
