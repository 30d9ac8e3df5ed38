-- Storage listings page by keyset in bytewise name order, which the
-- UNIQUE (bucket_id, name) index (BINARY collation) already serves; and
-- indexes for listings by time.
CREATE INDEX storage_objects_updated_idx ON storage_objects (bucket_id, updated_at);
CREATE INDEX storage_objects_created_idx ON storage_objects (bucket_id, created_at);
