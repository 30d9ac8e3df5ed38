package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/blobstore/blobtest"
	"fairbalance/samplepdf"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// BenchmarkCheck100PagePDF measures how long a 100-page PDF's findings
// take to be stored once it is uploaded (issue 17: ≤ 2 s): the
// add_asset_version call (reading and extracting the PDF, the version,
// the pending check and its job, in one transaction) and then the job's
// work (the version's text checked against the built-in rules and an
// organisation phrase rule, the previous version's findings carried,
// the findings stored). The queue's own delay before a worker takes the
// job (immediate on PostgreSQL with LISTEN; its poll interval on SQLite)
// is not included. "check-ms" is the job's part alone.
func BenchmarkCheck100PagePDF(b *testing.B) {
	for _, backend := range storetest.Backends() {
		b.Run(backend, func(b *testing.B) { benchCheck100(b, backend) })
	}
}

func benchCheck100(b *testing.B, backend string) {
	ctx := context.Background()
	db := storetest.Open(b, backend)
	h := blobtest.Open(b, "disk")
	s := service.NewStorage(db, h.Store, []byte("secret"), http.DetectContentType)
	d := service.NewRegistry(db, s)
	members, productID := benchOrg(b, db, d)
	marketer, admin := members[fairbalance.RoleMarketer], members[fairbalance.RoleOwner]
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
	call(admin, "save_compliance_rule", map[string]any{"code": "house-guarantee", "title": "Guarantees", "kind": "phrases",
		"phrases": []any{"Guaranteed results", "no side effects", "adverse events stayed below"}, "severity": "critical", "message": "Nothing is guaranteed."})
	pdfs := make([][]byte, 2)
	for k := range pdfs {
		pages := benchPages(k)
		pages[0].Paragraphs = append(pages[0].Paragraphs, "Zelvora is the best treatment for your patients. Guaranteed results with no side effects. Better than lisinopril.")
		var err error
		if pdfs[k], err = samplepdf.Generate("Zelvora clinical summary", pages); err != nil {
			b.Fatal(err)
		}
	}
	upload := func(k int) string {
		prep := call(marketer, "prepare_upload", map[string]any{"bucket": "asset-files", "file_name": "summary.pdf", "content_type": "application/pdf", "size": float64(len(pdfs[k%2]))})
		if _, err := s.UploadSigned(ctx, prep["token"].(string), service.UploadInput{Bucket: "asset-files", Name: prep["path"].(string), Body: bytes.NewReader(pdfs[k%2])}); err != nil {
			b.Fatal(err)
		}
		return prep["path"].(string)
	}
	asset := call(marketer, "create_asset", map[string]any{"title": "Clinical summary", "type": "print", "audience": "hcp", "channel": "Print",
		"market": "US", "product_id": productID, "file_path": upload(0), "file_name": "summary.pdf"})
	if err := d.Compliance.CheckVersion(ctx, asset["current_version_id"].(string)); err != nil {
		b.Fatal(err)
	}
	var checking time.Duration
	var last string
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		path := upload(i + 1)
		b.StartTimer()
		v := call(marketer, "add_asset_version", map[string]any{"asset_id": asset["id"], "file_path": path, "file_name": "summary.pdf", "change_note": "Edited"})
		start := time.Now()
		if err := d.Compliance.CheckVersion(ctx, v["id"].(string)); err != nil {
			b.Fatal(err)
		}
		checking += time.Since(start)
		last = v["id"].(string)
	}
	b.StopTimer()
	out := call(marketer, "version_findings", map[string]any{"version_id": last})
	if out["pending"] != false || len(out["findings"].([]any)) < 100 {
		b.Fatalf("after the job: pending %v, %d findings", out["pending"], len(out["findings"].([]any)))
	}
	b.ReportMetric(float64(len(out["findings"].([]any))), "findings")
	b.ReportMetric(float64(checking.Milliseconds())/float64(b.N), "check-ms")
}
