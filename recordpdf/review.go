package recordpdf

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decode JPEG versions
	"image/png"
	"io"
	"slices"
	"strings"

	"fairbalance"

	"github.com/go-pdf/fpdf"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"golang.org/x/image/webp"
)

// pdfcpu keeps no configuration directory: everything it needs is passed.
func init() { api.DisableConfigDir() }

// ReviewRecord writes the record of a round as one PDF. file is the
// version's stored file — a PDF, whose pages lead the document, or an
// image, printed on the first page with its regions marked — or nil: a
// composed version (its text is in the record) or a file that could not be
// read, fileProblem saying why. A PDF the merge cannot read is left out
// and the record says so; the result is never a record without its
// explanation.
func ReviewRecord(rec *fairbalance.ReviewRecord, file io.ReadSeeker, fileProblem string) ([]byte, error) {
	if file == nil || rec.Version.Kind == fairbalance.VersionAuthored {
		return renderRecord(rec, 0, nil, fileProblem)
	}
	mime := ""
	if rec.Version.MimeType != nil {
		mime = *rec.Version.MimeType
	}
	if mime != "application/pdf" {
		img, err := pageImage(file, mime)
		if err != nil {
			return renderRecord(rec, 0, nil, "The version's image could not be read: "+err.Error())
		}
		return renderRecord(rec, 0, img, "")
	}
	conf := model.NewDefaultConfiguration()
	pages, err := safely(func() (int, error) { return api.PageCount(file, conf) })
	if err != nil || pages < 1 {
		return renderRecord(rec, 0, nil, "The version's PDF could not be read to include its pages.")
	}
	own, err := renderRecord(rec, pages, nil, "")
	if err != nil {
		return nil, err
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	_, err = safely(func() (int, error) {
		return 0, api.MergeRaw([]io.ReadSeeker{file, bytes.NewReader(own)}, &out, false, model.NewDefaultConfiguration())
	})
	if err != nil {
		return renderRecord(rec, 0, nil, "The version's pages could not be joined to this record.")
	}
	return out.Bytes(), nil
}

// safely runs fn, turning a panic inside the PDF library into an error.
func safely(fn func() (int, error)) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("recordpdf: PDF library: %v", p)
		}
	}()
	return fn()
}

// versionImage is an image version as PNG or JPEG bytes fpdf can place.
type versionImage struct {
	data []byte
	kind string // "PNG" or "JPG"
	w, h int
}

// pageImage reads an image version; WebP is re-encoded as PNG (fpdf
// places PNG and JPEG only).
func pageImage(r io.Reader, mime string) (*versionImage, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	switch mime {
	case "image/png", "image/jpeg":
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		kind := "PNG"
		if mime == "image/jpeg" {
			kind = "JPG"
		}
		return &versionImage{data: data, kind: kind, w: cfg.Width, h: cfg.Height}, nil
	case "image/webp":
		img, err := webp.Decode(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			return nil, err
		}
		return &versionImage{data: b.Bytes(), kind: "PNG", w: img.Bounds().Dx(), h: img.Bounds().Dy()}, nil
	}
	return nil, errors.New("not an image type the record prints")
}

// renderRecord writes the record's pages; versionPages pages of the
// version's PDF come before them, or img is printed on the first page.
func renderRecord(rec *fairbalance.ReviewRecord, versionPages int, img *versionImage, problem string) ([]byte, error) {
	a, r, v := rec.Asset, rec.Round, rec.Version
	ref := fmt.Sprintf("%s · Round %d · Version %d", a.JobCode, r.Number, v.Number)
	footer := fmt.Sprintf("%s · generated %s by %s", rec.Organisation.Name, utc(rec.GeneratedAt), person(rec.GeneratedBy))
	d := newDoc("Review record: "+a.Title+" ("+ref+")", "Fairbalance · Review record", ref, footer, versionPages, rec.GeneratedAt)
	d.SetSubject(clean(fmt.Sprintf("Review round %d of %s, version %d (SHA-256 %s)", r.Number, a.JobCode, v.Number, v.SHA256)), true)
	w := &recordWriter{doc: d, rec: rec}
	if img != nil {
		w.imagePage(img)
	}
	d.AddPage()
	w.cover(versionPages, img != nil, problem)
	w.asset()
	w.round()
	w.version(problem)
	w.decisions()
	w.changes()
	w.annotations()
	w.findings()
	w.audit()
	w.verification()
	return d.bytes()
}

type recordWriter struct {
	*doc
	rec *fairbalance.ReviewRecord
	n   int // the last section's number
}

func (w *recordWriter) section(title string) {
	w.n++
	w.heading(w.n, title)
}

// imagePage prints an image version on a page of its own, scaled to fit,
// with each region annotation's box drawn and numbered.
func (w *recordWriter) imagePage(img *versionImage) {
	v := w.rec.Version
	w.AddPage()
	w.font("sans", "B", 11, ink)
	name := ""
	if v.FileName != nil {
		name = " (" + *v.FileName + ")"
	}
	w.CellFormat(contentW, 6, clean(fmt.Sprintf("Version %d as reviewed%s", v.Number, name)), "", 1, "L", false, 0, "")
	w.font("mono", "", 7.5, muted)
	w.CellFormat(contentW, 4.5, "SHA-256 "+v.SHA256, "", 1, "L", false, 0, "")
	w.Ln(3)
	y0 := w.GetY()
	maxW, maxH := contentW, bottom-y0
	scale := min(maxW/float64(img.w), maxH/float64(img.h))
	iw, ih := float64(img.w)*scale, float64(img.h)*scale
	x0 := marginX + (contentW-iw)/2
	w.RegisterImageOptionsReader("version", fpdfImage(img.kind), bytes.NewReader(img.data))
	w.ImageOptions("version", x0, y0, iw, ih, false, fpdfImage(img.kind), 0, "")
	w.SetDrawColor(rule.r, rule.g, rule.b)
	w.SetLineWidth(0.2)
	w.Rect(x0, y0, iw, ih, "D")
	for i, an := range w.rec.Annotations {
		t := an.Target
		if t.Type != fairbalance.TargetRegion || t.X == nil || t.Y == nil || t.Width == nil || t.Height == nil || an.AnchorStatus == fairbalance.AnchorOrphaned {
			continue
		}
		rx, ry := x0+*t.X*iw, y0+*t.Y*ih
		w.SetDrawColor(accent.r, accent.g, accent.b)
		w.SetLineWidth(0.6)
		w.Rect(rx, ry, *t.Width*iw, *t.Height*ih, "D")
		label := fmt.Sprintf("A%d", i+1)
		w.font("sans", "B", 7, rgb{255, 255, 255})
		lw := w.GetStringWidth(label) + 2.5
		w.SetFillColor(accent.r, accent.g, accent.b)
		w.Rect(rx, max(y0, ry-4), lw, 4, "F")
		w.SetXY(rx, max(y0, ry-4))
		w.CellFormat(lw, 4, label, "", 0, "C", false, 0, "")
	}
}

// cover opens the record: what it is, the outcome, the figures and where
// each part of the document is.
func (w *recordWriter) cover(versionPages int, imagePage bool, problem string) {
	rec := w.rec
	a, r, v := rec.Asset, rec.Round, rec.Version
	w.font("sans", "B", 8, accent)
	w.CellFormat(contentW, 5, "REVIEW RECORD", "", 1, "L", false, 0, "")
	w.font("sans", "B", 18, ink)
	w.MultiCell(contentW, 8, clean(a.Title), "", "L", false)
	w.Ln(1)
	w.font("sans", "", 10, muted)
	w.MultiCell(contentW, 5, clean(fmt.Sprintf("Round %d of %s, version %d · %s", r.Number, a.JobCode, v.Number, rec.Organisation.Name)), "", "L", false)
	w.Ln(3)
	y := w.GetY()
	pw := w.pill(marginX, y, word(r.Status), statusColour(string(r.Status)))
	w.SetXY(marginX+pw+3, y)
	w.font("sans", "", 9, muted)
	closed := "Open: not yet closed"
	if r.ClosedAt != nil {
		closed = "Closed " + utcPtr(r.ClosedAt)
	}
	w.CellFormat(contentW-pw-3, 5, clean(closed), "", 1, "L", false, 0, "")
	w.Ln(4)

	// The figures, in a washed band.
	decided, signed := 0, 0
	for _, s := range rec.Steps {
		if s.DecidedAt != nil {
			decided++
		}
		if s.Signature != nil {
			signed++
		}
	}
	open := 0
	for _, an := range rec.Annotations {
		if an.State == fairbalance.AnnotationOpen {
			open++
		}
	}
	cells := [][2]string{
		{"Submitted", utc(r.SubmittedAt)},
		{"Submitted by", person(r.SubmittedBy)},
		{"Decisions", fmt.Sprintf("%d of %d steps, %d signed", decided, len(rec.Steps), signed)},
		{"Annotations", fmt.Sprintf("%d (%d open)", len(rec.Annotations), open)},
		{"Change requests", fmt.Sprint(len(rec.ChangeRequests))},
		{"Audit entries", fmt.Sprint(len(rec.Audit.Entries))},
	}
	const cols, cellH = 3, 12.0
	cw := contentW / cols
	y = w.GetY()
	w.SetFillColor(wash.r, wash.g, wash.b)
	w.Rect(marginX, y, contentW, cellH*2+2, "F")
	for i, c := range cells {
		x := marginX + float64(i%cols)*cw + 3
		cy := y + 1 + float64(i/cols)*cellH
		w.SetXY(x, cy+1.5)
		w.font("sans", "", 7.5, muted)
		w.CellFormat(cw-4, 4, clean(strings.ToUpper(c[0])), "", 0, "L", false, 0, "")
		w.SetXY(x, cy+5.5)
		w.font("sans", "B", 9, ink)
		w.CellFormat(cw-4, 5, clean(short(c[1], 40)), "", 0, "L", false, 0, "")
	}
	w.SetY(y + cellH*2 + 6)

	// Where things are.
	w.subheading("This document")
	var where string
	name := "the file"
	if v.FileName != nil {
		name = *v.FileName
	}
	switch {
	case versionPages > 0:
		where = fmt.Sprintf("Pages 1 to %d are version %d exactly as reviewed (%s, %s). This record begins on page %d.",
			versionPages, v.Number, name, plural(versionPages, "page"), versionPages+1)
	case imagePage:
		where = fmt.Sprintf("Page 1 is version %d exactly as reviewed (%s), its annotated regions marked. This record begins on page 2.", v.Number, name)
	case v.Kind == fairbalance.VersionAuthored:
		where = fmt.Sprintf("Version %d was composed in Fairbalance; its text as reviewed is in section 3.", v.Number)
	default:
		where = fmt.Sprintf("Version %d's file is identified by its SHA-256 in section 3; its pages are not included.", v.Number)
	}
	w.para(where+" The same record, machine-readable with everything needed to verify its signatures and audit entries, is its JSON export.", 9, ink)
	if problem != "" {
		w.Ln(1)
		w.para(problem, 9, red)
	}
}

func (w *recordWriter) asset() {
	a := w.rec.Asset
	w.section("Asset")
	product := ""
	if a.Product != nil {
		product = a.Product.BrandName
		if a.Product.EstablishedName != "" {
			product += " (" + a.Product.EstablishedName + ")"
		}
	}
	expiry := ""
	if a.ExpiresAt != nil {
		expiry = *a.ExpiresAt
	}
	approved := "None"
	if a.ApprovedVersionID != nil {
		approved = *a.ApprovedVersionID
		if *a.ApprovedVersionID == w.rec.Version.ID {
			approved = fmt.Sprintf("Version %d (the version of this record)", w.rec.Version.Number)
		}
	}
	w.fields([]field{
		{label: "Title", value: a.Title},
		{label: "Job code", value: a.JobCode},
		{label: "Type", value: word(a.Type)},
		{label: "Product", value: product},
		{label: "Audience", value: word(a.Audience)},
		{label: "Channel", value: a.Channel},
		{label: "Market", value: a.Market},
		{label: "Owner", value: personPtr(a.Owner)},
		{label: "Status at export", value: word(a.Status)},
		{label: "Expiry date", value: expiry},
		{label: "Approved version", value: approved},
		{label: "Asset id", value: a.ID, mono: true},
	})
}

func (w *recordWriter) round() {
	r := w.rec.Round
	w.section("Review round")
	w.fields([]field{
		{label: "Round", value: fmt.Sprint(r.Number)},
		{label: "Outcome", value: word(r.Status)},
		{label: "Workflow", value: r.TemplateName},
		{label: "Submitted by", value: person(r.SubmittedBy)},
		{label: "Submitted (UTC)", value: utc(r.SubmittedAt)},
		{label: "Closed (UTC)", value: utcPtr(r.ClosedAt)},
		{label: "Round id", value: r.ID, mono: true},
	})
}

func (w *recordWriter) version(problem string) {
	v := w.rec.Version
	w.section("Version reviewed")
	rows := []field{
		{label: "Version", value: fmt.Sprint(v.Number)},
		{label: "Kind", value: word(v.Kind)},
	}
	if v.FileName != nil {
		size := ""
		if v.FileSize != nil {
			size = ", " + bytesLabel(*v.FileSize)
		}
		mime := ""
		if v.MimeType != nil {
			mime = *v.MimeType
		}
		rows = append(rows, field{label: "File", value: *v.FileName + " (" + mime + size + ")"})
	}
	if v.Kind != fairbalance.VersionAuthored {
		rows = append(rows, field{label: "Pages", value: fmt.Sprint(v.PageCount)})
	}
	rows = append(rows,
		field{label: "SHA-256", value: v.SHA256, mono: true},
		field{label: "Created by", value: person(v.CreatedBy)},
		field{label: "Created (UTC)", value: utc(v.CreatedAt)},
		field{label: "Change note", value: v.ChangeNote},
		field{label: "Version id", value: v.ID, mono: true},
	)
	w.fields(rows)
	if problem != "" {
		w.Ln(2)
		w.para(problem, 9, red)
	}
	if v.Text != nil {
		w.subheading("Text as reviewed")
		text := strings.TrimSpace(*v.Text)
		if text == "" {
			text = "(The version has no text.)"
		}
		w.font("sans", "", 9.5, ink)
		w.SetX(marginX + 4)
		y := w.GetY()
		w.MultiCell(contentW-8, 5, clean(text), "", "L", false)
		// A rule beside the text on its first page marks the quotation.
		if w.GetY() > y {
			w.SetDrawColor(accent.r, accent.g, accent.b)
			w.SetLineWidth(0.6)
			w.Line(marginX+1, y, marginX+1, w.GetY())
		}
	}
}

func (w *recordWriter) decisions() {
	w.section("Decisions and electronic signatures")
	if len(w.rec.Steps) == 0 {
		w.para("The round has no steps.", 9, muted)
		return
	}
	for _, s := range w.rec.Steps {
		w.step(s)
	}
}

// step prints a step: its role and status, the comment, and the
// signature's manifestation (21 CFR 11.50) with what it binds; the step
// starts on a new page unless all of it fits.
func (w *recordWriter) step(s fairbalance.RecordStep) {
	var rows []field
	if s.Signature == nil && s.DecidedBy != nil {
		rows = append(rows, field{label: "Decided by", value: personPtr(s.DecidedBy)}, field{label: "Decided (UTC)", value: utcPtr(s.DecidedAt)})
	}
	if s.Comment != "" {
		rows = append(rows, field{label: "Comment", value: s.Comment})
	}
	need := 10 + w.fieldsHeight(rows)
	if s.Signature != nil {
		need += w.signatureHeight(w.signatureRows(s.Signature), verdictOf(s.Check)) + 3
	}
	w.ensure(min(need, bottom-top))
	w.Ln(2)
	y := w.GetY()
	req := "optional"
	if s.Required {
		req = "required"
	}
	w.font("sans", "B", 10.5, ink)
	w.CellFormat(contentW-50, 6, clean(fmt.Sprintf("%s review (%s)", word(s.Role), req)), "", 0, "L", false, 0, "")
	label := word(s.Status)
	w.font("sans", "B", 7.5, ink)
	pw := w.GetStringWidth(strings.ToUpper(label)) + 5
	w.pill(pageW-marginX-pw, y+0.5, label, statusColour(string(s.Status)))
	w.SetY(y + 7)
	if len(rows) > 0 {
		w.fields(rows)
	}
	if s.Signature == nil {
		if s.DecidedAt == nil {
			w.Ln(1)
			w.para(notDecided(s.Status), 9, muted)
		}
		return
	}
	w.signature(s.Signature, s.Check)
}

func notDecided(s fairbalance.StepStatus) string {
	switch s {
	case fairbalance.StepSkipped:
		return "Not decided: the round closed without this step."
	case fairbalance.StepWaiting:
		return "Not decided: waiting for the earlier steps of the round."
	}
	return "Not decided yet."
}

// signatureRows are the lines of a signature's manifestation and what
// it binds.
func (w *recordWriter) signatureRows(sig *fairbalance.Signature) []field {
	rows := []field{
		{label: "Printed name", value: sig.SignerName},
		{label: "Date and time (UTC)", value: sig.SignedAt.UTC().Format("2006-01-02 15:04:05.000000") + " UTC"},
		{label: "Meaning", value: word(sig.Meaning)},
		{label: "Decision", value: word(sig.Decision)},
		{label: "Version signed", value: fmt.Sprintf("Version %d, SHA-256 %s", w.rec.Version.Number, sig.RenditionSHA256), mono: true},
		{label: "Seal (SHA-256)", value: sig.Seal, mono: true},
		{label: "Signing key", value: sig.KeyID, mono: true},
		{label: "Signature id", value: sig.ID, mono: true},
	}
	if sig.ClientIP != "" || sig.UserAgent != "" {
		rows = append(rows, field{label: "Signed from", value: strings.TrimSpace(sig.ClientIP + " " + short(sig.UserAgent, 90))})
	}
	return rows
}

// verdict is what the server found when it verified a signature.
type verdict struct {
	text   string
	colour rgb
}

func verdictOf(check *fairbalance.SignatureCheck) verdict {
	switch {
	case check == nil:
		return verdict{"Not verified.", muted}
	case check.Valid:
		return verdict{"Verified at export: " + check.Reason, green}
	}
	return verdict{"NOT VALID at export: " + check.Reason, red}
}

const (
	sigLabelW = 40.0
	sigPad    = 4.0
	sigValueW = contentW - sigLabelW - 2*sigPad
)

func (w *recordWriter) signatureHeight(rows []field, v verdict) float64 {
	h := 9.0
	for _, r := range rows {
		if r.mono {
			w.font("mono", "", 7.5, ink)
		} else {
			w.font("sans", "", 9, ink)
		}
		h += float64(w.lines(r.value, sigValueW)) * 4.4
	}
	w.font("sans", "B", 8.5, v.colour)
	return h + float64(w.lines(v.text, contentW-2*sigPad))*4.4 + 4
}

// signature prints a signature's manifestation in a washed box with a rule
// down its left side; the box never splits across pages.
func (w *recordWriter) signature(sig *fairbalance.Signature, check *fairbalance.SignatureCheck) {
	rows := w.signatureRows(sig)
	v := verdictOf(check)
	h := w.signatureHeight(rows, v)
	w.ensure(h + 2)
	w.Ln(1.5)
	y := w.GetY()
	w.SetFillColor(wash.r, wash.g, wash.b)
	w.Rect(marginX, y, contentW, h, "F")
	w.SetFillColor(accent.r, accent.g, accent.b)
	w.Rect(marginX, y, 1.2, h, "F")
	w.SetXY(marginX+sigPad, y+2)
	w.font("sans", "B", 7.5, accent)
	w.CellFormat(contentW-2*sigPad, 4.5, "ELECTRONIC SIGNATURE (21 CFR 11.50)", "", 1, "L", false, 0, "")
	w.Ln(1)
	for i, r := range rows {
		w.SetX(marginX + sigPad)
		w.font("sans", "", 8, muted)
		w.CellFormat(sigLabelW, 4.4, clean(r.label), "", 0, "L", false, 0, "")
		style := ""
		if i == 0 {
			style = "B"
		}
		if r.mono {
			w.font("mono", "", 7.5, ink)
		} else {
			w.font("sans", style, 9, ink)
		}
		w.MultiCell(sigValueW, 4.4, clean(r.value), "", "L", false)
	}
	w.Ln(1)
	w.SetX(marginX + sigPad)
	w.font("sans", "B", 8.5, v.colour)
	w.MultiCell(contentW-2*sigPad, 4.4, clean(v.text), "", "L", false)
	w.SetY(y + h + 1)
}

func (w *recordWriter) changes() {
	w.section("Change requests")
	if len(w.rec.ChangeRequests) == 0 {
		w.para("No change requests were carried into this round or raised in it.", 9, muted)
		return
	}
	for _, place := range []string{fairbalance.ChangeInChecklist, fairbalance.ChangeRaisedHere} {
		var items []fairbalance.RecordChangeRequest
		for _, cr := range w.rec.ChangeRequests {
			if cr.Place == place {
				items = append(items, cr)
			}
		}
		if len(items) == 0 {
			continue
		}
		if place == fairbalance.ChangeInChecklist {
			w.subheading("Checklist of this round (raised earlier)")
		} else {
			w.subheading("Raised in this round")
		}
		for _, cr := range items {
			w.changeRequest(cr)
		}
	}
}

func (w *recordWriter) changeRequest(cr fairbalance.RecordChangeRequest) {
	w.font("sans", "", 9.5, ink)
	textW := contentW - 30
	meta := fmt.Sprintf("%s review · raised by %s in round %d, %s", word(cr.Role), person(cr.RaisedBy), cr.RaisedInRound, utc(cr.RaisedAt))
	if cr.DoneAt != nil || cr.DoneBy != nil {
		meta += fmt.Sprintf("\nDone by %s, %s", personPtr(cr.DoneBy), utcPtr(cr.DoneAt))
		if cr.DoneNote != "" {
			meta += ": “" + cr.DoneNote + "”"
		}
	}
	if cr.ConfirmedBy != nil {
		meta += fmt.Sprintf("\nConfirmed by %s in round %d, %s", personPtr(cr.ConfirmedBy), cr.ConfirmedInRound, utcPtr(cr.ConfirmedAt))
	}
	if cr.ThreadID != nil {
		i := slices.IndexFunc(w.rec.Annotations, func(a fairbalance.RecordAnnotation) bool { return a.ThreadID == *cr.ThreadID })
		if i >= 0 {
			meta += fmt.Sprintf("\nPoints at annotation A%d (section 6)", i+1)
		} else {
			meta += "\nPoints at an annotation of an earlier version"
		}
	}
	h := float64(w.lines(cr.Text, textW))*4.8 + 2
	w.font("sans", "", 8, muted)
	h += float64(w.lines(meta, contentW-4)) * 4
	w.ensure(h + 4)
	y := w.GetY() + 1.5
	w.SetXY(marginX, y)
	w.font("sans", "", 9.5, ink)
	w.MultiCell(textW, 4.8, clean(cr.Text), "", "L", false)
	after := w.GetY()
	label := word(cr.Status)
	w.font("sans", "B", 7.5, ink)
	pw := w.GetStringWidth(strings.ToUpper(label)) + 5
	w.pill(pageW-marginX-pw, y, label, statusColour(string(cr.Status)))
	w.SetXY(marginX, after+0.5)
	w.font("sans", "", 8, muted)
	w.MultiCell(contentW-4, 4, clean(meta), "", "L", false)
	w.Ln(1.5)
	w.line(w.GetY(), rule, 0.15)
}

func (w *recordWriter) annotations() {
	w.section(fmt.Sprintf("Annotations (%d)", len(w.rec.Annotations)))
	if len(w.rec.Annotations) == 0 {
		w.para("No annotations were made on this version.", 9, muted)
		return
	}
	w.para("Every annotation on the version, in reading order, with its thread. An annotation carried forward from the previous version shows whether its quote was found at the same place (anchored), elsewhere (moved), or not at all (orphaned: its old quote is kept).", 8.5, muted)
	w.Ln(1)
	for i, an := range w.rec.Annotations {
		w.annotation(i+1, an)
	}
}

func (w *recordWriter) annotation(n int, an fairbalance.RecordAnnotation) {
	w.ensure(24)
	w.Ln(2)
	y := w.GetY()
	// The number, then the category and the two states as pills.
	w.font("sans", "B", 10, accent)
	w.SetXY(marginX, y)
	w.CellFormat(11, 5, fmt.Sprintf("A%d", n), "", 0, "L", false, 0, "")
	w.font("sans", "B", 9.5, ink)
	cat := word(an.Category)
	cw := w.GetStringWidth(cat) + 3
	w.CellFormat(cw, 5, clean(cat), "", 0, "L", false, 0, "")
	x := marginX + 11 + cw
	x += w.pill(x, y, word(an.State), statusColour(string(an.State))) + 1.5
	w.pill(x, y, word(an.AnchorStatus), statusColour(string(an.AnchorStatus)))
	w.SetY(y + 6.5)
	indent := marginX + 11
	bodyW := contentW - 11
	if where := location(an, w.rec.Version.Kind != fairbalance.VersionAuthored); where != "" {
		w.SetX(indent)
		w.font("sans", "I", 8.5, muted)
		w.MultiCell(bodyW, 4.2, clean(where), "", "L", false)
	}
	if an.ReferenceID != nil || an.ReferenceQuote != "" {
		ref := "Reference"
		switch {
		case an.ReferenceTitle != "":
			ref += " “" + an.ReferenceTitle + "”"
			if an.ReferenceCitation != "" {
				ref += " (" + an.ReferenceCitation + ")"
			}
		case an.ReferenceID != nil:
			ref += " " + short(*an.ReferenceID, 8)
		}
		if an.ReferencePage != nil {
			ref += fmt.Sprintf(", page %d", *an.ReferencePage)
		}
		if an.ReferenceQuote != "" {
			ref += ": “" + an.ReferenceQuote + "”"
		}
		w.SetX(indent)
		w.font("sans", "", 8.5, muted)
		w.MultiCell(bodyW, 4.2, clean(ref), "", "L", false)
	}
	w.Ln(0.8)
	w.SetX(indent)
	w.font("sans", "", 9.5, ink)
	w.MultiCell(bodyW, 4.8, clean(an.Body), "", "L", false)
	by := fmt.Sprintf("%s, %s", person(an.Author), utc(an.CreatedAt))
	if an.ResolvedAt != nil {
		by += fmt.Sprintf(" · resolved by %s, %s", personPtr(an.ResolvedBy), utcPtr(an.ResolvedAt))
	}
	if an.CarriedFrom != nil {
		by += " · carried forward from the previous version"
	}
	w.SetX(indent)
	w.font("sans", "", 8, faint)
	w.MultiCell(bodyW, 4, clean(by), "", "L", false)
	for _, rp := range an.Replies {
		w.ensure(12)
		w.Ln(1)
		ry := w.GetY()
		w.SetX(indent + 5)
		w.font("sans", "", 9, ink)
		w.MultiCell(bodyW-5, 4.5, clean(rp.Body), "", "L", false)
		w.SetX(indent + 5)
		w.font("sans", "", 8, faint)
		w.MultiCell(bodyW-5, 4, clean(fmt.Sprintf("Reply by %s, %s", person(rp.Author), utc(rp.CreatedAt))), "", "L", false)
		if w.GetY() > ry {
			w.SetDrawColor(rule.r, rule.g, rule.b)
			w.SetLineWidth(0.5)
			w.Line(indent+2, ry, indent+2, w.GetY())
		}
	}
	w.Ln(1.5)
	w.line(w.GetY(), rule, 0.15)
}

// findings is the version's compliance check: each finding with its
// state, then every dismissal with who, when and why.
func (w *recordWriter) findings() {
	c := w.rec.Compliance
	w.section(fmt.Sprintf("Compliance findings (%d)", len(c.Findings)))
	switch {
	case c.CheckedAt == nil && len(c.Findings) == 0:
		w.para("This version has no completed compliance check.", 9, muted)
		return
	case len(c.Findings) == 0:
		w.para("The compliance check of "+utc(*c.CheckedAt)+" found nothing on this version.", 9, muted)
		return
	}
	intro := "What the compliance rules found on the version, in reading order: open, dismissed with a reason, or fixed by a later version."
	if c.CheckedAt != nil {
		intro += " Checked " + utc(*c.CheckedAt) + "."
	}
	w.para(intro, 8.5, muted)
	w.Ln(1)
	paged := w.rec.Version.Kind != fairbalance.VersionAuthored
	for i, f := range c.Findings {
		w.ensure(16)
		w.Ln(1.5)
		y := w.GetY()
		w.font("sans", "B", 10, accent)
		w.SetXY(marginX, y)
		w.CellFormat(11, 5, fmt.Sprintf("F%d", i+1), "", 0, "L", false, 0, "")
		w.font("sans", "B", 9.5, ink)
		label := fmt.Sprintf("%s (v%d)", f.Rule, f.RuleVersion)
		lw := w.GetStringWidth(label) + 3
		w.CellFormat(lw, 5, clean(label), "", 0, "L", false, 0, "")
		x := marginX + 11 + lw
		x += w.pill(x, y, word(f.Severity), severityColour(f.Severity)) + 1.5
		w.pill(x, y, word(f.State), statusColour(string(f.State)))
		w.SetY(y + 6.5)
		where := "“" + f.Quote + "”"
		if paged {
			where = fmt.Sprintf("Page %d: %s", f.Page, where)
		}
		w.SetX(marginX + 11)
		w.font("sans", "I", 8.5, muted)
		w.MultiCell(contentW-11, 4.2, clean(where), "", "L", false)
		w.SetX(marginX + 11)
		w.font("sans", "", 9, ink)
		w.MultiCell(contentW-11, 4.5, clean(f.Message), "", "L", false)
		w.Ln(1)
		w.line(w.GetY(), rule, 0.15)
	}
	if len(c.Dismissals) == 0 {
		return
	}
	w.subheading(fmt.Sprintf("Dismissals (%d)", len(c.Dismissals)))
	for _, d := range c.Dismissals {
		w.ensure(14)
		w.font("sans", "", 9, ink)
		w.MultiCell(contentW, 4.5, clean(fmt.Sprintf("%s · “%s”: %s", d.Rule, d.Quote, d.Reason)), "", "L", false)
		w.font("sans", "", 8, faint)
		w.MultiCell(contentW, 4, clean(fmt.Sprintf("Dismissed by %s, %s", person(d.By), utc(d.At))), "", "L", false)
		w.Ln(1)
	}
}

// severityColour is the pill colour of a finding's severity.
func severityColour(s fairbalance.FindingSeverity) rgb {
	switch s {
	case fairbalance.SeverityCritical:
		return red
	case fairbalance.SeverityWarning:
		return amber
	}
	return gray
}

// location says where an annotation points: the quote of a text target,
// with its page on a paged version, or the page and box of a region.
func location(an fairbalance.RecordAnnotation, paged bool) string {
	t := an.Target
	switch t.Type {
	case fairbalance.TargetText:
		where := ""
		if an.Page > 0 && paged {
			where = fmt.Sprintf("Page %d: ", an.Page)
		}
		if an.AnchorStatus == fairbalance.AnchorOrphaned {
			where = "Not found on this version; the quote was: "
		}
		return where + "“" + short(t.Exact, 600) + "”"
	case fairbalance.TargetRegion:
		if t.Page == nil || t.X == nil || t.Y == nil || t.Width == nil || t.Height == nil {
			return "A region"
		}
		return fmt.Sprintf("Region on page %d: from %.0f%% across and %.0f%% down, %.0f%% wide and %.0f%% high",
			*t.Page, *t.X*100, *t.Y*100, *t.Width*100, *t.Height*100)
	}
	return ""
}

// The audit table's columns: width and heading.
var auditColumns = []struct {
	w     float64
	title string
}{{11, "Entry"}, {31, "Time (UTC)"}, {31, "Actor"}, {47, "Action"}, {33, "Object"}, {21, "Hash"}}

func (w *recordWriter) audit() {
	a := w.rec.Audit
	// The heading stays with the start of the table.
	w.ensure(55)
	w.section(fmt.Sprintf("Audit trail of the round (%d entries)", len(a.Entries)))
	w.para("The entries of the organisation's hash-chained audit trail about this round: its submission, steps, decisions and signatures, change requests, annotations and exports. Each entry's full fields and hash are in the JSON export.", 8.5, muted)
	w.Ln(2)
	w.auditHeader()
	for i, e := range a.Entries {
		w.auditRow(e, i%2 == 1, false)
	}
	if a.Export != nil {
		w.auditRow(*a.Export, len(a.Entries)%2 == 1, true)
		w.Ln(1)
		w.para(fmt.Sprintf("Entry %d, in italics, records this export.", a.Export.Seq), 8, muted)
	}
	w.Ln(3)
	w.checkpoint()
}

func (w *recordWriter) auditHeader() {
	w.ensure(14)
	y := w.GetY()
	w.SetFillColor(ink.r, ink.g, ink.b)
	w.Rect(marginX, y, contentW, 5.5, "F")
	w.SetXY(marginX, y)
	w.font("sans", "B", 7.5, rgb{255, 255, 255})
	for _, c := range auditColumns {
		w.CellFormat(c.w, 5.5, " "+c.title, "", 0, "L", false, 0, "")
	}
	w.SetY(y + 5.5)
}

func (w *recordWriter) auditRow(e fairbalance.RecordAuditEntry, shade, export bool) {
	if w.GetY()+5 > bottom {
		w.AddPage()
		w.auditHeader()
	}
	y := w.GetY()
	if shade {
		w.SetFillColor(wash.r, wash.g, wash.b)
		w.Rect(marginX, y, contentW, 5, "F")
	}
	actor := e.ActorName
	if actor == "" {
		actor = e.ActorEmail
	}
	action := strings.NewReplacer("_", " ", ".", " ").Replace(e.Action)
	object := e.ObjectType
	if e.ObjectID != "" {
		object += " " + short(e.ObjectID, 8)
	}
	hash := e.Hash[:min(len(e.Hash), 10)]
	if !e.HashValid {
		hash = "ALTERED"
	}
	values := []string{fmt.Sprint(e.Seq), e.CreatedAt.UTC().Format("2006-01-02 15:04:05"), actor, action, object, hash}
	w.SetXY(marginX, y)
	for i, c := range auditColumns {
		family, style, colour := "sans", "", ink
		if i == 5 {
			family = "mono"
			if !e.HashValid {
				family, style, colour = "sans", "B", red
			}
		}
		if export && i != 5 {
			style = "I"
		}
		w.font(family, style, 7.5, colour)
		w.CellFormat(c.w, 5, " "+fit(w.doc, clean(values[i]), c.w-2), "", 0, "L", false, 0, "")
	}
	w.SetY(y + 5)
}

// fit cuts text to fit width in the current font, ending with an ellipsis.
func fit(d *doc, text string, width float64) string {
	if d.GetStringWidth(text) <= width {
		return text
	}
	r := []rune(text)
	for len(r) > 0 && d.GetStringWidth(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

func (w *recordWriter) checkpoint() {
	a := w.rec.Audit
	var last int64
	for _, e := range a.Entries {
		last = max(last, e.Seq)
	}
	var text string
	colour := ink
	switch cp := a.Checkpoint; {
	case cp == nil:
		text = "The organisation's audit chain has no checkpoint yet: the entries are protected by the hash chain only. Run `fairbalance audit verify` to check the chain."
		colour = amber
	default:
		text = fmt.Sprintf("Checkpoint: entry %d of the organisation's chain (%d entries), hash %s, sealed %s with key %s. ",
			cp.Seq, cp.Entries, cp.Hash, utc(cp.At), cp.KeyID)
		switch {
		case !cp.SignatureValid:
			text += "Its signature does NOT verify."
			colour = red
		case !cp.ChainMatches:
			text += "Its signature verifies, but the chain no longer holds the sealed hash at that entry: the chain was changed after it was sealed."
			colour = red
		case cp.CoversEntries:
			text += fmt.Sprintf("Its signature verifies and the chain still holds the sealed hash: it seals every entry above (up to entry %d).", cp.Seq)
		default:
			text += fmt.Sprintf("Its signature verifies and the chain still holds the sealed hash. Entries after %d (up to %d) were written after it and are sealed by the next checkpoint, written within a minute.", cp.Seq, last)
		}
	}
	w.font("sans", "", 8.5, colour)
	h := float64(w.lines(text, contentW-8))*4.4 + 9
	w.ensure(h)
	y := w.GetY()
	w.SetDrawColor(rule.r, rule.g, rule.b)
	w.SetLineWidth(0.3)
	w.Rect(marginX, y, contentW, h, "D")
	w.SetXY(marginX+4, y+2)
	w.font("sans", "B", 7.5, accent)
	w.CellFormat(contentW-8, 4.5, "CHAIN CHECKPOINT", "", 1, "L", false, 0, "")
	w.SetX(marginX + 4)
	w.font("sans", "", 8.5, colour)
	w.MultiCell(contentW-8, 4.4, clean(text), "", "L", false)
	w.SetY(y + h + 2)
}

func (w *recordWriter) verification() {
	w.section("How to verify this record")
	w.para("Each electronic signature is sealed: its seal is the SHA-256 of its signed fields (signer, printed name, UTC time, meaning, decision, step, round, version and the version's SHA-256, in a length-prefixed encoding), and its signature is the Ed25519 signature of those fields by the key below. Each audit entry's hash covers its fields and the hash of the entry before it; checkpoints, signed by the same key, seal the chain outside the database. The JSON export of this record carries every signed and hashed field; the version's SHA-256 is that of the file's bytes (of the composed HTML for a composed version).", 8.5, ink)
	w.Ln(2)
	if len(w.rec.Keys) == 0 {
		w.para("This instance holds no signing key: its signatures cannot be verified here.", 8.5, red)
		return
	}
	for _, k := range w.rec.Keys {
		w.fields([]field{
			{label: "Key id", value: k.KeyID, mono: true},
			{label: "Algorithm", value: k.Algorithm},
			{label: "Public key (base64)", value: k.PublicKey, mono: true},
		})
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func bytesLabel(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func fpdfImage(kind string) fpdf.ImageOptions { return fpdf.ImageOptions{ImageType: kind} }
