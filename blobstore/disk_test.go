package blobstore_test

import (
	"os"
	"path/filepath"
	"testing"

	"fairbalance/blobstore"
	"fairbalance/blobstore/blobtest"
)

// The same suite runs on every backend: local disk and S3 (against an
// in-process fake).
func TestBackends(t *testing.T) {
	for _, backend := range blobtest.Backends() {
		t.Run(backend, func(t *testing.T) {
			blobtest.Run(t, func(t *testing.T) blobtest.Harness { return blobtest.Open(t, backend) })
		})
	}
}

// NewDisk removes temporaries a crash left behind.
func TestDiskCleansTemporaries(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	if err := os.MkdirAll(filepath.Join(dir, ".tmp"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".tmp", "put-1"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := blobstore.NewDisk(dir); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, ".tmp"))
	if len(ents) != 0 {
		t.Fatalf("temporaries kept: %v", ents)
	}
}
