-- Storage (/storage/v1): buckets and the metadata of their objects. The
-- bytes are in the blob store under blob_key, a fresh key per upload.

CREATE TABLE storage_buckets (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  public INTEGER NOT NULL DEFAULT 0,
  file_size_limit BIGINT,
  -- a JSON array of content types, NULL for any
  allowed_mime_types TEXT,
  owner TEXT NOT NULL DEFAULT '',
  org_id TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE INDEX storage_buckets_org_idx ON storage_buckets (org_id, id);

CREATE TABLE storage_objects (
  id TEXT PRIMARY KEY,
  bucket_id TEXT NOT NULL REFERENCES storage_buckets(id),
  name TEXT NOT NULL,
  owner TEXT NOT NULL DEFAULT '',
  org_id TEXT NOT NULL DEFAULT '',
  blob_key TEXT NOT NULL UNIQUE,
  size BIGINT NOT NULL,
  mimetype TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  cache_control TEXT NOT NULL DEFAULT '',
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  last_accessed_at TIMESTAMP NOT NULL,
  UNIQUE (bucket_id, name)
);
