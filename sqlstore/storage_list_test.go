package sqlstore_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

// listRef is the listing computed from all names, to compare with the SQL.
func listRef(objs []*fairbalance.StoredObject, l fairbalance.ObjectListing) []fairbalance.ObjectEntry {
	tm := func(o *fairbalance.StoredObject) time.Time {
		switch l.Sort {
		case "created_at":
			return o.CreatedAt
		case "updated_at":
			return o.UpdatedAt
		case "last_accessed_at":
			return o.LastAccessedAt
		}
		return time.Time{}
	}
	var out []fairbalance.ObjectEntry
	folders := map[string]int{}
	for _, o := range objs {
		if !strings.HasPrefix(o.Name, l.Prefix) {
			continue
		}
		rest := o.Name[len(l.Prefix):]
		if i := strings.IndexByte(rest, '/'); l.Folders && i >= 0 {
			f := l.Prefix + rest[:i+1]
			var t time.Time
			if l.Sort != "" && l.Sort != "name" {
				t = o.CreatedAt
			}
			if k, ok := folders[f]; ok {
				if t.Before(out[k].Time) {
					out[k].Time = t
				}
				continue
			}
			folders[f] = len(out)
			out = append(out, fairbalance.ObjectEntry{Name: f, Time: t})
			continue
		}
		out = append(out, fairbalance.ObjectEntry{Name: o.Name, Time: tm(o), Object: o})
	}
	less := func(a, b fairbalance.ObjectEntry) bool {
		if l.FoldersFirst && (a.Object == nil) != (b.Object == nil) {
			return a.Object == nil
		}
		if l.FoldersFirst && a.Object == nil {
			return a.Name < b.Name != l.Desc
		}
		if !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time) != l.Desc
		}
		return a.Name < b.Name != l.Desc
	}
	sort.Slice(out, func(i, j int) bool {
		if l.FoldersFirst && (out[i].Object == nil) != (out[j].Object == nil) {
			return out[i].Object == nil
		}
		return less(out[i], out[j])
	})
	return out
}

func entryNames(es []fairbalance.ObjectEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
		if e.Object == nil {
			out[i] += "(dir)"
		}
	}
	return out
}

// Every listing, paged by keyset with several page sizes, gives the
// reference listing, on both databases.
func TestListObjects(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			base := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
			names := []string{"a.pdf", "a/b.pdf", "a/c/d.pdf", "a/c/e.pdf", "a/c/f/g.pdf", "a/d.pdf", "a-b.pdf", "a0.pdf",
				"b/x.pdf", "b/y/z.pdf", "b.pdf", "é/1.pdf", "é.pdf", "z%_/1.pdf", "z%_.pdf", "Z.pdf", "a/c.pdf", "a/cc/1.pdf"}
			var objs []*fairbalance.StoredObject
			err := db.Tx(ctx, func(tx fairbalance.Tx) error {
				b := &fairbalance.Bucket{ID: "docs", Name: "docs", OrgID: "org-1", CreatedAt: base, UpdatedAt: base}
				if err := tx.InsertBucket(ctx, b); err != nil {
					return err
				}
				other := &fairbalance.Bucket{ID: "other", Name: "other", OrgID: "org-1", CreatedAt: base, UpdatedAt: base}
				if err := tx.InsertBucket(ctx, other); err != nil {
					return err
				}
				for i, n := range names {
					o := &fairbalance.StoredObject{ID: fmt.Sprintf("id-%02d", i), BucketID: "docs", Name: n, OrgID: "org-1", BlobKey: "k" + n, Size: 1, MimeType: "application/pdf",
						CreatedAt: base.Add(time.Duration(i%5) * time.Second), UpdatedAt: base.Add(time.Duration(i*7%11)*time.Second + 1500*time.Microsecond),
						LastAccessedAt: base.Add(time.Duration(len(names)-i) * time.Minute)}
					objs = append(objs, o)
					if err := tx.InsertObject(ctx, o); err != nil {
						return err
					}
				}
				// Another bucket's object never shows.
				return tx.InsertObject(ctx, &fairbalance.StoredObject{ID: "x", BucketID: "other", Name: "a/b.pdf", BlobKey: "kx", MimeType: "application/pdf", CreatedAt: base, UpdatedAt: base, LastAccessedAt: base})
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, prefix := range []string{"", "a", "a/", "a/c", "a/c/", "b/", "é", "z%_", "nothing"} {
				for _, folders := range []bool{false, true} {
					for _, srt := range []string{"name", "created_at", "updated_at"} {
						for _, desc := range []bool{false, true} {
							l := fairbalance.ObjectListing{BucketID: "docs", Prefix: prefix, Folders: folders, Sort: srt, Desc: desc}
							want := entryNames(listRef(objs, l))
							for _, size := range []int{1, 2, 3, 100} {
								var got []string
								page := l
								page.Limit = size
								for i := 0; ; i++ {
									es, err := db.View().ListObjects(ctx, page)
									if err != nil {
										t.Fatalf("%+v: %v", page, err)
									}
									got = append(got, entryNames(es)...)
									if len(es) < size || i > 40 {
										break
									}
									last := es[len(es)-1]
									page.AfterName, page.AfterTime = last.Name, last.Time
								}
								if strings.Join(got, " ") != strings.Join(want, " ") {
									t.Errorf("prefix %q folders %v sort %s desc %v pages of %d:\n got %v\nwant %v", prefix, folders, srt, desc, size, got, want)
								}
							}
						}
					}
				}
			}
			// Folders first (list v1's order for a time sort).
			for _, desc := range []bool{false, true} {
				l := fairbalance.ObjectListing{BucketID: "docs", Prefix: "a/", Folders: true, Sort: "last_accessed_at", Desc: desc, FoldersFirst: true, Limit: 100}
				es, err := db.View().ListObjects(ctx, l)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := entryNames(es), entryNames(listRef(objs, l)); strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("folders first, desc %v:\n got %v\nwant %v", desc, got, want)
				}
				for _, e := range es {
					if e.Object == nil != strings.HasSuffix(e.Name, "/") || e.Object != nil && e.Object.BucketID != "docs" {
						t.Fatalf("entry %+v", e)
					}
				}
			}
		})
	}
}
