// Package blobtest opens real blob stores for tests — the local disk in a
// temporary directory, and the S3 backend against an in-process S3 fake
// (gofakes3, in memory) — and holds the suite every backend must pass.
package blobtest

import (
	"context"
	"io/fs"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"fairbalance"
	"fairbalance/blobstore"
)

// Harness is an open blob store with views of what it holds.
type Harness struct {
	Store fairbalance.BlobStore
	// Keys lists the keys of every visible blob, sorted.
	Keys func(t testing.TB) []string
	// Temporaries lists what unfinished or failed writes left behind.
	Temporaries func(t testing.TB) []string
}

// Backends lists the blob backends every storage test runs on.
func Backends() []string { return []string{"disk", "s3"} }

// Open returns an empty store of the backend ("disk" or "s3"), removed
// when the test ends.
func Open(t testing.TB, backend string) Harness {
	t.Helper()
	switch backend {
	case "disk":
		return openDisk(t)
	case "s3":
		return OpenS3(t, blobstore.S3Config{})
	}
	t.Fatalf("unknown blob backend %q", backend)
	return Harness{}
}

func openDisk(t testing.TB) Harness {
	dir := filepath.Join(t.TempDir(), "files")
	d, err := blobstore.NewDisk(dir)
	if err != nil {
		t.Fatal(err)
	}
	walk := func(t testing.TB, tmp bool) []string {
		var out []string
		_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			if strings.HasPrefix(rel, ".tmp/") == tmp {
				out = append(out, rel)
			}
			return nil
		})
		sort.Strings(out)
		return out
	}
	return Harness{Store: d,
		Keys:        func(t testing.TB) []string { return walk(t, false) },
		Temporaries: func(t testing.TB) []string { return walk(t, true) }}
}

// FakeS3 serves an in-memory S3 fake with one bucket ("fairbalance") until
// the test ends, and returns its endpoint (an http URL).
func FakeS3(t testing.TB) string {
	t.Helper()
	mem := s3mem.New()
	if err := mem.CreateBucket("fairbalance"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(mem, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	return srv.URL
}

// OpenS3 returns the S3 backend against a fresh in-process fake. Zero
// fields of cfg get the fake's endpoint and bucket, a prefix and S3's
// smallest part size (so that a few MiB exercise multipart uploads).
func OpenS3(t testing.TB, cfg blobstore.S3Config) Harness {
	t.Helper()
	if cfg.Endpoint == "" {
		cfg.Endpoint = FakeS3(t)
	}
	if cfg.Bucket == "" {
		cfg.Bucket = "fairbalance"
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "blobs"
	}
	if cfg.AccessKey == "" {
		cfg.AccessKey, cfg.SecretKey = "test", "test-secret"
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	if cfg.PartSize == 0 {
		cfg.PartSize = 5 << 20
	}
	cfg.PathStyle = true
	s, err := blobstore.NewS3(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return Harness{Store: s,
		Keys: func(t testing.TB) []string {
			k, err := s.Keys(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(k)
			return k
		},
		Temporaries: func(t testing.TB) []string {
			k, err := s.Temporaries(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return k
		}}
}
