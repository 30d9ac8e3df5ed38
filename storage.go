package fairbalance

import (
	"context"
	"encoding/json"
	"time"
)

// Audit actions written by the storage service.
const (
	ActionBucketCreated = "bucket.create"
	ActionBucketUpdated = "bucket.update"
	ActionBucketEmptied = "bucket.empty"
	ActionBucketDeleted = "bucket.delete"
	ActionObjectCreated = "object.create"
	ActionObjectUpdated = "object.update"
	ActionObjectDeleted = "object.delete"
	ActionObjectMoved   = "object.move"
	ActionObjectCopied  = "object.copy"
)

// Bucket is a storage bucket. OrgID is the organisation that owns it and
// its objects ("" for the instance's own buckets, reachable by the service
// role only).
type Bucket struct {
	ID     string
	Name   string
	Owner  string
	OrgID  string
	Public bool
	// FileSizeLimit is the largest object in bytes; nil for the instance's
	// limit.
	FileSizeLimit *int64
	// AllowedMimeTypes lists the accepted content types ("image/*" allowed);
	// nil accepts any.
	AllowedMimeTypes []string
	// ServerPaths marks a product bucket (asset-files, reference-files):
	// the server chooses every object's name, <org_id>/<uuid>.<ext>, and
	// an object belongs to the organisation its name begins with.
	ServerPaths bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// StoredObject is the metadata of an object; its bytes are the blob named
// BlobKey in the blob store (a fresh key per upload, so that a replaced or
// moved object never exposes partial bytes).
type StoredObject struct {
	ID             string
	BucketID       string
	Name           string
	Owner          string
	OrgID          string
	BlobKey        string
	Size           int64
	MimeType       string
	SHA256         string
	CacheControl   string
	Metadata       json.RawMessage // user metadata, a JSON object
	CreatedAt      time.Time
	UpdatedAt      time.Time
	LastAccessedAt time.Time
}

// StorageStore holds buckets and object metadata. Lookups of a missing row
// return ErrNotFound; inserts of a taken id or name return ErrConflict.
type StorageStore interface {
	InsertBucket(ctx context.Context, b *Bucket) error
	// BucketByID reads a bucket (locked inside a transaction on PostgreSQL).
	BucketByID(ctx context.Context, id string) (*Bucket, error)
	// ListBuckets lists the buckets of an organisation, or every bucket
	// when all is set, by id.
	ListBuckets(ctx context.Context, orgID string, all bool) ([]*Bucket, error)
	UpdateBucket(ctx context.Context, b *Bucket) error
	DeleteBucket(ctx context.Context, id string) error
	// CountObjects counts a bucket's objects.
	CountObjects(ctx context.Context, bucketID string) (int64, error)
	// ObjectByName reads an object (locked inside a transaction on
	// PostgreSQL).
	ObjectByName(ctx context.Context, bucketID, name string) (*StoredObject, error)
	InsertObject(ctx context.Context, o *StoredObject) error
	// UpdateObject rewrites every column of the object with o.ID.
	UpdateObject(ctx context.Context, o *StoredObject) error
	DeleteObject(ctx context.Context, id string) error
	// ObjectsWithPrefix lists a bucket's objects whose names start with
	// prefix, by name, at most limit (no limit when limit <= 0).
	ObjectsWithPrefix(ctx context.Context, bucketID, prefix string, limit int) ([]*StoredObject, error)
}
