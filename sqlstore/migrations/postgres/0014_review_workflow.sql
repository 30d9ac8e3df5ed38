-- The MLR review workflow (issue 15): workflow templates, review rounds and
-- their steps, electronic signatures, change requests, in-app
-- notifications, the signing lockout and each organisation's approval
-- validity. Every row belongs to one organisation (org_id, set by the
-- server). The value lists of the CHECK constraints are the domain's
-- vocabularies (ReviewerRole, ReviewStatus, StepStatus, Decision,
-- SignatureMeaning, ChangeRequestStatus, NotificationKind); a test
-- compares them. Everything changes through the review functions only.

CREATE TABLE workflow_templates (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  is_default BOOLEAN NOT NULL DEFAULT FALSE,
  -- [{"role","required","order","due_days"}], checked by the service.
  steps JSONB NOT NULL DEFAULT '[]',
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX workflow_templates_name_uq ON workflow_templates (org_id, lower(name));
CREATE UNIQUE INDEX workflow_templates_default_uq ON workflow_templates (org_id) WHERE is_default;
CREATE INDEX workflow_templates_org_idx ON workflow_templates (org_id, updated_at, id);

-- An organisation without a row has the defaults.
CREATE TABLE review_settings (
  org_id TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
  approval_validity_months INTEGER NOT NULL DEFAULT 12 CHECK (approval_validity_months BETWEEN 1 AND 60),
  updated_by TEXT NOT NULL DEFAULT '',
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE reviews (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  version_id TEXT NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
  round INTEGER NOT NULL CHECK (round >= 1),
  status TEXT NOT NULL DEFAULT 'open'
    CHECK (status IN ('open','approved','changes_requested','rejected','withdrawn')),
  template_id TEXT REFERENCES workflow_templates(id) ON DELETE SET NULL,
  template_name TEXT NOT NULL DEFAULT '',
  submitted_by TEXT NOT NULL,
  submitted_at TIMESTAMPTZ NOT NULL,
  -- The earliest due time of the round's active steps; NULL once closed.
  due_at TIMESTAMPTZ,
  closed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  UNIQUE (asset_id, round)
);
-- One open round per asset, whatever the race.
CREATE UNIQUE INDEX reviews_one_open_uq ON reviews (asset_id) WHERE status = 'open';
-- The Review Center: open rounds and one's submissions, by due time.
CREATE INDEX reviews_queue_idx ON reviews (org_id, status, due_at, id);
CREATE INDEX reviews_submitter_idx ON reviews (org_id, submitted_by, due_at, id);
CREATE INDEX reviews_asset_idx ON reviews (asset_id, round);

CREATE TABLE review_steps (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  review_id TEXT NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 1),
  role TEXT NOT NULL CHECK (role IN ('reviewer_medical','reviewer_legal','reviewer_regulatory')),
  required BOOLEAN NOT NULL DEFAULT TRUE,
  step_order INTEGER NOT NULL CHECK (step_order BETWEEN 1 AND 99),
  due_days INTEGER NOT NULL CHECK (due_days BETWEEN 1 AND 60),
  status TEXT NOT NULL DEFAULT 'waiting'
    CHECK (status IN ('waiting','active','approved','approved_with_changes','changes_requested','rejected','skipped')),
  activated_at TIMESTAMPTZ,
  due_at TIMESTAMPTZ,
  claimed_by TEXT,
  claimed_at TIMESTAMPTZ,
  decided_by TEXT,
  decided_at TIMESTAMPTZ,
  comment TEXT NOT NULL DEFAULT '',
  signature_id TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  UNIQUE (review_id, position)
);
-- My queue: active steps of my role nobody claimed, and steps claimed by
-- me, by due time (each read in index order, a page at a time).
CREATE INDEX review_steps_unclaimed_idx ON review_steps (org_id, role, due_at, id) WHERE status = 'active' AND claimed_by IS NULL;
CREATE INDEX review_steps_claimed_idx ON review_steps (org_id, claimed_by, status, due_at, id);
CREATE INDEX review_steps_asset_idx ON review_steps (asset_id);
-- Open rounds with an active step of a role (the Review Center's filter).
CREATE INDEX review_steps_review_role_idx ON review_steps (review_id, role, status);

CREATE TABLE signatures (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  review_id TEXT NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  step_id TEXT NOT NULL REFERENCES review_steps(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  version_id TEXT NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
  rendition_sha256 TEXT NOT NULL,
  signer_id TEXT NOT NULL,
  signer_name TEXT NOT NULL,
  signed_at TIMESTAMPTZ NOT NULL,
  meaning TEXT NOT NULL CHECK (meaning IN ('approval','review','rejection')),
  decision TEXT NOT NULL CHECK (decision IN ('approved','approved_with_changes','changes_requested','rejected')),
  seal TEXT NOT NULL,
  key_id TEXT NOT NULL,
  sig TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX signatures_step_idx ON signatures (step_id);
CREATE INDEX signatures_asset_idx ON signatures (asset_id);
CREATE INDEX signatures_signer_idx ON signatures (org_id, signer_id, signed_at);
-- A signature is never changed (its seal would catch it; this says so at
-- once). Rows go only with their organisation's or asset's deletion.
CREATE FUNCTION signatures_no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'signatures cannot be changed' USING ERRCODE = '23514'; END $$;
CREATE TRIGGER signatures_no_update BEFORE UPDATE ON signatures
FOR EACH ROW EXECUTE FUNCTION signatures_no_update();

CREATE TABLE change_requests (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  review_id TEXT NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  step_id TEXT NOT NULL REFERENCES review_steps(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('reviewer_medical','reviewer_legal','reviewer_regulatory')),
  raised_by TEXT NOT NULL,
  text TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','done','confirmed')),
  done_by TEXT,
  done_at TIMESTAMPTZ,
  done_note TEXT NOT NULL DEFAULT '',
  done_version_id TEXT,
  confirmed_by TEXT,
  confirmed_at TIMESTAMPTZ,
  confirmed_review_id TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX change_requests_asset_idx ON change_requests (asset_id, status, role);
CREATE INDEX change_requests_review_idx ON change_requests (review_id);
CREATE INDEX change_requests_org_idx ON change_requests (org_id, updated_at, id);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES profiles_v2(id) ON DELETE CASCADE,
  kind TEXT NOT NULL
    CHECK (kind IN ('step_activated','step_assigned','decision','round_closed','due_soon','overdue','expiry_soon','expired','signing_locked','asset_withdrawn')),
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  asset_id TEXT REFERENCES assets(id) ON DELETE CASCADE,
  review_id TEXT REFERENCES reviews(id) ON DELETE CASCADE,
  step_id TEXT REFERENCES review_steps(id) ON DELETE CASCADE,
  dedupe_key TEXT,
  read_at TIMESTAMPTZ,
  emailed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at, id);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_unsent_idx ON notifications (created_at) WHERE emailed_at IS NULL;
-- A reminder a job sends again is not sent twice (NULL keys never clash).
CREATE UNIQUE INDEX notifications_dedupe_uq ON notifications (user_id, dedupe_key);

-- Failed signing attempts in a row, per member; five lock signing for 15
-- minutes. Not served to clients.
CREATE TABLE signing_lockouts (
  user_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  last_failed_at TIMESTAMPTZ,
  locked_until TIMESTAMPTZ,
  updated_at TIMESTAMPTZ NOT NULL
);

-- Approved assets that expire, for the expiry jobs.
CREATE INDEX assets_expiry_idx ON assets (status, expires_at) WHERE expires_at IS NOT NULL;
