package service_test

import (
	"bytes"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/service"
)

// In a product bucket (server paths), shared by the organisations, each
// lists only its own folder, narrowed in SQL.
func TestStorageListingProductBucket(t *testing.T) {
	storageBackends(t, func(t *testing.T, backend, blobs string) {
		m := newMatrix(t, backend)
		s, _ := newStorage(t, m, blobs)
		ctx := m.ctx
		viewer := m.members["own"]["viewer"]
		svc := fairbalance.Caller{Role: "service_role"}
		for _, n := range []string{m.orgs["own"] + "/x.pdf", m.orgs["own"] + "/y.pdf", m.orgs["other"] + "/z.pdf"} {
			if _, err := s.Upload(ctx, svc, service.UploadInput{Bucket: "asset-files", Name: n, Body: bytes.NewReader(pdfBytes)}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			in   service.ListV2Input
			want string
		}{
			{service.ListV2Input{WithDelimiter: true}, m.orgs["own"] + "/"},
			{service.ListV2Input{}, m.orgs["own"] + "/x.pdf " + m.orgs["own"] + "/y.pdf"},
			{service.ListV2Input{Prefix: m.orgs["own"] + "/", Limit: 1, WithDelimiter: true}, m.orgs["own"] + "/x.pdf"},
			{service.ListV2Input{Prefix: m.orgs["other"]}, ""},
		} {
			p, err := s.ListV2(ctx, viewer, "asset-files", c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(v2Names(p), " "); got != c.want {
				t.Errorf("asset-files %+v = %q, want %q", c.in, got, c.want)
			}
		}
		if p, _ := s.ListV2(ctx, svc, "asset-files", service.ListV2Input{WithDelimiter: true}); len(p.Folders) != 2 {
			t.Errorf("the service role lists %v", p.Folders)
		}
		if l, _ := s.List(ctx, viewer, "asset-files", service.ListInput{}); len(l) != 1 || l[0].Name != m.orgs["own"] {
			t.Errorf("list v1 of asset-files = %+v", l)
		}
	})
}
