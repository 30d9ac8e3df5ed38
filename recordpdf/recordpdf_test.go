package recordpdf_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/pdftext"
	"fairbalance/recordpdf"
	"fairbalance/samplepdf"
)

// The record's PDF from records made here (the service's tests print
// records read from the database): image versions, files that cannot be
// joined, text the fonts lack, and long threads.

var at = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func record(kind fairbalance.VersionKind, mime string) *fairbalance.ReviewRecord {
	signed := &fairbalance.Signature{ID: "sig-1", SignerName: "Dr. Ana Łukasiewicz-Müller", SignedAt: at, Meaning: fairbalance.MeaningApproval,
		Decision: fairbalance.DecisionApproved, RenditionSHA256: strings.Repeat("ab", 32), Seal: strings.Repeat("cd", 32), KeyID: "0123456789abcdef", Sig: "c2ln"}
	rec := &fairbalance.ReviewRecord{
		Format: fairbalance.ReviewRecordFormat, GeneratedAt: at, GeneratedBy: fairbalance.RecordPerson{ID: "u1", Name: "Mara Marketer"},
		Organisation: fairbalance.RecordOrg{ID: "o1", Name: "Acme Biologics"},
		Asset: fairbalance.RecordAsset{ID: "a1", Title: "Zentria launch banner", Type: fairbalance.AssetBanner, JobCode: "FB-US-0007",
			Product: &fairbalance.RecordProduct{BrandName: "Zentria", EstablishedName: "zentramab"}, Status: fairbalance.AssetApproved},
		Round: fairbalance.RecordRound{ID: "r1", Number: 1, Status: fairbalance.ReviewApproved, SubmittedBy: fairbalance.RecordPerson{ID: "u1", Name: "Mara Marketer"},
			SubmittedAt: at, ClosedAt: ptr(at.Add(time.Hour))},
		Version: fairbalance.RecordVersion{ID: "v1", Number: 1, Kind: kind, PageCount: 1, SHA256: strings.Repeat("ab", 32), CreatedAt: at},
		Steps: []fairbalance.RecordStep{{ID: "s1", Role: fairbalance.ReviewerMedical, Required: true, Status: fairbalance.StepApproved,
			DecidedBy: &fairbalance.RecordPerson{ID: "u2", Name: "Dr. Ana Łukasiewicz-Müller"}, DecidedAt: ptr(at), Signature: signed,
			Check: &fairbalance.SignatureCheck{Valid: true, Reason: "The signature is intact.", SealIntact: true, BoundToStep: true, RenditionMatches: true}}},
		Annotations: []fairbalance.RecordAnnotation{
			{ID: "n1", Category: fairbalance.CategoryLegal, State: fairbalance.AnnotationOpen, AnchorStatus: fairbalance.AnchorAnchored, Body: "The logo needs ® 🚀 here.",
				Target: fairbalance.Target{Type: fairbalance.TargetRegion, Page: ptr(1), X: ptr(0.1), Y: ptr(0.2), Width: ptr(0.3), Height: ptr(0.1)},
				Page:   1, Author: fairbalance.RecordPerson{ID: "u3", Name: "Lou Legal"}, CreatedAt: at},
		},
		Keys: []fairbalance.RecordKey{{KeyID: "0123456789abcdef", Algorithm: "Ed25519", PublicKey: "AAAA"}},
	}
	if mime != "" {
		rec.Version.MimeType, rec.Version.FileName = &mime, ptr("banner")
	}
	return rec
}

func text(t *testing.T, doc []byte) []string {
	t.Helper()
	d, err := pdftext.Extract(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatalf("the record is not a readable PDF: %v", err)
	}
	return d.Pages
}

func TestImageVersionLeadsTheRecord(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 600, 300))
	for x := 0; x < 600; x++ {
		for y := 0; y < 300; y++ {
			img.Set(x, y, color.RGBA{15, 118, 110, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	doc, err := recordpdf.ReviewRecord(record(fairbalance.VersionFile, "image/png"), bytes.NewReader(b.Bytes()), "")
	if err != nil {
		t.Fatal(err)
	}
	pages := text(t, doc)
	if !strings.Contains(pages[0], "Version 1 as reviewed") || !strings.Contains(pages[0], "A1") {
		t.Fatalf("page 1 is not the image with its region: %q", pages[0])
	}
	if !strings.Contains(pages[1], "Page 1 is version 1 exactly as reviewed") || !strings.Contains(pages[1], "This record begins on page 2") {
		t.Fatalf("page 2: %q", pages[1])
	}
	if last := pages[len(pages)-1]; !strings.Contains(last, "Page "+strconv.Itoa(len(pages))+" of "+strconv.Itoa(len(pages))) {
		t.Fatalf("last page numbering: %q", last)
	}
}

func TestUnreadableFilesAreLeftOutAndSaidSo(t *testing.T) {
	for name, c := range map[string]struct {
		mime string
		body []byte
		want string
	}{
		"not a PDF":    {"application/pdf", []byte("%PDF-1.7 but nothing else"), "could not be read to include its pages"},
		"not an image": {"image/png", []byte("not a png"), "The version's image could not be read"},
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := recordpdf.ReviewRecord(record(fairbalance.VersionFile, c.mime), bytes.NewReader(c.body), "")
			if err != nil {
				t.Fatal(err)
			}
			if all := strings.Join(text(t, doc), "\n"); !strings.Contains(all, c.want) || !strings.Contains(all, "REVIEW RECORD") {
				t.Fatalf("the record does not say why: %q", all)
			}
		})
	}
	doc, err := recordpdf.ReviewRecord(record(fairbalance.VersionFile, "application/pdf"), nil, "The version's file can no longer be read.")
	if err != nil {
		t.Fatal(err)
	}
	if all := strings.Join(text(t, doc), "\n"); !strings.Contains(all, "The version's file can no longer be read.") {
		t.Fatalf("the service's reason is not printed: %q", all)
	}
}

func TestVersionPagesComeFirst(t *testing.T) {
	pdf, err := samplepdf.Generate("Zentria banner", []samplepdf.Page{{Heading: "One"}, {Heading: "Two"}, {Heading: "Three"}})
	if err != nil {
		t.Fatal(err)
	}
	rec := record(fairbalance.VersionFile, "application/pdf")
	rec.Version.PageCount = 3
	doc, err := recordpdf.ReviewRecord(rec, bytes.NewReader(pdf), "")
	if err != nil {
		t.Fatal(err)
	}
	pages := text(t, doc)
	for i, want := range []string{"One", "Two", "Three"} {
		if !strings.Contains(pages[i], want) || strings.Contains(pages[i], "REVIEW RECORD") {
			t.Fatalf("page %d: %q", i+1, pages[i])
		}
	}
	if !strings.Contains(pages[3], "Pages 1 to 3 are version 1") || !strings.Contains(pages[3], "Page 4 of "+strconv.Itoa(len(pages))) {
		t.Fatalf("page 4: %q", pages[3])
	}
}

// Text beyond the fonts (an emoji) prints as "?", never breaks the PDF;
// a long thread flows over pages.
func TestAnyTextPrints(t *testing.T) {
	rec := record(fairbalance.VersionAuthored, "")
	long := strings.Repeat("Every word of this comment is kept, however long the thread grows. ", 120)
	an := rec.Annotations[0]
	an.Target = fairbalance.Target{Type: fairbalance.TargetText, Exact: "Zentria relieves pain 🚀 fast"}
	an.Body = long
	for i := 0; i < 30; i++ {
		an.Replies = append(an.Replies, fairbalance.RecordReply{ID: "p", Body: "Reply \x00\x07 with control characters and 日本語.", Author: fairbalance.RecordPerson{ID: "u9"}, CreatedAt: at})
	}
	rec.Annotations = []fairbalance.RecordAnnotation{an}
	rec.Version.Text = ptr("Zentria relieves pain 🚀 fast.\nImportant Safety Information: see below.")
	doc, err := recordpdf.ReviewRecord(rec, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(text(t, doc), "\n")
	for _, want := range []string{"Zentria relieves pain ? fast", "Every word of this comment is kept", "Former member (u9)", "TEXT AS REVIEWED"} {
		if !strings.Contains(all, want) {
			t.Fatalf("missing %q", want)
		}
	}
}

func TestForm2253OnOnePage(t *testing.T) {
	f := &fairbalance.Form2253{Format: fairbalance.Form2253Format, GeneratedAt: at, GeneratedBy: fairbalance.RecordPerson{ID: "u1", Name: "Rae Regulatory"},
		Applicant: "Acme Biologics", Product: fairbalance.Form2253Product{ProprietaryName: "Zentria", EstablishedName: "zentramab", PIReference: "Zentria PI 01/2026"},
		Material: fairbalance.Form2253Material{Type: fairbalance.AssetDetailAid, TypeLabel: fairbalance.Form2253MaterialType(fairbalance.AssetDetailAid),
			Audience: fairbalance.AudienceProfessional, DisseminationDate: "2026-03-02", DisseminationBasis: fairbalance.DisseminationApproval, MaterialID: "FB-US-0007",
			Description: "Zentria launch detail aid (Field force)", Title: "Zentria launch detail aid", Channel: "Field force", Market: "US", VersionNumber: 2,
			SHA256: strings.Repeat("ab", 32), FileName: ptr("detail-aid.pdf"), PageCount: 12, ApprovedAt: at, ApprovedInRound: 2, ExpiresAt: ptr("2027-03-02")},
		ToComplete: fairbalance.Form2253Items}
	doc, err := recordpdf.Form2253(f)
	if err != nil {
		t.Fatal(err)
	}
	pages := text(t, doc)
	if len(pages) != 1 {
		t.Fatalf("%d pages", len(pages))
	}
	for _, want := range []string{"3. PROPRIETARY NAME", "Zentria", "4. ESTABLISHED NAME", "zentramab", "Detail aid (sales aid)", "FB-US-0007", "2026-03-02", "To complete", "Zentria PI 01/2026"} {
		if !strings.Contains(pages[0], want) {
			t.Fatalf("missing %q: %q", want, pages[0])
		}
	}
}
