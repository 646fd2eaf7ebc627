package report

import (
	"slices"

	"github.com/compaudit/compaudit/audit"
	"github.com/compaudit/compaudit/audit/ledger"
	"github.com/compaudit/compaudit/report/mask"
)

// RedactKnown is Redact, and masks as well the pieces of the known secrets
// (SecretsOf) that b holds: whole, or cut short by an excerpt. Every piece
// of eleven bytes or more holds one of the eight-byte windows looked for,
// four bytes apart; a shorter one may.
func RedactKnown(b []byte, known []string) []byte {
	var forms []string
	for _, v := range known {
		// as written, and as the Markdown comment escapes it (ab\_cd)
		forms = append(forms, v)
		if e := mdText(v); e != v {
			forms = append(forms, e)
		}
	}
	return mask.RedactForms(b, forms)
}

// SecretsOf is the secrets the texts of r hold — each obligation's
// sentence, each step of a finding's evidence, each message an agent sent
// — as pieces a report may quote apart from the words that tell them for
// secrets. A value after "Bearer", API_KEY= or "client_secret": is a
// literal or a reference of its own (a hash, an id), and quoted without
// its name — in a finding's message, a ledger line, a baseline, an agent's
// citations — no pattern tells it for a secret; nor one line of a private
// key. Read before the result is trimmed, when its ledgers still hold
// every obligation; RedactKnown masks them wherever r's report shows them.
func SecretsOf(r *audit.Result) []string {
	read := map[string]bool{}
	found := map[string]bool{}
	from := func(text string) {
		if text == "" || read[text] {
			return
		}
		read[text] = true
		for _, p := range mask.SecretPieces(text) {
			found[p] = true
		}
	}
	obligation := func(o *ledger.Obligation) {
		if o != nil {
			from(o.Sentence)
			from(o.Text)
		}
	}
	for _, l := range r.Ledgers {
		for _, o := range l.Obligations {
			obligation(o)
		}
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		obligation(f.Obligation)
		for _, st := range f.Evidence.Chain {
			from(st.Text)
			from(st.Detail)
		}
		from(f.Evidence.Use)
	}
	if r.State != nil {
		for _, m := range r.State.Messages {
			if m.MessageContent != nil {
				from(m.Text)
			}
		}
	}
	out := make([]string, 0, len(found))
	for p := range found {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
