-- The audit trail: one hash chain per organisation (org_id '' is the
-- instance's own chain). Entries are numbered per chain by seq, from 1,
-- without gaps; audit_chain_head holds each chain's last seq and hash and is
-- updated in the transaction of every append.
CREATE TABLE audit_log (
  org_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  actor_id TEXT NOT NULL DEFAULT '',
  actor_email TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  object_type TEXT NOT NULL DEFAULT '',
  object_id TEXT NOT NULL DEFAULT '',
  -- JSON values in canonical form, as text: stored byte for byte as hashed.
  before_data TEXT NOT NULL DEFAULT '',
  after_data TEXT NOT NULL DEFAULT '',
  meta TEXT NOT NULL DEFAULT '',
  ip TEXT NOT NULL DEFAULT '',
  user_agent TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  UNIQUE (org_id, seq)
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
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL,
  created_at TIMESTAMP -- of the last entry; NULL while the chain is empty
);

-- Append-only. There is deliberately no INSERT trigger: one would make
-- SQLite keep a statement journal for every append (about ten more page
-- writes each), and an entry inserted out of turn is found by verification
-- anyway (it breaks the chain, or lies past the chain head).
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
-- A chain head only moves forward, one entry at a time and never back in
-- time, and is never removed.
CREATE TRIGGER audit_chain_head_forward BEFORE UPDATE ON audit_chain_head
WHEN NEW.org_id IS NOT OLD.org_id OR NEW.seq IS NOT OLD.seq + 1 OR NEW.created_at < OLD.created_at
BEGIN SELECT RAISE(ABORT, 'audit_chain_head only moves forward'); END;
CREATE TRIGGER audit_chain_head_no_delete BEFORE DELETE ON audit_chain_head
BEGIN SELECT RAISE(ABORT, 'audit_chain_head is append-only'); END;
