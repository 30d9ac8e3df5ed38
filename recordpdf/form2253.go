package recordpdf

import (
	"fmt"
	"strings"

	"fairbalance"
)

// Form2253 writes the prefilled Form 2253 data of an approved asset as a
// PDF laid out like the form: its numbered items in boxes, each holding
// what the product and the asset know, the items only the regulatory team
// can fill in marked "To complete", then the approved version's
// identifiers.
func Form2253(f *fairbalance.Form2253) ([]byte, error) {
	m := f.Material
	ref := fmt.Sprintf("%s · Version %d", m.MaterialID, m.VersionNumber)
	footer := fmt.Sprintf("%s · generated %s by %s", f.Applicant, utc(f.GeneratedAt), person(f.GeneratedBy))
	d := newDoc("Form FDA 2253 data: "+m.Title+" ("+m.MaterialID+")", "Fairbalance · Form FDA 2253 data", ref, footer, 0, f.GeneratedAt)
	d.SetSubject(clean("Prefilled Form FDA 2253 data for "+m.MaterialID), true)
	fw := &formWriter{doc: d}
	d.AddPage()

	d.font("sans", "B", 8, accent)
	d.CellFormat(contentW, 5, "FORM FDA 2253 · PREFILLED DATA", "", 1, "L", false, 0, "")
	d.font("sans", "B", 13.5, ink)
	d.MultiCell(contentW, 6.2, "Transmittal of Advertisements and Promotional Labeling for Drugs and Biologics for Human Use", "", "L", false)
	d.Ln(1)
	d.font("sans", "", 10, muted)
	d.MultiCell(contentW, 5, clean(fmt.Sprintf("%s · %s, version %d, approved %s", m.Title, m.MaterialID, m.VersionNumber, m.ApprovedAt.UTC().Format("2 January 2006"))), "", "L", false)
	d.Ln(1.5)
	d.para("Prefilled from the approved asset and its product. The items marked “To complete” are not held in Fairbalance: the regulatory team completes them, checks the material type against FDA's current code list, and files the form with the approved piece at its first use.", 8, muted)
	d.Ln(2.5)

	todo := map[string]bool{}
	for _, it := range f.ToComplete {
		todo[it.Item] = true
	}
	half := (contentW - 4) / 2
	fw.row(
		formBox{w: half, item: "1", caption: "Date submitted", todo: todo["1"]},
		formBox{w: half, item: "2", caption: "Application type and number", todo: todo["2"], note: "Single product"},
	)
	fw.row(
		formBox{w: half, item: "3", caption: "Proprietary name", value: f.Product.ProprietaryName},
		formBox{w: half, item: "4", caption: "Established name", value: f.Product.EstablishedName},
	)
	pi := ""
	if f.Product.PIReference != "" {
		pi = "Prescribing information on file: " + f.Product.PIReference
	}
	fw.row(
		formBox{w: half, item: "5", caption: "Package insert date and ID number", todo: todo["5"], note: pi},
		formBox{w: half, item: "6", caption: "Manufacturer name", todo: todo["6"]},
	)

	// Item 7: the material.
	d.ensure(70)
	d.Ln(1)
	d.font("sans", "B", 8, ink)
	d.CellFormat(contentW, 5, "7.  ADVERTISEMENT / PROMOTIONAL LABELING MATERIALS", "", 1, "L", false, 0, "")
	fw.audience(m.Audience)
	third := (contentW - 8) / 3
	fw.row(
		formBox{w: third, item: "7b", caption: "Material type", value: m.TypeLabel, note: "Asset type: " + word(m.Type) + "; enter FDA's code"},
		formBox{w: third, item: "7c", caption: "Dissemination / publication date", value: m.DisseminationDate, note: dissemination(m.DisseminationBasis)},
		formBox{w: third, item: "7d", caption: "Material ID code", value: m.MaterialID, note: "The asset's job code"},
	)
	fw.row(formBox{w: contentW, item: "7e", caption: "Material description", value: m.Description})
	expires := ""
	if m.ExpiresAt != nil {
		expires = "; the approval expires on " + *m.ExpiresAt
	}
	comments := fmt.Sprintf("Version %d approved in review round %d on %s%s. Market: %s.", m.VersionNumber, m.ApprovedInRound, utc(m.ApprovedAt), expires, m.Market)
	fw.row(formBox{w: contentW, item: "7f", caption: "Comments", value: comments})

	fw.row(
		formBox{w: half, item: "8", caption: "Applicant", value: f.Applicant, note: "Return address: to complete"},
		formBox{w: half, item: "9", caption: "Responsible official's telephone, fax, e-mail", todo: todo["9"]},
	)
	fw.row(
		formBox{w: half, item: "10", caption: "Typed name and title of responsible official", todo: todo["10"]},
		formBox{w: half / 2, item: "11", caption: "Signature", todo: todo["11"]},
		formBox{w: half/2 - 4, item: "12", caption: "Date", todo: todo["12"]},
	)

	d.Ln(1)
	d.subheading("The approved version")
	file := ""
	if m.FileName != nil {
		file = *m.FileName
	}
	if file == "" {
		file = "Composed in Fairbalance"
	}
	d.fields([]field{
		{label: "Version", value: fmt.Sprintf("%d (%s, %s)", m.VersionNumber, file, plural(m.PageCount, "page"))},
		{label: "SHA-256", value: m.SHA256, mono: true},
		{label: "Approved (UTC)", value: fmt.Sprintf("%s, review round %d", utc(m.ApprovedAt), m.ApprovedInRound)},
	})
	d.Ln(1.5)
	d.para("The approving round's review record (annotations, signatures, audit entries) is exported from the asset's review history.", 8, muted)
	return d.bytes()
}

func dissemination(basis string) string {
	if basis == fairbalance.DisseminationApproval {
		return "The approval date; enter the date of first use"
	}
	return ""
}

type formWriter struct{ *doc }

// formBox is one item of the form: its number and label, and the value
// Fairbalance holds, or "To complete".
type formBox struct {
	w                    float64
	item, caption, value string
	note                 string
	todo                 bool
}

// label is the item's number and label as the box heads it.
func (b formBox) label() string { return b.item + ".  " + strings.ToUpper(b.caption) }

// row draws boxes side by side, as tall as the tallest.
func (fw *formWriter) row(boxes ...formBox) {
	h := 0.0
	for _, b := range boxes {
		h = max(h, fw.boxHeight(b))
	}
	fw.ensure(h + 2.5)
	y := fw.GetY()
	x := marginX
	for _, b := range boxes {
		fw.box(x, y, h, b)
		x += b.w + 4
	}
	fw.SetY(y + h + 2.5)
}

func (fw *formWriter) boxHeight(b formBox) float64 {
	fw.font("sans", "B", 7, muted)
	h := 6.5 + float64(fw.lines(b.label(), b.w-5))*3.5
	fw.font("sans", "", 9.5, ink)
	value := b.value
	if b.todo || value == "" {
		value = "To complete"
	}
	h += float64(fw.lines(value, b.w-5)) * 4.6
	if b.note != "" {
		fw.font("sans", "", 7.5, muted)
		h += float64(fw.lines(b.note, b.w-5))*3.6 + 1
	}
	return h
}

func (fw *formWriter) box(x, y, h float64, b formBox) {
	todo := b.todo || b.value == ""
	if todo {
		fw.SetDrawColor(amber.r, amber.g, amber.b)
		fw.SetDashPattern([]float64{1.2, 0.8}, 0)
	} else {
		fw.SetDrawColor(rule.r, rule.g, rule.b)
	}
	fw.SetLineWidth(0.3)
	fw.Rect(x, y, b.w, h, "D")
	fw.SetDashPattern(nil, 0)
	fw.SetXY(x+2.5, y+2)
	fw.font("sans", "B", 7, muted)
	fw.MultiCell(b.w-5, 3.5, clean(b.label()), "", "L", false)
	fw.SetXY(x+2.5, fw.GetY()+1)
	if todo {
		fw.font("sans", "I", 9.5, amber)
		fw.MultiCell(b.w-5, 4.6, "To complete", "", "L", false)
	} else {
		fw.font("sans", "B", 9.5, ink)
		fw.MultiCell(b.w-5, 4.6, clean(b.value), "", "L", false)
	}
	if b.note != "" {
		fw.SetX(x + 2.5)
		fw.font("sans", "", 7.5, muted)
		fw.MultiCell(b.w-5, 3.6, clean(b.note), "", "L", false)
	}
}

// audience draws item 7a: professional or consumer, the one that applies
// ticked.
func (fw *formWriter) audience(a string) {
	y := fw.GetY() + 1
	fw.SetXY(marginX, y)
	fw.font("sans", "B", 7, muted)
	fw.CellFormat(38, 5, "7a.  AUDIENCE (CHECK ONE)", "", 0, "L", false, 0, "")
	x := marginX + 42
	for _, opt := range []struct{ key, label string }{{fairbalance.AudienceProfessional, "Professional"}, {fairbalance.AudienceConsumer, "Consumer"}} {
		fw.SetDrawColor(ink.r, ink.g, ink.b)
		fw.SetLineWidth(0.3)
		fw.Rect(x, y+0.8, 3.4, 3.4, "D")
		if opt.key == a {
			fw.SetLineWidth(0.5)
			fw.Line(x+0.7, y+2.6, x+1.5, y+3.5)
			fw.Line(x+1.5, y+3.5, x+2.9, y+1.2)
		}
		fw.SetXY(x+5, y)
		fw.font("sans", "", 9.5, ink)
		fw.CellFormat(30, 5, opt.label, "", 0, "L", false, 0, "")
		x += 36
	}
	fw.SetY(y + 8)
}
