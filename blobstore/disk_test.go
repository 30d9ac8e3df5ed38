package blobstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func newDisk(t *testing.T) (*Disk, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "files")
	d, err := NewDisk(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d, dir
}

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

func TestDiskPutGetStatDelete(t *testing.T) {
	ctx := context.Background()
	d, _ := newDisk(t)
	body := bytes.Repeat([]byte("fairbalance "), 10000)
	info, err := d.Put(ctx, "org/a/b.pdf", bytes.NewReader(body), 0)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size != int64(len(body)) || info.SHA256 != sum(body) {
		t.Fatalf("info = %+v", info)
	}
	b, err := d.Get(ctx, "org/a/b.pdf")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(b)
	b.Close()
	if !bytes.Equal(got, body) {
		t.Fatal("content differs")
	}
	st, err := d.Stat(ctx, "org/a/b.pdf")
	if err != nil || st.Size != int64(len(body)) {
		t.Fatalf("stat = %+v, %v", st, err)
	}
	if err := d.Delete(ctx, "org/a/b.pdf"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Get(ctx, "org/a/b.pdf"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get after delete: %v", err)
	}
	if _, err := d.Stat(ctx, "org/a/b.pdf"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("stat after delete: %v", err)
	}
	if err := d.Delete(ctx, "org/a/b.pdf"); err != nil {
		t.Fatalf("deleting a missing blob: %v", err)
	}
}

func TestDiskRange(t *testing.T) {
	ctx := context.Background()
	d, _ := newDisk(t)
	if _, err := d.Put(ctx, "k", strings.NewReader("0123456789"), 0); err != nil {
		t.Fatal(err)
	}
	b, err := d.Get(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, c := range []struct {
		off, n int64
		want   string
	}{{2, 3, "234"}, {7, -1, "789"}, {8, 10, "89"}, {10, 1, ""}} {
		r, err := ReadRange(b, c.off, c.n)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		if string(got) != c.want {
			t.Errorf("range %d+%d = %q, want %q", c.off, c.n, got, c.want)
		}
	}
	if _, err := ReadRange(b, 11, 1); err == nil {
		t.Error("range past the end accepted")
	}
}

// A body over the limit is refused and leaves the previous blob intact and
// no temporary file behind.
func TestDiskLimitKeepsPrevious(t *testing.T) {
	ctx := context.Background()
	d, dir := newDisk(t)
	if _, err := d.Put(ctx, "k", strings.NewReader("old"), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Put(ctx, "k", strings.NewReader("0123456789"), 10); err != nil {
		t.Fatalf("exactly the limit: %v", err)
	}
	if _, err := d.Put(ctx, "k", strings.NewReader("0123456789X"), 10); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	b, _ := d.Get(ctx, "k")
	got, _ := io.ReadAll(b)
	b.Close()
	if string(got) != "0123456789" {
		t.Fatalf("blob = %q", got)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, ".tmp"))
	if len(ents) != 0 {
		t.Fatalf("temporary files left: %v", ents)
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		f.n--
		return copy(p, "abc"), nil
	}
	return 0, errors.New("connection reset")
}

// A body that fails halfway is never visible.
func TestDiskFailedPutInvisible(t *testing.T) {
	ctx := context.Background()
	d, dir := newDisk(t)
	if _, err := d.Put(ctx, "x/y", &failingReader{n: 3}, 0); err == nil {
		t.Fatal("failed body accepted")
	}
	if _, err := d.Stat(ctx, "x/y"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("partial blob visible: %v", err)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, ".tmp"))
	if len(ents) != 0 {
		t.Fatalf("temporary files left: %v", ents)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := d.Put(cctx, "x/z", strings.NewReader("abc"), 0); err == nil {
		t.Fatal("cancelled put accepted")
	}
}

func TestDiskCopy(t *testing.T) {
	ctx := context.Background()
	d, _ := newDisk(t)
	if _, err := d.Put(ctx, "a", strings.NewReader("hello"), 0); err != nil {
		t.Fatal(err)
	}
	info, err := d.Copy(ctx, "a", "b/c")
	if err != nil || info.SHA256 != sum([]byte("hello")) || info.Size != 5 {
		t.Fatalf("copy = %+v, %v", info, err)
	}
	if err := d.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	b, err := d.Get(ctx, "b/c")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(b)
	b.Close()
	if string(got) != "hello" {
		t.Fatalf("copy = %q", got)
	}
	if _, err := d.Copy(ctx, "missing", "z"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("copy of missing: %v", err)
	}
}

func TestDiskInvalidKeys(t *testing.T) {
	ctx := context.Background()
	d, _ := newDisk(t)
	for _, k := range []string{"", "/abs", "../up", "a/../../b", "a//b", "a/./b", ".tmp/x", ".tmp", "a\\b", "a\x00b", "a/"} {
		if _, err := d.Put(ctx, k, strings.NewReader("x"), 0); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("Put(%q) = %v, want ErrInvalidKey", k, err)
		}
		if _, err := d.Get(ctx, k); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("Get(%q) = %v, want ErrInvalidKey", k, err)
		}
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
	if _, err := NewDisk(dir); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, ".tmp"))
	if len(ents) != 0 {
		t.Fatalf("temporaries kept: %v", ents)
	}
}
