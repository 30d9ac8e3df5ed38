-- Compliance checks (issue 17): an organisation's own rules and their
-- saved versions, its switches of the built-in rules, its guideline
-- documents, the findings of each version and each version's check.
-- Members read their organisation's rows; every write is a function of
-- the server.

CREATE TABLE compliance_rules (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  title TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('phrases','regex')),
  phrases TEXT NOT NULL DEFAULT '[]',
  pattern TEXT NOT NULL DEFAULT '',
  severity TEXT NOT NULL CHECK (severity IN ('info','warning','critical')),
  message TEXT NOT NULL,
  guidance TEXT NOT NULL DEFAULT '',
  scope TEXT NOT NULL DEFAULT '{}',
  enabled INTEGER NOT NULL DEFAULT 1,
  version INTEGER NOT NULL DEFAULT 1,
  created_by TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX compliance_rules_code_uq ON compliance_rules (org_id, code);
CREATE INDEX compliance_rules_org_idx ON compliance_rules (org_id, updated_at, id);

-- Every saved version of a rule, so that a finding's (rule, rule_version)
-- always says what matched.
CREATE TABLE compliance_rule_versions (
  rule_id TEXT NOT NULL REFERENCES compliance_rules(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  rule TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL,
  PRIMARY KEY (rule_id, version)
);
CREATE INDEX compliance_rule_versions_org_idx ON compliance_rule_versions (org_id, created_at);

-- An organisation's switch and severity of a built-in rule (no row: on,
-- at its default severity).
CREATE TABLE compliance_rule_settings (
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  severity TEXT CHECK (severity IN ('info','warning','critical')),
  updated_by TEXT NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  PRIMARY KEY (org_id, code)
);

CREATE TABLE guideline_documents (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('fda','opdp','phrma','abpi','internal')),
  body TEXT NOT NULL DEFAULT '',
  created_by TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE INDEX guideline_documents_org_idx ON guideline_documents (org_id, updated_at, id);

-- A finding has one row per version it is shown on: made on one version
-- (first_version_id), carried onto each next one while its quote is
-- still there, closed as fixed on the version that dropped it.
CREATE TABLE compliance_findings (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  version_id TEXT NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
  product_id TEXT,
  asset_type TEXT NOT NULL DEFAULT '',
  rule TEXT NOT NULL,
  rule_version INTEGER NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('info','warning','critical')),
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open','dismissed','fixed')),
  start_pos INTEGER NOT NULL,
  end_pos INTEGER NOT NULL,
  quote TEXT NOT NULL,
  message TEXT NOT NULL,
  guidance TEXT NOT NULL DEFAULT '',
  target TEXT NOT NULL,
  sort_page INTEGER NOT NULL DEFAULT 1,
  sort_pos INTEGER NOT NULL DEFAULT 0,
  first_version_id TEXT NOT NULL,
  fixed_in_version_id TEXT,
  dismissed_by TEXT,
  dismissed_at TIMESTAMP,
  dismiss_reason TEXT,
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE INDEX compliance_findings_version_idx ON compliance_findings (version_id, sort_page, sort_pos, id);
CREATE INDEX compliance_findings_org_idx ON compliance_findings (org_id, created_at, rule);
CREATE INDEX compliance_findings_product_idx ON compliance_findings (org_id, product_id, created_at);

-- Each version's check: pending (checked_at NULL) while the background
-- job runs; versions from before the checks have no row.
CREATE TABLE compliance_checks (
  version_id TEXT PRIMARY KEY REFERENCES asset_versions(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  prev_version_id TEXT,
  created_by TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL,
  checked_at TIMESTAMP,
  findings INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX compliance_checks_pending_idx ON compliance_checks (created_at) WHERE checked_at IS NULL;
