package anchor_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"fairbalance"
	"fairbalance/anchor"
)

// A large case: a 100-page document edited in a few places, as a new
// version of a long PDF is, and 200 targets on the old version.
type largeCase struct {
	old, new []rune
	newAt    map[int]int // where each sentence is on the new version
	pages    int
	targets  []largeTarget
}

// largeTarget is a target on the old version and what carrying it must
// give: the status, and for a found target the sentence (by id) it must
// be found in and where in it.
type largeTarget struct {
	target   fairbalance.Target
	status   fairbalance.AnchorStatus
	sentence int
	from, to int // code points into the sentence, on the new version
}

// newLargeCase builds the old version (seeded, so every run is the same),
// edits a copy — a paragraph inserted on page 3, a paragraph moved from
// page 10 to page 60, another from page 20 to page 70 with a sentence of
// it reworded, a sentence reworded on page 40 and one deleted on page 80,
// a sentence inserted in a paragraph on page 95 — and places 200 targets:
// every sentence of the moved paragraphs, the reworded and the deleted
// sentences, and the rest whole sentences or runs of words drawn across
// the document.
func newLargeCase() *largeCase {
	const pages = 100
	oldDoc := generate(16, pages, 2500)
	r := rand.New(rand.NewPCG(7, 7))
	newDoc := oldDoc.clone()

	insert := paragraph{newDoc.sentence("This leaflet was revised in March 2026 to add the results of the SUMMIT-LT study."),
		newDoc.sentence("Healthcare professionals should read the full Prescribing Information before prescribing Zorvexa.")}
	newDoc.pages[2] = append(newDoc.pages[2][:1], append([]paragraph{insert}, newDoc.pages[2][1:]...)...)

	moved := newDoc.pages[9][2]
	newDoc.pages[9] = append(newDoc.pages[9][:2], newDoc.pages[9][3:]...)
	newDoc.pages[59] = append(newDoc.pages[59][:1], append([]paragraph{moved}, newDoc.pages[59][1:]...)...)

	movedReworded := newDoc.pages[19][1]
	newDoc.pages[19] = append(newDoc.pages[19][:1], newDoc.pages[19][2:]...)
	newDoc.pages[69] = append(newDoc.pages[69][:2], append([]paragraph{movedReworded}, newDoc.pages[69][2:]...)...)
	movedReworded[0].text = reword(movedReworded[0].text)

	reworded := newDoc.pages[39][1][1]
	reworded.text = reword(reworded.text)

	deleted := newDoc.pages[79][0][1]
	newDoc.pages[79][0] = append(newDoc.pages[79][0][:1], newDoc.pages[79][0][2:]...)

	p := newDoc.pages[94][1]
	newDoc.pages[94][1] = append(p[:2], append(paragraph{newDoc.sentence("Dose adjustments are not needed in patients older than 65 years.")}, p[2:]...)...)

	c := &largeCase{pages: pages}
	var oldAt map[int]int
	c.old, oldAt = oldDoc.render()
	c.new, c.newAt = newDoc.render()

	add := func(s *sentence, from, to int, status fairbalance.AnchorStatus) {
		start := oldAt[s.id] + from
		c.targets = append(c.targets, largeTarget{
			target: fairbalance.TextTarget(c.old, start, start+(to-from)), status: status,
			sentence: s.id, from: from, to: to,
		})
	}
	for _, s := range oldDoc.pages[9][2] {
		add(s, 0, len([]rune(s.text)), fairbalance.AnchorMoved)
	}
	for _, s := range oldDoc.pages[19][1][1:] {
		add(s, 0, len([]rune(s.text)), fairbalance.AnchorMoved)
	}
	for _, s := range []*sentence{reworded, movedReworded[0]} {
		old := oldDoc.sentences()[s.id]
		c.targets = append(c.targets, largeTarget{
			target: fairbalance.TextTarget(c.old, oldAt[old.id], oldAt[old.id]+len([]rune(old.text))), status: fairbalance.AnchorMoved,
			sentence: old.id, from: 0, to: len([]rune(s.text)),
		})
	}
	add(deleted, 0, len([]rune(deleted.text)), fairbalance.AnchorOrphaned)
	edited := map[int]bool{reworded.id: true, deleted.id: true}
	for _, s := range slices.Concat(moved, movedReworded) {
		edited[s.id] = true
	}
	for len(c.targets) < 200 {
		page := oldDoc.pages[r.IntN(pages)]
		para := page[r.IntN(len(page))]
		s := para[r.IntN(len(para))]
		if edited[s.id] {
			continue
		}
		if r.IntN(2) == 0 {
			add(s, 0, len([]rune(s.text)), fairbalance.AnchorAnchored)
			continue
		}
		// A run of 3 to 8 words of the sentence.
		words := strings.Split(s.text, " ")
		first := r.IntN(len(words))
		last := min(len(words), first+3+r.IntN(6))
		from := len([]rune(strings.Join(words[:first], " ")))
		if first > 0 {
			from++
		}
		add(s, from, from+len([]rune(strings.Join(words[first:last], " "))), fairbalance.AnchorAnchored)
	}
	return c
}

// reword changes two words of a sentence, as an editor tightening a
// claim would.
func reword(s string) string {
	words := strings.Split(s, " ")
	words[1] = "markedly"
	words[len(words)/2] = "overall"
	return strings.Join(words, " ")
}

// BenchmarkCarry200On100Pages is what adding a version costs: diffing a
// 100-page version against its successor and carrying 200 annotations.
func BenchmarkCarry200On100Pages(b *testing.B) {
	c := newLargeCase()
	for b.Loop() {
		carrier := anchor.NewCarrier(c.old, c.new, c.pages)
		for _, t := range c.targets {
			carrier.Carry(t.target)
		}
	}
}

// The large case carries as it must: every target with its status, found
// in its sentence on the new version at the right offsets.
func TestCarryLargeDocument(t *testing.T) {
	c := newLargeCase()
	if pages := strings.Count(string(c.old), "\f") + 1; pages != c.pages || len(c.old) < 2500*c.pages || len(c.targets) != 200 {
		t.Fatalf("%d pages, %d code points, %d targets", pages, len(c.old), len(c.targets))
	}
	t.Logf("%d code points, %d on the new version", len(c.old), len(c.new))
	carrier := anchor.NewCarrier(c.old, c.new, c.pages)
	counts := map[fairbalance.AnchorStatus]int{}
	for i, lt := range c.targets {
		got, status := carrier.Carry(lt.target)
		counts[status]++
		if status != lt.status {
			t.Errorf("target %d %q: status %s, want %s (got %q)", i, lt.target.Exact, status, lt.status, got.Exact)
			continue
		}
		if status == fairbalance.AnchorOrphaned {
			if !equalTargets(got, lt.target) {
				t.Errorf("target %d: orphaned as %+v, want the old target unchanged", i, got)
			}
			continue
		}
		start := c.newAt[lt.sentence] + lt.from
		checkTarget(t, c.new, got, start, start+(lt.to-lt.from))
	}
	t.Logf("statuses: %v", counts)
}

// A Carrier carries targets from several goroutines at once, each as
// another Carrier of the same versions carries it alone.
func TestCarryConcurrently(t *testing.T) {
	c := newLargeCase()
	carrier := anchor.NewCarrier(c.old, c.new, c.pages)
	type result struct {
		target fairbalance.Target
		status fairbalance.AnchorStatus
	}
	want := make([]result, len(c.targets))
	alone := anchor.NewCarrier(c.old, c.new, c.pages)
	for i, lt := range c.targets {
		want[i].target, want[i].status = alone.Carry(lt.target)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range c.targets {
				i = (i + g*50) % len(c.targets)
				got, status := carrier.Carry(c.targets[i].target)
				if status != want[i].status || !equalTargets(got, want[i].target) {
					t.Errorf("target %d: %s %s, alone %s %s", i, status, show(got), want[i].status, show(want[i].target))
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkCarryHeavilyEdited: every other paragraph of the 100 pages
// has a sentence reworded (and reflows), the 200 targets carried.
func BenchmarkCarryHeavilyEdited(b *testing.B) {
	c := newLargeCase()
	doc := generate(16, c.pages, 2500)
	edited := doc.clone()
	for _, page := range edited.pages {
		for j, p := range page {
			if j%2 == 0 {
				p[0].text = reword(p[0].text)
			}
		}
	}
	oldText, _ := doc.render()
	newText, _ := edited.render()
	for b.Loop() {
		carrier := anchor.NewCarrier(oldText, newText, c.pages)
		for _, t := range c.targets {
			carrier.Carry(t.target)
		}
	}
}

// BenchmarkCarryOntoUnrelatedText: a new version that shares no passage
// with the old one (another document uploaded as its next version); the
// diff's deadline bounds it.
func BenchmarkCarryOntoUnrelatedText(b *testing.B) {
	c := newLargeCase()
	other, _ := generate(17, c.pages, 2500).render()
	for b.Loop() {
		carrier := anchor.NewCarrier(c.old, other, c.pages)
		for _, t := range c.targets {
			carrier.Carry(t.target)
		}
	}
}
