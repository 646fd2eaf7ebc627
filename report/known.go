package report

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
	return redactForms(b, forms)
}
