// Package recordpdf writes Fairbalance's exported records as PDF: the
// review record of a round (fairbalance.ReviewRecord) — the version's own
// pages as reviewed, followed by the record's pages — and the prefilled
// FDA Form 2253 of an approved asset (fairbalance.Form2253).
//
// The record's pages are written with fpdf in the Go fonts (embedded,
// subset, Unicode: names and quotes print as typed; characters the fonts
// lack print as blanks, and those outside the Basic Multilingual Plane as
// "?"), and joined to the version's PDF with pdfcpu. Everything printed is
// in the record's JSON form too, which is the one to check by machine.
package recordpdf

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// The page: A4 portrait, in millimetres.
const (
	pageW    = 210.0
	pageH    = 297.0
	marginX  = 18.0
	top      = 24.0
	bottom   = 279.0 // the last line of content; the footer is below
	contentW = pageW - 2*marginX
)

// rgb is a colour.
type rgb struct{ r, g, b int }

// The palette: the app's ink, muted text, rules and teal accent, and the
// colours of outcomes.
var (
	ink    = rgb{17, 24, 39}
	muted  = rgb{75, 85, 99}
	faint  = rgb{107, 114, 128}
	rule   = rgb{209, 213, 219}
	wash   = rgb{243, 244, 246}
	accent = rgb{15, 118, 110}
	green  = rgb{21, 128, 61}
	amber  = rgb{180, 83, 9}
	red    = rgb{185, 28, 28}
	blue   = rgb{29, 78, 216}
	gray   = rgb{75, 85, 99}
)

// doc is an fpdf document with the record's fonts, running header and
// footer, and the building blocks of its pages.
type doc struct {
	*fpdf.Fpdf
	// header is printed at the top left of every page, ref at the top right.
	header, ref string
	// footer is printed at the bottom left; the page number at the right
	// counts offset pages before this document's first.
	footer string
	offset int
}

// newDoc starts a document with the Go fonts registered as "sans"
// (regular, bold, italic) and "mono".
func newDoc(title, header, ref, footer string, offset int, created time.Time) *doc {
	f := fpdf.New("P", "mm", "A4", "")
	d := &doc{Fpdf: f, header: header, ref: ref, footer: footer, offset: offset}
	f.AddUTF8FontFromBytes("sans", "", goregular.TTF)
	f.AddUTF8FontFromBytes("sans", "B", gobold.TTF)
	f.AddUTF8FontFromBytes("sans", "I", goitalic.TTF)
	f.AddUTF8FontFromBytes("mono", "", gomono.TTF)
	f.SetTitle(clean(title), true)
	f.SetCreator("Fairbalance", true)
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	f.SetMargins(marginX, top, marginX)
	f.SetAutoPageBreak(true, pageH-bottom)
	f.SetHeaderFuncMode(d.drawHeader, true)
	f.SetFooterFunc(d.drawFooter)
	return d
}

// totalAlias stands for the document's last page number (with the offset)
// until output.
const totalAlias = "{#total#}"

func (d *doc) drawHeader() {
	d.SetY(11)
	d.font("sans", "B", 7.5, accent)
	d.CellFormat(contentW/2, 4, clean(strings.ToUpper(d.header)), "", 0, "L", false, 0, "")
	d.font("sans", "", 7.5, faint)
	d.CellFormat(contentW/2, 4, clean(d.ref), "", 0, "R", false, 0, "")
	d.line(16.5, rule, 0.2)
	d.SetY(top)
}

func (d *doc) drawFooter() {
	d.line(pageH-15.5, rule, 0.2)
	d.SetXY(marginX, pageH-14)
	d.font("sans", "", 7, faint)
	d.CellFormat(contentW-30, 4, clean(d.footer), "", 0, "L", false, 0, "")
	d.CellFormat(30, 4, fmt.Sprintf("Page %d of %s", d.offset+d.PageNo(), totalAlias), "", 0, "R", false, 0, "")
}

// bytes closes the document and returns it.
func (d *doc) bytes() ([]byte, error) {
	d.RegisterAlias(totalAlias, fmt.Sprint(d.offset+d.PageNo()))
	var b bytes.Buffer
	if err := d.Output(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (d *doc) font(family, style string, size float64, c rgb) {
	d.SetFont(family, style, size)
	d.SetTextColor(c.r, c.g, c.b)
}

func (d *doc) line(y float64, c rgb, w float64) {
	d.SetDrawColor(c.r, c.g, c.b)
	d.SetLineWidth(w)
	d.Line(marginX, y, pageW-marginX, y)
}

// ensure starts a new page unless h millimetres fit below the cursor.
func (d *doc) ensure(h float64) {
	if d.GetY()+h > bottom {
		d.AddPage()
	}
}

// lines is how many lines text takes in a box w wide in the current font.
func (d *doc) lines(text string, w float64) int {
	n := 0
	for _, para := range strings.Split(clean(text), "\n") {
		n += max(1, len(d.SplitText(para, w)))
	}
	return n
}

// heading starts section n (0: unnumbered): the number in the accent
// colour, the title, a rule.
func (d *doc) heading(n int, title string) {
	d.ensure(22)
	d.Ln(5)
	y := d.GetY()
	d.SetX(marginX)
	numW := 0.0
	if n > 0 {
		numW = 8
		d.font("sans", "B", 12, accent)
		d.CellFormat(numW, 7, fmt.Sprint(n), "", 0, "L", false, 0, "")
	}
	d.font("sans", "B", 12, ink)
	d.CellFormat(contentW-numW, 7, clean(title), "", 1, "L", false, 0, "")
	d.line(y+8, ink, 0.3)
	d.SetY(y + 10)
}

// subheading is a small upper-case label above a block.
func (d *doc) subheading(text string) {
	d.ensure(12)
	d.Ln(1.5)
	d.font("sans", "B", 7.5, muted)
	d.CellFormat(contentW, 5, clean(strings.ToUpper(text)), "", 1, "L", false, 0, "")
}

// para writes wrapped text across the content width.
func (d *doc) para(text string, size float64, c rgb) {
	d.font("sans", "", size, c)
	d.SetX(marginX)
	d.MultiCell(contentW, size*0.5, clean(text), "", "L", false)
}

// field is one labelled value of a key-value table.
type field struct {
	label, value string
	// mono prints the value in the monospaced font (hashes, ids).
	mono bool
}

// fields writes a key-value table: labels in a narrow muted column, each
// row ruled below; a row never splits across pages.
func (d *doc) fields(rows []field) {
	const labelW = 44.0
	valueW := contentW - labelW
	for _, r := range rows {
		value := r.value
		if value == "" {
			value = "—"
		}
		family, size := "sans", 9.0
		if r.mono {
			family, size = "mono", 8.0
		}
		d.font(family, "", size, ink)
		n := d.lines(value, valueW)
		h := float64(n)*4.6 + 2.4
		d.ensure(h)
		y := d.GetY()
		d.SetXY(marginX, y+1.2)
		d.font("sans", "", 8.5, muted)
		d.CellFormat(labelW, 4.6, clean(r.label), "", 0, "L", false, 0, "")
		d.SetXY(marginX+labelW, y+1.2)
		d.font(family, "", size, ink)
		d.MultiCell(valueW, 4.6, clean(value), "", "L", false)
		d.SetDrawColor(rule.r, rule.g, rule.b)
		d.SetLineWidth(0.15)
		d.Line(marginX, y+h, pageW-marginX, y+h)
		d.SetY(y + h)
	}
}

// fieldsHeight is the height fields(rows) takes.
func (d *doc) fieldsHeight(rows []field) float64 {
	h := 0.0
	for _, r := range rows {
		value := r.value
		if value == "" {
			value = "—"
		}
		if r.mono {
			d.font("mono", "", 8, ink)
		} else {
			d.font("sans", "", 9, ink)
		}
		h += float64(d.lines(value, contentW-44))*4.6 + 2.4
	}
	return h
}

// pill draws a filled rounded label at the cursor's line, at x, and
// returns its width.
func (d *doc) pill(x, y float64, text string, c rgb) float64 {
	d.font("sans", "B", 7.5, rgb{255, 255, 255})
	label := clean(strings.ToUpper(text))
	w := d.GetStringWidth(label) + 5
	d.SetFillColor(c.r, c.g, c.b)
	d.RoundedRect(x, y, w, 5, 1.2, "1234", "F")
	d.SetXY(x, y)
	d.CellFormat(w, 5, label, "", 0, "C", false, 0, "")
	return w
}

// clean makes text printable in the Go fonts: characters outside the
// Basic Multilingual Plane (which fpdf cannot encode) become "?", control
// characters spaces (tabs and line breaks stay), and invalid UTF-8 U+FFFD.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\r':
			return -1
		case r == '\t':
			return ' '
		case r > 0xFFFF:
			return '?'
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, s)
}

// utc formats a time for the record: date and time to the second, UTC.
func utc(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") + " UTC" }

func utcPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return utc(*t)
}
