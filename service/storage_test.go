package service_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/blobstore/blobtest"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

var pdfBytes = []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")

func storageCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	e := fairbalance.AsError(err)
	if e == nil || e.Code != code {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
}

// newStorage returns the storage service on m's store and a fresh blob
// store of the blob backend ("disk" or "s3").
func newStorage(t *testing.T, m *matrixEnv, blobs string) (*service.Storage, blobtest.Harness) {
	t.Helper()
	h := blobtest.Open(t, blobs)
	return service.NewStorage(m.db, h.Store, []byte("secret"), http.DetectContentType), h
}

// storageBackends runs fn on every database and every blob backend.
func storageBackends(t *testing.T, fn func(t *testing.T, backend, blobs string)) {
	for _, backend := range storetest.Backends() {
		for _, blobs := range blobtest.Backends() {
			t.Run(backend+"/"+blobs, func(t *testing.T) { fn(t, backend, blobs) })
		}
	}
}

func TestStorageOrganisationScope(t *testing.T) {
	storageBackends(t, func(t *testing.T, backend, blobs string) {
		m := newMatrix(t, backend)
		s, _ := newStorage(t, m, blobs)
		ctx := m.ctx
		admin, marketer, viewer := m.members["own"]["admin"], m.members["own"]["marketer"], m.members["own"]["viewer"]
		stranger := m.members["other"]["admin"]

		if _, err := s.CreateBucket(ctx, marketer, service.BucketInput{ID: "docs"}); err == nil {
			t.Fatal("a marketer created a bucket")
		}
		limit := int64(1000)
		if _, err := s.CreateBucket(ctx, admin, service.BucketInput{ID: "docs", FileSizeLimit: &limit}); err != nil {
			t.Fatal(err)
		}
		_, err := s.CreateBucket(ctx, stranger, service.BucketInput{ID: "docs"})
		storageCode(t, "duplicate bucket", err, service.CodeDuplicate)

		o, err := s.Upload(ctx, marketer, service.UploadInput{Bucket: "docs", Name: "//a//b.pdf/", Body: bytes.NewReader(pdfBytes), CacheControl: "60"})
		if err != nil {
			t.Fatal(err)
		}
		if o.Name != "a/b.pdf" || o.MimeType != "application/pdf" || o.Size != int64(len(pdfBytes)) || o.CacheControl != "max-age=60" || o.OrgID != m.orgs["own"] {
			t.Fatalf("object = %+v", o)
		}
		e := lastEntry(t, m, m.orgs["own"], fairbalance.ActionObjectCreated)
		if e.ObjectID != o.ID || e.ActorID != marketer.UserID {
			t.Fatalf("audit = %+v", e)
		}
		_, err = s.Upload(ctx, marketer, service.UploadInput{Bucket: "docs", Name: "a/b.pdf", Body: bytes.NewReader(pdfBytes)})
		storageCode(t, "upload without upsert", err, service.CodeDuplicate)
		if _, err := s.Upload(ctx, marketer, service.UploadInput{Bucket: "docs", Name: "a/b.pdf", Body: bytes.NewReader(append(pdfBytes, ' ')), Upsert: true}); err != nil {
			t.Fatal(err)
		}
		lastEntry(t, m, m.orgs["own"], fairbalance.ActionObjectUpdated)

		// Refusals: viewer writes, another organisation, wrong type, size.
		_, err = s.Upload(ctx, viewer, service.UploadInput{Bucket: "docs", Name: "v.pdf", Body: bytes.NewReader(pdfBytes)})
		storageCode(t, "viewer upload", err, service.CodeAccessDenied)
		_, err = s.Upload(ctx, stranger, service.UploadInput{Bucket: "docs", Name: "x.pdf", Body: bytes.NewReader(pdfBytes)})
		storageCode(t, "other organisation upload", err, service.CodeNoSuchBucket)
		_, _, err = s.Open(ctx, stranger, "docs", "a/b.pdf")
		storageCode(t, "other organisation download", err, service.CodeNoSuchBucket)
		if _, err := s.SignURL(ctx, stranger, "docs", "a/b.pdf", 60); err == nil {
			t.Fatal("another organisation signed a URL")
		}
		if l, _ := s.ListBuckets(ctx, stranger); len(l) != 0 {
			t.Fatalf("another organisation lists %v", l)
		}
		_, err = s.Upload(ctx, marketer, service.UploadInput{Bucket: "docs", Name: "page.html", Body: strings.NewReader("<html><script>alert(1)</script>")})
		storageCode(t, "html upload", err, service.CodeInvalidMimeType)
		_, err = s.Upload(ctx, marketer, service.UploadInput{Bucket: "docs", Name: "big.pdf", Body: io.MultiReader(bytes.NewReader(pdfBytes), bytes.NewReader(make([]byte, 1000)))})
		storageCode(t, "too large", err, service.CodeEntityTooLarge)

		// Reads by a viewer of the organisation.
		_, blob, err := s.Open(ctx, viewer, "docs", "a/b.pdf")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(blob)
		blob.Close()
		if !bytes.Equal(got, append(pdfBytes, ' ')) {
			t.Fatalf("downloaded %q", got)
		}

		// List, move, copy, signed URL, remove.
		if _, err := s.Copy(ctx, marketer, "docs", "a/b.pdf", "", "c.pdf"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Move(ctx, marketer, "docs", "c.pdf", "", "a/c/d.pdf"); err != nil {
			t.Fatal(err)
		}
		l, err := s.List(ctx, viewer, "docs", service.ListInput{Prefix: "a"})
		if err != nil || len(l) != 2 || l[0].Name != "b.pdf" || l[1].Name != "c" || l[1].Object != nil {
			t.Fatalf("list = %+v, %v", l, err)
		}
		tok, err := s.SignURL(ctx, viewer, "docs", "a/c/d.pdf", 60)
		if err != nil {
			t.Fatal(err)
		}
		if _, b, err := s.OpenSigned(ctx, "docs", "a/c/d.pdf", tok); err != nil {
			t.Fatal(err)
		} else {
			b.Close()
		}
		_, _, err = s.OpenSigned(ctx, "docs", "a/b.pdf", tok)
		storageCode(t, "token of another object", err, service.CodeInvalidSignature)
		s.Now = func() time.Time { return time.Now().UTC().Add(2 * time.Minute) }
		_, _, err = s.OpenSigned(ctx, "docs", "a/c/d.pdf", tok)
		storageCode(t, "expired token", err, service.CodeExpiredToken)
		s.Now = func() time.Time { return time.Now().UTC() }

		err = s.DeleteBucket(ctx, admin, "docs")
		storageCode(t, "delete non-empty", err, service.CodeResourceNotEmpty)
		gone, err := s.Remove(ctx, marketer, "docs", []string{"a/b.pdf", "a/c/d.pdf", "missing"})
		if err != nil || len(gone) != 2 {
			t.Fatalf("removed %v, %v", gone, err)
		}
		_, _, err = s.Open(ctx, viewer, "docs", "a/b.pdf")
		storageCode(t, "removed object", err, service.CodeNoSuchKey)
		if err := s.DeleteBucket(ctx, admin, "docs"); err != nil {
			t.Fatal(err)
		}
		lastEntry(t, m, m.orgs["own"], fairbalance.ActionBucketDeleted)
	})
}

// Concurrent upserts of one new name all succeed, leave one object and
// no orphan blob (the upload transaction locks the bucket's row on
// PostgreSQL, and SQLite has one writer, so the second sees the first's row).
func TestStorageConcurrentUpserts(t *testing.T) {
	storageBackends(t, func(t *testing.T, backend, blobs string) {
		m := newMatrix(t, backend)
		s, h := newStorage(t, m, blobs)
		admin := m.members["own"]["admin"]
		if _, err := s.CreateBucket(m.ctx, admin, service.BucketInput{ID: "docs"}); err != nil {
			t.Fatal(err)
		}
		const n = 12
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			go func() {
				_, err := s.Upload(m.ctx, admin, service.UploadInput{Bucket: "docs", Name: "same.pdf", Body: bytes.NewReader(pdfBytes), Upsert: true})
				errs <- err
			}()
		}
		for i := 0; i < n; i++ {
			if err := <-errs; err != nil {
				t.Fatalf("concurrent upsert: %v", err)
			}
		}
		l, err := s.List(m.ctx, admin, "docs", service.ListInput{})
		if err != nil || len(l) != 1 {
			t.Fatalf("list = %v, %v", l, err)
		}
		if k := h.Keys(t); len(k) != 1 {
			t.Fatalf("blobs %v, want 1", k)
		}
		if tmp := h.Temporaries(t); len(tmp) != 0 {
			t.Fatalf("temporaries left: %v", tmp)
		}
	})
}
