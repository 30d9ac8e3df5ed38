package blobstore_test

import (
	"context"
	"strings"
	"testing"

	"fairbalance/blobstore"
	"fairbalance/blobstore/blobtest"
)

// A misconfigured bucket or part size stops the server at start.
func TestS3Config(t *testing.T) {
	ctx := context.Background()
	endpoint := blobtest.FakeS3(t)
	for _, c := range []struct {
		cfg  blobstore.S3Config
		want string
	}{
		{blobstore.S3Config{Endpoint: endpoint, Bucket: "missing", PathStyle: true, AccessKey: "a", SecretKey: "b", Region: "us-east-1"}, "does not exist"},
		{blobstore.S3Config{Endpoint: endpoint, PathStyle: true}, "no S3 bucket"},
		{blobstore.S3Config{Endpoint: endpoint, Bucket: "fairbalance", PartSize: 1 << 20}, "part size"},
		{blobstore.S3Config{Endpoint: "ftp://x", Bucket: "fairbalance"}, "endpoint"},
	} {
		if _, err := blobstore.NewS3(ctx, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewS3(%+v) = %v, want an error about %q", c.cfg, err, c.want)
		}
	}
}

// Two stores with different prefixes share a bucket without seeing each
// other's blobs.
func TestS3Prefix(t *testing.T) {
	ctx := context.Background()
	endpoint := blobtest.FakeS3(t)
	a := blobtest.OpenS3(t, blobstore.S3Config{Endpoint: endpoint, Prefix: "one/"})
	b := blobtest.OpenS3(t, blobstore.S3Config{Endpoint: endpoint, Prefix: "two"})
	if _, err := a.Store.Put(ctx, "k", strings.NewReader("a"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Store.Stat(ctx, "k"); err == nil {
		t.Fatal("a blob of another prefix is visible")
	}
	if k := b.Keys(t); len(k) != 0 {
		t.Fatalf("keys = %v", k)
	}
}
