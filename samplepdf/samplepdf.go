// Package samplepdf writes small, deterministic, text-only PDFs: the demo
// seeder stores them as reference and asset files, and tests use them to
// exercise PDF text extraction on documents whose text is known exactly.
package samplepdf

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/go-pdf/fpdf"
)

// Page is the content of exactly one page of the generated PDF.
type Page struct {
	// Heading is printed in bold above the paragraphs; empty for none.
	Heading string
	// Paragraphs are wrapped to the page width and left-aligned, so the
	// words and their order survive text extraction unchanged.
	Paragraphs []string
	// Font is "Helvetica" (the default), "Times" or "Courier".
	Font string
	// Style is "", "B", "I" or "BI" for the paragraphs.
	Style string
}

// ErrPageOverflow is returned when a page's text does not fit on one A4
// page: Generate never flows text onto an extra page, so that page N of
// the result is always pages[N-1].
var ErrPageOverflow = errors.New("samplepdf: text does not fit on one page")

// fixedTime keeps the output byte-for-byte stable, so its SHA-256 is too.
var fixedTime = time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)

// Generate returns an A4 PDF with one page per element of pages. Every page
// carries title as a running header and "Page N of M" as a footer. Text is
// UTF-8 and must be representable in Windows-1252 (the encoding of the
// standard PDF fonts); other characters come out as '?'.
func Generate(title string, pages []Page) ([]byte, error) {
	if len(pages) == 0 {
		return nil, errors.New("samplepdf: no pages")
	}
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCreationDate(fixedTime)
	f.SetModificationDate(fixedTime)
	f.SetCatalogSort(true)
	f.SetTitle(title, true)
	f.SetMargins(20, 20, 20)
	f.SetAutoPageBreak(false, 0)
	f.AliasNbPages("{nb}")
	tr := f.UnicodeTranslatorFromDescriptor("")
	const bottom = 297 - 22.0

	f.SetHeaderFunc(func() {
		f.SetFont("Helvetica", "", 8)
		f.SetXY(20, 10)
		f.CellFormat(0, 5, tr(title), "", 0, "L", false, 0, "")
		f.SetXY(20, 22)
	})
	f.SetFooterFunc(func() {
		f.SetFont("Helvetica", "", 8)
		f.SetXY(20, 297-15)
		f.CellFormat(0, 5, fmt.Sprintf("Page %d of {nb}", f.PageNo()), "", 0, "C", false, 0, "")
	})

	for i, p := range pages {
		f.AddPage()
		font := p.Font
		if font == "" {
			font = "Helvetica"
		}
		if p.Heading != "" {
			f.SetFont(font, "B", 14)
			f.MultiCell(0, 7, tr(p.Heading), "", "L", false)
			f.Ln(3)
		}
		f.SetFont(font, p.Style, 10.5)
		for _, para := range p.Paragraphs {
			f.MultiCell(0, 5.2, tr(para), "", "L", false)
			f.Ln(2.5)
		}
		if f.GetY() > bottom {
			return nil, fmt.Errorf("%w (page %d)", ErrPageOverflow, i+1)
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, fmt.Errorf("samplepdf: %w", err)
	}
	return buf.Bytes(), nil
}
