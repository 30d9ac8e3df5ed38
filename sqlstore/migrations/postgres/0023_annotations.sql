-- Annotations (issue 16): comments anchored in a version, in the W3C Web
-- Annotation model. A thread (thread_id) has one row per version it
-- reached: made on one version, carried forward onto each next one while
-- open, re-anchored each time (anchor_status). Replies belong to the
-- thread. Change requests may point at an annotation. Members read their
-- organisation's rows; every write is a function of the server.

CREATE TABLE annotations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  version_id TEXT NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
  thread_id TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ('claim_needs_reference','fair_balance','off_label','editorial','legal','regulatory','other')),
  body TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open','resolved')),
  anchor_status TEXT NOT NULL DEFAULT 'anchored' CHECK (anchor_status IN ('anchored','moved','orphaned')),
  target JSONB NOT NULL,
  -- Where the target sits, for reading order: the page, then the offset
  -- (text) or the top of the box in millionths (region).
  sort_page INTEGER NOT NULL DEFAULT 1,
  sort_pos INTEGER NOT NULL DEFAULT 0,
  reference_id TEXT REFERENCES content_references(id) ON DELETE SET NULL,
  reference_page INTEGER,
  reference_quote TEXT NOT NULL DEFAULT '',
  created_by TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  resolved_by TEXT,
  resolved_at TIMESTAMPTZ,
  carried_from TEXT REFERENCES annotations(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX annotations_thread_version_uq ON annotations (version_id, thread_id);
CREATE INDEX annotations_version_idx ON annotations (version_id, sort_page, sort_pos, created_at);
CREATE INDEX annotations_thread_idx ON annotations (thread_id);
CREATE INDEX annotations_org_idx ON annotations (org_id, updated_at, id);

CREATE TABLE annotation_replies (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  thread_id TEXT NOT NULL,
  annotation_id TEXT NOT NULL REFERENCES annotations(id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX annotation_replies_thread_idx ON annotation_replies (thread_id, created_at, id);
CREATE INDEX annotation_replies_org_idx ON annotation_replies (org_id, created_at, id);

ALTER TABLE change_requests ADD COLUMN annotation_id TEXT REFERENCES annotations(id) ON DELETE SET NULL;
ALTER TABLE change_requests ADD COLUMN thread_id TEXT;

-- A mention in a comment is a notification of its own kind.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('step_activated','step_assigned','decision','round_closed','due_soon','overdue','expiry_soon','expired','signing_locked','asset_withdrawn','mentioned'));
