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
  target TEXT NOT NULL,
  -- Where the target sits, for reading order: the page, then the offset
  -- (text) or the top of the box in millionths (region).
  sort_page INTEGER NOT NULL DEFAULT 1,
  sort_pos INTEGER NOT NULL DEFAULT 0,
  reference_id TEXT REFERENCES content_references(id) ON DELETE SET NULL,
  reference_page INTEGER,
  reference_quote TEXT NOT NULL DEFAULT '',
  created_by TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  resolved_by TEXT,
  resolved_at TIMESTAMP,
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
  created_at TIMESTAMP NOT NULL
);
CREATE INDEX annotation_replies_thread_idx ON annotation_replies (thread_id, created_at, id);
CREATE INDEX annotation_replies_org_idx ON annotation_replies (org_id, created_at, id);

ALTER TABLE change_requests ADD COLUMN annotation_id TEXT REFERENCES annotations(id) ON DELETE SET NULL;
ALTER TABLE change_requests ADD COLUMN thread_id TEXT;

-- A mention in a comment is a notification of its own kind. SQLite
-- cannot change a CHECK: the table is rebuilt with the new list.
CREATE TABLE notifications_new (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES profiles_v2(id) ON DELETE CASCADE,
  kind TEXT NOT NULL
    CHECK (kind IN ('step_activated','step_assigned','decision','round_closed','due_soon','overdue','expiry_soon','expired','signing_locked','asset_withdrawn','mentioned')),
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  asset_id TEXT REFERENCES assets(id) ON DELETE CASCADE,
  review_id TEXT REFERENCES reviews(id) ON DELETE CASCADE,
  step_id TEXT REFERENCES review_steps(id) ON DELETE CASCADE,
  dedupe_key TEXT,
  read_at TIMESTAMP,
  emailed_at TIMESTAMP,
  created_at TIMESTAMP NOT NULL
);
INSERT INTO notifications_new SELECT id, org_id, user_id, kind, title, body, asset_id, review_id, step_id, dedupe_key, read_at, emailed_at, created_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at, id);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_unsent_idx ON notifications (created_at) WHERE emailed_at IS NULL;
CREATE UNIQUE INDEX notifications_dedupe_uq ON notifications (user_id, dedupe_key);
