package blobtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/blobstore"
)

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

// body returns n bytes that differ from one offset to the next, so that a
// misplaced range or part shows.
func body(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

func read(t testing.TB, s fairbalance.BlobStore, key string) []byte {
	t.Helper()
	b, err := s.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer b.Close()
	got, err := io.ReadAll(b)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return got
}

// failingReader yields n chunks of 64 KiB, then fails.
type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		f.n--
		return copy(p, bytes.Repeat([]byte("abcdefgh"), 8192)), nil
	}
	return 0, errors.New("connection reset")
}

// Run is the suite every BlobStore backend passes; open returns a new,
// empty store for each subtest.
func Run(t *testing.T, open func(t *testing.T) Harness) {
	ctx := context.Background()

	t.Run("PutGetStatDelete", func(t *testing.T) {
		h := open(t)
		s := h.Store
		for _, n := range []int{0, 1, 120000, 11<<20 + 3} { // empty, small, one part, several parts
			data := body(n)
			info, err := s.Put(ctx, "org/a/b.pdf", bytes.NewReader(data), 0)
			if err != nil {
				t.Fatalf("put %d bytes: %v", n, err)
			}
			if info.Key != "org/a/b.pdf" || info.Size != int64(n) || info.SHA256 != sum(data) {
				t.Fatalf("put %d bytes: info = %+v", n, info)
			}
			if got := read(t, s, "org/a/b.pdf"); !bytes.Equal(got, data) {
				t.Fatalf("%d bytes: content differs (%d bytes read)", n, len(got))
			}
			st, err := s.Stat(ctx, "org/a/b.pdf")
			if err != nil || st.Size != int64(n) || st.ModTime.IsZero() {
				t.Fatalf("stat = %+v, %v", st, err)
			}
			if st.SHA256 != "" && st.SHA256 != sum(data) {
				t.Fatalf("stat sha256 = %s", st.SHA256)
			}
		}
		if k := h.Keys(t); len(k) != 1 || k[0] != "org/a/b.pdf" {
			t.Fatalf("keys = %v", k)
		}
		if tmp := h.Temporaries(t); len(tmp) != 0 {
			t.Fatalf("temporaries left: %v", tmp)
		}
		if err := s.Delete(ctx, "org/a/b.pdf"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "org/a/b.pdf"); !errors.Is(err, fairbalance.ErrNotFound) {
			t.Fatalf("get after delete: %v", err)
		}
		if _, err := s.Stat(ctx, "org/a/b.pdf"); !errors.Is(err, fairbalance.ErrNotFound) {
			t.Fatalf("stat after delete: %v", err)
		}
		if err := s.Delete(ctx, "org/a/b.pdf"); err != nil {
			t.Fatalf("deleting a missing blob: %v", err)
		}
		if k := h.Keys(t); len(k) != 0 {
			t.Fatalf("keys after delete = %v", k)
		}
	})

	t.Run("NotFound", func(t *testing.T) {
		s := open(t).Store
		if _, err := s.Get(ctx, "no/such"); !errors.Is(err, fairbalance.ErrNotFound) {
			t.Errorf("get: %v", err)
		}
		if _, err := s.Stat(ctx, "no/such"); !errors.Is(err, fairbalance.ErrNotFound) {
			t.Errorf("stat: %v", err)
		}
		if _, err := s.Copy(ctx, "no/such", "z"); !errors.Is(err, fairbalance.ErrNotFound) {
			t.Errorf("copy: %v", err)
		}
	})

	t.Run("Ranges", func(t *testing.T) {
		s := open(t).Store
		if _, err := s.Put(ctx, "k", strings.NewReader("0123456789"), 0); err != nil {
			t.Fatal(err)
		}
		b, err := s.Get(ctx, "k")
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if b.Size() != 10 || b.ModTime().IsZero() {
			t.Fatalf("size %d, modtime %v", b.Size(), b.ModTime())
		}
		for _, c := range []struct {
			off, n int64
			want   string
		}{{2, 3, "234"}, {7, -1, "789"}, {8, 10, "89"}, {0, 1, "0"}, {10, 1, ""}} {
			r, err := blobstore.ReadRange(b, c.off, c.n)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(r)
			if string(got) != c.want {
				t.Errorf("range %d+%d = %q, want %q", c.off, c.n, got, c.want)
			}
		}
		if _, err := blobstore.ReadRange(b, 11, 1); err == nil {
			t.Error("range past the end accepted")
		}
		// Seek then Read, as http.ServeContent does.
		if end, err := b.Seek(0, io.SeekEnd); err != nil || end != 10 {
			t.Fatalf("seek end = %d, %v", end, err)
		}
		if _, err := b.Seek(4, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		p := make([]byte, 3)
		if _, err := io.ReadFull(b, p); err != nil || string(p) != "456" {
			t.Fatalf("read after seek = %q, %v", p, err)
		}
	})

	t.Run("LargeRanges", func(t *testing.T) {
		s := open(t).Store
		data := body(6<<20 + 17)
		if _, err := s.Put(ctx, "big", bytes.NewReader(data), 0); err != nil {
			t.Fatal(err)
		}
		b, err := s.Get(ctx, "big")
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		for _, off := range []int64{5<<20 - 3, 0, int64(len(data)) - 5, 1 << 20} {
			p := make([]byte, 5)
			if _, err := b.ReadAt(p, off); err != nil && err != io.EOF {
				t.Fatal(err)
			}
			if !bytes.Equal(p, data[off:off+5]) {
				t.Fatalf("ReadAt %d = %v, want %v", off, p, data[off:off+5])
			}
		}
	})

	t.Run("Overwrite", func(t *testing.T) {
		h := open(t)
		s := h.Store
		if _, err := s.Put(ctx, "k", strings.NewReader("first"), 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Put(ctx, "k", strings.NewReader("second, longer"), 0); err != nil {
			t.Fatal(err)
		}
		if got := read(t, s, "k"); string(got) != "second, longer" {
			t.Fatalf("blob = %q", got)
		}
		if k := h.Keys(t); len(k) != 1 {
			t.Fatalf("keys = %v", k)
		}
	})

	// A body over the limit is refused and leaves the previous blob intact
	// and no temporary behind, whether it fails in the first part or later.
	t.Run("LimitKeepsPrevious", func(t *testing.T) {
		h := open(t)
		s := h.Store
		if _, err := s.Put(ctx, "k", strings.NewReader("old"), 10); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Put(ctx, "k", strings.NewReader("0123456789"), 10); err != nil {
			t.Fatalf("exactly the limit: %v", err)
		}
		if _, err := s.Put(ctx, "k", strings.NewReader("0123456789X"), 10); !errors.Is(err, fairbalance.ErrBlobTooLarge) {
			t.Fatalf("over the limit: %v", err)
		}
		big := body(12 << 20)
		if _, err := s.Put(ctx, "k", bytes.NewReader(big), 11<<20); !errors.Is(err, fairbalance.ErrBlobTooLarge) {
			t.Fatalf("over the limit after several parts: %v", err)
		}
		if got := read(t, s, "k"); string(got) != "0123456789" {
			t.Fatalf("blob = %q", got)
		}
		if tmp := h.Temporaries(t); len(tmp) != 0 {
			t.Fatalf("temporaries left: %v", tmp)
		}
		if _, err := s.Put(ctx, "k2", bytes.NewReader(big), 12<<20); err != nil {
			t.Fatalf("exactly a multi-part limit: %v", err)
		}
	})

	// A body that fails halfway is never visible, and the previous blob
	// stays; so does a cancelled one.
	t.Run("FailedPutInvisible", func(t *testing.T) {
		h := open(t)
		s := h.Store
		if _, err := s.Put(ctx, "x/y", &failingReader{n: 3}, 0); err == nil {
			t.Fatal("failed body accepted")
		}
		if _, err := s.Put(ctx, "x/z", &failingReader{n: 150}, 0); err == nil { // fails in the 2nd part
			t.Fatal("failed multi-part body accepted")
		}
		for _, k := range []string{"x/y", "x/z"} {
			if _, err := s.Stat(ctx, k); !errors.Is(err, fairbalance.ErrNotFound) {
				t.Fatalf("partial blob %s visible: %v", k, err)
			}
		}
		if _, err := s.Put(ctx, "x/w", strings.NewReader("kept"), 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Put(ctx, "x/w", &failingReader{n: 100}, 0); err == nil {
			t.Fatal("failed overwrite accepted")
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.Put(cctx, "x/w", strings.NewReader("abc"), 0); err == nil {
			t.Fatal("cancelled put accepted")
		}
		if got := read(t, s, "x/w"); string(got) != "kept" {
			t.Fatalf("blob = %q", got)
		}
		if k := h.Keys(t); len(k) != 1 || k[0] != "x/w" {
			t.Fatalf("keys = %v", k)
		}
		if tmp := h.Temporaries(t); len(tmp) != 0 {
			t.Fatalf("temporaries left: %v", tmp)
		}
	})

	t.Run("Copy", func(t *testing.T) {
		s := open(t).Store
		data := body(7 << 20)
		if _, err := s.Put(ctx, "a", bytes.NewReader(data), 0); err != nil {
			t.Fatal(err)
		}
		info, err := s.Copy(ctx, "a", "b/c")
		if err != nil || info.SHA256 != sum(data) || info.Size != int64(len(data)) || info.Key != "b/c" {
			t.Fatalf("copy = %+v, %v", info, err)
		}
		if err := s.Delete(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if got := read(t, s, "b/c"); !bytes.Equal(got, data) {
			t.Fatal("copy differs")
		}
	})

	// List yields the visible blobs with their sizes and times, never a
	// write in progress; a consumer may stop early; a cancelled listing
	// ends with an error.
	t.Run("List", func(t *testing.T) {
		h := open(t)
		s := h.Store
		list := func(ctx context.Context) (map[string]fairbalance.BlobInfo, error) {
			out := map[string]fairbalance.BlobInfo{}
			for b, err := range s.List(ctx, "") {
				if err != nil {
					return out, err
				}
				if _, dup := out[b.Key]; dup {
					t.Fatalf("%s listed twice", b.Key)
				}
				out[b.Key] = b
			}
			return out, nil
		}
		keysOf := func(m map[string]fairbalance.BlobInfo) []string {
			var k []string
			for key := range m {
				k = append(k, key)
			}
			sort.Strings(k)
			return k
		}
		if got, err := list(ctx); err != nil || len(got) != 0 {
			t.Fatalf("empty store lists %v, %v", got, err)
		}
		start := time.Now()
		want := map[string]int64{}
		for i, k := range []string{"a", "ab/c", "ab/d/e", "z"} {
			data := body(i*1000 + 1)
			if _, err := s.Put(ctx, k, bytes.NewReader(data), 0); err != nil {
				t.Fatal(err)
			}
			want[k] = int64(len(data))
		}
		// A put in progress, past its first part.
		pr, pw := io.Pipe()
		defer pw.CloseWithError(errors.New("test ended"))
		done := make(chan error, 1)
		go func() { _, err := s.Put(ctx, "ab/pending", pr, 0); done <- err }()
		if _, err := pw.Write(body(6 << 20)); err != nil {
			t.Fatal(err)
		}
		got, err := list(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("listed %v, want %v", keysOf(got), want)
		}
		for k, size := range want {
			b, ok := got[k]
			if !ok || b.Size != size || b.ModTime.Before(start.Add(-time.Minute)) || b.ModTime.After(time.Now().Add(time.Minute)) {
				t.Fatalf("%s listed as %+v (%v), want %d bytes written about %v", k, b, ok, size, start)
			}
		}
		if k := keysOf(got); strings.Join(k, ",") != strings.Join(h.Keys(t), ",") {
			t.Fatalf("listed %v, the store holds %v", k, h.Keys(t))
		}
		pw.Close()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got, err := list(ctx); err != nil || got["ab/pending"].Size != 6<<20 {
			t.Fatalf("the finished put is not listed: %v, %v", keysOf(got), err)
		}

		n := 0
		for _, err := range s.List(ctx, "") {
			if err != nil {
				t.Fatal(err)
			}
			n++
			break
		}
		if n != 1 {
			t.Fatalf("stopping early yielded %d", n)
		}
		if err := s.Delete(ctx, "ab/c"); err != nil {
			t.Fatal(err)
		}
		if got, err := list(ctx); err != nil || len(got) != 4 || got["ab/c"].Key != "" {
			t.Fatalf("after a delete: %v, %v", keysOf(got), err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := list(cctx); err == nil {
			t.Fatal("a cancelled listing ended without an error")
		}
	})

	t.Run("InvalidKeys", func(t *testing.T) {
		s := open(t).Store
		for _, k := range []string{"", "/abs", "../up", "a/../../b", "a//b", "a/./b", ".tmp/x", ".tmp", "a\\b", "a\x00b", "a/"} {
			if _, err := s.Put(ctx, k, strings.NewReader("x"), 0); !errors.Is(err, fairbalance.ErrInvalidBlobKey) {
				t.Errorf("Put(%q) = %v, want ErrInvalidBlobKey", k, err)
			}
			if _, err := s.Get(ctx, k); !errors.Is(err, fairbalance.ErrInvalidBlobKey) {
				t.Errorf("Get(%q) = %v, want ErrInvalidBlobKey", k, err)
			}
		}
	})
}
