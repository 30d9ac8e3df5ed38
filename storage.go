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
	// ListObjects returns up to l.Limit entries of the listing, in its
	// order. Listings by name read about as many rows as they return
	// (folders are skipped over with index seeks); with folders and a time
	// sort, every name under the prefix is read.
	ListObjects(ctx context.Context, l ObjectListing) ([]ObjectEntry, error)
	// BlobKeysInUse returns the keys among keys that a row refers to.
	// storage_objects.blob_key is the only column holding blob keys: the
	// files of versions and references name objects (bucket and path),
	// and avatars are URLs. A row is the only thing that keeps a blob.
	BlobKeysInUse(ctx context.Context, keys []string) (map[string]bool, error)
}

// ObjectListing asks for one page of a bucket's objects, continuing after
// a keyset position (never skipping by offset).
type ObjectListing struct {
	BucketID string
	// Prefix keeps the names that begin with it, compared bytewise.
	Prefix string
	// Folders groups the names that have a "/" after Prefix into one
	// folder entry each, named up to and including that "/".
	Folders bool
	// Sort is "name" (the default), "created_at", "updated_at" or
	// "last_accessed_at"; names break ties. Desc reverses the order.
	Sort string
	Desc bool
	// FoldersFirst, with Folders and a time sort, puts the folders first,
	// by name, then the objects by time (the order of list v1). It takes
	// no After position.
	FoldersFirst bool
	// AfterName, and AfterTime for a time sort, name the last entry of
	// the previous page; empty: from the start.
	AfterName string
	AfterTime time.Time
	Limit     int
}

// ObjectEntry is an entry of a listing: an object, or a folder (Object
// nil, Name ending in "/", Time the earliest created_at under it). Time
// is the entry's value of the sort column (zero for a name sort).
type ObjectEntry struct {
	Name   string
	Time   time.Time
	Object *StoredObject
}
