// Package blobstore keeps the bytes of stored objects. The metadata (names,
// owners, sizes, checksums) lives in the SQL store; a blob is addressed by
// an opaque key the storage service chooses.
//
// Writes never expose a partial object: Put streams into a temporary
// object, computes the SHA-256 while streaming, enforces the size limit and
// only then makes the blob visible (Disk: an atomic rename; S3: a
// server-side copy of the temporary object).
package blobstore

import (
	"errors"
	"io"
	"strings"

	"fairbalance"
)

// The blob store's port and errors are the root package's.
type (
	Info  = fairbalance.BlobInfo
	Blob  = fairbalance.Blob
	Store = fairbalance.BlobStore
)

var (
	// ErrNotFound is returned when a key has no blob.
	ErrNotFound = fairbalance.ErrNotFound
	// ErrTooLarge is returned by Put when the reader yields more than the limit.
	ErrTooLarge = fairbalance.ErrBlobTooLarge
	// ErrInvalidKey is returned for keys that could leave the store's root.
	ErrInvalidKey = fairbalance.ErrInvalidBlobKey
)

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

// checkKey refuses keys that are empty, absolute, contain empty, "." or
// ".." segments, backslashes or NUL bytes, or start with ".tmp" (where
// every backend keeps its temporaries): such keys could leave the store's
// root or collide with a write in progress.
func checkKey(key string) error {
	if key == "" || strings.HasPrefix(key, "/") || strings.ContainsAny(key, "\\\x00") {
		return ErrInvalidKey
	}
	for i, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." || (i == 0 && seg == ".tmp") {
			return ErrInvalidKey
		}
	}
	return nil
}
