package service_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"fairbalance"
	"fairbalance/blobstore/blobtest"
	"fairbalance/pdftext"
	"fairbalance/recordpdf"
	"fairbalance/samplepdf"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// BenchmarkReviewRecord200On100Pages measures the review record's PDF of
// an approved round on a 100-page PDF carrying 200 annotations (180 on
// text, 20 regions; every tenth with a reply), as GET
// /api/reviews/{id}/record.pdf makes it (issue 16: ≤ 3 s): the record read
// and audited in its transaction, the file hashed for the signatures'
// check, the record's pages written and joined to the version's 100. "json"
// is the JSON form's share: the same record, no PDF.
//
//	go test -tags noui -run '^$' -bench BenchmarkReviewRecord200On100Pages -benchtime 3x ./service
//	TEST_DATABASE_URL=postgres://… go test -tags noui -run '^$' -bench BenchmarkReviewRecord200On100Pages -benchtime 3x ./service
func BenchmarkReviewRecord200On100Pages(b *testing.B) {
	for _, backend := range storetest.Backends() {
		b.Run(backend, func(b *testing.B) {
			ctx := context.Background()
			db := storetest.Open(b, backend)
			h := blobtest.Open(b, "disk")
			s := service.NewStorage(db, h.Store, []byte("secret"), http.DetectContentType)
			d := service.NewRegistry(db, s)
			_, key, _ := ed25519.GenerateKey(nil)
			d.Config.SignatureKey = key
			members, productID := benchOrg(b, db, d)
			marketer, medical, owner := members[fairbalance.RoleMarketer], members[fairbalance.RoleReviewerMedical], members[fairbalance.RoleOwner]
			call := func(c fairbalance.Caller, fn string, args map[string]any) map[string]any {
				raw, err := d.Call(ctx, c, fn, args, false)
				if err != nil {
					b.Fatalf("%s: %v", fn, err)
				}
				var out map[string]any
				if err := json.Unmarshal(raw, &out); err != nil {
					b.Fatal(err)
				}
				return out
			}
			pages := benchPages(0)
			pages[99].Paragraphs = append(pages[99].Paragraphs, isiLine)
			pdf, err := samplepdf.Generate("Zelvora clinical summary", pages)
			if err != nil {
				b.Fatal(err)
			}
			prep := call(marketer, "prepare_upload", map[string]any{"bucket": "asset-files", "file_name": "summary.pdf", "content_type": "application/pdf", "size": float64(len(pdf))})
			if _, err := s.UploadSigned(ctx, prep["token"].(string), service.UploadInput{Bucket: "asset-files", Name: prep["path"].(string), Body: bytes.NewReader(pdf)}); err != nil {
				b.Fatal(err)
			}
			asset := call(marketer, "create_asset", map[string]any{"title": "Clinical summary", "type": "print", "audience": "hcp", "channel": "Print",
				"market": "US", "product_id": productID, "file_path": prep["path"], "file_name": "summary.pdf"})
			version := asset["current_version_id"].(string)
			for i := 0; i < 200; i++ {
				target := map[string]any{"type": "region", "page": float64(1 + i*5%100), "x": 0.1, "y": 0.2, "width": 0.3, "height": 0.1}
				if i%10 != 0 {
					p, q := i%100, i%6
					target = map[string]any{"type": "text", "exact": fmt.Sprintf("patients on Zelvora %d mg reached their LDL-C goal by week %d", 10*(q+1), 4+p%9),
						"prefix": fmt.Sprintf("In study ZEN-%d cohort %d, ", p+1, q+1)}
				}
				a := call(medical, "create_annotation", map[string]any{"version_id": version, "category": "claim_needs_reference",
					"body": fmt.Sprintf("Point %d: cite the study that shows this, with the page and the passage.", i), "target": target})
				if i%10 == 5 {
					call(marketer, "reply_annotation", map[string]any{"annotation_id": a["id"], "body": "Cited in the next version."})
				}
			}
			round := call(marketer, "submit_for_review", map[string]any{"asset_id": asset["id"]})
			for _, x := range round["steps"].([]any) {
				st := x.(map[string]any)
				if _, err := d.Reviews.DecideSigned(ctx, members[st["role"].(string)], service.DecideInput{StepID: st["id"].(string), Decision: fairbalance.DecisionApproved, Comment: "Approved."}); err != nil {
					b.Fatal(err)
				}
			}
			reviewID := round["id"].(string)

			b.Run("pdf", func(b *testing.B) {
				var size, pageCount int
				for i := 0; i < b.N; i++ {
					exp, err := d.Records.ReviewRecord(ctx, owner, reviewID, service.FormatPDF)
					if err != nil {
						b.Fatal(err)
					}
					doc, err := recordpdf.ReviewRecord(exp.Record, exp.File, exp.FileProblem)
					exp.File.Close()
					if err != nil {
						b.Fatal(err)
					}
					if len(exp.Record.Annotations) != 200 {
						b.Fatalf("%d annotations", len(exp.Record.Annotations))
					}
					size = len(doc)
					if i == 0 {
						b.StopTimer()
						text, err := pdftext.Extract(bytes.NewReader(doc), int64(len(doc)))
						if err != nil {
							b.Fatal(err)
						}
						pageCount = len(text.Pages)
						b.StartTimer()
					}
				}
				b.ReportMetric(float64(size)/(1<<20), "MB")
				b.ReportMetric(float64(pageCount), "pages")
			})
			b.Run("json", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					exp, err := d.Records.ReviewRecord(ctx, owner, reviewID, service.FormatJSON)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := json.Marshal(exp.Record); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
