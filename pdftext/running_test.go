package pdftext_test

import (
	"strings"
	"testing"

	"fairbalance/pdftext"
	"fairbalance/samplepdf"
)

// A generated PDF has its title as a running header and "Page N of M" as
// its footer on every page: the search text keeps every page's own text
// in order, the title once (after the last page), and no footer.
func TestSearchTextOfAGeneratedPDF(t *testing.T) {
	b, err := samplepdf.Generate("Extraction test — Fairbalance®", fivePages)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := extract(t, b)
	if err != nil {
		t.Fatal(err)
	}
	text := doc.SearchText()
	if text != pdftext.SearchText(doc.Pages) {
		t.Fatal("Document.SearchText differs from SearchText(Pages)")
	}
	parts := strings.Split(text, "\f")
	if len(parts) != len(fivePages)+1 {
		t.Fatalf("%d parts, want the %d pages and the running text: %q", len(parts), len(fivePages), text)
	}
	for i, p := range fivePages {
		flat := norm(parts[i])
		if !strings.HasPrefix(flat, p.Heading) {
			t.Errorf("page %d starts %q, want its heading %q", i+1, flat, p.Heading)
		}
		if !strings.HasSuffix(flat, norm(p.Paragraphs[len(p.Paragraphs)-1])) {
			t.Errorf("page %d ends %q, want its last paragraph", i+1, flat)
		}
		if strings.Contains(flat, "Extraction test") || strings.Contains(flat, " of 5") {
			t.Errorf("page %d keeps running text: %q", i+1, flat)
		}
	}
	if got := norm(parts[len(parts)-1]); got != "Extraction test — Fairbalance®" {
		t.Errorf("running text kept after the pages: %q", got)
	}
	if strings.Count(text, "Page ") != 0 {
		t.Errorf("page numbers left: %q", text)
	}
}

func TestSearchText(t *testing.T) {
	page := func(lines ...string) string { return strings.Join(lines, "\n") }
	cases := []struct {
		name  string
		pages []string
		want  string
	}{
		{
			name: "header and footer on every page",
			pages: []string{
				page("ACME Pharma — Cardiomax PI", "Indications and usage", "Lowers LDL-C.", "Confidential · 03/2026", "1"),
				page("ACME Pharma — Cardiomax PI", "Dosage", "Take 20 mg once daily.", "Confidential · 03/2026", "2"),
				page("ACME Pharma — Cardiomax PI", "Warnings", "Myalgia was rare.", "Confidential · 03/2026", "3"),
			},
			want: "Indications and usage\nLowers LDL-C.\fDosage\nTake 20 mg once daily.\fWarnings\nMyalgia was rare.\fACME Pharma — Cardiomax PI\nConfidential · 03/2026",
		},
		{
			name: "numbered running lines are one line",
			pages: []string{
				page("Cardiomax PI page 1 of 3", "First."),
				page("Cardiomax PI page 2 of 3", "Second."),
				page("Cardiomax PI page 3 of 3", "Third."),
			},
			want: "First.\fSecond.\fThird.\fCardiomax PI page 1 of 3",
		},
		{
			name: "bare page numbers in many shapes",
			pages: []string{
				page("- 1 -", "Alpha text.", "Page 1 of 4"),
				page("ii", "Bravo text.", "p. 2"),
				page("Charlie text.", "3/4"),
				page("Delta text.", "Page 4"),
			},
			want: "Alpha text.\fii\nBravo text.\fCharlie text.\fDelta text.",
		},
		{
			name: "a header on half of the pages or fewer stays",
			pages: []string{
				page("Study report", "One."),
				page("Study report", "Two."),
				page("Three."),
				page("Four."),
			},
			want: "Study report\nOne.\fStudy report\nTwo.\fThree.\fFour.",
		},
		{
			name: "only the edges of a page are running text",
			pages: []string{
				page("Header", "a", "b", "c", "Header", "d", "e", "f"),
				page("Header", "g", "h", "i", "j"),
			},
			want: "a\nb\nc\nHeader\nd\ne\nf\fg\nh\ni\nj\fHeader",
		},
		{
			name: "a number inside a page is data",
			pages: []string{
				page("Title", "Patients", "1204", "Weeks"),
				page("Title", "Dose", "20", "mg"),
			},
			want: "Patients\n1204\nWeeks\fDose\n20\nmg\fTitle",
		},
		{
			name:  "one page has no running text",
			pages: []string{page("Cardiomax leaflet", "Ask your doctor.", "1")},
			want:  "Cardiomax leaflet\nAsk your doctor.",
		},
		{
			name:  "a page of a number alone is kept",
			pages: []string{"42"},
			want:  "42",
		},
		{
			name: "empty pages count for nothing",
			pages: []string{
				page("Head", "One."),
				"",
				page("Head", "Two."),
			},
			want: "One.\f\fTwo.\fHead",
		},
		{
			name:  "no pages",
			pages: nil,
			want:  "",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pdftext.SearchText(c.pages); got != c.want {
				t.Errorf("SearchText:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
