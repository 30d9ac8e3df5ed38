package blobstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config locates a bucket of an S3-compatible store (AWS S3, MinIO,
// Ceph, Cloudflare R2, Backblaze B2…).
type S3Config struct {
	// Endpoint is "host[:port]" or a URL ("https://host:port"); a URL's
	// scheme decides UseSSL. Empty: s3.amazonaws.com.
	Endpoint string
	// Bucket must exist; the server does not create it.
	Bucket    string
	AccessKey string
	SecretKey string
	// Region is the bucket's region ("" lets the client discover it).
	Region string
	// Prefix is prepended to every key ("fairbalance/"), so that one bucket
	// can hold other things too. A missing trailing "/" is added.
	Prefix string
	UseSSL bool
	// PathStyle addresses the bucket as endpoint/bucket/key instead of
	// bucket.endpoint/key (MinIO and most self-hosted stores want it).
	PathStyle bool
	// PartSize is the size of the parts of a multipart upload, and so the
	// memory one upload holds (default 8 MiB; at least 5 MiB, S3's minimum).
	PartSize int64
	// Transport replaces the HTTP transport (tests).
	Transport http.RoundTripper
}

// DefaultS3PartSize is the part size of multipart uploads.
const DefaultS3PartSize = 8 << 20

const s3MinPartSize = 5 << 20

// s3ShaMeta is the user metadata holding a blob's SHA-256 (x-amz-meta-sha256).
const s3ShaMeta = "Sha256"

// S3 stores blobs as objects of an S3-compatible bucket, under
// Prefix+key. Put uploads to a temporary object under Prefix+".tmp/",
// streaming in parts of PartSize bytes (the only buffer an upload holds),
// checksums while reading, and only after the whole body has arrived,
// within the limit, makes it visible at the final key with a server-side
// copy, then deletes the temporary object. A failed Put aborts its
// multipart upload and deletes its temporary object, so nothing is visible
// and the previous blob at the key is untouched.
//
// A blob is at most 5 GiB, the largest object S3 copies in one request
// (uploads are capped far lower, at 500 MiB by default).
//
// Temporaries a crash leaves behind are removed by NewS3 once they are an
// hour old; a bucket lifecycle rule expiring Prefix+".tmp/" and aborting
// incomplete multipart uploads after a day is a good complement.
type S3 struct {
	c        *minio.Client
	core     minio.Core
	bucket   string
	prefix   string
	partSize int64
	bufs     sync.Pool
}

var _ Store = (*S3)(nil)

// NewS3 connects to the bucket, checks that it exists and sweeps stale
// temporaries.
func NewS3(ctx context.Context, cfg S3Config) (*S3, error) {
	endpoint, secure := cfg.Endpoint, cfg.UseSSL
	if endpoint == "" {
		endpoint, secure = "s3.amazonaws.com", true
	}
	if strings.Contains(endpoint, "://") {
		u, err := url.Parse(endpoint)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("blobstore: S3 endpoint %q is not host[:port] or an http(s) URL", cfg.Endpoint)
		}
		endpoint, secure = u.Host, u.Scheme == "https"
	}
	if cfg.Bucket == "" {
		return nil, errors.New("blobstore: no S3 bucket configured")
	}
	part := cfg.PartSize
	if part == 0 {
		part = DefaultS3PartSize
	}
	if part < s3MinPartSize {
		return nil, fmt.Errorf("blobstore: S3 part size %d is below S3's minimum of 5 MiB", part)
	}
	lookup := minio.BucketLookupAuto
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	opts := &minio.Options{Secure: secure, Region: cfg.Region, BucketLookup: lookup, Transport: cfg.Transport}
	if cfg.AccessKey != "" || cfg.SecretKey != "" {
		opts.Creds = credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, "")
	} else {
		// The environment or the instance's role (AWS_*, IAM, web identity).
		opts.Creds = credentials.NewChainCredentials([]credentials.Provider{&credentials.EnvAWS{}, &credentials.EnvMinio{}, &credentials.IAM{}})
	}
	c, err := minio.New(endpoint, opts)
	if err != nil {
		return nil, fmt.Errorf("blobstore: S3 client: %w", err)
	}
	prefix := strings.TrimLeft(cfg.Prefix, "/")
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	s := &S3{c: c, core: minio.Core{Client: c}, bucket: cfg.Bucket, prefix: prefix, partSize: part}
	s.bufs.New = func() any { b := make([]byte, part); return &b }
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("blobstore: S3 bucket %s at %s: %w", cfg.Bucket, endpoint, err)
	}
	if !ok {
		return nil, fmt.Errorf("blobstore: S3 bucket %s does not exist at %s", cfg.Bucket, endpoint)
	}
	s.sweep(ctx, time.Hour)
	return s, nil
}

// tmpPrefix is where Put writes before a blob is complete.
func (s *S3) tmpPrefix() string { return s.prefix + ".tmp/" }

// sweep removes temporaries and incomplete uploads older than age (best
// effort: other servers sharing the bucket may be writing newer ones).
func (s *S3) sweep(ctx context.Context, age time.Duration) {
	cutoff := time.Now().Add(-age)
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.tmpPrefix(), Recursive: true}) {
		if o.Err != nil {
			return
		}
		if o.LastModified.Before(cutoff) {
			_ = s.c.RemoveObject(ctx, s.bucket, o.Key, minio.RemoveObjectOptions{})
		}
	}
	for u := range s.c.ListIncompleteUploads(ctx, s.bucket, s.tmpPrefix(), true) {
		if u.Err != nil {
			return
		}
		if u.Initiated.Before(cutoff) {
			_ = s.core.AbortMultipartUpload(ctx, s.bucket, u.Key, u.UploadID)
		}
	}
}

// Temporaries lists the keys of temporary objects and incomplete multipart
// uploads (for tests and diagnostics).
func (s *S3) Temporaries(ctx context.Context) ([]string, error) {
	var out []string
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.tmpPrefix(), Recursive: true}) {
		if o.Err != nil {
			return nil, o.Err
		}
		out = append(out, o.Key)
	}
	for u := range s.c.ListIncompleteUploads(ctx, s.bucket, s.tmpPrefix(), true) {
		if minio.ToErrorResponse(u.Err).Code == "NoSuchUpload" {
			// Some stores (gofakes3) answer so when there are none.
			break
		}
		if u.Err != nil {
			return nil, u.Err
		}
		out = append(out, "upload:"+u.Key)
	}
	return out, nil
}

// Keys lists the keys of every visible blob (for tests and diagnostics).
func (s *S3) Keys(ctx context.Context) ([]string, error) {
	var out []string
	for b, err := range s.List(ctx, "") {
		if err != nil {
			return nil, err
		}
		out = append(out, b.Key)
	}
	return out, nil
}

// List implements Store: the objects under Prefix in key order, pages of
// a thousand requested as the consumer goes; the temporaries and any
// object whose name is not a valid key (a "folder/" marker) are skipped.
func (s *S3) List(ctx context.Context, prefix string) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		// Ending the context stops the client's listing goroutine when the
		// consumer stops early.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + prefix, Recursive: true}) {
			if o.Err != nil {
				yield(Info{}, fmt.Errorf("blobstore: s3 list: %w", o.Err))
				return
			}
			k := strings.TrimPrefix(o.Key, s.prefix)
			if checkKey(k) != nil {
				continue
			}
			if !yield(Info{Key: k, Size: o.Size, ModTime: o.LastModified.UTC()}, nil) {
				return
			}
		}
	}
}

func isS3NotFound(err error) bool {
	r := minio.ToErrorResponse(err)
	return r.Code == "NoSuchKey" || r.StatusCode == http.StatusNotFound && r.Code != "NoSuchBucket"
}

func (s *S3) wrap(key string, err error) error {
	if isS3NotFound(err) {
		return ErrNotFound
	}
	return fmt.Errorf("blobstore: s3 %s: %w", key, err)
}

// Put implements Store.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, limit int64) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, err
	}
	var rnd [12]byte
	_, _ = rand.Read(rnd[:])
	tmp := s.tmpPrefix() + time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(rnd[:])
	// Cleanup runs even when ctx has ended (the client went away).
	cleanup := context.WithoutCancel(ctx)

	n, sum, err := s.upload(ctx, tmp, r, limit)
	if err != nil {
		_ = s.c.RemoveObject(cleanup, s.bucket, tmp, minio.RemoveObjectOptions{})
		return Info{}, err
	}
	_, err = s.c.CopyObject(ctx,
		minio.CopyDestOptions{Bucket: s.bucket, Object: s.prefix + key, ReplaceMetadata: true, UserMetadata: map[string]string{s3ShaMeta: sum},
			ContentType: "application/octet-stream"},
		minio.CopySrcOptions{Bucket: s.bucket, Object: tmp})
	_ = s.c.RemoveObject(cleanup, s.bucket, tmp, minio.RemoveObjectOptions{})
	if err != nil {
		return Info{}, fmt.Errorf("blobstore: s3 %s: %w", key, err)
	}
	return Info{Key: key, Size: n, SHA256: sum, ModTime: time.Now().UTC()}, nil
}

// upload streams r to the object tmp: one PUT when the body fits in a
// part, else a multipart upload, aborted on any error. Every part is read
// in full and checked against the limit before it is sent.
func (s *S3) upload(ctx context.Context, tmp string, r io.Reader, limit int64) (int64, string, error) {
	bp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bp)
	buf := *bp
	whole := sha256.New()
	src := io.Reader(ctxReader{ctx, r})
	if limit > 0 {
		src = io.LimitReader(src, limit+1)
	}
	src = io.TeeReader(src, whole)
	var total int64
	// fill reads the next part; last reports that the body has ended.
	fill := func() (n int, last bool, err error) {
		n, err = io.ReadFull(src, buf)
		total += int64(n)
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			last, err = true, nil
		case err != nil:
			return 0, false, err
		}
		if limit > 0 && total > limit {
			return 0, false, ErrTooLarge
		}
		return n, last, nil
	}
	partOpts := func(p []byte) (string, int64) {
		h := sha256.Sum256(p)
		return hex.EncodeToString(h[:]), int64(len(p))
	}

	n, last, err := fill()
	if err != nil {
		return 0, "", fmt.Errorf("blobstore: put: %w", err)
	}
	if last {
		sha, size := partOpts(buf[:n])
		_, err := s.core.PutObject(ctx, s.bucket, tmp, bytes.NewReader(buf[:n]), size, "", sha,
			minio.PutObjectOptions{DisableContentSha256: true, ContentType: "application/octet-stream"})
		if err != nil {
			return 0, "", fmt.Errorf("blobstore: s3 put: %w", err)
		}
		return total, hex.EncodeToString(whole.Sum(nil)), nil
	}

	id, err := s.core.NewMultipartUpload(ctx, s.bucket, tmp, minio.PutObjectOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return 0, "", fmt.Errorf("blobstore: s3 put: %w", err)
	}
	done := false
	defer func() {
		if !done {
			_ = s.core.AbortMultipartUpload(context.WithoutCancel(ctx), s.bucket, tmp, id)
		}
	}()
	var parts []minio.CompletePart
	for num := 1; ; num++ {
		if n > 0 || num == 1 {
			sha, size := partOpts(buf[:n])
			p, err := s.core.PutObjectPart(ctx, s.bucket, tmp, id, num, bytes.NewReader(buf[:n]), size,
				minio.PutObjectPartOptions{Sha256Hex: sha, DisableContentSha256: true})
			if err != nil {
				return 0, "", fmt.Errorf("blobstore: s3 put part %d: %w", num, err)
			}
			parts = append(parts, minio.CompletePart{PartNumber: num, ETag: p.ETag})
		}
		if last {
			break
		}
		if n, last, err = fill(); err != nil {
			return 0, "", fmt.Errorf("blobstore: put: %w", err)
		}
	}
	if _, err := s.core.CompleteMultipartUpload(ctx, s.bucket, tmp, id, parts, minio.PutObjectOptions{}); err != nil {
		return 0, "", fmt.Errorf("blobstore: s3 complete: %w", err)
	}
	done = true
	return total, hex.EncodeToString(whole.Sum(nil)), nil
}

type s3Blob struct {
	*minio.Object
	size int64
	mod  time.Time
}

func (b *s3Blob) Size() int64        { return b.size }
func (b *s3Blob) ModTime() time.Time { return b.mod }

// Get implements Store. Reads and ranges (Seek, ReadAt) are requests
// made with ctx, which must outlive the blob.
func (s *S3) Get(ctx context.Context, key string) (Blob, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	o, err := s.c.GetObject(ctx, s.bucket, s.prefix+key, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.wrap(key, err)
	}
	st, err := o.Stat()
	if err != nil {
		o.Close()
		return nil, s.wrap(key, err)
	}
	return &s3Blob{Object: o, size: st.Size, mod: st.LastModified.UTC()}, nil
}

// Stat implements Store; SHA256 is the checksum Put recorded.
func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, err
	}
	st, err := s.c.StatObject(ctx, s.bucket, s.prefix+key, minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s.wrap(key, err)
	}
	return Info{Key: key, Size: st.Size, SHA256: st.UserMetadata[s3ShaMeta], ModTime: st.LastModified.UTC()}, nil
}

// Delete implements Store.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := s.c.RemoveObject(ctx, s.bucket, s.prefix+key, minio.RemoveObjectOptions{}); err != nil && !isS3NotFound(err) {
		return fmt.Errorf("blobstore: s3 delete %s: %w", key, err)
	}
	return nil
}

// Copy implements Store with a server-side copy (atomically visible; the
// recorded checksum goes with it).
func (s *S3) Copy(ctx context.Context, src, dst string) (Info, error) {
	if err := checkKey(src); err != nil {
		return Info{}, err
	}
	if err := checkKey(dst); err != nil {
		return Info{}, err
	}
	if _, err := s.c.CopyObject(ctx, minio.CopyDestOptions{Bucket: s.bucket, Object: s.prefix + dst},
		minio.CopySrcOptions{Bucket: s.bucket, Object: s.prefix + src}); err != nil {
		return Info{}, s.wrap(src, err)
	}
	return s.Stat(ctx, dst)
}
