package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fairbalance/auth"
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

// serve reclaims blobs a crash left without a row: an hour-old orphan in
// the data directory's files goes (and the pass is logged), a young one
// stays, and the server still stops cleanly.
func TestServeReclaimsOrphans(t *testing.T) {
	delay := reclaimDelay
	reclaimDelay = 0
	t.Cleanup(func() { reclaimDelay = delay })
	dir := t.TempDir()
	plant := func(age time.Duration) string {
		id := auth.NewUUID()
		p := filepath.Join(dir, "files", id[:2], id)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("%PDF-1.4 orphan"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old, young := plant(2*time.Hour), plant(10*time.Minute)
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir, "--access-log=false"}, nil, io.Discard, logs)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(logs.String(), "orphan blobs reclaimed") {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no pass logged:\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v\n%s", err, logs.String())
	}
	if _, err := os.Stat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the old orphan is still there: %v", err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Fatalf("the young orphan was deleted: %v", err)
	}
	if !strings.Contains(logs.String(), "deleted=1") {
		t.Fatalf("the pass's log does not say what it reclaimed:\n%s", logs.String())
	}
}
