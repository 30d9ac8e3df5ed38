package anchor

import (
	"slices"
	"sort"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"

	"fairbalance"
)

// MaxRewordDistance is how different, at most, the text at a quote's old
// place may be from the quote for it to count as the quote reworded: the
// Levenshtein distance between the two (whitespace-normalised) as a share
// of the longer one's length. 0.4 lets a two-word edit of a short clause
// through ("reduced LDL-C by 52%" → "lowered LDL-C by 49%" is 0.3) while
// two unrelated sentences of similar length, which differ in more than
// half of their code points, are not taken for each other. Hypothesis and
// diff-match-patch's own default allow 0.5; the text we compare here is
// where the diff says the quote went, so we need less slack, and an
// orphaned annotation is safer than one on the wrong sentence.
const MaxRewordDistance = 0.4

// diffTimeout bounds the diff of two versions (diff-match-patch stops
// refining when it runs out of time). Two 100-page versions with a few
// edits diff in about 20 ms, and with every other paragraph reworded in
// about 100 ms; two unrelated 100-page texts would take tens of seconds.
// A diff cut short is still a correct diff, only a coarser one: more of
// the new text counts as replacing more of the old, so targets there are
// found by search in their replacement (anchored) rather than by
// position.
const diffTimeout = 300 * time.Millisecond

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
	// changes are the diff's changed blocks, in order, in code points of
	// the texts: each old span (empty for a pure insertion) was replaced
	// by its new span (empty for a pure deletion).
	changes []change
}

// change is one block of the diff between two equalities.
type change struct{ old, new span }

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
	c := &Carrier{dmp: dmp, old: oldText, new: newText, newPages: newPages, diffs: diffs, oldIdx: oldIdx, newIdx: newIdx}
	var o, n int // runes of the indexes
	for i := 0; i < len(diffs); {
		if diffs[i].Type == diffmatchpatch.DiffEqual {
			l := utf8.RuneCountInString(diffs[i].Text)
			o, n, i = o+l, n+l, i+1
			continue
		}
		o0, n0 := o, n
		for ; i < len(diffs) && diffs[i].Type != diffmatchpatch.DiffEqual; i++ {
			l := utf8.RuneCountInString(diffs[i].Text)
			if diffs[i].Type == diffmatchpatch.DiffDelete {
				o += l
			} else {
				n += l
			}
		}
		c.changes = append(c.changes, change{
			old: span{oldIdx.orig[o0], oldIdx.orig[o]},
			new: span{newIdx.orig[n0], newIdx.orig[n]},
		})
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
// The quote is compared whitespace-insensitively, as Locate finds it, so
// text reflowed on the new version (other line breaks) stays anchored. A
// text target whose Start and End do not hold its quote in the old text
// is first located there (Locate); one that cannot be is only searched for
// in the new text, nearest to its Start. The place the diff maps a quote
// to is where its text went, or, where its text was replaced, the
// replacement: a quote found overlapping it is anchored. A quote is
// reworded when the text there differs from it by at most
// MaxRewordDistance. When two neighbouring paragraphs swap places the diff
// keeps the longer one in place, so a quote in it stays anchored and one
// in the shorter one moves. Anything else (a region outside the new
// version's pages, a malformed target, an unknown type) is orphaned and
// returned unchanged.
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
			// Not on the old version as far as we can tell: the best we
			// can do is find it on the new one.
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
	// Where the quote is now: at its mapped place (found there
	// whitespace-insensitively, or in what replaced its text), or in text
	// the diff inserted elsewhere. A copy of the quote that the diff kept
	// from elsewhere in the old text is another passage that was there
	// all along, not this one moved.
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

// changeAt returns the changed block that deleted code point at of the old
// text, if one did.
func (c *Carrier) changeAt(at int) (change, bool) {
	i := sort.Search(len(c.changes), func(i int) bool { return c.changes[i].old.end > at })
	if i < len(c.changes) && c.changes[i].old.start <= at {
		return c.changes[i], true
	}
	return change{}, false
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
	if ch, ok := c.changeAt(start); ok {
		s = ch.new.start
	}
	e := c.mapPos(end-1) + 1
	if ch, ok := c.changeAt(end - 1); ok {
		e = ch.new.end
	}
	return span{s, max(s, min(e, len(c.new)))}
}

// reworded returns the text that replaced the old text's [start, end),
// quote, when it is nearly the same (MaxRewordDistance). Where the quote
// begins or ends inside a replaced block, its boundary is put at the same
// proportion of the replacement, then widened to a whole word.
func (c *Carrier) reworded(quote string, start, end int) (span, bool) {
	s := c.mapPos(start)
	if ch, ok := c.changeAt(start); ok {
		s = ch.new.start + scale(start-ch.old.start, ch.old, ch.new)
		for s > ch.new.start && !unicode.IsSpace(c.new[s-1]) {
			s--
		}
	}
	e := c.mapPos(end-1) + 1
	if ch, ok := c.changeAt(end - 1); ok {
		e = ch.new.start + scale(end-ch.old.start, ch.old, ch.new)
		for e < ch.new.end && !unicode.IsSpace(c.new[e]) {
			e++
		}
	}
	e = min(e, len(c.new))
	for s < e && unicode.IsSpace(c.new[s]) {
		s++
	}
	for e > s && unicode.IsSpace(c.new[e-1]) {
		e--
	}
	if s >= e {
		return span{}, false
	}
	q, cand := normalize(quote), normalize(string(c.new[s:e]))
	lq, lc := utf8.RuneCountInString(q), utf8.RuneCountInString(cand)
	limit := int(MaxRewordDistance * float64(max(lq, lc)))
	// The lengths alone bound the distance from below: no need to diff.
	if abs(lq-lc) > limit {
		return span{}, false
	}
	if c.dmp.DiffLevenshtein(c.dmp.DiffMain(q, cand, false)) > limit {
		return span{}, false
	}
	return span{s, e}, true
}

// scale maps n code points into old onto the same share of new.
func scale(n int, old, new span) int {
	if old.end == old.start {
		return 0
	}
	return n * (new.end - new.start) / (old.end - old.start)
}
