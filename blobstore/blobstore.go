// Package blobstore keeps the bytes of stored objects. The metadata (names,
// owners, sizes, checksums) lives in the SQL store; a blob is addressed by
// an opaque key the storage service chooses.
//
// Writes never expose a partial object: Put streams into a temporary
// object, computes the SHA-256 while streaming, enforces the size limit and
// only then makes the blob visible by an atomic rename.
package blobstore

import (
	"context"
	"errors"
	"io"
	"time"
)

// ErrNotFound is returned when a key has no blob.
var ErrNotFound = errors.New("blobstore: not found")

// ErrTooLarge is returned by Put when the reader yields more than the limit.
var ErrTooLarge = errors.New("blobstore: too large")

// ErrInvalidKey is returned for keys that are empty, absolute, or that
// contain "." or ".." segments, backslashes or NUL bytes.
var ErrInvalidKey = errors.New("blobstore: invalid key")

// Info describes a stored blob.
type Info struct {
	Key     string
	Size    int64
	SHA256  string // lower-case hex; empty from Stat (not recomputed)
	ModTime time.Time
}

// Store is a blob backend (local disk; S3-compatible later).
type Store interface {
	// Put copies r into the blob at key, replacing any previous blob only
	// once the whole body has been read, checksummed and is within limit
	// bytes (limit <= 0: no limit). On any error nothing is visible and the
	// previous blob, if any, is kept.
	Put(ctx context.Context, key string, r io.Reader, limit int64) (Info, error)
	// Get opens the blob at key. The caller closes it.
	Get(ctx context.Context, key string) (Blob, error)
	// Stat describes the blob at key.
	Stat(ctx context.Context, key string) (Info, error)
	// Delete removes the blob at key; a missing blob is not an error.
	Delete(ctx context.Context, key string) error
	// Copy duplicates the blob at src to dst (atomically visible).
	Copy(ctx context.Context, src, dst string) (Info, error)
}

// Blob is an open blob: readable, seekable (for ranges with
// http.ServeContent) and readable at offsets.
type Blob interface {
	io.ReadSeekCloser
	io.ReaderAt
	Size() int64
	ModTime() time.Time
}

// ReadRange returns a reader of length bytes of b from offset (the rest of
// the blob when length < 0).
func ReadRange(b Blob, offset, length int64) (io.Reader, error) {
	if offset < 0 || offset > b.Size() {
		return nil, errors.New("blobstore: range outside the blob")
	}
	if length < 0 || offset+length > b.Size() {
		length = b.Size() - offset
	}
	return io.NewSectionReader(b, offset, length), nil
}
