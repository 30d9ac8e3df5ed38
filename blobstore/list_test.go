package blobstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fairbalance/blobstore/blobtest"
)

// List yields the visible blobs under a prefix on both
// backends; a prefix that is not a whole segment matches too, and nothing
// under it is no error.
func TestListPrefix(t *testing.T) {
	for _, backend := range blobtest.Backends() {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			h := blobtest.Open(t, backend)
			for _, k := range []string{"a/x/2.json", "a/x/1.json", "a/y.json", "ab/z.json", "b/1.json"} {
				if _, err := h.Store.Put(ctx, k, strings.NewReader(k), 0); err != nil {
					t.Fatal(err)
				}
			}
			for prefix, want := range map[string][]string{
				"a/":      {"a/x/1.json", "a/x/2.json", "a/y.json"},
				"a/x/":    {"a/x/1.json", "a/x/2.json"},
				"a":       {"a/x/1.json", "a/x/2.json", "a/y.json", "ab/z.json"},
				"":        {"a/x/1.json", "a/x/2.json", "a/y.json", "ab/z.json", "b/1.json"},
				"c/":      nil,
				"a/x/1.j": {"a/x/1.json"},
			} {
				var got []string
				var err error
				for b, e := range h.Store.List(ctx, prefix) {
					if e != nil {
						err = e
						break
					}
					got = append(got, b.Key)
				}
				slices.Sort(got)
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("List(%q) = %q, %v; want %q", prefix, got, err, want)
				}
			}
		})
	}
}
