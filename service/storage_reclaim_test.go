package service_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/service"
)

// orphanKey is a blob key of the storage service's shape.
func orphanKey() string {
	id := auth.NewUUID()
	return id[:2] + "/" + id
}

// The reclaimer: blobs a crash left without a row are deleted once they
// are an hour old; a younger one, one a row names (in a bucket of an
// organisation or a product bucket) and one the storage service did not
// write are kept; batches are bounded; passes of several instances at once
// are safe. The clock is the service's: blobs are written now, the passes
// run at chosen times.
func TestStorageReclaimer(t *testing.T) {
	storageBackends(t, func(t *testing.T, backend, blobs string) {
		m := newMatrix(t, backend)
		s, h := newStorage(t, m, blobs)
		ctx := m.ctx
		admin := m.members["own"]["admin"]
		svc := fairbalance.Caller{Role: "service_role"}
		written := time.Now().UTC()

		if _, err := s.CreateBucket(ctx, admin, service.BucketInput{ID: "docs"}); err != nil {
			t.Fatal(err)
		}
		kept, err := s.Upload(ctx, admin, service.UploadInput{Bucket: "docs", Name: "kept.pdf", Body: bytes.NewReader(pdfBytes)})
		if err != nil {
			t.Fatal(err)
		}
		product, err := s.Upload(ctx, svc, service.UploadInput{Bucket: "asset-files", Name: m.orgs["own"] + "/" + auth.NewUUID() + ".pdf", Body: bytes.NewReader(pdfBytes)})
		if err != nil {
			t.Fatal(err)
		}
		// Blobs whose rows never came (the crash between the two writes).
		var orphans []string
		for range 5 {
			k := orphanKey()
			if _, err := h.Store.Put(ctx, k, bytes.NewReader(pdfBytes), 0); err != nil {
				t.Fatal(err)
			}
			orphans = append(orphans, k)
		}
		// A blob the storage service did not write (a bucket shared with
		// something else) is never its to delete.
		const foreign = "backups/notes.txt"
		if _, err := h.Store.Put(ctx, foreign, strings.NewReader("not ours"), 0); err != nil {
			t.Fatal(err)
		}
		all := append([]string{kept.BlobKey, product.BlobKey, foreign}, orphans...)
		slices.Sort(all)
		if got := h.Keys(t); !slices.Equal(got, all) {
			t.Fatalf("blobs %v, want %v", got, all)
		}

		// Within the hour, every orphan is young and kept.
		s.ReclaimBatch = 2
		s.Now = func() time.Time { return written.Add(40 * time.Minute) }
		res, err := s.ReclaimOrphans(ctx)
		if err != nil || res.Deleted != 0 || res.Young != 7 || res.Foreign != 1 || res.Listed != 8 || res.Checked != 0 {
			t.Fatalf("young pass: %+v, %v", res, err)
		}
		if got := h.Keys(t); !slices.Equal(got, all) {
			t.Fatalf("a young pass deleted: %v", got)
		}

		// Past the hour: the orphans go, in batches of two; what rows name
		// and what is not the service's stay.
		s.Now = func() time.Time { return time.Now().UTC().Add(service.OrphanAge + time.Minute) }
		res, err = s.ReclaimOrphans(ctx)
		if err != nil || res.Deleted != 5 || res.DeletedBytes != int64(5*len(pdfBytes)) || res.InUse != 2 || res.Checked != 7 || res.Batches != 4 || res.Foreign != 1 || res.Failed != 0 {
			t.Fatalf("old pass: %+v, %v", res, err)
		}
		want := []string{kept.BlobKey, product.BlobKey, foreign}
		slices.Sort(want)
		if got := h.Keys(t); !slices.Equal(got, want) {
			t.Fatalf("blobs after the pass %v, want %v", got, want)
		}
		for _, k := range orphans {
			if _, err := h.Store.Stat(ctx, k); !errors.Is(err, fairbalance.ErrNotFound) {
				t.Fatalf("orphan %s: %v", k, err)
			}
		}
		for _, o := range []*fairbalance.StoredObject{kept, product} {
			_, blob, err := s.Open(ctx, svc, o.BucketID, o.Name)
			if err != nil {
				t.Fatalf("%s/%s after the pass: %v", o.BucketID, o.Name, err)
			}
			got, _ := io.ReadAll(blob)
			blob.Close()
			if !bytes.Equal(got, pdfBytes) {
				t.Fatalf("%s/%s changed", o.BucketID, o.Name)
			}
		}

		// A replaced object's old blob whose delete was lost is reclaimed
		// too; passes of two instances at once are safe and idempotent.
		again, err := s.Upload(ctx, admin, service.UploadInput{Bucket: "docs", Name: "kept.pdf", Body: bytes.NewReader(append(pdfBytes, ' ')), Upsert: true})
		if err != nil {
			t.Fatal(err)
		}
		lost := orphanKey()
		if _, err := h.Store.Put(ctx, lost, bytes.NewReader(pdfBytes), 0); err != nil {
			t.Fatal(err)
		}
		other := service.NewStorage(m.db, h.Store, []byte("secret"), http.DetectContentType)
		other.Now, other.ReclaimBatch = s.Now, 1
		var wg sync.WaitGroup
		results := make([]service.Reclaimed, 2)
		errs := make([]error, 2)
		for i, r := range []*service.Storage{s, other} {
			wg.Add(1)
			go func() { defer wg.Done(); results[i], errs[i] = r.ReclaimOrphans(ctx) }()
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil || results[0].Failed+results[1].Failed != 0 || results[0].Deleted+results[1].Deleted < 1 {
			t.Fatalf("concurrent passes: %+v %+v, %v %v", results[0], results[1], errs[0], errs[1])
		}
		want = []string{again.BlobKey, product.BlobKey, foreign}
		slices.Sort(want)
		if got := h.Keys(t); !slices.Equal(got, want) {
			t.Fatalf("blobs after concurrent passes %v, want %v", got, want)
		}
		if res, err := s.ReclaimOrphans(ctx); err != nil || res.Deleted != 0 || res.InUse != 2 {
			t.Fatalf("a pass with nothing to do: %+v, %v", res, err)
		}

		// A pass stops with its context.
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.ReclaimOrphans(cctx); err == nil {
			t.Fatal("a cancelled pass reported no error")
		}
	})
}
