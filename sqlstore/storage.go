package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"fairbalance"
)

var _ fairbalance.StorageStore = (*querier)(nil)

const bucketColumns = `id, name, public, file_size_limit, allowed_mime_types, owner, org_id, created_at, updated_at, server_paths`

func scanBucket(s interface{ Scan(...any) error }) (*fairbalance.Bucket, error) {
	var b fairbalance.Bucket
	var limit sql.NullInt64
	var mimes sql.NullString
	if err := s.Scan(&b.ID, &b.Name, &b.Public, &limit, &mimes, &b.Owner, &b.OrgID, &b.CreatedAt, &b.UpdatedAt, &b.ServerPaths); err != nil {
		return nil, translate(err)
	}
	if limit.Valid {
		v := limit.Int64
		b.FileSizeLimit = &v
	}
	if mimes.Valid {
		if err := json.Unmarshal([]byte(mimes.String), &b.AllowedMimeTypes); err != nil {
			return nil, fmt.Errorf("sqlstore: bucket %s allowed_mime_types: %w", b.ID, err)
		}
		if b.AllowedMimeTypes == nil {
			b.AllowedMimeTypes = []string{}
		}
	}
	b.CreatedAt, b.UpdatedAt = b.CreatedAt.UTC(), b.UpdatedAt.UTC()
	return &b, nil
}

func bucketArgs(b *fairbalance.Bucket) (limit, mimes any) {
	if b.FileSizeLimit != nil {
		limit = *b.FileSizeLimit
	}
	if b.AllowedMimeTypes != nil {
		j, _ := json.Marshal(b.AllowedMimeTypes)
		mimes = string(j)
	}
	return limit, mimes
}

// InsertBucket implements fairbalance.StorageStore.
func (q *querier) InsertBucket(ctx context.Context, b *fairbalance.Bucket) error {
	limit, mimes := bucketArgs(b)
	_, err := q.exec(ctx, `INSERT INTO storage_buckets (`+bucketColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		b.ID, b.Name, b.Public, limit, mimes, b.Owner, b.OrgID, b.CreatedAt.UTC(), b.UpdatedAt.UTC(), b.ServerPaths)
	return translate(err)
}

// BucketByID implements fairbalance.StorageStore.
func (q *querier) BucketByID(ctx context.Context, id string) (*fairbalance.Bucket, error) {
	return scanBucket(q.row(ctx, `SELECT `+bucketColumns+` FROM storage_buckets WHERE id = ?`+q.forUpdate(), id))
}

// ListBuckets implements fairbalance.StorageStore.
func (q *querier) ListBuckets(ctx context.Context, orgID string, all bool) ([]*fairbalance.Bucket, error) {
	rows, err := q.query(ctx, `SELECT `+bucketColumns+` FROM storage_buckets WHERE org_id = ? OR ? ORDER BY id`, orgID, all)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	out := []*fairbalance.Bucket{}
	for rows.Next() {
		b, err := scanBucket(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, translate(rows.Err())
}

// UpdateBucket implements fairbalance.StorageStore.
func (q *querier) UpdateBucket(ctx context.Context, b *fairbalance.Bucket) error {
	limit, mimes := bucketArgs(b)
	return mustAffect(q.exec(ctx, `UPDATE storage_buckets SET public = ?, file_size_limit = ?, allowed_mime_types = ?, updated_at = ? WHERE id = ?`,
		b.Public, limit, mimes, b.UpdatedAt.UTC(), b.ID))
}

// DeleteBucket implements fairbalance.StorageStore.
func (q *querier) DeleteBucket(ctx context.Context, id string) error {
	return mustAffect(q.exec(ctx, `DELETE FROM storage_buckets WHERE id = ?`, id))
}

// CountObjects implements fairbalance.StorageStore.
func (q *querier) CountObjects(ctx context.Context, bucketID string) (int64, error) {
	var n int64
	err := q.row(ctx, `SELECT COUNT(*) FROM storage_objects WHERE bucket_id = ?`, bucketID).Scan(&n)
	return n, translate(err)
}

const objectColumns = `id, bucket_id, name, owner, org_id, blob_key, size, mimetype, sha256, cache_control, metadata, created_at, updated_at, last_accessed_at`

func scanObject(s interface{ Scan(...any) error }) (*fairbalance.StoredObject, error) {
	var o fairbalance.StoredObject
	var meta []byte
	if err := s.Scan(&o.ID, &o.BucketID, &o.Name, &o.Owner, &o.OrgID, &o.BlobKey, &o.Size, &o.MimeType, &o.SHA256, &o.CacheControl, &meta, &o.CreatedAt, &o.UpdatedAt, &o.LastAccessedAt); err != nil {
		return nil, translate(err)
	}
	o.Metadata = json.RawMessage(meta)
	o.CreatedAt, o.UpdatedAt, o.LastAccessedAt = o.CreatedAt.UTC(), o.UpdatedAt.UTC(), o.LastAccessedAt.UTC()
	return &o, nil
}

func objectArgs(o *fairbalance.StoredObject) []any {
	return []any{o.BucketID, o.Name, o.Owner, o.OrgID, o.BlobKey, o.Size, o.MimeType, o.SHA256, o.CacheControl, jsonText(o.Metadata, "{}"),
		o.CreatedAt.UTC(), o.UpdatedAt.UTC(), o.LastAccessedAt.UTC()}
}

// ObjectByName implements fairbalance.StorageStore.
func (q *querier) ObjectByName(ctx context.Context, bucketID, name string) (*fairbalance.StoredObject, error) {
	return scanObject(q.row(ctx, `SELECT `+objectColumns+` FROM storage_objects WHERE bucket_id = ? AND name = ?`+q.forUpdate(), bucketID, name))
}

// InsertObject implements fairbalance.StorageStore.
func (q *querier) InsertObject(ctx context.Context, o *fairbalance.StoredObject) error {
	_, err := q.exec(ctx, `INSERT INTO storage_objects (`+objectColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		append([]any{o.ID}, objectArgs(o)...)...)
	return translate(err)
}

// UpdateObject implements fairbalance.StorageStore.
func (q *querier) UpdateObject(ctx context.Context, o *fairbalance.StoredObject) error {
	res, err := q.exec(ctx, `UPDATE storage_objects SET bucket_id = ?, name = ?, owner = ?, org_id = ?, blob_key = ?, size = ?, mimetype = ?, sha256 = ?, cache_control = ?, metadata = ?, created_at = ?, updated_at = ?, last_accessed_at = ? WHERE id = ?`,
		append(objectArgs(o), o.ID)...)
	if err != nil {
		return translate(err)
	}
	return mustAffect(res, nil)
}

// DeleteObject implements fairbalance.StorageStore.
func (q *querier) DeleteObject(ctx context.Context, id string) error {
	return mustAffect(q.exec(ctx, `DELETE FROM storage_objects WHERE id = ?`, id))
}

// ObjectsWithPrefix implements fairbalance.StorageStore. The prefix is
// compared with substr, so no LIKE wildcard needs escaping.
func (q *querier) ObjectsWithPrefix(ctx context.Context, bucketID, prefix string, limit int) ([]*fairbalance.StoredObject, error) {
	query := `SELECT ` + objectColumns + ` FROM storage_objects WHERE bucket_id = ? AND substr(name, 1, ?) = ? ORDER BY name`
	args := []any{bucketID, len([]rune(prefix)), prefix}
	if limit > 0 {
		query += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	out := []*fairbalance.StoredObject{}
	for rows.Next() {
		o, err := scanObject(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, translate(rows.Err())
}

// BlobKeysInUse implements fairbalance.StorageStore, with one query on
// the unique index of blob_key (callers pass bounded batches).
func (q *querier) BlobKeysInUse(ctx context.Context, keys []string) (map[string]bool, error) {
	used := map[string]bool{}
	if len(keys) == 0 {
		return used, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rows, err := q.query(ctx, `SELECT blob_key FROM storage_objects WHERE blob_key IN (?`+strings.Repeat(`, ?`, len(keys)-1)+`)`, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, translate(err)
		}
		used[k] = true
	}
	return used, translate(rows.Err())
}
