package anchor_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A generated document stands for a long PDF's extracted text: pages of
// paragraphs of prescribing-information sentences, each sentence built
// from a template with its own drawn numbers and words (so no two pages
// are the same string), paragraphs wrapped into lines as pdftext gives
// them, pages joined by form feeds. Edits are made on the structure and
// the text rendered again, so an edited paragraph reflows, as it would in
// a new PDF.
type document struct {
	pages  [][]paragraph
	nextID int
}

type paragraph []*sentence

// A sentence keeps its id through edits (moved, reworded), so a test
// knows where it must be found on the edited version.
type sentence struct {
	id   int
	text string
}

// lineWidth is where rendered paragraphs wrap, in code points.
const lineWidth = 88

var (
	trials     = []string{"VELOCITY-1", "VELOCITY-2", "HORIZON", "SUMMIT-LT", "ASCEND", "BRIDGE-OLE", "PINNACLE"}
	conditions = []string{"moderate to severe plaque psoriasis", "active psoriatic arthritis", "primary hypercholesterolaemia",
		"heterozygous familial hypercholesterolaemia", "moderately to severely active ulcerative colitis", "atopic dermatitis"}
	endpoints = []string{"LDL-C", "the PASI score", "the DAS28-CRP", "the Mayo score", "body weight", "HbA1c", "the EASI score",
		"non-HDL-C", "apolipoprotein B", "the itch numerical rating scale"}
	adverse = []string{"nasopharyngitis", "headache", "injection-site reactions", "upper respiratory tract infection", "nausea",
		"diarrhoea", "arthralgia", "fatigue", "back pain", "elevated transaminases", "urinary tract infection", "dizziness"}
	labs   = []string{"ALT", "AST", "serum creatinine", "absolute neutrophil count", "platelet count", "CPK", "bilirubin"}
	advice = []string{"report signs of infection promptly", "avoid live vaccines during treatment", "use effective contraception",
		"store pens in the refrigerator", "rotate injection sites", "not double a missed dose", "read the Medication Guide"}
	countries = []string{"12", "18", "23", "31", "9"}
)

// drawSentence draws one sentence of prescribing information.
func drawSentence(r *rand.Rand) string {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	pct := func(lo, hi int) string { return fmt.Sprintf("%d.%d", lo+r.IntN(hi-lo), r.IntN(10)) }
	switch r.IntN(12) {
	case 0:
		return fmt.Sprintf("In the %s study, %d patients with %s received Zorvexa %d mg once daily for %d weeks.",
			pick(trials), 120+r.IntN(900), pick(conditions), 5*(1+r.IntN(8)), 12+4*r.IntN(10))
	case 1:
		return fmt.Sprintf("Zorvexa reduced %s by %s%% compared with placebo at week %d (p<0.%03d).",
			pick(endpoints), pct(18, 64), 8+4*r.IntN(12), 1+r.IntN(50))
	case 2:
		return fmt.Sprintf("The most common adverse reactions (at least %d%%) were %s, %s and %s.",
			1+r.IntN(5), pick(adverse), pick(adverse), pick(adverse))
	case 3:
		return fmt.Sprintf("Interrupt treatment if %s rises above %d times the upper limit of normal and resume once it returns to baseline.",
			pick(labs), 3+r.IntN(3))
	case 4:
		return fmt.Sprintf("Serious infections occurred in %s%% of patients treated with Zorvexa and %s%% of patients given placebo.",
			pct(1, 4), pct(0, 3))
	case 5:
		return fmt.Sprintf("Monitor %s at baseline, at week %d and every %d weeks thereafter.", pick(labs), 2+2*r.IntN(4), 8+4*r.IntN(4))
	case 6:
		return fmt.Sprintf("Advise patients to %s and to %s.", pick(advice), pick(advice))
	case 7:
		return fmt.Sprintf("Mean change from baseline in %s was %s%% with Zorvexa versus %s%% with placebo at week %d.",
			pick(endpoints), "-"+pct(20, 60), "-"+pct(1, 9), 12+12*r.IntN(4))
	case 8:
		return fmt.Sprintf("Across %d sites in %s countries, %s%% of participants completed %d weeks of treatment.",
			40+r.IntN(200), pick(countries), pct(78, 96), 24+12*r.IntN(6))
	case 9:
		return fmt.Sprintf("Exposure increased %s-fold when Zorvexa was given with strong CYP3A4 inhibitors; reduce the dose to %d mg.",
			pct(1, 4), 5*(1+r.IntN(3)))
	case 10:
		return fmt.Sprintf("In an open-label extension of %d patients, the response was maintained through week %d in %s%% of responders.",
			200+r.IntN(700), 52+r.IntN(4)*52, pct(70, 92))
	default:
		return fmt.Sprintf("Zorvexa is not recommended in patients with severe hepatic impairment or an eGFR below %d mL/min/1.73 m².",
			15+5*r.IntN(4))
	}
}

// generate draws a document of pages pages of at least perPage code
// points each.
func generate(seed uint64, pages, perPage int) *document {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	d := &document{}
	for range pages {
		var page []paragraph
		size := 0
		for size < perPage {
			p := make(paragraph, 3+r.IntN(4))
			for i := range p {
				p[i] = d.sentence(drawSentence(r))
				size += len(p[i].text) + 1
			}
			page = append(page, p)
		}
		d.pages = append(d.pages, page)
	}
	return d
}

// sentence makes a sentence of d with a new id.
func (d *document) sentence(text string) *sentence {
	d.nextID++
	return &sentence{id: d.nextID, text: text}
}

// clone copies d deeply, so that edits of the copy leave d alone.
func (d *document) clone() *document {
	c := &document{pages: make([][]paragraph, len(d.pages)), nextID: d.nextID}
	for i, page := range d.pages {
		c.pages[i] = make([]paragraph, len(page))
		for j, p := range page {
			for _, s := range p {
				c.pages[i][j] = append(c.pages[i][j], &sentence{id: s.id, text: s.text})
			}
		}
	}
	return c
}

// sentences returns the sentences of d by id.
func (d *document) sentences() map[int]*sentence {
	all := map[int]*sentence{}
	for _, page := range d.pages {
		for _, p := range page {
			for _, s := range p {
				all[s.id] = s
			}
		}
	}
	return all
}

// render returns d's text, each paragraph wrapped at lineWidth,
// paragraphs and lines separated by line feeds, pages by form feeds; and
// the offset in code points of each sentence, by id. Wrapping turns a
// space into a line feed, so it moves no offset.
func (d *document) render() ([]rune, map[int]int) {
	var b strings.Builder
	at := map[int]int{}
	n := 0
	for i, page := range d.pages {
		if i > 0 {
			b.WriteString("\f")
			n++
		}
		for j, p := range page {
			if j > 0 {
				b.WriteString("\n")
				n++
			}
			texts := make([]string, len(p))
			for k, s := range p {
				if k > 0 {
					n++
				}
				at[s.id] = n
				n += len([]rune(s.text))
				texts[k] = s.text
			}
			b.WriteString(strings.Join(wrap(strings.Join(texts, " ")), "\n"))
		}
	}
	return []rune(b.String()), at
}

// wrap breaks s into lines of at most lineWidth code points at spaces.
func wrap(s string) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > lineWidth {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
