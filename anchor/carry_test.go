package anchor_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/anchor"
)

// locateIn is the canonical target of quote, unique in text, as the server
// stores it when the annotation is made.
func locateIn(t *testing.T, text, quote string) fairbalance.Target {
	t.Helper()
	if n := strings.Count(text, quote); n != 1 {
		t.Fatalf("%q occurs %d times", quote, n)
	}
	start := utf8.RuneCountInString(text[:strings.Index(text, quote)])
	return fairbalance.TextTarget([]rune(text), start, start+utf8.RuneCountInString(quote))
}

func TestCarryText(t *testing.T) {
	// The VELOCITY-1 paragraph moved from page 1 to the end of page 2;
	// it is shorter than the text it jumps over, so it is what the diff
	// moves.
	velocityMoved := edit(t, edit(t, leaflet, "\n\n"+velocity, ""),
		"Please see full Prescribing Information", velocity+"\n\nPlease see full Prescribing Information")
	// ... and a new sentence on page 1 that repeats the quote's words, in
	// another context and nearer the old place.
	velocityMovedRepeated := edit(t, velocityMoved, "serious infection.",
		"serious infection.\nPatients switching from Zorvexa 15 mg once daily should keep their dose.")
	for _, c := range []struct {
		name    string
		old     string
		new     string
		quote   string // unique in old
		status  fairbalance.AnchorStatus
		context string // unique in new, holds want
		want    string // the quote as it must be found on new
	}{
		{
			name:   "a paragraph inserted before the quote",
			old:    leaflet,
			new:    edit(t, leaflet, indication, indication+"Zorvexa is also indicated for adults with active psoriatic arthritis\nwho have had an inadequate response to methotrexate.\n\n"),
			quote:  "58% of patients treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
			status: fairbalance.AnchorAnchored, context: "In the VELOCITY-1 study, 58% of patients treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
			want: "58% of patients treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
		},
		{
			name:   "words inserted before the quote in its own sentence",
			old:    leaflet,
			new:    edit(t, leaflet, "In the VELOCITY-1 study, 58%", "In the randomised, double-blind VELOCITY-1 study, 58%"),
			quote:  "58% of patients treated with Zorvexa",
			status: fairbalance.AnchorAnchored, context: "study, 58% of patients treated with Zorvexa",
			want: "58% of patients treated with Zorvexa",
		},
		{
			name:   "text deleted before the quote and inserted after it",
			old:    leaflet,
			new:    edit(t, edit(t, leaflet, "IMPORTANT SAFETY INFORMATION\n\n", ""), "JAK inhibitors.", "JAK inhibitors or potent immunosuppressants."),
			quote:  "Do not crush or chew the tablets.",
			status: fairbalance.AnchorAnchored, context: "Do not crush or chew the tablets.", want: "Do not crush or chew the tablets.",
		},
		{
			name: "the quote's paragraph reflowed: other line breaks",
			old:  leaflet,
			new: edit(t, leaflet, infections, `Serious infections leading to hospitalization or death, including
tuberculosis and bacterial, invasive fungal, viral, and other opportunistic
infections, have occurred in patients receiving Zorvexa. Avoid use in patients
with an active, serious infection.

`),
			quote:  "including tuberculosis and bacterial,\ninvasive fungal, viral, and other opportunistic infections",
			status: fairbalance.AnchorAnchored, context: "including\ntuberculosis and bacterial, invasive fungal, viral, and other opportunistic\ninfections",
			want: "including\ntuberculosis and bacterial, invasive fungal, viral, and other opportunistic\ninfections",
		},
		{
			name:   "the quote's paragraph moved to another page",
			old:    leaflet,
			new:    velocityMoved,
			quote:  "58% of patients treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
			status: fairbalance.AnchorMoved, context: "JAK inhibitors.\n\nIn the VELOCITY-1 study, 58% of patients treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
			want: "58% of patients treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
		},
		{
			name:   "a phrase moved and repeated nearer its old place: prefix and suffix pick the moved one",
			old:    leaflet,
			new:    velocityMovedRepeated,
			quote:  "Zorvexa 15 mg once daily",
			status: fairbalance.AnchorMoved, context: "treated with Zorvexa 15 mg once daily achieved", want: "Zorvexa 15 mg once daily",
		},
		{
			name:   "a phrase that stays while a copy of it is inserted just before it",
			old:    leaflet,
			new:    edit(t, leaflet, "Take Zorvexa once daily with", "Take Zorvexa once daily. Take Zorvexa once daily with"),
			quote:  "Take Zorvexa once daily with",
			status: fairbalance.AnchorAnchored, context: "daily. Take Zorvexa once daily with", want: "Take Zorvexa once daily with",
		},
		{
			name:   "a phrase that stays while its paragraph is copied onto page 1",
			old:    leaflet,
			new:    edit(t, leaflet, infections, infections+dosing),
			quote:  "once daily with or without food",
			status: fairbalance.AnchorAnchored, context: "headache and\nelevated liver enzymes. Monitor liver enzymes at baseline and periodically thereafter.\n\nTake Zorvexa once daily with or without food",
			want: "once daily with or without food",
		},
		{
			name: "a phrase that stays, reflowed, while a copy of it in another context is inserted just before",
			old:  leaflet,
			new: edit(t, leaflet, dosing, "Zorvexa once daily is the recommended dose for induction.\n"+
				"Take Zorvexa\nonce daily with or without food. Do not crush or chew the tablets. Zorvexa is not\nrecommended for use in combination with other JAK inhibitors.\n\n"),
			quote:  "Zorvexa once daily",
			status: fairbalance.AnchorAnchored, context: "Take Zorvexa\nonce daily with", want: "Zorvexa\nonce daily",
		},
		{
			name: "a phrase that stays in its rewritten sentence, which repeats it: the copy with its old suffix",
			old:  leaflet,
			new: edit(t, leaflet, "Take Zorvexa once daily with or without food.",
				"Swallow one tablet of Zorvexa once daily at bedtime, or one tablet of Zorvexa once daily with a meal."),
			quote:  "Zorvexa once daily",
			status: fairbalance.AnchorAnchored, context: "or one tablet of Zorvexa once daily with a meal", want: "Zorvexa once daily",
		},
		{
			name:   "two words of the sentence reworded",
			old:    leaflet,
			new:    edit(t, leaflet, "treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8", "taking Zorvexa 15 mg once daily reached\nclinical remission at week 8"),
			quote:  "58% of patients treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
			status: fairbalance.AnchorMoved, context: "58% of patients taking Zorvexa 15 mg once daily reached\nclinical remission at week 8",
			want: "58% of patients taking Zorvexa 15 mg once daily reached\nclinical remission at week 8",
		},
		{
			name:   "the quote's first and last words reworded",
			old:    leaflet,
			new:    edit(t, leaflet, "Monitor liver enzymes at baseline and periodically thereafter.", "Check liver enzymes at baseline and periodically afterwards."),
			quote:  "Monitor liver enzymes at baseline and periodically thereafter.",
			status: fairbalance.AnchorMoved, context: "Check liver enzymes at baseline and periodically afterwards.", want: "Check liver enzymes at baseline and periodically afterwards.",
		},
		{
			name: "the quote's paragraph moved to another page and reworded",
			old:  leaflet,
			new: edit(t, velocityMoved, "treated with Zorvexa 15 mg once daily achieved\nclinical remission at week 8",
				"taking Zorvexa 15 mg once daily reached\nclinical remission at week 8"),
			quote:  "58% of patients treated with Zorvexa 15 mg once daily achieved",
			status: fairbalance.AnchorMoved, context: "JAK inhibitors.\n\nIn the VELOCITY-1 study, 58% of patients taking Zorvexa 15 mg once daily reached",
			want: "58% of patients taking Zorvexa 15 mg once daily reached",
		},
		{
			name: "the quote's paragraph deleted, another one added on another page",
			old:  leaflet,
			new: edit(t, edit(t, leaflet, "\n\n"+velocity, ""), "Please see full",
				"In the VELOCITY-2 study, the safety profile over 52 weeks was consistent\nwith that seen in earlier studies; no new safety signals were identified.\n\nPlease see full"),
			quote:  "58% of patients treated with Zorvexa 15 mg once daily achieved",
			status: fairbalance.AnchorOrphaned,
		},
		{
			name:   "the quote's sentence deleted",
			old:    leaflet,
			new:    edit(t, leaflet, " Do not crush or chew the tablets.", ""),
			quote:  "Do not crush or chew the tablets.",
			status: fairbalance.AnchorOrphaned,
		},
		{
			name:   "the quote's sentence replaced by another one",
			old:    leaflet,
			new:    edit(t, leaflet, "Avoid use in patients with an active, serious infection.", "Test for latent tuberculosis before the first dose of Zorvexa."),
			quote:  "Avoid use in patients with an active, serious infection.",
			status: fairbalance.AnchorOrphaned,
		},
		{
			name:   "the quote's sentence deleted while another copy of it stays elsewhere",
			old:    edit(t, leaflet, "Please see full", "Do not crush the tablets. Please see full"),
			new:    edit(t, leaflet, "Do not crush or chew the tablets.", "Do not chew the tablets."),
			quote:  "Do not crush the tablets.",
			status: fairbalance.AnchorOrphaned,
		},
		{
			name:   "a quote across the page break, text inserted before it",
			old:    leaflet,
			new:    edit(t, leaflet, "IMPORTANT SAFETY INFORMATION\n", "IMPORTANT SAFETY INFORMATION\nFor use by healthcare professionals only.\n"),
			quote:  "given placebo (p<0.001).\fThe most common adverse reactions",
			status: fairbalance.AnchorAnchored, context: "given placebo (p<0.001).\fThe most common adverse reactions", want: "given placebo (p<0.001).\fThe most common adverse reactions",
		},
		{
			name:   "a quote across the page break, the break moved",
			old:    leaflet,
			new:    edit(t, edit(t, leaflet, "(p<0.001).\fThe most", "(p<0.001).\nThe most"), "headache and\nelevated", "headache and\felevated"),
			quote:  "given placebo (p<0.001).\fThe most common adverse reactions",
			status: fairbalance.AnchorAnchored, context: "given placebo (p<0.001).\nThe most common adverse reactions", want: "given placebo (p<0.001).\nThe most common adverse reactions",
		},
		{
			name:   "code points: accents and an emoji inserted before the quote",
			old:    fiche,
			new:    edit(t, fiche, "pelliculé 💊", "pelliculé sécable 💊🧪"),
			quote:  "58 % des patients traités",
			status: fairbalance.AnchorAnchored, context: "58 % des patients traités", want: "58 % des patients traités",
		},
		{
			name:   "code points: an emoji in the reworded quote",
			old:    fiche,
			new:    edit(t, fiche, "comprimé pelliculé 💊", "comprimé enrobé 💊"),
			quote:  "15 mg, comprimé pelliculé 💊",
			status: fairbalance.AnchorMoved, context: "15 mg, comprimé enrobé 💊", want: "15 mg, comprimé enrobé 💊",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := locateIn(t, c.old, c.quote)
			oldText, newText := []rune(c.old), []rune(c.new)
			pages := strings.Count(c.new, "\f") + 1
			got, status := anchor.NewCarrier(oldText, newText, pages).Carry(target)
			if status != c.status {
				t.Fatalf("status %s, want %s; got %s", status, c.status, show(got))
			}
			if status == fairbalance.AnchorOrphaned {
				if !equalTargets(got, target) {
					t.Errorf("orphaned as %s, want the old target %s", show(got), show(target))
				}
				return
			}
			start := offset(t, c.new, c.context, c.want)
			checkTarget(t, newText, got, start, start+utf8.RuneCountInString(c.want))
		})
	}
}

func TestCarryTextNotWhereItSays(t *testing.T) {
	newText := edit(t, edit(t, leaflet, indication, ""), "JAK inhibitors.", "JAK inhibitors. Store below 30 °C.")
	carrier := anchor.NewCarrier([]rune(leaflet), []rune(newText), 2)
	// Stale offsets on the old version: located there first, then carried.
	stale := locateIn(t, leaflet, "Monitor liver enzymes")
	*stale.Start, *stale.End = 10, 31
	got, status := carrier.Carry(stale)
	start := offset(t, newText, "Monitor liver enzymes", "Monitor")
	if status != fairbalance.AnchorAnchored {
		t.Errorf("stale offsets: %s %s", status, show(got))
	}
	checkTarget(t, []rune(newText), got, start, start+21)
	// A quote that is not on the old version but is on the new one.
	got, status = carrier.Carry(fairbalance.Target{Type: "text", Exact: "Store  below\n30 °C.", Start: ptr(12)})
	if status != fairbalance.AnchorMoved {
		t.Errorf("not on the old version: %s %s", status, show(got))
	}
	start = offset(t, newText, "Store below 30 °C.", "Store")
	checkTarget(t, []rune(newText), got, start, start+18)
	// On neither, or no quote at all: orphaned, unchanged.
	for _, target := range []fairbalance.Target{
		{Type: "text", Exact: "Zorvexa 30 mg twice daily", Start: ptr(4), End: ptr(29)},
		{Type: "text", Exact: "  "},
		{Type: "text"},
		{Type: "note", Exact: "Zorvexa"},
	} {
		if got, status := carrier.Carry(target); status != fairbalance.AnchorOrphaned || !equalTargets(got, target) {
			t.Errorf("%+v: %s %s, want orphaned and unchanged", target, status, show(got))
		}
	}
}

func TestCarryRegion(t *testing.T) {
	box := func(page int, x, y, w, h float64) fairbalance.Target {
		return fairbalance.Target{Type: "region", Page: &page, X: &x, Y: &y, Width: &w, Height: &h}
	}
	oldText, newText := []rune(leaflet), []rune(edit(t, leaflet, indication, ""))
	for _, c := range []struct {
		name   string
		pages  int
		target fairbalance.Target
		status fairbalance.AnchorStatus
	}{
		{"on page 2 of 2", 2, box(2, 0.1, 0.2, 0.5, 0.3), fairbalance.AnchorAnchored},
		{"on page 1 of 1", 1, box(1, 0, 0, 1, 1), fairbalance.AnchorAnchored},
		{"on an image (no pages)", 0, box(1, 0.4, 0.4, 0.2, 0.2), fairbalance.AnchorAnchored},
		{"on page 3 of a version now 2 pages long", 2, box(3, 0.1, 0.2, 0.5, 0.3), fairbalance.AnchorOrphaned},
		{"on page 2 of an image", 1, box(2, 0.1, 0.2, 0.5, 0.3), fairbalance.AnchorOrphaned},
		{"without a page", 2, fairbalance.Target{Type: "region"}, fairbalance.AnchorOrphaned},
		{"a box outside the page", 2, box(1, 0.8, 0.2, 0.5, 0.3), fairbalance.AnchorOrphaned},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, status := anchor.NewCarrier(oldText, newText, c.pages).Carry(c.target)
			if status != c.status || !equalTargets(got, c.target) {
				t.Errorf("%s %s, want %s and the same target", status, show(got), c.status)
			}
		})
	}
}

// Empty versions (an image has no text) carry without trouble: nothing is
// found on an empty new version, and a quote not on an empty old one is
// searched for on the new.
func TestCarryEmptyTexts(t *testing.T) {
	target := locateIn(t, leaflet, "Monitor liver enzymes")
	if got, status := anchor.NewCarrier([]rune(leaflet), nil, 1).Carry(target); status != fairbalance.AnchorOrphaned || !equalTargets(got, target) {
		t.Errorf("onto an empty version: %s %s", status, show(got))
	}
	got, status := anchor.NewCarrier(nil, []rune(leaflet), 2).Carry(target)
	if status != fairbalance.AnchorMoved {
		t.Errorf("from an empty version: %s %s", status, show(got))
	}
	checkTarget(t, []rune(leaflet), got, *target.Start, *target.End)
	if got, status := anchor.NewCarrier(nil, nil, 1).Carry(target); status != fairbalance.AnchorOrphaned || !equalTargets(got, target) {
		t.Errorf("between empty versions: %s %s", status, show(got))
	}
}
