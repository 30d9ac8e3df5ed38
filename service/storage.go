package service

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"

	"fairbalance"
	"fairbalance/auth"
)

// Storage is the storage service (/storage/v1): buckets and objects.
//
// Permissions, by organisation scope: the service role reaches everything;
// a member reaches the buckets (and their objects) of their own
// organisation only; members other than viewers and demo members upload,
// move, copy and remove, except in the product buckets, where only the
// writers of content (owners, admins, marketers) do; owners and admins
// manage buckets; emptying a bucket is for the service role. Objects of
// another organisation answer as if they did not exist. Every write
// appends an audit entry to the bucket's organisation's chain in the
// transaction of the change.
//
// Bytes go to the blob store first, under a fresh key per upload; the row
// pointing at them is written afterwards, so a failed or refused upload
// never shows, and a replaced blob is removed only after the commit. Blobs
// a crash left without a row are reclaimed by ReclaimOrphans.
type Storage struct {
	store   fairbalance.Store
	blobs   fairbalance.BlobStore
	signKey []byte
	sniff   ContentSniffer
	// Now is the clock.
	Now func() time.Time
	// MaxFileSize caps every upload (a bucket's limit can only lower it).
	MaxFileSize int64
	// DefaultMimeTypes are accepted in buckets without allowed_mime_types.
	DefaultMimeTypes []string
	// UploadURLExpiry is the lifetime of signed upload URLs.
	UploadURLExpiry time.Duration
	// ReclaimBatch is how many blobs ReclaimOrphans checks per query
	// (DefaultReclaimBatch when zero).
	ReclaimBatch int
}

// DefaultMaxFileSize is the instance's default upload limit (500 MiB).
const DefaultMaxFileSize = 500 << 20

// DefaultMimeTypes is the instance's default allow-list.
var DefaultMimeTypes = []string{"application/pdf", "image/png", "image/jpeg", "image/webp"}

// ContentSniffer names the media type of content from its first bytes (at
// most 512 are considered) by the WHATWG MIME Sniffing algorithm, with its
// parameters: "application/pdf", "text/plain; charset=utf-8", and
// "application/octet-stream" when nothing matches. net/http's
// DetectContentType is the implementation; the program passes it in, so
// that the service layer does not depend on HTTP.
type ContentSniffer func(head []byte) string

// NewStorage returns the storage service. secret is an instance secret;
// the URL-signing key is derived from it. sniff decides the type of every
// upload, whatever the client claims.
func NewStorage(store fairbalance.Store, blobs fairbalance.BlobStore, secret []byte, sniff ContentSniffer) *Storage {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("fairbalance storage url signing v1"))
	return &Storage{store: store, blobs: blobs, signKey: m.Sum(nil), sniff: sniff, Now: func() time.Time { return time.Now().UTC() },
		MaxFileSize: DefaultMaxFileSize, DefaultMimeTypes: DefaultMimeTypes, UploadURLExpiry: 2 * time.Hour}
}

// Storage error codes (supabase/storage's ErrorCode values).
const (
	CodeNoSuchBucket     = "NoSuchBucket"
	CodeNoSuchKey        = "NoSuchKey"
	CodeDuplicate        = "Duplicate"
	CodeAccessDenied     = "AccessDenied"
	CodeInvalidMimeType  = "InvalidMimeType"
	CodeEntityTooLarge   = "EntityTooLarge"
	CodeResourceNotEmpty = "ResourceNotEmpty"
	CodeInvalidKey       = "InvalidKey"
	CodeInvalidBucket    = "InvalidBucketName"
	CodeInvalidRequest   = "InvalidRequest"
	CodeInvalidSignature = "InvalidSignature"
	CodeExpiredToken     = "ExpiredToken"
	CodeInvalidJWT       = "InvalidJWT"
	// CodeServiceRoleOnly refuses an operation that only the service role
	// may perform, whatever the caller's rights on the bucket; storage-js
	// sees it as AccessDenied.
	CodeServiceRoleOnly = "ServiceRoleOnly"
)

func errBucketNotFound() error {
	return fairbalance.Errorf(fairbalance.KindNotFound, CodeNoSuchBucket, "Bucket not found")
}
func errObjectNotFound() error {
	return fairbalance.Errorf(fairbalance.KindNotFound, CodeNoSuchKey, "Object not found")
}
func errDenied() error {
	return fairbalance.Errorf(fairbalance.KindForbidden, CodeAccessDenied, "new row violates row-level security policy")
}
func errDuplicate() error {
	return fairbalance.Errorf(fairbalance.KindConflict, CodeDuplicate, "The resource already exists")
}

var bucketIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$`)

// CleanObjectName validates an object name as storage-js sends it: "//"
// collapsed, leading and trailing "/" stripped; no "." or ".." segment, no
// control characters, valid UTF-8, at most 1024 bytes.
func CleanObjectName(name string) (string, error) {
	for strings.Contains(name, "//") {
		name = strings.ReplaceAll(name, "//", "/")
	}
	name = strings.Trim(name, "/")
	bad := name == "" || len(name) > 1024 || !utf8.ValidString(name)
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == '\\' {
			bad = true
		}
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "." || seg == ".." {
			bad = true
		}
	}
	if bad {
		return "", fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidKey, "Invalid key: %s", name)
	}
	return name, nil
}

// bucket reads a bucket c may see; others' answer as missing.
func (s *Storage) bucket(ctx context.Context, q fairbalance.Tx, c fairbalance.Caller, id string) (*fairbalance.Bucket, error) {
	if c.Anon() {
		return nil, errBucketNotFound()
	}
	b, err := q.BucketByID(ctx, id)
	if errors.Is(err, fairbalance.ErrNotFound) || (err == nil && !c.Sees(b.OrgID) && !(b.ServerPaths && c.InOrg())) {
		return nil, errBucketNotFound()
	}
	return b, err
}

// MsgServerPaths refuses a name chosen by a client in a product bucket.
const MsgServerPaths = "Object paths in this bucket are generated by the server"

func errServerPaths() error {
	return fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, MsgServerPaths)
}

// errSystemBucket refuses changing a product bucket, which the content
// model relies on.
func errSystemBucket() error {
	return fairbalance.Errorf(fairbalance.KindForbidden, CodeAccessDenied, "System buckets cannot be changed")
}

// objectOrg is the organisation an object named name of b belongs to: the
// bucket's, or in a product bucket (server paths) the first segment of the
// name, <org_id>/<uuid>.<ext>.
func objectOrg(b *fairbalance.Bucket, name string) string {
	if !b.ServerPaths {
		return b.OrgID
	}
	org, _, _ := strings.Cut(name, "/")
	return org
}

// hides reports whether o, an object of b, is invisible to c: in a product
// bucket every organisation reaches only its own objects.
func hides(c fairbalance.Caller, b *fairbalance.Bucket, o *fairbalance.StoredObject) bool {
	return b.ServerPaths && !c.Sees(o.OrgID)
}

// writes reports whether c may upload, move or remove objects of org in
// b: in a product bucket by the content write rule, elsewhere by the
// object rule (anyone but viewers).
func writes(c fairbalance.Caller, b *fairbalance.Bucket, org string) bool {
	if b.ServerPaths {
		return c.WritesProductFiles(org)
	}
	return c.WritesObjects(org)
}

// audit appends e to the chain of the bucket's organisation.
func (s *Storage) audit(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, orgID string, e *fairbalance.AuditEntry) error {
	e.OrgID, e.ActorID = orgID, c.UserID
	if c.Service() {
		e.ActorID = "service_role"
	} else if u, err := tx.UserByID(ctx, c.UserID); err == nil {
		e.ActorEmail = u.Email
	}
	e.CreatedAt = s.Now()
	return tx.AppendAudit(ctx, e)
}

// ---- Buckets ----

// BucketInput is the body of bucket create and update; nil fields are
// unchanged on update.
type BucketInput struct {
	ID               string
	Public           *bool
	FileSizeLimit    *int64
	ClearSizeLimit   bool
	AllowedMimeTypes *[]string
	// OrgID places a bucket of the service role in an organisation.
	OrgID string
}

// ListBuckets lists the buckets c sees.
func (s *Storage) ListBuckets(ctx context.Context, c fairbalance.Caller) ([]*fairbalance.Bucket, error) {
	if !c.Service() && !c.InOrg() {
		return []*fairbalance.Bucket{}, nil
	}
	return s.store.View().ListBuckets(ctx, c.OrgID, c.Service())
}

// GetBucket reads one bucket.
func (s *Storage) GetBucket(ctx context.Context, c fairbalance.Caller, id string) (*fairbalance.Bucket, error) {
	return s.bucket(ctx, s.store.View(), c, id)
}

func bucketJSON(b *fairbalance.Bucket) json.RawMessage {
	return mustRaw(map[string]any{"id": b.ID, "public": b.Public, "file_size_limit": b.FileSizeLimit, "allowed_mime_types": b.AllowedMimeTypes, "org_id": b.OrgID})
}

func validMimeList(l []string) error {
	for _, m := range l {
		if _, _, err := mime.ParseMediaType(m); err != nil && !strings.HasSuffix(m, "/*") {
			return fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "Invalid mime type: %s", m)
		}
	}
	return nil
}

// CreateBucket creates a bucket in c's organisation (the service role's
// in in.OrgID, "" for the instance's own).
func (s *Storage) CreateBucket(ctx context.Context, c fairbalance.Caller, in BucketInput) (*fairbalance.Bucket, error) {
	org := c.OrgID
	if c.Service() {
		org = in.OrgID
	}
	if c.Anon() || !c.ManagesBuckets(org) {
		return nil, errDenied()
	}
	if !bucketIDPattern.MatchString(in.ID) {
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidBucket, "Bucket name invalid")
	}
	now := s.Now()
	b := &fairbalance.Bucket{ID: in.ID, Name: in.ID, Owner: c.UserID, OrgID: org, CreatedAt: now, UpdatedAt: now}
	if in.Public != nil {
		b.Public = *in.Public
	}
	if in.FileSizeLimit != nil {
		if *in.FileSizeLimit <= 0 {
			return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "file_size_limit must be positive")
		}
		b.FileSizeLimit = in.FileSizeLimit
	}
	if in.AllowedMimeTypes != nil {
		if err := validMimeList(*in.AllowedMimeTypes); err != nil {
			return nil, err
		}
		b.AllowedMimeTypes = *in.AllowedMimeTypes
	}
	err := s.store.Tx(ctx, func(tx fairbalance.Tx) error {
		if err := tx.InsertBucket(ctx, b); err != nil {
			if errors.Is(err, fairbalance.ErrConflict) {
				return errDuplicate()
			}
			return err
		}
		return s.audit(ctx, tx, c, org, &fairbalance.AuditEntry{Action: fairbalance.ActionBucketCreated, ObjectType: "bucket", ObjectID: b.ID, After: bucketJSON(b)})
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// UpdateBucket changes a bucket's public flag, size limit and mime types.
func (s *Storage) UpdateBucket(ctx context.Context, c fairbalance.Caller, in BucketInput) error {
	return s.store.Tx(ctx, func(tx fairbalance.Tx) error {
		b, err := s.bucket(ctx, tx, c, in.ID)
		if err != nil {
			return err
		}
		if b.ServerPaths {
			return errSystemBucket()
		}
		if !c.ManagesBuckets(b.OrgID) {
			return errDenied()
		}
		before := bucketJSON(b)
		if in.Public != nil {
			b.Public = *in.Public
		}
		if in.ClearSizeLimit {
			b.FileSizeLimit = nil
		} else if in.FileSizeLimit != nil {
			if *in.FileSizeLimit <= 0 {
				return fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "file_size_limit must be positive")
			}
			b.FileSizeLimit = in.FileSizeLimit
		}
		if in.AllowedMimeTypes != nil {
			if err := validMimeList(*in.AllowedMimeTypes); err != nil {
				return err
			}
			b.AllowedMimeTypes = *in.AllowedMimeTypes
		}
		b.UpdatedAt = s.Now()
		if err := tx.UpdateBucket(ctx, b); err != nil {
			return err
		}
		return s.audit(ctx, tx, c, b.OrgID, &fairbalance.AuditEntry{Action: fairbalance.ActionBucketUpdated, ObjectType: "bucket", ObjectID: b.ID, Before: before, After: bucketJSON(b)})
	})
}

// DeleteBucket deletes an empty bucket.
func (s *Storage) DeleteBucket(ctx context.Context, c fairbalance.Caller, id string) error {
	return s.store.Tx(ctx, func(tx fairbalance.Tx) error {
		b, err := s.bucket(ctx, tx, c, id)
		if err != nil {
			return err
		}
		if b.ServerPaths {
			return errSystemBucket()
		}
		if !c.ManagesBuckets(b.OrgID) {
			return errDenied()
		}
		n, err := tx.CountObjects(ctx, id)
		if err != nil {
			return err
		}
		if n > 0 {
			return fairbalance.Errorf(fairbalance.KindConflict, CodeResourceNotEmpty, "The bucket you tried to delete is not empty")
		}
		if err := tx.DeleteBucket(ctx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, c, b.OrgID, &fairbalance.AuditEntry{Action: fairbalance.ActionBucketDeleted, ObjectType: "bucket", ObjectID: b.ID, Before: bucketJSON(b)})
	})
}

// EmptyBucket removes every object of a bucket (service role only), in
// batches, each batch with its audit entry.
func (s *Storage) EmptyBucket(ctx context.Context, c fairbalance.Caller, id string) error {
	if !c.Service() {
		return fairbalance.Errorf(fairbalance.KindForbidden, CodeServiceRoleOnly, "Only the service role may empty a bucket")
	}
	if b, err := s.bucket(ctx, s.store.View(), c, id); err != nil {
		return err
	} else if b.ServerPaths {
		return errSystemBucket()
	}
	for {
		objs, err := s.store.View().ObjectsWithPrefix(ctx, id, "", 500)
		if err != nil {
			return err
		}
		if len(objs) == 0 {
			return nil
		}
		names := make([]string, len(objs))
		for i, o := range objs {
			names[i] = o.Name
		}
		if _, err := s.Remove(ctx, c, id, names); err != nil {
			return err
		}
	}
}

// ---- Objects ----

// UploadInput is one upload. Body is read once, streamed to the blob store.
type UploadInput struct {
	Bucket       string
	Name         string
	Body         io.Reader
	CacheControl string // "max-age=N" or a bare number
	Metadata     json.RawMessage
	Upsert       bool
	// serverPath is set for an upload with a token of prepare_upload, the
	// only way into a product bucket.
	serverPath bool
	// declared is the size prepare_upload was told, the most the body
	// may carry (0: only the bucket's and the instance's limits).
	declared int64
}

// SniffContentType returns the content type of the head of a body, as the
// storage's ContentSniffer names it, and its essence (no parameters).
func (s *Storage) SniffContentType(head []byte) (full, essence string) {
	full = s.sniff(head)
	essence, _, _ = strings.Cut(full, ";")
	return full, strings.TrimSpace(strings.ToLower(essence))
}

// mimeAllowed reports whether essence matches a list entry ("type/*"
// matches the type).
func mimeAllowed(list []string, essence string) bool {
	for _, m := range list {
		m = strings.ToLower(strings.TrimSpace(m))
		if m == essence || (strings.HasSuffix(m, "/*") && strings.HasPrefix(essence, strings.TrimSuffix(m, "*"))) {
			return true
		}
	}
	return false
}

func cacheControl(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return "max-age=3600"
	}
	if _, err := fmt.Sscanf(v, "%d", new(int)); err == nil && !strings.Contains(v, "=") {
		return "max-age=" + v
	}
	return v
}

// blobKey is a fresh blob key, spread over 256 directories.
func blobKey() string {
	id := auth.NewUUID()
	return id[:2] + "/" + id
}

// Upload stores an object. The body is streamed to a new blob (SHA-256
// and size limit enforced on the way), its type sniffed from its first
// 512 bytes and checked against the bucket's list; then the row is
// written with its audit entry. An existing object is replaced only with
// Upsert.
func (s *Storage) Upload(ctx context.Context, c fairbalance.Caller, in UploadInput) (*fairbalance.StoredObject, error) {
	name, err := CleanObjectName(in.Name)
	if err != nil {
		return nil, err
	}
	b, err := s.bucket(ctx, s.store.View(), c, in.Bucket)
	if err != nil {
		return nil, err
	}
	if b.ServerPaths && !in.serverPath && !c.Service() {
		return nil, errServerPaths()
	}
	org := objectOrg(b, name)
	if !writes(c, b, org) {
		return nil, errDenied()
	}
	if !in.Upsert {
		if _, err := s.store.View().ObjectByName(ctx, b.ID, name); err == nil {
			return nil, errDuplicate()
		}
	}
	meta := in.Metadata
	if len(meta) == 0 {
		meta = json.RawMessage(`{}`)
	} else if !json.Valid(meta) || meta[0] != '{' {
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "metadata must be a JSON object")
	}
	limit, _ := s.Limits(b)
	tooLarge := "The object exceeded the maximum allowed size"
	if in.declared > 0 && in.declared < limit {
		limit, tooLarge = in.declared, "The object is larger than the size declared when its upload was prepared"
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(in.Body, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("storage: reading the upload: %w", err)
	}
	head = head[:n]
	full, essence := s.SniffContentType(head)
	allowed := b.AllowedMimeTypes
	if allowed == nil {
		allowed = s.DefaultMimeTypes
	}
	if !mimeAllowed(allowed, essence) {
		return nil, fairbalance.Errorf(fairbalance.KindUnprocessable, CodeInvalidMimeType, "mime type %s is not supported", essence)
	}
	key := blobKey()
	body := &readErrs{r: in.Body}
	info, err := s.blobs.Put(ctx, key, io.MultiReader(bytes.NewReader(head), body), limit)
	switch {
	case errors.Is(err, fairbalance.ErrBlobTooLarge):
		return nil, fairbalance.Errorf(fairbalance.KindTooLarge, CodeEntityTooLarge, "%s", tooLarge)
	case err != nil && body.err != nil:
		// The client's fault (the body broke off); nothing was stored.
		return nil, &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: CodeInvalidRequest, Message: "The upload was interrupted", Err: body.err}
	case err != nil:
		return nil, err
	}
	now := s.Now()
	o := &fairbalance.StoredObject{ID: auth.NewUUID(), BucketID: b.ID, Name: name, Owner: c.UserID, OrgID: org, BlobKey: key,
		Size: info.Size, MimeType: full, SHA256: info.SHA256, CacheControl: cacheControl(in.CacheControl), Metadata: meta,
		CreatedAt: now, UpdatedAt: now, LastAccessedAt: now}
	var old string
	err = s.store.Tx(ctx, func(tx fairbalance.Tx) error {
		if _, err := s.bucket(ctx, tx, c, b.ID); err != nil {
			return err
		}
		prev, err := tx.ObjectByName(ctx, b.ID, name)
		switch {
		case errors.Is(err, fairbalance.ErrNotFound):
			if err := tx.InsertObject(ctx, o); err != nil {
				if errors.Is(err, fairbalance.ErrConflict) {
					return errDuplicate()
				}
				return err
			}
			return s.audit(ctx, tx, c, org, &fairbalance.AuditEntry{Action: fairbalance.ActionObjectCreated, ObjectType: "object", ObjectID: o.ID, After: objectJSON(o)})
		case err != nil:
			return err
		case !in.Upsert:
			return errDuplicate()
		}
		if b.ServerPaths {
			if err := fileLocked(ctx, tx, b.ID, name, "replaced"); err != nil {
				return err
			}
		}
		o.ID, o.CreatedAt, old = prev.ID, prev.CreatedAt, prev.BlobKey
		if err := tx.UpdateObject(ctx, o); err != nil {
			return err
		}
		return s.audit(ctx, tx, c, org, &fairbalance.AuditEntry{Action: fairbalance.ActionObjectUpdated, ObjectType: "object", ObjectID: o.ID, Before: objectJSON(prev), After: objectJSON(o)})
	})
	if err != nil {
		s.dropBlob(key)
		return nil, err
	}
	if old != "" {
		s.dropBlob(old)
	}
	return o, nil
}

// readErrs remembers the error of the body, so that a body that broke off
// is told apart from a failure of the blob store.
type readErrs struct {
	r   io.Reader
	err error
}

func (e *readErrs) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// dropBlob deletes a blob no row points at (failures are logged: the blob
// is then an orphan, never visible).
func (s *Storage) dropBlob(key string) {
	if err := s.blobs.Delete(context.Background(), key); err != nil {
		slog.Warn("storage: orphan blob left", "key", key, "err", err)
	}
}

func objectJSON(o *fairbalance.StoredObject) json.RawMessage {
	return mustRaw(map[string]any{"id": o.ID, "bucket_id": o.BucketID, "name": o.Name, "owner": o.Owner, "size": o.Size, "mimetype": o.MimeType, "sha256": o.SHA256})
}

// object reads an object c may read.
func (s *Storage) object(ctx context.Context, c fairbalance.Caller, bucket, name string) (*fairbalance.StoredObject, error) {
	b, err := s.bucket(ctx, s.store.View(), c, bucket)
	if err != nil {
		return nil, err
	}
	o, err := s.objectIn(ctx, bucket, name)
	if err == nil && hides(c, b, o) {
		return nil, errObjectNotFound()
	}
	return o, err
}

func (s *Storage) objectIn(ctx context.Context, bucket, name string) (*fairbalance.StoredObject, error) {
	name, err := CleanObjectName(name)
	if err != nil {
		return nil, errObjectNotFound()
	}
	o, err := s.store.View().ObjectByName(ctx, bucket, name)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, errObjectNotFound()
	}
	return o, err
}

// Info reads an object's metadata.
func (s *Storage) Info(ctx context.Context, c fairbalance.Caller, bucket, name string) (*fairbalance.StoredObject, error) {
	return s.object(ctx, c, bucket, name)
}

// Open opens an object c may read. The caller closes the blob.
func (s *Storage) Open(ctx context.Context, c fairbalance.Caller, bucket, name string) (*fairbalance.StoredObject, fairbalance.Blob, error) {
	o, err := s.object(ctx, c, bucket, name)
	if err != nil {
		return nil, nil, err
	}
	return s.openBlob(ctx, o)
}

// OpenPublic opens an object of a public bucket, for anyone.
func (s *Storage) OpenPublic(ctx context.Context, bucket, name string) (*fairbalance.StoredObject, fairbalance.Blob, error) {
	b, err := s.store.View().BucketByID(ctx, bucket)
	if err != nil || !b.Public {
		if err == nil || errors.Is(err, fairbalance.ErrNotFound) {
			return nil, nil, errBucketNotFound()
		}
		return nil, nil, err
	}
	o, err := s.objectIn(ctx, bucket, name)
	if err != nil {
		return nil, nil, err
	}
	return s.openBlob(ctx, o)
}

func (s *Storage) openBlob(ctx context.Context, o *fairbalance.StoredObject) (*fairbalance.StoredObject, fairbalance.Blob, error) {
	blob, err := s.blobs.Get(ctx, o.BlobKey)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, nil, errObjectNotFound()
	}
	if err != nil {
		return nil, nil, err
	}
	return o, blob, nil
}

// ListInput is the body of POST /object/list/{bucket}.
type ListInput struct {
	Prefix     string
	Search     string
	Limit      int
	Offset     int
	SortColumn string
	SortOrder  string
}

// ListEntry is a file (Object set) or a folder (Object nil) of a listing;
// Name is relative to the prefix.
type ListEntry struct {
	Name   string
	Object *fairbalance.StoredObject
}

// List lists the immediate children of a prefix: objects and folders
// (list v1; see list).
func (s *Storage) List(ctx context.Context, c fairbalance.Caller, bucket string, in ListInput) ([]ListEntry, error) {
	b, err := s.bucket(ctx, s.store.View(), c, bucket)
	if err != nil {
		return nil, err
	}
	return s.list(ctx, c, b, in)
}

// Remove deletes the objects with exactly these names (unknown names are
// skipped) and returns the deleted rows.
func (s *Storage) Remove(ctx context.Context, c fairbalance.Caller, bucket string, names []string) ([]*fairbalance.StoredObject, error) {
	var gone []*fairbalance.StoredObject
	err := s.store.Tx(ctx, func(tx fairbalance.Tx) error {
		gone = nil
		b, err := s.bucket(ctx, tx, c, bucket)
		if err != nil {
			return err
		}
		scope := b.OrgID
		if b.ServerPaths {
			// A product bucket holds every organisation's files; the caller
			// removes their own (others' are skipped below as invisible).
			scope = c.OrgID
		}
		if !writes(c, b, scope) {
			return errDenied()
		}
		for _, n := range names {
			name, err := CleanObjectName(n)
			if err != nil {
				continue
			}
			o, err := tx.ObjectByName(ctx, bucket, name)
			if errors.Is(err, fairbalance.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if hides(c, b, o) {
				continue
			}
			if !writes(c, b, o.OrgID) {
				return errDenied()
			}
			if b.ServerPaths {
				if err := fileLocked(ctx, tx, b.ID, o.Name, "removed"); err != nil {
					return err
				}
			}
			if err := tx.DeleteObject(ctx, o.ID); err != nil {
				return err
			}
			if err := s.audit(ctx, tx, c, o.OrgID, &fairbalance.AuditEntry{Action: fairbalance.ActionObjectDeleted, ObjectType: "object", ObjectID: o.ID, Before: objectJSON(o)}); err != nil {
				return err
			}
			gone = append(gone, o)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, o := range gone {
		s.dropBlob(o.BlobKey)
	}
	if gone == nil {
		gone = []*fairbalance.StoredObject{}
	}
	return gone, nil
}

// Move renames an object, possibly into another bucket of the same
// organisation; only the row changes.
func (s *Storage) Move(ctx context.Context, c fairbalance.Caller, bucket, from, destBucket, to string) (*fairbalance.StoredObject, error) {
	return s.relocate(ctx, c, bucket, from, destBucket, to, false)
}

// Copy duplicates an object (a new blob and row).
func (s *Storage) Copy(ctx context.Context, c fairbalance.Caller, bucket, from, destBucket, to string) (*fairbalance.StoredObject, error) {
	return s.relocate(ctx, c, bucket, from, destBucket, to, true)
}

func (s *Storage) relocate(ctx context.Context, c fairbalance.Caller, bucket, from, destBucket, to string, copying bool) (*fairbalance.StoredObject, error) {
	if destBucket == "" {
		destBucket = bucket
	}
	to, err := CleanObjectName(to)
	if err != nil {
		return nil, err
	}
	src, err := s.object(ctx, c, bucket, from)
	if err != nil {
		return nil, err
	}
	db, err := s.bucket(ctx, s.store.View(), c, destBucket)
	if err != nil {
		return nil, err
	}
	sb, err := s.bucket(ctx, s.store.View(), c, bucket)
	if err != nil {
		return nil, err
	}
	if (sb.ServerPaths || db.ServerPaths) && !c.Service() {
		return nil, errServerPaths()
	}
	destOrg := objectOrg(db, to)
	if !writes(c, sb, src.OrgID) || !writes(c, db, destOrg) {
		return nil, errDenied()
	}
	if db.AllowedMimeTypes != nil {
		ess, _, _ := strings.Cut(src.MimeType, ";")
		if !mimeAllowed(db.AllowedMimeTypes, strings.TrimSpace(ess)) {
			return nil, fairbalance.Errorf(fairbalance.KindUnprocessable, CodeInvalidMimeType, "mime type %s is not supported", ess)
		}
	}
	if db.FileSizeLimit != nil && src.Size > *db.FileSizeLimit {
		return nil, fairbalance.Errorf(fairbalance.KindTooLarge, CodeEntityTooLarge, "The object exceeded the maximum allowed size")
	}
	now := s.Now()
	o := *src
	o.BucketID, o.Name, o.OrgID, o.UpdatedAt = destBucket, to, destOrg, now
	newKey := ""
	if copying {
		newKey = blobKey()
		if _, err := s.blobs.Copy(ctx, src.BlobKey, newKey); err != nil {
			if errors.Is(err, fairbalance.ErrNotFound) {
				return nil, errObjectNotFound()
			}
			return nil, err
		}
		o.ID, o.BlobKey, o.Owner, o.CreatedAt, o.LastAccessedAt = auth.NewUUID(), newKey, c.UserID, now, now
	}
	err = s.store.Tx(ctx, func(tx fairbalance.Tx) error {
		cur, err := tx.ObjectByName(ctx, bucket, src.Name)
		if errors.Is(err, fairbalance.ErrNotFound) || (err == nil && cur.ID != src.ID) {
			return errObjectNotFound()
		}
		if err != nil {
			return err
		}
		if _, err := tx.ObjectByName(ctx, destBucket, to); err == nil {
			return errDuplicate()
		} else if !errors.Is(err, fairbalance.ErrNotFound) {
			return err
		}
		if sb.ServerPaths && !copying {
			if err := fileLocked(ctx, tx, bucket, src.Name, "moved"); err != nil {
				return err
			}
		}
		action := fairbalance.ActionObjectMoved
		if copying {
			action = fairbalance.ActionObjectCopied
			err = tx.InsertObject(ctx, &o)
		} else {
			err = tx.UpdateObject(ctx, &o)
		}
		if errors.Is(err, fairbalance.ErrConflict) {
			return errDuplicate()
		}
		if err != nil {
			return err
		}
		return s.audit(ctx, tx, c, destOrg, &fairbalance.AuditEntry{Action: action, ObjectType: "object", ObjectID: o.ID, Before: objectJSON(src), After: objectJSON(&o)})
	})
	if err != nil {
		if newKey != "" {
			s.dropBlob(newKey)
		}
		return nil, err
	}
	return &o, nil
}

// ---- Signed URLs ----

type signedClaims struct {
	URL    string `json:"url"`
	Scope  string `json:"scope"`
	Owner  string `json:"owner,omitempty"`
	Upsert bool   `json:"upsert,omitempty"`
	// Server marks a token of prepare_upload, for a name the server chose;
	// Size is the size declared there, the most the upload may carry.
	Server bool  `json:"srv,omitempty"`
	Size   int64 `json:"size,omitempty"`
	// Session is the session of the member who signed an upload URL: the
	// URL stops working when the session does.
	Session string `json:"sid,omitempty"`
	jwt.RegisteredClaims
}

func (s *Storage) sign(cl *signedClaims, ttl time.Duration) (string, error) {
	now := s.Now()
	cl.IssuedAt = jwt.NewNumericDate(now)
	cl.ExpiresAt = jwt.NewNumericDate(now.Add(ttl))
	return jwt.NewWithClaims(jwt.SigningMethodHS256, cl).SignedString(s.signKey)
}

// verify checks a signed-URL token for bucket/name and scope.
func (s *Storage) verify(token, scope, bucket, name string) (*signedClaims, error) {
	var cl signedClaims
	_, err := jwt.ParseWithClaims(token, &cl, func(t *jwt.Token) (any, error) { return s.signKey, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(s.Now), jwt.WithExpirationRequired())
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeExpiredToken, "The provided token has expired.")
	case err != nil:
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidJWT, "invalid signature")
	case cl.Scope != scope || cl.URL != bucket+"/"+name:
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidSignature, "Invalid signature")
	}
	return &cl, nil
}

// SignURL returns a download token for an object c may read, valid for
// expiresIn seconds.
func (s *Storage) SignURL(ctx context.Context, c fairbalance.Caller, bucket, name string, expiresIn int64) (string, error) {
	if expiresIn <= 0 {
		return "", fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidRequest, "expiresIn must be a positive number of seconds")
	}
	o, err := s.object(ctx, c, bucket, name)
	if err != nil {
		return "", err
	}
	return s.sign(&signedClaims{URL: bucket + "/" + o.Name, Scope: "download"}, time.Duration(expiresIn)*time.Second)
}

// OpenSigned opens the object a download token names.
func (s *Storage) OpenSigned(ctx context.Context, bucket, name, token string) (*fairbalance.StoredObject, fairbalance.Blob, error) {
	name = strings.Trim(name, "/")
	if _, err := s.verify(token, "download", bucket, name); err != nil {
		return nil, nil, err
	}
	o, err := s.objectIn(ctx, bucket, name)
	if err != nil {
		return nil, nil, err
	}
	return s.openBlob(ctx, o)
}

// SignUploadURL returns an upload token for bucket/name, if c may upload
// there.
func (s *Storage) SignUploadURL(ctx context.Context, c fairbalance.Caller, bucket, name string, upsert bool) (string, error) {
	name, err := CleanObjectName(name)
	if err != nil {
		return "", err
	}
	b, err := s.bucket(ctx, s.store.View(), c, bucket)
	if err != nil {
		return "", err
	}
	if b.ServerPaths && !c.Service() {
		return "", errServerPaths()
	}
	if !writes(c, b, objectOrg(b, name)) {
		return "", errDenied()
	}
	if !upsert {
		if _, err := s.store.View().ObjectByName(ctx, bucket, name); err == nil {
			return "", errDuplicate()
		}
	}
	owner := c.UserID
	if c.Service() {
		owner = "service_role"
	}
	return s.sign(&signedClaims{URL: bucket + "/" + name, Scope: "upload", Owner: owner, Session: c.SessionID, Upsert: upsert}, s.UploadURLExpiry)
}

// UploadSigned stores an upload made with an upload token, as the member
// who signed it, as that member is now: the member's standing is judged
// afresh as Identity.Caller judges it (the session that signed the URL still
// alive, the account, the profile, the session at aal2 if the account has a
// second factor), so a signed-out or revoked session, a deactivated member
// or one who left the organisation is refused at once.
func (s *Storage) UploadSigned(ctx context.Context, token string, in UploadInput) (*fairbalance.StoredObject, error) {
	name, err := CleanObjectName(in.Name)
	if err != nil {
		return nil, err
	}
	cl, err := s.verify(token, "upload", in.Bucket, name)
	if err != nil {
		return nil, err
	}
	c := fairbalance.Caller{Role: "service_role"}
	if cl.Owner != "service_role" {
		if c, err = lookupMember(ctx, s.store.View(), s.Now(), cl.Owner, cl.Session, ""); err != nil {
			return nil, signedUploadRefusal(err)
		}
	}
	if cl.Server && cl.Size <= 0 {
		// Every token of prepare_upload carries the declared size.
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, CodeInvalidSignature, "Invalid signature")
	}
	in.Name, in.Upsert, in.serverPath, in.declared = name, cl.Upsert, cl.Server, cl.Size
	return s.Upload(ctx, c, in)
}

// SignServerUpload returns an upload token for name, a path the server
// chose in a product bucket, for the member userID signed in with the
// session sessionID (the content function prepare_upload has checked their
// rights), or for "service_role", carrying at most size bytes (the size
// declared there; positive). The token never replaces.
func (s *Storage) SignServerUpload(bucket, name, userID, sessionID string, size int64) (string, error) {
	if size <= 0 {
		return "", fmt.Errorf("storage: a server upload of %d bytes", size)
	}
	return s.sign(&signedClaims{URL: bucket + "/" + name, Scope: "upload", Owner: userID, Session: sessionID, Server: true, Size: size}, s.UploadURLExpiry)
}

// signedUploadRefusal renders the caller resolver's refusal of the member
// behind an upload URL as storage always has: AccessDenied, whatever the
// reason. An internal failure passes unchanged.
func signedUploadRefusal(err error) error {
	if e := fairbalance.AsError(err); e != nil && e.Kind != fairbalance.KindInternal {
		return errDenied()
	}
	return err
}

// Limits returns the size limit and the allowed types of uploads to b.
func (s *Storage) Limits(b *fairbalance.Bucket) (limit int64, types []string) {
	limit = s.MaxFileSize
	if b.FileSizeLimit != nil && *b.FileSizeLimit < limit {
		limit = *b.FileSizeLimit
	}
	types = b.AllowedMimeTypes
	if types == nil {
		types = s.DefaultMimeTypes
	}
	return limit, types
}

// Blob opens the bytes of a stored object (no permission check: the
// caller has done it). The caller closes the blob.
func (s *Storage) Blob(ctx context.Context, o *fairbalance.StoredObject) (fairbalance.Blob, error) {
	_, b, err := s.openBlob(ctx, o)
	return b, err
}
