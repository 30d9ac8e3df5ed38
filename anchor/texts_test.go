package anchor_test

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// leaflet is the extracted text of a two-page PDF: lines as pdftext gives
// them, a blank line between paragraphs, pages joined by a form feed.
var leaflet = strings.Join([]string{
	`ZORVEXA (velmocitinib) tablets, for oral use
IMPORTANT SAFETY INFORMATION

Zorvexa is a Janus kinase inhibitor indicated for adults with moderately to severely active
ulcerative colitis who have had an inadequate response to one or more TNF blockers.

Serious infections leading to hospitalization or death, including tuberculosis and bacterial,
invasive fungal, viral, and other opportunistic infections, have occurred in patients
receiving Zorvexa. Avoid use in patients with an active, serious infection.

In the VELOCITY-1 study, 58% of patients treated with Zorvexa 15 mg once daily achieved
clinical remission at week 8 compared with 21% of patients given placebo (p<0.001).`,
	`The most common adverse reactions (at least 5%) were nasopharyngitis, headache and
elevated liver enzymes. Monitor liver enzymes at baseline and periodically thereafter.

Take Zorvexa once daily with or without food. Do not crush or chew the tablets.
Zorvexa is not recommended for use in combination with other JAK inhibitors.

Please see full Prescribing Information, including Boxed Warning and Medication Guide.`,
}, "\f")

// Paragraphs of leaflet, for edits.
const (
	indication = `Zorvexa is a Janus kinase inhibitor indicated for adults with moderately to severely active
ulcerative colitis who have had an inadequate response to one or more TNF blockers.

`
	infections = `Serious infections leading to hospitalization or death, including tuberculosis and bacterial,
invasive fungal, viral, and other opportunistic infections, have occurred in patients
receiving Zorvexa. Avoid use in patients with an active, serious infection.

`
	velocity = `In the VELOCITY-1 study, 58% of patients treated with Zorvexa 15 mg once daily achieved
clinical remission at week 8 compared with 21% of patients given placebo (p<0.001).`
	dosing = `Take Zorvexa once daily with or without food. Do not crush or chew the tablets.
Zorvexa is not recommended for use in combination with other JAK inhibitors.

`
)

// fiche is a French leaflet with accents and an emoji, where code points,
// bytes and UTF-16 units all differ.
const fiche = `Zorvexa® 15 mg, comprimé pelliculé 💊
Réservé à l'usage hospitalier.

Efficacité démontrée : 58 % des patients traités ont atteint la rémission clinique à la semaine 8.
Effets indésirables fréquents : rhinopharyngite, céphalées, élévation des enzymes hépatiques.`

// edit returns text with old replaced by new, failing t unless old
// occurs exactly once in text.
func edit(t *testing.T, text, old, new string) string {
	t.Helper()
	if n := strings.Count(text, old); n != 1 {
		t.Fatalf("edit: %q occurs %d times", old, n)
	}
	return strings.Replace(text, old, new, 1)
}

// offset is the code point offset in text of within's occurrence inside
// the only occurrence of context, failing t otherwise.
func offset(t *testing.T, text, context, within string) int {
	t.Helper()
	if n := strings.Count(text, context); n != 1 {
		t.Fatalf("%q occurs %d times in the text", context, n)
	}
	i := strings.Index(context, within)
	if i < 0 {
		t.Fatalf("%q is not in %q", within, context)
	}
	return utf8.RuneCountInString(text[:strings.Index(text, context)+i])
}
