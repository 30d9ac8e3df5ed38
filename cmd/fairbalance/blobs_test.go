package main

import (
	"context"
	"flag"
	"io"
	"testing"

	"fairbalance/blobstore"
	"fairbalance/blobstore/blobtest"
)

// Files go to S3 when a bucket is configured (flags or FAIRBALANCE_S3_*,
// the secret from the environment only), else under the data directory;
// the name is what diagnostics() reports.
func TestOpenBlobs(t *testing.T) {
	ctx := context.Background()
	parse := func(args ...string) *config {
		t.Helper()
		var c config
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		bindServe(fs, &c)
		if err := fs.Parse(append([]string{"-data-dir", t.TempDir()}, args...)); err != nil {
			t.Fatal(err)
		}
		return &c
	}
	b, name, err := openBlobs(ctx, parse())
	if _, ok := b.(*blobstore.Disk); err != nil || !ok || name != "disk" {
		t.Fatalf("default = %T %q, %v", b, name, err)
	}

	endpoint := blobtest.FakeS3(t)
	t.Setenv("FAIRBALANCE_S3_BUCKET", "fairbalance")
	t.Setenv("FAIRBALANCE_S3_SECRET_KEY", "secret")
	t.Setenv("FAIRBALANCE_S3_PATH_STYLE", "true")
	c := parse("-s3-endpoint", endpoint, "-s3-access-key", "key", "-s3-prefix", "fb")
	if c.S3.SecretKey != "secret" || !c.S3.PathStyle || c.S3.Bucket != "fairbalance" {
		t.Fatalf("S3 config = %+v", c.S3)
	}
	b, name, err = openBlobs(ctx, c)
	if _, ok := b.(*blobstore.S3); err != nil || !ok || name != "s3" {
		t.Fatalf("with a bucket = %T %q, %v", b, name, err)
	}
	if _, _, err := openBlobs(ctx, parse("-s3-endpoint", endpoint, "-s3-bucket", "missing")); err == nil {
		t.Fatal("a missing bucket was accepted")
	}
}
