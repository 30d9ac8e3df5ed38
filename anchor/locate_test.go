package anchor_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/anchor"
)

func ptr(n int) *int { return &n }

func TestLocate(t *testing.T) {
	nbsp := edit(t, leaflet, "Zorvexa 15 mg once daily", "Zorvexa\u00a015\u00a0mg once daily")
	for _, c := range []struct {
		name    string
		text    string
		target  fairbalance.Target
		context string // unique in text, holds want
		want    string // the quote as it must be found in text
	}{
		{
			name:    "start and end given and holding the quote",
			text:    leaflet,
			target:  fairbalance.Target{Type: "text", Exact: "Zorvexa", Start: ptr(offset(t, leaflet, "receiving Zorvexa.", "Zorvexa")), End: ptr(offset(t, leaflet, "receiving Zorvexa.", "."))},
			context: "receiving Zorvexa.", want: "Zorvexa",
		},
		{
			name:    "start and end given, quote with the whitespace around it kept",
			text:    leaflet,
			target:  fairbalance.Target{Type: "text", Exact: " TNF blockers.\n", Start: ptr(offset(t, leaflet, "more TNF blockers.", " TNF")), End: ptr(offset(t, leaflet, "TNF blockers.\n\nSerious", "\nSerious"))},
			context: "more TNF blockers.\n\nSerious", want: " TNF blockers.\n",
		},
		{
			name:    "no offsets, a unique quote",
			text:    leaflet,
			target:  fairbalance.Target{Type: "text", Exact: "inadequate response to one or more TNF blockers"},
			context: "inadequate response to one or more TNF blockers", want: "inadequate response to one or more TNF blockers",
		},
		{
			name: "a pdf.js selection: spaces where the text breaks lines",
			text: leaflet,
			target: fairbalance.Target{Type: "text",
				Exact: "have occurred in patients receiving Zorvexa. Avoid use"},
			context: "have occurred in patients\nreceiving Zorvexa. Avoid use", want: "have occurred in patients\nreceiving Zorvexa. Avoid use",
		},
		{
			name: "a selection with line breaks where the text has spaces, and a trailing line break",
			text: leaflet,
			target: fairbalance.Target{Type: "text",
				Exact: "\nTake Zorvexa\nonce daily  with or\r\nwithout food.\n"},
			context: "Take Zorvexa once daily with or without food.", want: "Take Zorvexa once daily with or without food.",
		},
		{
			name: "a selection across the page break",
			text: leaflet,
			target: fairbalance.Target{Type: "text",
				Exact: "given placebo (p<0.001).\nThe most common adverse reactions"},
			context: "given placebo (p<0.001).\fThe most common adverse reactions", want: "given placebo (p<0.001).\fThe most common adverse reactions",
		},
		{
			name:    "no-break spaces in the text match spaces",
			text:    nbsp,
			target:  fairbalance.Target{Type: "text", Exact: "Zorvexa 15 mg once daily"},
			context: "Zorvexa\u00a015\u00a0mg once daily", want: "Zorvexa\u00a015\u00a0mg once daily",
		},
		{
			name:    "stale offsets: searched, the old start only a hint",
			text:    leaflet,
			target:  fairbalance.Target{Type: "text", Exact: "Monitor liver enzymes", Start: ptr(3), End: ptr(24)},
			context: "Monitor liver enzymes", want: "Monitor liver enzymes",
		},
		{
			name: "a repeat decided by the prefix",
			text: leaflet,
			target: fairbalance.Target{Type: "text", Exact: "Zorvexa",
				Prefix: "ses. Avoid use in patients\nreceiving "},
			context: "receiving Zorvexa.", want: "Zorvexa",
		},
		{
			name: "a repeat decided by the suffix, though the start points at another",
			text: leaflet,
			target: fairbalance.Target{Type: "text", Exact: "Zorvexa", Suffix: " is not recommended for use",
				Start: ptr(offset(t, leaflet, "Take Zorvexa", "Zorvexa"))},
			context: "Zorvexa is not recommended", want: "Zorvexa",
		},
		{
			name:    "a repeat decided by prefix and suffix together",
			text:    leaflet,
			target:  fairbalance.Target{Type: "text", Exact: "once daily", Prefix: "Take Zorvexa ", Suffix: " with or without"},
			context: "Take Zorvexa once daily with", want: "once daily",
		},
		{
			name: "a repeat without context: the nearest to the start",
			text: leaflet,
			target: fairbalance.Target{Type: "text", Exact: "Zorvexa",
				Start: ptr(offset(t, leaflet, "Take Zorvexa", "Take") - 5)},
			context: "Take Zorvexa", want: "Zorvexa",
		},
		{
			name:    "a repeat without context or start: the first",
			text:    leaflet,
			target:  fairbalance.Target{Type: "text", Exact: "Zorvexa"},
			context: "ZORVEXA (velmocitinib) tablets, for oral use\nIMPORTANT SAFETY INFORMATION\n\nZorvexa", want: "Zorvexa",
		},
		{
			name:    "code points, not bytes: after an accent and an emoji",
			text:    fiche,
			target:  fairbalance.Target{Type: "text", Exact: "58 % des patients traités"},
			context: "58 % des patients traités", want: "58 % des patients traités",
		},
		{
			name:    "an emoji in the quote",
			text:    fiche,
			target:  fairbalance.Target{Type: "text", Exact: "comprimé pelliculé 💊 Réservé"},
			context: "comprimé pelliculé 💊\nRéservé", want: "comprimé pelliculé 💊\nRéservé",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := []rune(c.text)
			got, ok := anchor.Locate(text, c.target)
			if !ok {
				t.Fatalf("not found")
			}
			start := offset(t, c.text, c.context, c.want)
			checkTarget(t, text, got, start, start+utf8.RuneCountInString(c.want))
		})
	}
}

// The canonical target has the quote's context, QuoteContext code points
// on each side, fewer at the text's ends.
func TestLocateCanonicalContext(t *testing.T) {
	text := []rune(fiche)
	got, ok := anchor.Locate(text, fairbalance.Target{Type: "text", Exact: "Efficacité démontrée"})
	if !ok {
		t.Fatal("not found")
	}
	if n := utf8.RuneCountInString(got.Prefix); n != fairbalance.QuoteContext || !strings.HasSuffix(got.Prefix, "l'usage hospitalier.\n\n") {
		t.Errorf("prefix %q (%d code points)", got.Prefix, n)
	}
	if n := utf8.RuneCountInString(got.Suffix); n != fairbalance.QuoteContext || got.Suffix != " : 58 % des patients traités ont" {
		t.Errorf("suffix %q (%d code points)", got.Suffix, n)
	}
	got, ok = anchor.Locate(text, fairbalance.Target{Type: "text", Exact: "Zorvexa®"})
	if !ok || got.Prefix != "" || *got.Start != 0 || *got.End != 8 {
		t.Errorf("at the start: %s", show(got))
	}
}

func TestLocateRefuses(t *testing.T) {
	text := []rune(leaflet)
	long := strings.Repeat("a", fairbalance.MaxQuoteLength+1)
	for _, c := range []struct {
		name   string
		text   []rune
		target fairbalance.Target
	}{
		{"an empty quote", text, fairbalance.Target{Type: "text", Exact: ""}},
		{"an empty quote at offsets", text, fairbalance.Target{Type: "text", Exact: "", Start: ptr(3), End: ptr(3)}},
		{"a quote of whitespace", text, fairbalance.Target{Type: "text", Exact: " \n\f\t"}},
		{"a quote of whitespace at its offsets", text, fairbalance.Target{Type: "text", Exact: "\n\n", Start: ptr(offset(t, leaflet, "INFORMATION\n\n", "\n")), End: ptr(offset(t, leaflet, "INFORMATION\n\nZorvexa", "Zorvexa"))}},
		{"a quote longer than MaxQuoteLength", []rune(strings.Repeat("a", 2*fairbalance.MaxQuoteLength)), fairbalance.Target{Type: "text", Exact: long, Start: ptr(0), End: ptr(len(long))}},
		{"a quote that is not in the text", text, fairbalance.Target{Type: "text", Exact: "Zorvexa 30 mg twice daily"}},
		{"a quote that differs by more than whitespace", text, fairbalance.Target{Type: "text", Exact: "Takes Zorvexa once daily"}},
		{"a quote split inside a word", text, fairbalance.Target{Type: "text", Exact: "Zor vexa"}},
		{"offsets outside the text and a quote not in it", text, fairbalance.Target{Type: "text", Exact: "nothing like it", Start: ptr(-4), End: ptr(1 << 30)}},
		{"an empty text", nil, fairbalance.Target{Type: "text", Exact: "Zorvexa"}},
		{"a region", text, fairbalance.Target{Type: "region", Exact: "Zorvexa", Page: ptr(1)}},
		{"no type", text, fairbalance.Target{Exact: "Zorvexa"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, ok := anchor.Locate(c.text, c.target); ok {
				t.Errorf("found %s", show(got))
			}
		})
	}
	// A quote of exactly MaxQuoteLength code points is still taken.
	quote := strings.Repeat("é", fairbalance.MaxQuoteLength)
	if _, ok := anchor.Locate([]rune("x"+quote+"x"), fairbalance.Target{Type: "text", Exact: quote}); !ok {
		t.Error("a quote of MaxQuoteLength code points was refused")
	}
}

// Bytes that are not UTF-8 in a quote, and code points that are not valid
// in a text, stand for U+FFFD on both sides, as they do once the quote has
// been through JSON.
func TestLocateInvalidUTF8(t *testing.T) {
	text := []rune("Zorvexa 15 mg \u00e9 tablets")
	// The last byte of "é", alone.
	got, ok := anchor.Locate(text, fairbalance.Target{Type: "text", Exact: "\xa9 tablets"})
	if ok {
		t.Errorf("a quote with bytes that are not UTF-8 found as %s", show(got))
	}
	text = append([]rune("Zorvexa "), 0xD800, ' ', 'x')
	if got, ok = anchor.Locate(text, fairbalance.Target{Type: "text", Exact: "\uFFFD x"}); !ok || *got.Start != 8 || *got.End != 11 {
		t.Errorf("an invalid code point: %s %v", show(got), ok)
	}
}
