-- The audit trail: one hash chain per organisation (org_id '' is the
-- instance's own chain). Entries are numbered per chain by seq, from 1,
-- without gaps; audit_chain_head holds each chain's last seq and hash, is
-- locked (SELECT … FOR UPDATE) by every append, and is updated in its
-- transaction. Functions are created unqualified, in the current schema.
CREATE TABLE audit_log (
  org_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  actor_id TEXT NOT NULL DEFAULT '',
  actor_email TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  object_type TEXT NOT NULL DEFAULT '',
  object_id TEXT NOT NULL DEFAULT '',
  -- JSON values in canonical form, as text (not jsonb, which would re-order
  -- keys and re-spell numbers): stored byte for byte as hashed.
  before_data TEXT NOT NULL DEFAULT '',
  after_data TEXT NOT NULL DEFAULT '',
  meta TEXT NOT NULL DEFAULT '',
  ip TEXT NOT NULL DEFAULT '',
  user_agent TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  CONSTRAINT audit_log_org_seq_key UNIQUE (org_id, seq)
);
-- (org_id, seq) above serves the newest-first listing and verification;
-- each filter has an index ending in seq, so a filtered page with a cursor
-- is one index range read backwards.
CREATE INDEX audit_log_action_idx ON audit_log (org_id, action, seq);
CREATE INDEX audit_log_actor_idx ON audit_log (org_id, actor_id, seq);
CREATE INDEX audit_log_object_idx ON audit_log (org_id, object_type, object_id, seq);
-- created_at never decreases along a chain, so ListAudit turns a time range
-- into a range of seq with two lookups in this index.
CREATE INDEX audit_log_created_idx ON audit_log (org_id, created_at, seq);

CREATE TABLE audit_chain_head (
  org_id TEXT PRIMARY KEY,
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL,
  created_at TIMESTAMPTZ -- of the last entry; NULL while the chain is empty
);

-- Append-only, TRUNCATE included. As on SQLite there is no INSERT trigger:
-- an entry inserted out of turn is found by verification (it breaks the
-- chain, or lies past the chain head).
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- A chain head only moves forward, one entry at a time and never back in
-- time, and is never removed.
CREATE FUNCTION audit_chain_head_forward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.org_id IS DISTINCT FROM OLD.org_id OR NEW.seq IS DISTINCT FROM OLD.seq + 1 OR NEW.created_at < OLD.created_at THEN
    RAISE EXCEPTION 'audit_chain_head only moves forward';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_chain_head_forward BEFORE UPDATE ON audit_chain_head
FOR EACH ROW EXECUTE FUNCTION audit_chain_head_forward();
CREATE TRIGGER audit_chain_head_no_delete BEFORE DELETE ON audit_chain_head
FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON audit_chain_head
FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
