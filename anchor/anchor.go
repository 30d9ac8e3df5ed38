// Package anchor finds where an annotation's text target lies in a
// version's plain text, and carries targets from one version onto the next.
//
// Texts are a version's plain text as runes (a PDF's pages joined by form
// feeds), so every offset is in Unicode code points, as the targets' Start
// and End are. The package does no I/O. Its answers depend only on its
// inputs, with one exception: the diff of two versions has a deadline
// (see NewCarrier), and a diff cut short by it is coarser.
//
// Locate serves a client making an annotation: the quote it sends comes
// from a browser selection (a composed version, or pdf.js's text layer over
// a PDF), whose line breaks and spaces rarely match the extracted text, so
// the quote is found whitespace-insensitively and returned as it is in the
// text. Carrier serves a new version: it diffs the two texts once and
// re-anchors each target of the old version on the new one.
package anchor

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"fairbalance"
)

// Locate finds a client's text target on the version it is made on: when
// Start/End are given and text[Start:End] equals Exact, that; else Exact
// searched in text, whitespace-insensitively (runs of whitespace incl. \n
// and \f match any run of whitespace — pdf.js text-layer selections differ
// from extracted text in line breaks), repeats decided by Prefix/Suffix
// agreement and then closeness to Start when given. Returns the canonical
// target (fairbalance.TextTarget of the matched range: exact as it is in
// text, prefix/suffix of QuoteContext code points) and false when not found
// or when Exact is empty/only whitespace or longer than
// fairbalance.MaxQuoteLength.
//
// Leading and trailing whitespace of Exact is not part of a searched
// quote: a selection that ends in a line break anchors on the words it
// selected. Prefix and Suffix agree with the text around an occurrence by
// how many of their code points next to the quote (whitespace skipped on
// both sides, at most QuoteContext of them) match. A target whose Type is
// not fairbalance.TargetText is not found.
func Locate(text []rune, t fairbalance.Target) (fairbalance.Target, bool) {
	if !searchable(t) {
		return fairbalance.Target{}, false
	}
	if start, end, ok := exactAt(text, t); ok {
		return fairbalance.TextTarget(text, start, end), true
	}
	hint := -1
	if t.Start != nil {
		hint = *t.Start
	}
	m, ok := best(newIndex(text).find(t.Exact), text, t.Prefix, t.Suffix, hint)
	if !ok {
		return fairbalance.Target{}, false
	}
	return fairbalance.TextTarget(text, m.start, m.end), true
}

// searchable reports whether t is a text target with a quote worth
// searching for.
func searchable(t fairbalance.Target) bool {
	return t.Type == fairbalance.TargetText && strings.TrimFunc(t.Exact, unicode.IsSpace) != "" &&
		t.QuoteLength() <= fairbalance.MaxQuoteLength
}

// exactAt reports t's Start and End when they are in text and hold
// exactly t's quote.
func exactAt(text []rune, t fairbalance.Target) (start, end int, ok bool) {
	if t.Start == nil || t.End == nil {
		return 0, 0, false
	}
	start, end = *t.Start, *t.End
	if start < 0 || start > end || end > len(text) || !runesEqual(text[start:end], t.Exact) {
		return 0, 0, false
	}
	return start, end, true
}

// runesEqual reports whether r spells s, without allocating.
func runesEqual(r []rune, s string) bool {
	for _, c := range s {
		if len(r) == 0 || r[0] != c {
			return false
		}
		r = r[1:]
	}
	return len(r) == 0
}

// span is a range [start, end) of code points of a text.
type span struct{ start, end int }

// index is a text with every run of whitespace replaced by one line
// feed: its words, one a "line", as the diff's line mode wants them (see
// NewCarrier), and a string for the standard library's substring search.
type index struct {
	norm string
	// byteAt is the byte offset in norm of each of its runes, then len(norm).
	byteAt []int
	// orig is the offset in the text of each rune of norm (of the first
	// code point of a whitespace run), then the text's length.
	orig []int
	// normOf is the rune of norm each code point of the text became, then
	// the number of runes of norm.
	normOf []int
}

// text returns the runes s of the index.
func (x *index) text(s span) string { return x.norm[x.byteAt[s.start]:x.byteAt[s.end]] }

// sep stands for a run of whitespace in an index.
const sep = '\n'

// newIndex builds the whitespace-normalised index of text.
func newIndex(text []rune) *index {
	var b strings.Builder
	b.Grow(len(text))
	x := &index{byteAt: make([]int, 0, len(text)+1), orig: make([]int, 0, len(text)+1), normOf: make([]int, 0, len(text)+1)}
	inSpace := false
	for i, r := range text {
		if unicode.IsSpace(r) {
			if inSpace {
				x.normOf = append(x.normOf, len(x.orig)-1)
				continue
			}
			inSpace = true
			r = sep
		} else {
			inSpace = false
		}
		x.normOf = append(x.normOf, len(x.orig))
		x.byteAt = append(x.byteAt, b.Len())
		x.orig = append(x.orig, i)
		b.WriteRune(r)
	}
	x.norm = b.String()
	x.normOf = append(x.normOf, len(x.orig))
	x.byteAt = append(x.byteAt, b.Len())
	x.orig = append(x.orig, len(text))
	return x
}

// normalize trims s and replaces each run of whitespace in it by sep. A
// byte that is not UTF-8 becomes U+FFFD, as a code point that is not
// valid does in an index, so that a match starts on a code point.
func normalize(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToValidUTF8(s, "\uFFFD"), unicode.IsSpace), string(sep))
}

// find returns every occurrence of quote (whitespace-normalised, so
// without whitespace at either end) in the indexed text, overlapping ones
// included, in order.
func (x *index) find(quote string) []span {
	q := normalize(quote)
	if q == "" {
		return nil
	}
	n := utf8.RuneCountInString(q)
	var found []span
	for from := 0; from < len(x.norm); {
		i := strings.Index(x.norm[from:], q)
		if i < 0 {
			break
		}
		at, _ := slices.BinarySearch(x.byteAt, from+i)
		// The quote ends with a code point that is not whitespace, which
		// the index keeps one for one.
		found = append(found, span{x.orig[at], x.orig[at+n-1] + 1})
		from = x.byteAt[at+1]
	}
	return found
}

// best picks among occurrences of a quote in text the one whose
// surroundings agree most with prefix and suffix, then the nearest to hint
// (when hint >= 0), then the first.
func best(found []span, text []rune, prefix, suffix string, hint int) (span, bool) {
	if len(found) == 0 {
		return span{}, false
	}
	if len(found) == 1 {
		return found[0], true
	}
	before := lastRunes(prefix, fairbalance.QuoteContext)
	after := firstRunes(suffix, fairbalance.QuoteContext)
	chosen, chosenScore, chosenDist := span{}, -1, 0
	for _, s := range found {
		score := agreeBefore(text, s.start, before) + agreeAfter(text, s.end, after)
		dist := 0
		if hint >= 0 {
			dist = abs(s.start - hint)
		}
		if score > chosenScore || score == chosenScore && dist < chosenDist {
			chosen, chosenScore, chosenDist = s, score, dist
		}
	}
	return chosen, true
}

// agreeBefore counts the code points of prefix, from its end, that match
// text before offset at, whitespace skipped on both sides.
func agreeBefore(text []rune, at int, prefix []rune) int {
	n, i, j := 0, at-1, len(prefix)-1
	for {
		for i >= 0 && unicode.IsSpace(text[i]) {
			i--
		}
		for j >= 0 && unicode.IsSpace(prefix[j]) {
			j--
		}
		if i < 0 || j < 0 || text[i] != prefix[j] {
			return n
		}
		n, i, j = n+1, i-1, j-1
	}
}

// agreeAfter counts the code points of suffix, from its start, that match
// text from offset at, whitespace skipped on both sides.
func agreeAfter(text []rune, at int, suffix []rune) int {
	n, i, j := 0, at, 0
	for {
		for i < len(text) && unicode.IsSpace(text[i]) {
			i++
		}
		for j < len(suffix) && unicode.IsSpace(suffix[j]) {
			j++
		}
		if i >= len(text) || j >= len(suffix) || text[i] != suffix[j] {
			return n
		}
		n, i, j = n+1, i+1, j+1
	}
}

func lastRunes(s string, n int) []rune {
	r := []rune(s)
	return r[max(0, len(r)-n):]
}

func firstRunes(s string, n int) []rune {
	r := []rune(s)
	return r[:min(n, len(r))]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
