package sqlstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

func TestStorageStore(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			now := time.Date(2026, 11, 22, 10, 0, 0, 123456000, time.UTC)
			limit := int64(1 << 20)
			b := &fairbalance.Bucket{ID: "docs", Name: "docs", OrgID: "org-1", Owner: "u1", FileSizeLimit: &limit, AllowedMimeTypes: []string{"application/pdf", "image/*"}, CreatedAt: now, UpdatedAt: now}
			pub := &fairbalance.Bucket{ID: "pub", Name: "pub", Public: true, OrgID: "org-2", CreatedAt: now, UpdatedAt: now}
			err := db.Tx(ctx, func(tx fairbalance.Tx) error {
				if err := tx.InsertBucket(ctx, b); err != nil {
					return err
				}
				return tx.InsertBucket(ctx, pub)
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.InsertBucket(ctx, b) }); !errors.Is(err, fairbalance.ErrConflict) {
				t.Fatalf("duplicate bucket: %v", err)
			}
			got, err := db.View().BucketByID(ctx, "docs")
			if err != nil || got.FileSizeLimit == nil || *got.FileSizeLimit != limit || len(got.AllowedMimeTypes) != 2 || got.Public || got.OrgID != "org-1" || !got.CreatedAt.Equal(now) {
				t.Fatalf("bucket = %+v, %v", got, err)
			}
			gp, err := db.View().BucketByID(ctx, "pub")
			if err != nil || !gp.Public || gp.FileSizeLimit != nil || gp.AllowedMimeTypes != nil {
				t.Fatalf("public bucket = %+v, %v", gp, err)
			}
			if _, err := db.View().BucketByID(ctx, "nope"); !errors.Is(err, fairbalance.ErrNotFound) {
				t.Fatalf("missing bucket: %v", err)
			}
			if l, _ := db.View().ListBuckets(ctx, "org-1", false); len(l) != 1 || l[0].ID != "docs" {
				t.Fatalf("org list = %v", l)
			}
			// Migration 0006 adds the two product buckets of the instance.
			if l, _ := db.View().ListBuckets(ctx, "", true); len(l) != 4 {
				t.Fatalf("all = %v", l)
			}
			if sys, err := db.View().BucketByID(ctx, "asset-files"); err != nil || !sys.ServerPaths || sys.OrgID != "" || sys.Public || *sys.FileSizeLimit != 500<<20 || len(sys.AllowedMimeTypes) != 4 {
				t.Fatalf("asset-files = %+v, %v", sys, err)
			}

			obj := func(id, name string) *fairbalance.StoredObject {
				return &fairbalance.StoredObject{ID: id, BucketID: "docs", Name: name, OrgID: "org-1", Owner: "u1", BlobKey: "k-" + id, Size: 3, MimeType: "application/pdf", SHA256: "abc", CacheControl: "max-age=3600", Metadata: []byte(`{"a":1}`), CreatedAt: now, UpdatedAt: now, LastAccessedAt: now}
			}
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				for i, n := range []string{"a/x.pdf", "a/b/y.pdf", "a%_/z.pdf", "b.pdf"} {
					if err := tx.InsertObject(ctx, obj(string(rune('1'+i)), n)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.InsertObject(ctx, obj("9", "b.pdf")) }); !errors.Is(err, fairbalance.ErrConflict) {
				t.Fatalf("duplicate name: %v", err)
			}
			l, err := db.View().ObjectsWithPrefix(ctx, "docs", "a/", 0)
			if err != nil || len(l) != 2 || l[0].Name != "a/b/y.pdf" || l[1].Name != "a/x.pdf" {
				t.Fatalf("prefix a/ = %v, %v", l, err)
			}
			// The prefix is literal: % and _ are not wildcards.
			if l, _ := db.View().ObjectsWithPrefix(ctx, "docs", "a%_", 0); len(l) != 1 {
				t.Fatalf("literal prefix = %d objects", len(l))
			}
			if l, _ := db.View().ObjectsWithPrefix(ctx, "docs", "", 3); len(l) != 3 {
				t.Fatalf("limit = %d objects", len(l))
			}
			if n, _ := db.View().CountObjects(ctx, "docs"); n != 4 {
				t.Fatalf("count = %d", n)
			}
			// Blob keys in use are the ones rows name, and only those.
			if used, err := db.View().BlobKeysInUse(ctx, []string{"k-1", "k-4", "k-9", "k-"}); err != nil || len(used) != 2 || !used["k-1"] || !used["k-4"] {
				t.Fatalf("blob keys in use = %v, %v", used, err)
			}
			if used, err := db.View().BlobKeysInUse(ctx, nil); err != nil || len(used) != 0 {
				t.Fatalf("no keys: %v, %v", used, err)
			}
			o, err := db.View().ObjectByName(ctx, "docs", "b.pdf")
			if err != nil || string(o.Metadata) == "" || o.Size != 3 || !o.LastAccessedAt.Equal(now) {
				t.Fatalf("object = %+v, %v", o, err)
			}
			o.Name, o.BucketID, o.Size = "c.pdf", "pub", 7
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.UpdateObject(ctx, o) }); err != nil {
				t.Fatal(err)
			}
			if o2, err := db.View().ObjectByName(ctx, "pub", "c.pdf"); err != nil || o2.Size != 7 {
				t.Fatalf("moved = %+v, %v", o2, err)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.DeleteBucket(ctx, "pub") }); err == nil {
				t.Fatal("a bucket with objects was deleted")
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.DeleteObject(ctx, o.ID) }); err != nil {
				t.Fatal(err)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.DeleteObject(ctx, o.ID) }); !errors.Is(err, fairbalance.ErrNotFound) {
				t.Fatalf("second delete: %v", err)
			}
			if used, err := db.View().BlobKeysInUse(ctx, []string{"k-1", "k-4"}); err != nil || len(used) != 1 || !used["k-1"] {
				t.Fatalf("blob keys in use after a delete = %v, %v", used, err)
			}
			b.Public, b.AllowedMimeTypes, b.FileSizeLimit = true, nil, nil
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.UpdateBucket(ctx, b) }); err != nil {
				t.Fatal(err)
			}
			if g, _ := db.View().BucketByID(ctx, "docs"); !g.Public || g.AllowedMimeTypes != nil || g.FileSizeLimit != nil {
				t.Fatalf("updated = %+v", g)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.DeleteBucket(ctx, "pub") }); err != nil {
				t.Fatal(err)
			}
		})
	}
}
