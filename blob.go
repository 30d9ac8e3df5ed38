package fairbalance

import (
	"context"
	"errors"
	"io"
	"iter"
	"time"
)

// ErrBlobTooLarge is returned by BlobStore.Put when the body exceeds the limit.
var ErrBlobTooLarge = errors.New("blob too large")

// ErrInvalidBlobKey is returned for blob keys that are empty, absolute, or
// contain "." or ".." segments, empty segments, backslashes or NUL bytes.
var ErrInvalidBlobKey = errors.New("invalid blob key")

// BlobInfo describes a stored blob.
type BlobInfo struct {
	Key     string
	Size    int64
	SHA256  string // lower-case hex; from Stat, the one recorded at Put, or empty (never recomputed)
	ModTime time.Time
}

// Blob is an open blob: readable, seekable (for ranges with
// http.ServeContent) and readable at offsets.
type Blob interface {
	io.ReadSeekCloser
	io.ReaderAt
	Size() int64
	ModTime() time.Time
}

// BlobStore keeps the bytes of stored objects (local disk or an
// S3-compatible store). Missing blobs give ErrNotFound.
type BlobStore interface {
	// Put copies r into the blob at key, replacing any previous blob only
	// once the whole body has been read, checksummed and is within limit
	// bytes (limit <= 0: no limit). On any error nothing is visible and the
	// previous blob, if any, is kept.
	Put(ctx context.Context, key string, r io.Reader, limit int64) (BlobInfo, error)
	// Get opens the blob at key. The caller closes it.
	Get(ctx context.Context, key string) (Blob, error)
	// Stat describes the blob at key.
	Stat(ctx context.Context, key string) (BlobInfo, error)
	// Delete removes the blob at key; a missing blob is not an error.
	Delete(ctx context.Context, key string) error
	// Copy duplicates the blob at src to dst (atomically visible).
	Copy(ctx context.Context, src, dst string) (BlobInfo, error)
	// List yields every visible blob whose key begins with prefix ("" for
	// all) — never a write in progress — with its Key, Size and ModTime (the time it became visible; SHA256 is
	// empty), in an order of the backend's, streaming: memory does not
	// grow with the number of blobs. Blobs put or deleted while a listing
	// runs may or may not be yielded. A failure is yielded once, as the
	// last pair. Stopping early is allowed.
	List(ctx context.Context, prefix string) iter.Seq2[BlobInfo, error]
}
