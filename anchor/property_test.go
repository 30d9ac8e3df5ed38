package anchor_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"fairbalance"
	"fairbalance/anchor"
)

// Whatever is edited elsewhere in the text — words and sentences inserted,
// spans deleted or replaced (whole words and sentences or cut anywhere),
// right up to the quote's first and last code point — a quote that is not
// touched stays anchored, at its offset moved by the edits before it.
func TestCarryUntouchedQuoteStaysAnchored(t *testing.T) {
	const runs = 300
	for run := range runs {
		r := rand.New(rand.NewPCG(uint64(run), 16))
		doc := generate(uint64(run), 3, 1200)
		text, at := doc.render()

		// The quote: a whole sentence or a run of its words.
		page := doc.pages[r.IntN(len(doc.pages))]
		para := page[r.IntN(len(page))]
		s := para[r.IntN(len(para))]
		words := strings.Split(s.text, " ")
		first := r.IntN(len(words))
		last := min(len(words), first+1+r.IntN(len(words)))
		from := at[s.id] + len([]rune(strings.Join(words[:first], " ")))
		if first > 0 {
			from++
		}
		start, end := from, from+len([]rune(strings.Join(words[first:last], " ")))
		target := fairbalance.TextTarget(text, start, end)
		quote := []rune(target.Exact)
		count := occurrences(text, target.Exact)

		edited := append([]rune(nil), text...)
		var log []string
		for range 1 + r.IntN(8) {
			next, shift, what := randomEdit(r, edited, start, end)
			// An edit that adds or removes a copy of the quote would make
			// "its place" ambiguous: that is another test.
			if occurrences(next, target.Exact) != count {
				continue
			}
			edited, start, end = next, start+shift, end+shift
			log = append(log, what)
		}

		got, status := anchor.NewCarrier(text, edited, len(doc.pages)).Carry(target)
		if status != fairbalance.AnchorAnchored || got.Start == nil || *got.Start != start || *got.End != end ||
			string(edited[start:end]) != string(quote) {
			t.Fatalf("run %d: quote %q\nedits:\n%s\ngot %s %s, want anchored at [%d:%d]",
				run, target.Exact, strings.Join(log, "\n"), status, show(got), start, end)
		}
		checkTarget(t, edited, got, start, end)
	}
}

func occurrences(text []rune, quote string) int {
	return strings.Count(strings.Join(strings.FieldsFunc(string(text), unicode.IsSpace), " "),
		strings.Join(strings.FieldsFunc(quote, unicode.IsSpace), " "))
}

// randomEdit makes one edit of text outside the quote at [start, end):
// an insertion of words or a sentence, a deletion or a replacement of a
// span, anywhere before or after the quote, adjacent to it included. It
// returns the new text, how far the quote moved, and what it did.
func randomEdit(r *rand.Rand, text []rune, start, end int) ([]rune, int, string) {
	// A span [a, b) entirely before or entirely after the quote.
	var a, b int
	if r.IntN(2) == 0 && start > 0 {
		a = r.IntN(start + 1)
		b = a + r.IntN(min(start-a, 300)+1)
	} else {
		a = end + r.IntN(len(text)-end+1)
		b = a + r.IntN(min(len(text)-a, 300)+1)
	}
	if r.IntN(3) == 0 {
		b = a // a pure insertion
	}
	var insert string
	switch r.IntN(4) {
	case 0:
		insert = ""
	case 1:
		insert = " " + drawInsert(r)
	case 2:
		insert = drawInsert(r) + "\n"
	default:
		w := strings.Fields(drawInsert(r))
		i := r.IntN(len(w))
		insert = strings.Join(w[i:min(len(w), i+1+r.IntN(3))], " ")
	}
	next := append(append(append([]rune(nil), text[:a]...), []rune(insert)...), text[b:]...)
	shift := 0
	if b <= start {
		shift = len([]rune(insert)) - (b - a)
	}
	return next, shift, fmt.Sprintf("[%d:%d] %q → %q", a, b, string(text[a:b]), insert)
}

// drawInsert draws a sentence that an editor might add to a leaflet, of
// other kinds than the document's own: inserting a near-copy of the
// sentence next to the quote can make the shortest diff move the quote
// across it rather than insert the copy, which is a repeat, not an edit
// elsewhere (TestCarryText has those).
func drawInsert(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return fmt.Sprintf("Store below %d °C in the original carton to protect from light.", 25+5*r.IntN(2))
	case 1:
		return fmt.Sprintf("Each carton contains %d film-coated tablets in blister packs of %d.", 28+2*r.IntN(2), 7+3*r.IntN(2))
	case 2:
		return fmt.Sprintf("To report suspected adverse reactions, call 1-800-555-%04d or visit the safety portal.", r.IntN(10000))
	case 3:
		return fmt.Sprintf("Revised: %02d/%d. Keep this leaflet; you may need to read it again.", 1+r.IntN(12), 2024+r.IntN(3))
	default:
		return fmt.Sprintf("For medical enquiries, contact Medical Information on weekdays between %d am and %d pm.", 8+r.IntN(2), 5+r.IntN(2))
	}
}
