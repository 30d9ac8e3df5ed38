package anchor

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"

	"fairbalance"
)

// MaxRewordDistance is how different, at most, the text that replaced a
// quote may be from the quote for it to count as the quote reworded: the
// Levenshtein distance between the two (whitespace-normalised, in code
// points) as a share of the longer one's length. Measured on the test
// documents' sentences: two words changed give 0.13 (median) to 0.25
// (worst of 2 000); "treated with … achieved" → "taking … reached" in a
// 90-character sentence is 0.15; two unrelated leaflet sentences give
// 0.76 to 0.90. Hypothesis and diff-match-patch's own default allow 0.5,
// but they search near a guessed place, where we compare only the text
// the diff says replaced the quote's; and an orphaned annotation, listed
// with its old quote, is safer than one on the wrong sentence.
const MaxRewordDistance = 0.4

// diffTimeout bounds the diff of two versions (diff-match-patch stops
// refining when it runs out of time). On a shared 2-vCPU machine, two
// 100-page versions with a few edits diff (NewCarrier) in 30 to 45 ms,
// and with every other paragraph reworded in about 60 ms; two unrelated
// 100-page texts did not finish in 5 s. A diff cut short is still a
// correct diff, only a coarser one: more of the new text counts as
// replacing more of the old, so targets there are found by search in
// their replacement (anchored) rather than by position.
const diffTimeout = 300 * time.Millisecond

// Moved blocks: a block of old text that the diff deleted is looked for
// (for a quote in it that is found nowhere else) among the blocks
// inserted elsewhere of at most maxMovedBlock code points, of a length
// within MaxRewordDistance of its own and sharing at least
// minMovedOverlap of their distinct words with it (Jaccard), the block
// sharing the most taken.
const (
	maxMovedBlock   = 20000
	minMovedOverlap = 0.5
)

// A Carrier re-anchors the targets of one version onto the next: it diffs
// the two texts once, then carries each target (Carry) by where the diff
// says its text went. A Carrier may carry targets from several goroutines
// at once.
type Carrier struct {
	dmp      *diffmatchpatch.DiffMatchPatch
	old, new []rune
	newPages int
	// diffs is the diff of the two texts' indexes: of their words, not of
	// the whitespace between them.
	diffs          []diffmatchpatch.Diff
	oldIdx, newIdx *index
	// changes are the diff's changed blocks, in order: each old span
	// (empty for a pure insertion) was replaced by its new span (empty for
	// a pure deletion).
	changes []change

	mu sync.Mutex
	// moves holds, by index in changes, what moveOf found.
	moves map[int]*move
	// inserted holds, by index in changes, the distinct words of the
	// blocks findMove looked at.
	inserted map[int]map[string]bool
}

// change is one block of the diff between two equalities, in code points
// of the texts and in runes of their indexes.
type change struct{ old, new, oldN, newN span }

// move is a block of the old text that the diff deleted and the inserted
// block it became elsewhere (to, an index in changes), with the diff of
// the two.
type move struct {
	to    int
	diffs []diffmatchpatch.Diff
}

// NewCarrier prepares carrying the targets of the version whose plain
// text is oldText onto the version whose plain text is newText and that
// has newPages pages (1 for a version that is not paged).
//
// The two texts are diffed word by word, whitespace left out: a new PDF
// reflows every paragraph it changes (and often the rest of the page), so
// its line breaks say nothing about what changed, and a diff by code
// points of 250 000 of them that differ at every line break is slow. The
// words are the "lines" of diff-match-patch's line mode, so the diff runs
// over one symbol a word.
func NewCarrier(oldText, newText []rune, newPages int) *Carrier {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	oldIdx, newIdx := newIndex(oldText), newIndex(newText)
	a, b, words := dmp.DiffLinesToRunes(oldIdx.norm, newIdx.norm)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), words)
	// Semantic cleanup turns the words that happen to be equal inside a
	// rewritten passage ("the", "and") into one replacement, so that a
	// quote's old place maps onto what replaced it.
	diffs = dmp.DiffCleanupSemantic(diffs)
	// The cleanup leaves empty diffs behind, which would split one
	// replacement into two.
	diffs = dmp.DiffCleanupMerge(slices.DeleteFunc(diffs, func(d diffmatchpatch.Diff) bool { return d.Text == "" }))
	c := &Carrier{dmp: dmp, old: oldText, new: newText, newPages: newPages, diffs: diffs,
		oldIdx: oldIdx, newIdx: newIdx, moves: map[int]*move{}, inserted: map[int]map[string]bool{}}
	var o, n int // runes of the indexes
	for i := 0; i < len(diffs); {
		if diffs[i].Type == diffmatchpatch.DiffEqual {
			l := utf8.RuneCountInString(diffs[i].Text)
			o, n, i = o+l, n+l, i+1
			continue
		}
		ch := change{oldN: span{o, o}, newN: span{n, n}}
		for ; i < len(diffs) && diffs[i].Type != diffmatchpatch.DiffEqual; i++ {
			l := utf8.RuneCountInString(diffs[i].Text)
			if diffs[i].Type == diffmatchpatch.DiffDelete {
				o += l
			} else {
				n += l
			}
		}
		ch.oldN.end, ch.newN.end = o, n
		ch.old = span{oldIdx.orig[ch.oldN.start], oldIdx.orig[o]}
		ch.new = span{newIdx.orig[ch.newN.start], newIdx.orig[n]}
		c.changes = append(c.changes, ch)
	}
	return c
}

// Carry returns t as found on the new version and its status:
//
//   - text: the exact quote at the place the diff maps its old place to
//     → anchored (new offsets); found elsewhere (prefix/suffix decide
//     between repeats; nearest to the mapped place next) → moved; nearly
//     the same text at the mapped place (reworded) → moved with the NEW
//     quote; not found → orphaned, the OLD target returned unchanged.
//   - region: same page and box → anchored if the page exists
//     (page <= newPages), else orphaned.
//
// In more detail, for a text target:
//
//  1. Its old place is [Start, End) when that holds Exact in the old
//     text; else Exact is located there as Locate does; a quote not on
//     the old version is only searched for on the new one (→ moved,
//     nearest to Start) or orphaned.
//  2. Its mapped place is where the diff put the old place's first and
//     last code points, widened to the whole replacement where the diff
//     replaced them. The quote exactly there → anchored.
//  3. Else the quote is searched for whitespace-insensitively (so text
//     reflowed on the new version, other line breaks, stays anchored).
//     Occurrences overlapping the mapped place, and occurrences in text
//     the diff inserted, are candidates; a copy that the diff kept from
//     elsewhere in the old text is not (it is another passage that was
//     there all along). The candidate whose surroundings agree most with
//     Prefix and Suffix wins, the nearest to the mapped place next: →
//     anchored if it overlaps the mapped place, else moved.
//  4. Else, if the text that replaced the quote's at the mapped place
//     differs from it by at most MaxRewordDistance → moved, with that
//     text as the quote (where the quote began or ended inside a
//     replacement, at the same proportion of it, widened to whole words).
//  5. Else, if the block of text the quote was in was deleted and a
//     block nearly the same was inserted elsewhere (a paragraph moved and
//     edited), the quote is mapped into it by a diff of the two blocks
//     and taken, as in 4 → moved with the new quote.
//  6. Else → orphaned.
//
// When two neighbouring paragraphs swap places the diff keeps the longer
// one in place, so a quote in it stays anchored and one in the shorter
// one moves. Anything that is not a text or a region target, and a
// malformed one, is orphaned and returned unchanged.
func (c *Carrier) Carry(t fairbalance.Target) (fairbalance.Target, fairbalance.AnchorStatus) {
	switch t.Type {
	case fairbalance.TargetText:
		if found, status, ok := c.carryText(t); ok {
			return found, status
		}
	case fairbalance.TargetRegion:
		if t.ValidRegion(c.newPages) {
			return t, fairbalance.AnchorAnchored
		}
	}
	return t, fairbalance.AnchorOrphaned
}

func (c *Carrier) carryText(t fairbalance.Target) (fairbalance.Target, fairbalance.AnchorStatus, bool) {
	if !searchable(t) {
		return t, "", false
	}
	oldStart, oldEnd, known := exactAt(c.old, t)
	if !known {
		hint := -1
		if t.Start != nil {
			hint = *t.Start
		}
		m, ok := best(c.oldIdx.find(t.Exact), c.old, t.Prefix, t.Suffix, hint)
		if !ok {
			m, ok := best(c.newIdx.find(t.Exact), c.new, t.Prefix, t.Suffix, hint)
			if !ok {
				return t, "", false
			}
			return fairbalance.TextTarget(c.new, m.start, m.end), fairbalance.AnchorMoved, true
		}
		t = fairbalance.TextTarget(c.old, m.start, m.end)
		oldStart, oldEnd = m.start, m.end
	}

	at := c.mapped(oldStart, oldEnd)
	if end := c.mapPos(oldEnd-1) + 1; at.start <= end && end <= len(c.new) && runesEqual(c.new[at.start:end], t.Exact) {
		return fairbalance.TextTarget(c.new, at.start, end), fairbalance.AnchorAnchored, true
	}
	var here, candidates []span
	for _, s := range c.newIdx.find(t.Exact) {
		switch {
		case s.end > at.start && s.start < max(at.end, at.start+1):
			here = append(here, s)
			candidates = append(candidates, s)
		case c.touchesChange(s):
			candidates = append(candidates, s)
		}
	}
	if m, ok := best(candidates, c.new, t.Prefix, t.Suffix, at.start); ok {
		status := fairbalance.AnchorMoved
		if slices.Contains(here, m) {
			status = fairbalance.AnchorAnchored
		}
		return fairbalance.TextTarget(c.new, m.start, m.end), status, true
	}
	if m, ok := c.reworded(t.Exact, oldStart, oldEnd); ok {
		return fairbalance.TextTarget(c.new, m.start, m.end), fairbalance.AnchorMoved, true
	}
	if m, ok := c.movedAndReworded(t.Exact, oldStart, oldEnd); ok {
		return fairbalance.TextTarget(c.new, m.start, m.end), fairbalance.AnchorMoved, true
	}
	return t, "", false
}

// mapPos returns where the diff puts offset at of the old text in the new
// one: kept text at its new offset, insertions right before it counted;
// deleted text where the deletion was.
func (c *Carrier) mapPos(at int) int {
	b := c.dmp.DiffXIndex(c.diffs, c.oldIdx.byteAt[c.oldIdx.normOf[at]])
	n, _ := slices.BinarySearch(c.newIdx.byteAt, b)
	return c.newIdx.orig[n]
}

// changeAt returns the index in changes of the block that deleted code
// point at of the old text, if one did.
func (c *Carrier) changeAt(at int) (int, bool) {
	i := sort.Search(len(c.changes), func(i int) bool { return c.changes[i].old.end > at })
	return i, i < len(c.changes) && c.changes[i].old.start <= at
}

// touchesChange reports whether s of the new text holds some of what the
// diff inserted.
func (c *Carrier) touchesChange(s span) bool {
	i := sort.Search(len(c.changes), func(i int) bool { return c.changes[i].new.end > s.start })
	for ; i < len(c.changes) && c.changes[i].new.start < s.end; i++ {
		if c.changes[i].new.end > c.changes[i].new.start {
			return true
		}
	}
	return false
}

// mapped returns the place in the new text of the old text's [start, end):
// from where its first code point went to where its last went, each
// widened to the whole replacement when the diff replaced it.
func (c *Carrier) mapped(start, end int) span {
	s := c.mapPos(start)
	if i, ok := c.changeAt(start); ok {
		s = c.changes[i].new.start
	}
	e := c.mapPos(end-1) + 1
	if i, ok := c.changeAt(end - 1); ok {
		e = c.changes[i].new.end
	}
	return span{s, max(s, min(e, len(c.new)))}
}

// reworded returns the text that replaced the old text's [start, end),
// quote, when it is nearly the same. Where the quote begins or ends inside
// a replaced block, its boundary is put at the same proportion of the
// replacement, then widened to a whole word.
func (c *Carrier) reworded(quote string, start, end int) (span, bool) {
	s := c.mapPos(start)
	if i, ok := c.changeAt(start); ok {
		ch := c.changes[i]
		s = ch.new.start + scale(start-ch.old.start, ch.old, ch.new)
	}
	e := c.mapPos(end-1) + 1
	if i, ok := c.changeAt(end - 1); ok {
		ch := c.changes[i]
		e = ch.new.start + scale(end-ch.old.start, ch.old, ch.new)
	}
	return c.nearly(quote, c.words(s, e, span{0, len(c.new)}))
}

// scale maps n code points into old onto the same share of new.
func scale(n int, old, new span) int {
	if old.end == old.start {
		return 0
	}
	return n * (new.end - new.start) / (old.end - old.start)
}

// words widens [s, e) of the new text to whole words within limit and
// trims the whitespace at its ends.
func (c *Carrier) words(s, e int, limit span) span {
	s, e = max(s, limit.start), min(e, limit.end)
	for s > limit.start && s < len(c.new) && !unicode.IsSpace(c.new[s]) && !unicode.IsSpace(c.new[s-1]) {
		s--
	}
	for e > s && e < limit.end && !unicode.IsSpace(c.new[e-1]) && !unicode.IsSpace(c.new[e]) {
		e++
	}
	for s < e && unicode.IsSpace(c.new[s]) {
		s++
	}
	for e > s && unicode.IsSpace(c.new[e-1]) {
		e--
	}
	return span{s, e}
}

// nearly returns at when the new text there is quote reworded: at most
// MaxRewordDistance from it.
func (c *Carrier) nearly(quote string, at span) (span, bool) {
	if at.start >= at.end {
		return span{}, false
	}
	q, cand := normalize(quote), normalize(string(c.new[at.start:at.end]))
	lq, lc := utf8.RuneCountInString(q), utf8.RuneCountInString(cand)
	limit := int(MaxRewordDistance * float64(max(lq, lc)))
	// The lengths alone bound the distance from below: no need to diff.
	if abs(lq-lc) > limit || c.dmp.DiffLevenshtein(c.dmp.DiffMain(q, cand, false)) > limit {
		return span{}, false
	}
	return at, true
}

// movedAndReworded finds the old text's [start, end), quote, when the
// block it was in was deleted and inserted elsewhere, edited: mapped into
// that block by the diff of the two, and nearly the same.
func (c *Carrier) movedAndReworded(quote string, start, end int) (span, bool) {
	i, ok := c.changeAt(start)
	if j, ok2 := c.changeAt(end - 1); !ok || !ok2 || i != j {
		return span{}, false
	}
	m := c.moveOf(i)
	if m == nil {
		return span{}, false
	}
	from, to := c.changes[i], c.changes[m.to]
	inBlock := func(at int) int {
		b := c.oldIdx.byteAt[c.oldIdx.normOf[at]] - c.oldIdx.byteAt[from.oldN.start]
		n, _ := slices.BinarySearch(c.newIdx.byteAt, c.dmp.DiffXIndex(m.diffs, b)+c.newIdx.byteAt[to.newN.start])
		return c.newIdx.orig[n]
	}
	return c.nearly(quote, c.words(inBlock(start), inBlock(end-1)+1, to.new))
}

// moveOf returns the block that changes[i], deleted, became elsewhere,
// or nil.
func (c *Carrier) moveOf(i int) *move {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.moves[i]; ok {
		return m
	}
	m := c.findMove(i)
	c.moves[i] = m
	return m
}

// findMove is moveOf's search; c.mu is held.
func (c *Carrier) findMove(i int) *move {
	from := c.changes[i]
	size := from.oldN.end - from.oldN.start
	if size == 0 || size > maxMovedBlock {
		return nil
	}
	text := c.oldIdx.text(from.oldN)
	words := wordSet(text)
	to, most := -1, minMovedOverlap
	for j, ch := range c.changes {
		n := ch.newN.end - ch.newN.start
		if j == i || n == 0 || n > maxMovedBlock || float64(min(n, size)) < (1-MaxRewordDistance)*float64(max(n, size)) {
			continue
		}
		if c.inserted[j] == nil {
			c.inserted[j] = wordSet(c.newIdx.text(ch.newN))
		}
		if o := overlap(words, c.inserted[j]); o >= most {
			to, most = j, o
		}
	}
	if to < 0 {
		return nil
	}
	return &move{to: to, diffs: c.dmp.DiffMain(text, c.newIdx.text(c.changes[to].newN), false)}
}

// wordSet returns the distinct words of an index's text.
func wordSet(s string) map[string]bool {
	words := map[string]bool{}
	for w := range strings.SplitSeq(s, string(sep)) {
		if w != "" {
			words[w] = true
		}
	}
	return words
}

// overlap is the Jaccard index of two sets of words.
func overlap(a, b map[string]bool) float64 {
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	if all := len(a) + len(b) - common; all > 0 {
		return float64(common) / float64(all)
	}
	return 0
}
