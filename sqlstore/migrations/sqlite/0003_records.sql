CREATE TABLE orgs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  industry TEXT NOT NULL DEFAULT '',
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);

CREATE TABLE profiles_v2 (
  id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  org_id TEXT REFERENCES orgs(id),
  role TEXT NOT NULL DEFAULT 'viewer'
    CHECK (role IN ('owner','admin','marketer','reviewer_medical','reviewer_legal','reviewer_regulatory','viewer')),
  full_name TEXT NOT NULL DEFAULT '',
  avatar_url TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  deactivated_at TIMESTAMP
);
CREATE INDEX profiles_v2_org_idx ON profiles_v2 (org_id, role);

-- Invitations: the token is never stored, only its SHA-256.
CREATE TABLE invites (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  email TEXT NOT NULL,
  role TEXT NOT NULL
    CHECK (role IN ('admin','marketer','reviewer_medical','reviewer_legal','reviewer_regulatory','viewer')),
  token_hash TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','accepted','revoked')),
  invited_by TEXT NOT NULL DEFAULT '',
  expires_at TIMESTAMP NOT NULL,
  created_at TIMESTAMP NOT NULL,
  accepted_at TIMESTAMP,
  accepted_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX invites_org_idx ON invites (org_id, status, created_at);
CREATE INDEX invites_email_idx ON invites (email, status);

-- One row per instance.
CREATE TABLE workspace_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  preview_passcode_enabled INTEGER NOT NULL DEFAULT 0,
  preview_passcode_hash TEXT NOT NULL DEFAULT '',
  site_access_mode TEXT NOT NULL DEFAULT 'PUBLIC' CHECK (site_access_mode IN ('PUBLIC','PRIVATE')),
  disable_signup INTEGER NOT NULL DEFAULT 0,
  block_indexing INTEGER NOT NULL DEFAULT 0,
  updated_by TEXT NOT NULL DEFAULT '',
  updated_at TIMESTAMP NOT NULL
);
INSERT INTO workspace_settings (id, updated_at) VALUES (1, strftime('%Y-%m-%d %H:%M:%f+00:00','now'));
