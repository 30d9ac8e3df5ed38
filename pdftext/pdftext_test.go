package pdftext_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"fairbalance/pdftext"
	"fairbalance/samplepdf"
)

func extract(t testing.TB, b []byte) (*pdftext.Document, error) {
	t.Helper()
	return pdftext.Extract(bytes.NewReader(b), int64(len(b)))
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// fivePages uses every standard family and style, punctuation, numbers and
// Windows-1252 characters beyond ASCII, and a marker word unique to each page.
var fivePages = []samplepdf.Page{
	{Heading: "Alpha page", Font: "Helvetica", Paragraphs: []string{
		"Marker ALPHAONE. In a 12-week, randomised, double-blind study (N = 1,204), velostatin 20 mg reduced LDL-C by 38.5% versus placebo (p < 0.001).",
		"Adverse reactions (>= 2%): headache, myalgia; nausea — see section 6.1 of the full Prescribing Information.",
	}},
	{Heading: "Bravo page", Font: "Times", Style: "I", Paragraphs: []string{
		"Marker BRAVOTWO. Patients' mean age was 61.3 years; 47% were women. \"Quoted text\" and it's fine: café, naïve, 5°C.",
	}},
	{Heading: "Charlie page", Font: "Courier", Style: "B", Paragraphs: []string{
		"Marker CHARLIETHREE. x = 3.14; y = [1, 2, 3]; total: $1,999.00 (approx.) & more?",
	}},
	{Heading: "Delta page", Font: "Times", Style: "BI", Paragraphs: []string{
		"Marker DELTAFOUR. Contraindications: hypersensitivity to any component; active liver disease; pregnancy.",
		"A second paragraph on the same page, long enough to wrap across at least two lines of text so that the line break between the lines must turn into a separator and never glue two words together.",
	}},
	{Heading: "Echo page", Font: "Helvetica", Style: "B", Paragraphs: []string{
		"Marker ECHOFIVE. End of document — thank you.",
	}},
}

var markers = []string{"ALPHAONE", "BRAVOTWO", "CHARLIETHREE", "DELTAFOUR", "ECHOFIVE"}

func TestExtractPagesFontsAndSpacing(t *testing.T) {
	b, err := samplepdf.Generate("Extraction test — Fairbalance®", fivePages)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := extract(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != len(fivePages) {
		t.Fatalf("got %d pages, want %d", len(doc.Pages), len(fivePages))
	}
	for i, want := range fivePages {
		got := doc.Pages[i]
		flat := norm(got)
		for _, para := range want.Paragraphs {
			if !strings.Contains(flat, norm(para)) {
				t.Errorf("page %d: paragraph %q not found in\n%s", i+1, para, got)
			}
		}
		if !strings.Contains(flat, want.Heading) {
			t.Errorf("page %d: heading %q missing", i+1, want.Heading)
		}
		if !strings.Contains(flat, "Extraction test — Fairbalance®") {
			t.Errorf("page %d: running header missing:\n%s", i+1, got)
		}
		if !strings.Contains(flat, fmt.Sprintf("Page %d of 5", i+1)) {
			t.Errorf("page %d: footer missing:\n%s", i+1, got)
		}
		for j, m := range markers {
			if has := strings.Contains(got, m); has != (i == j) {
				t.Errorf("page %d: marker %s present=%v", i+1, m, has)
			}
		}
		// Reading order: header first, footer last.
		lines := strings.Split(got, "\n")
		if !strings.HasPrefix(lines[0], "Extraction test") || !strings.HasPrefix(lines[len(lines)-1], "Page ") {
			t.Errorf("page %d: lines out of order: %q", i+1, lines)
		}
		if strings.Contains(got, "  ") || strings.Contains(got, "\f") {
			t.Errorf("page %d: doubled space or form feed in %q", i+1, got)
		}
	}
	if got := strings.Count(doc.PlainText(), "\f"); got != 4 {
		t.Errorf("PlainText has %d form feeds, want 4", got)
	}
}

// Justified text is drawn with word spacing (Tw) that the library ignores
// when it positions glyphs; the words must still come out separated.
func TestExtractJustifiedAndCells(t *testing.T) {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddPage()
	f.SetFont("Times", "", 12)
	text := "Justified text spreads words across the whole width of the line so that both margins are straight, which is how most printed leaflets and prescribing information are typeset."
	f.MultiCell(120, 6, text, "", "J", false)
	f.SetFont("Courier", "", 10)
	f.Cell(40, 6, "Left cell")
	f.Cell(40, 6, "Right cell")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := extract(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got := norm(doc.Pages[0])
	if !strings.Contains(got, text) {
		t.Errorf("justified paragraph not recovered:\n%s", doc.Pages[0])
	}
	if !strings.Contains(got, "Left cell Right cell") {
		t.Errorf("cells on one row not joined in order:\n%s", doc.Pages[0])
	}
}

func TestExtractEmptyPage(t *testing.T) {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddPage()
	f.AddPage()
	f.SetFont("Helvetica", "", 12)
	f.Cell(40, 10, "Second")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := extract(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 2 || doc.Pages[0] != "" || doc.Pages[1] != "Second" {
		t.Fatalf("got %q", doc.Pages)
	}
}

func TestExtractCorruptGivesError(t *testing.T) {
	good, err := samplepdf.Generate("Corrupt", fivePages[:2])
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	for i := len(flipped) / 3; i < len(flipped)-200; i += 7 {
		flipped[i] ^= 0x5a
	}
	noXref := bytes.Replace(bytes.Clone(good), []byte("xref"), []byte("xxxx"), -1)
	cases := map[string][]byte{
		"empty":          {},
		"not a pdf":      []byte("hello, this is not a PDF at all\n%%EOF\n"),
		"header only":    []byte("%PDF-1.4\n"),
		"truncated half": good[:len(good)/2],
		"truncated tail": good[:len(good)-30],
		"flipped bytes":  flipped,
		"no xref":        noXref,
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			doc, err := extract(t, b)
			if err == nil {
				// Damage the library can step over is fine as long as the
				// result is well-formed.
				if name == "flipped bytes" {
					return
				}
				t.Fatalf("no error, got %d pages", len(doc.Pages))
			}
			if !errors.Is(err, pdftext.ErrUnreadable) || err.Error() != "The PDF could not be read." {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestExtractEncrypted(t *testing.T) {
	gen := func(user, owner string) []byte {
		f := fpdf.New("P", "mm", "A4", "")
		f.SetProtection(fpdf.CnProtectPrint, user, owner)
		f.AddPage()
		f.SetFont("Helvetica", "", 12)
		f.Cell(40, 10, "Secret text")
		var buf bytes.Buffer
		if err := f.Output(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	_, err := extract(t, gen("user-secret", "owner-secret"))
	if !errors.Is(err, pdftext.ErrEncrypted) {
		t.Fatalf("password-protected: err = %v, want ErrEncrypted", err)
	}
	// Owner-only protection opens with the empty password, but the library
	// cannot decrypt fpdf's RC4 streams: still a clear refusal, not garbage.
	doc, err := extract(t, gen("", "owner-secret"))
	if err == nil && doc.Pages[0] != "Secret text" {
		t.Fatalf("owner-only protection: got %q", doc.Pages[0])
	}
	if err != nil && !errors.Is(err, pdftext.ErrEncrypted) {
		t.Fatalf("owner-only protection: err = %v, want ErrEncrypted", err)
	}
}

func TestExtractLimits(t *testing.T) {
	b, err := samplepdf.Generate("Limits", fivePages)
	if err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(b)
	if _, err := pdftext.ExtractLimited(r, int64(len(b)), pdftext.Limits{MaxPages: 4}); !errors.Is(err, pdftext.ErrTooManyPages) {
		t.Errorf("MaxPages: err = %v", err)
	}
	if _, err := pdftext.ExtractLimited(r, int64(len(b)), pdftext.Limits{MaxBytes: 100}); !errors.Is(err, pdftext.ErrTooLarge) {
		t.Errorf("MaxBytes: err = %v", err)
	}
	if _, err := pdftext.ExtractLimited(r, int64(len(b)), pdftext.Limits{Timeout: time.Nanosecond}); !errors.Is(err, pdftext.ErrTooComplex) {
		t.Errorf("Timeout: err = %v", err)
	}
	doc, err := pdftext.ExtractLimited(r, int64(len(b)), pdftext.Limits{MaxPageText: 40})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range doc.Pages {
		if len(p) > 40 {
			t.Errorf("page %d: %d bytes kept, limit 40", i+1, len(p))
		}
	}
}

// rawPDF assembles a PDF from numbered object bodies (object i+1 = objs[i])
// with a correct cross-reference table, for inputs fpdf cannot produce.
func rawPDF(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func stream(s string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s)
}

// A content stream that makes the library panic (an unbalanced Q) costs
// that page its text, not the whole document.
func TestExtractBadPageKeepsOthers(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
	b := rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 7 0 R >>",
		font,
		stream("BT /F1 12 Tf 72 700 Td (Good page) Tj ET"),
		stream("Q Q BT /F1 12 Tf 72 700 Td (Bad page) Tj ET"),
	})
	doc, err := extract(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 2 || doc.Pages[0] != "Good page" || doc.Pages[1] != "" {
		t.Fatalf("got %q", doc.Pages)
	}

	// Every page bad: the document is unreadable.
	b = rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		font,
		stream("Q"),
	})
	if _, err := extract(t, b); !errors.Is(err, pdftext.ErrUnreadable) {
		t.Fatalf("err = %v", err)
	}
}

// A page tree whose kid is the tree itself would loop forever inside the
// library; the read budget ends it.
func TestExtractCyclicPageTree(t *testing.T) {
	b := rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [2 0 R] /Count 3 >>",
	})
	start := time.Now()
	_, err := pdftext.ExtractLimited(bytes.NewReader(b), int64(len(b)), pdftext.Limits{Timeout: 2 * time.Second})
	if err == nil {
		t.Fatal("no error")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
}

// An object stream that contains itself sends the library into unbounded
// recursion (a fatal stack overflow, not a panic); it is refused first.
func TestExtractSelfContainedObjectStream(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	off1 := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	off3 := b.Len()
	entries := []byte{
		0, 0, 0, 0,
		1, byte(off1 >> 8), byte(off1), 0,
		2, 0, 2, 0, // object 2 is in object stream 2: itself
		1, byte(off3 >> 8), byte(off3), 0,
	}
	fmt.Fprintf(&b, "3 0 obj\n<< /Type /XRef /Size 4 /W [1 2 1] /Root 1 0 R /Length %d >>\nstream\n", len(entries))
	b.Write(entries)
	b.WriteString("\nendstream\nendobj\n")
	fmt.Fprintf(&b, "startxref\n%d\n%%%%EOF\n", off3)
	if _, err := extract(t, b.Bytes()); !errors.Is(err, pdftext.ErrUnreadable) {
		t.Fatalf("err = %v", err)
	}
}

func FuzzExtract(f *testing.F) {
	good, err := samplepdf.Generate("Fuzz seed", fivePages[:2])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(rawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		stream("BT /F1 12 Tf 72 700 Td [(A) -250 (B)] TJ ET"),
	}))
	lim := pdftext.Limits{Timeout: time.Second, MaxPages: 50}
	f.Fuzz(func(t *testing.T, b []byte) {
		// A hang must fail with the stuck stack, not stall the fuzzer.
		watchdog := time.AfterFunc(15*time.Second, func() {
			buf := make([]byte, 1<<20)
			panic("extraction hung:\n" + string(buf[:runtime.Stack(buf, true)]))
		})
		defer watchdog.Stop()
		doc, err := pdftext.ExtractLimited(bytes.NewReader(b), int64(len(b)), lim)
		if err != nil {
			if doc != nil {
				t.Fatal("document with error")
			}
			return
		}
		for _, p := range doc.Pages {
			if !utf8Valid(p) || strings.ContainsRune(p, 0) {
				t.Fatalf("invalid page text %q", p)
			}
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// The page tree is walked once: a long document costs time linear in its
// pages (the library's Page(i) alone is quadratic).
func TestExtractManyPages(t *testing.T) {
	var pages []samplepdf.Page
	for i := 0; i < 400; i++ {
		pages = append(pages, samplepdf.Page{Heading: fmt.Sprintf("Section %d", i+1), Paragraphs: []string{fivePages[i%5].Paragraphs[0]}})
	}
	b, err := samplepdf.Generate("Long document", pages)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	doc, err := extract(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 400 || !strings.Contains(doc.Pages[399], "Section 400") || !strings.Contains(doc.Pages[399], "Page 400 of 400") {
		t.Fatalf("%d pages; last: %q", len(doc.Pages), doc.Pages[len(doc.Pages)-1])
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("400 pages took %v", d)
	}
	if _, err := pdftext.ExtractLimited(bytes.NewReader(b), int64(len(b)), pdftext.Limits{MaxPages: 399}); !errors.Is(err, pdftext.ErrTooManyPages) {
		t.Fatalf("MaxPages 399: err = %v", err)
	}
}
