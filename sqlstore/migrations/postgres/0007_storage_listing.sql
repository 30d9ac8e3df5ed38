-- Storage listings page by keyset in bytewise name order (so that a name
-- prefix is one index range): an index on name COLLATE "C", which the
-- UNIQUE (bucket_id, name) index under the database's collation cannot
-- serve; and indexes for listings by time.
CREATE INDEX storage_objects_name_c_idx ON storage_objects (bucket_id, name COLLATE "C");
CREATE INDEX storage_objects_updated_idx ON storage_objects (bucket_id, updated_at);
CREATE INDEX storage_objects_created_idx ON storage_objects (bucket_id, created_at);
