package service_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"fairbalance/service"
)

func v2Names(p *service.ListV2Page) []string {
	var out []string
	out = append(out, p.Folders...)
	for _, o := range p.Objects {
		out = append(out, o.Name)
	}
	return out
}

// list-v2 pages by cursor (flat, with folders, by name and by time), list
// v1 keeps its offset pages, and a product bucket lists only the caller's
// organisation's names; on every database and blob backend.
func TestStorageListing(t *testing.T) {
	storageBackends(t, func(t *testing.T, backend, blobs string) {
		m := newMatrix(t, backend)
		s, _ := newStorage(t, m, blobs)
		ctx := m.ctx
		admin, viewer, stranger := m.members["own"]["admin"], m.members["own"]["viewer"], m.members["other"]["admin"]
		if _, err := s.CreateBucket(ctx, admin, service.BucketInput{ID: "docs"}); err != nil {
			t.Fatal(err)
		}
		clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		// Uploaded in this order, a second apart: updated_at order differs from name order.
		names := []string{"f.pdf", "a/1.pdf", "c.pdf", "a/b/2.pdf", "b.pdf", "d/3.pdf", "e.pdf"}
		for _, n := range names {
			clock = clock.Add(time.Second)
			now := clock
			s.Now = func() time.Time { return now }
			if _, err := s.Upload(ctx, admin, service.UploadInput{Bucket: "docs", Name: n, Body: bytes.NewReader(pdfBytes)}); err != nil {
				t.Fatal(err)
			}
		}
		s.Now = func() time.Time { return time.Now().UTC() }

		pages := func(in service.ListV2Input) [][]string {
			t.Helper()
			var out [][]string
			for i := 0; i < 10; i++ {
				p, err := s.ListV2(ctx, viewer, "docs", in)
				if err != nil {
					t.Fatalf("%+v: %v", in, err)
				}
				out = append(out, v2Names(p))
				if !p.HasNext {
					if p.NextCursor != "" {
						t.Fatal("a cursor on the last page")
					}
					return out
				}
				if p.NextCursorKey == "" || p.NextCursor == "" {
					t.Fatalf("page %+v", p)
				}
				in.Cursor = p.NextCursor
			}
			t.Fatal("too many pages")
			return nil
		}
		check := func(what string, got [][]string, want string) {
			t.Helper()
			var parts []string
			for _, p := range got {
				parts = append(parts, strings.Join(p, " "))
			}
			if g := strings.Join(parts, " | "); g != want {
				t.Errorf("%s:\n got %s\nwant %s", what, g, want)
			}
		}
		check("flat by name", pages(service.ListV2Input{Limit: 3}), "a/1.pdf a/b/2.pdf b.pdf | c.pdf d/3.pdf e.pdf | f.pdf")
		check("folders by name", pages(service.ListV2Input{Limit: 3, WithDelimiter: true}), "a/ b.pdf c.pdf | d/ e.pdf f.pdf")
		check("folders by name, descending", pages(service.ListV2Input{Limit: 2, WithDelimiter: true, SortOrder: "desc"}), "f.pdf e.pdf | d/ c.pdf | a/ b.pdf")
		check("prefix", pages(service.ListV2Input{Prefix: "a/", WithDelimiter: true}), "a/b/ a/1.pdf")
		check("prefix, not a folder", pages(service.ListV2Input{Prefix: "a", Limit: 1}), "a/1.pdf | a/b/2.pdf")
		check("flat by updated_at, descending", pages(service.ListV2Input{Limit: 3, SortColumn: "updated_at", SortOrder: "desc"}),
			"e.pdf d/3.pdf b.pdf | a/b/2.pdf c.pdf a/1.pdf | f.pdf")
		// A folder's time is the earliest creation under it.
		check("folders by created_at", pages(service.ListV2Input{Limit: 4, WithDelimiter: true, SortColumn: "created_at"}),
			"a/ f.pdf c.pdf b.pdf | d/ e.pdf")

		// Errors and scope.
		if _, err := s.ListV2(ctx, viewer, "docs", service.ListV2Input{Cursor: "!!"}); err == nil {
			t.Error("a broken cursor was accepted")
		}
		if _, err := s.ListV2(ctx, viewer, "docs", service.ListV2Input{SortColumn: "size"}); err == nil {
			t.Error("an unknown sort column was accepted")
		}
		_, err := s.ListV2(ctx, stranger, "docs", service.ListV2Input{})
		storageCode(t, "another organisation", err, service.CodeNoSuchBucket)

		// List v1: folder names relative, offset pages, search, time sort with folders first.
		v1 := func(in service.ListInput) string {
			t.Helper()
			l, err := s.List(ctx, viewer, "docs", in)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, e := range l {
				n := e.Name
				if e.Object == nil {
					n += "/"
				}
				out = append(out, n)
			}
			return strings.Join(out, " ")
		}
		for _, c := range []struct {
			in   service.ListInput
			want string
		}{
			{service.ListInput{}, "a/ b.pdf c.pdf d/ e.pdf f.pdf"},
			{service.ListInput{Limit: 2, Offset: 2}, "c.pdf d/"},
			{service.ListInput{Offset: 10}, ""},
			{service.ListInput{Prefix: "/a/"}, "1.pdf b/"},
			{service.ListInput{Search: "d"}, "d/"},
			{service.ListInput{SortColumn: "updated_at", SortOrder: "desc"}, "d/ a/ e.pdf b.pdf c.pdf f.pdf"},
			{service.ListInput{SortColumn: "created_at", Limit: 3, Offset: 1}, "d/ f.pdf c.pdf"},
		} {
			if got := v1(c.in); got != c.want {
				t.Errorf("list %+v = %q, want %q", c.in, got, c.want)
			}
		}

	})
}
