package pdftext

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// edgeLines is how many lines at the top and at the bottom of a page may
// be running text: a header or footer is rarely more than three lines.
const edgeLines = 3

// pageNumber matches a line that is nothing but a page number: "7",
// "- 7 -", "Page 7", "p. 7", "7 of 12", "7/12", "Page 7 of 12".
var pageNumber = regexp.MustCompile(`(?i)^[-–—\s]*(?:(?:page|pg\.?|p\.)\s*)?\d{1,5}(?:\s*(?:of|/)\s*\d{1,5})?[-–—\s]*$`)

// SearchText returns the text of a document's pages (as Document.Pages
// holds them) for the search index: the pages joined by form feeds as
// PlainText does, without their running headers and footers and without
// bare page numbers, so that a passage shown around a match is the page's
// own text. A running line is one found among the first (header) or the
// last (footer) three lines of more than half of the pages that have
// text, at least two, comparing lines without case, spacing or digits (so
// "Page 3 of 12" and "Page 4 of 12" are one line). Such lines are taken off
// the top and bottom of every page while they last; each distinct one is
// kept once, after the last page, so that words printed only in a header
// or footer (a brand, a document title) still find the document. Bare page
// numbers at the edges of a page are dropped. A single page is returned as
// it is, less its edge page numbers when it has more than one line.
func SearchText(pages []string) string {
	lines := make([][]string, len(pages))
	withText := 0
	for i, p := range pages {
		for _, l := range strings.Split(p, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines[i] = append(lines[i], l)
			}
		}
		if len(lines[i]) > 0 {
			withText++
		}
	}
	top, bottom := map[string]int{}, map[string]int{}
	for _, ls := range lines {
		count(top, ls[:min(edgeLines, len(ls))])
		count(bottom, ls[max(0, len(ls)-edgeLines):])
	}
	need := withText/2 + 1
	running := func(counts map[string]int, l string) bool {
		return withText >= 2 && counts[lineKey(l)] >= need
	}
	var kept []string
	seen := map[string]bool{}
	keep := func(l string) {
		if k := lineKey(l); !seen[k] {
			seen[k] = true
			kept = append(kept, l)
		}
	}
	// strip reports whether line l at the top (counts top) or bottom of a
	// page of n lines goes, keeping a running line once.
	strip := func(counts map[string]int, l string, n int) bool {
		switch {
		case n > 1 && pageNumber.MatchString(l):
			return true
		case running(counts, l):
			keep(l)
			return true
		}
		return false
	}
	out := make([]string, len(pages))
	for i, ls := range lines {
		lo, hi := 0, len(ls)
		for lo < hi && lo < edgeLines && strip(top, ls[lo], len(ls)) {
			lo++
		}
		for hi > lo && len(ls)-hi < edgeLines && strip(bottom, ls[hi-1], len(ls)) {
			hi--
		}
		out[i] = strings.Join(ls[lo:hi], "\n")
	}
	text := strings.Join(out, "\f")
	if len(kept) > 0 {
		text += "\f" + strings.Join(kept, "\n")
	}
	return text
}

// SearchText is the document's text for the search index (see the
// package function SearchText).
func (d *Document) SearchText() string { return SearchText(d.Pages) }

// count adds one to counts for each distinct line of ls.
func count(counts map[string]int, ls []string) {
	var done []string
	for _, l := range ls {
		k := lineKey(l)
		if k == "" || slices.Contains(done, k) {
			continue
		}
		done = append(done, k)
		counts[k]++
	}
}

// lineKey is what two lines share when they are the same running line:
// lower case, every run of digits one '#', single spaces.
func lineKey(l string) string {
	var b strings.Builder
	digit, space := false, false
	for _, r := range strings.ToLower(l) {
		switch {
		case unicode.IsDigit(r):
			if !digit {
				if space && b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteByte('#')
			}
			digit, space = true, false
		case unicode.IsSpace(r):
			digit, space = false, true
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			digit, space = false, false
		}
	}
	return b.String()
}
