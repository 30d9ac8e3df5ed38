-- Content (issue 5): products, assets and their insert-only versions,
-- references, claims with their quoted passages, and modules. Every row
-- belongs to one organisation (org_id, set by the server); lists page by
-- (org_id, updated_at, id). Arrays and JSON are JSON text here.

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  brand_name TEXT NOT NULL,
  established_name TEXT NOT NULL DEFAULT '',
  indications TEXT NOT NULL DEFAULT '',
  isi_text TEXT NOT NULL DEFAULT '',
  pi_reference TEXT NOT NULL DEFAULT '',
  launch_date TEXT,
  markets TEXT NOT NULL DEFAULT '[]',
  active INTEGER NOT NULL DEFAULT 1,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX products_brand_uq ON products (org_id, lower(brand_name));
CREATE INDEX products_org_idx ON products (org_id, updated_at, id);

CREATE TABLE assets (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('email','web_page','detail_aid','social_post','banner','print','video_script','other')),
  product_id TEXT REFERENCES products(id),
  audience TEXT NOT NULL CHECK (audience IN ('hcp','patient','payer')),
  channel TEXT NOT NULL DEFAULT '',
  market TEXT NOT NULL DEFAULT '',
  owner_id TEXT REFERENCES profiles_v2(id) ON DELETE SET NULL,
  job_code TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft','in_review','changes_requested','approved','expired','withdrawn','archived')),
  current_version_id TEXT,
  current_version_number INTEGER NOT NULL DEFAULT 0,
  approved_version_id TEXT,
  expires_at TEXT,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  UNIQUE (org_id, job_code)
);
CREATE INDEX assets_org_idx ON assets (org_id, updated_at, id);
CREATE INDEX assets_org_status_idx ON assets (org_id, status, updated_at, id);
CREATE INDEX assets_product_idx ON assets (product_id);
CREATE INDEX assets_owner_idx ON assets (owner_id);

CREATE TABLE asset_versions (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  number INTEGER NOT NULL CHECK (number >= 1),
  kind TEXT NOT NULL CHECK (kind IN ('authored','file')),
  content_json TEXT,
  content_html TEXT,
  plain_text TEXT NOT NULL DEFAULT '',
  page_texts TEXT NOT NULL DEFAULT '[]',
  file_bucket TEXT,
  file_path TEXT,
  file_name TEXT,
  mimetype TEXT,
  file_size BIGINT,
  sha256 TEXT NOT NULL,
  page_count INTEGER NOT NULL DEFAULT 1,
  change_note TEXT NOT NULL DEFAULT '',
  submitted_at TIMESTAMP,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL,
  UNIQUE (asset_id, number)
);
CREATE INDEX asset_versions_org_idx ON asset_versions (org_id, asset_id);
CREATE INDEX asset_versions_file_idx ON asset_versions (file_path) WHERE file_path IS NOT NULL;

-- Versions are insert-only: a submitted version never changes, and today
-- nothing updates a version at all (the review workflow will set
-- submitted_at once).
CREATE TRIGGER asset_versions_immutable BEFORE UPDATE ON asset_versions
WHEN OLD.submitted_at IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'asset versions are immutable once submitted');
END;

CREATE TABLE content_references (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  citation TEXT NOT NULL DEFAULT '',
  kind TEXT NOT NULL DEFAULT 'other'
    CHECK (kind IN ('prescribing_information','clinical_study','data_on_file','guideline','publication','other')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','withdrawn')),
  file_bucket TEXT,
  file_path TEXT,
  file_name TEXT,
  sha256 TEXT,
  page_count INTEGER NOT NULL DEFAULT 0,
  page_texts TEXT NOT NULL DEFAULT '[]',
  plain_text TEXT NOT NULL DEFAULT '',
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE INDEX content_references_org_idx ON content_references (org_id, updated_at, id);
CREATE INDEX content_references_file_idx ON content_references (file_path) WHERE file_path IS NOT NULL;

CREATE TABLE claims (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  product_id TEXT REFERENCES products(id),
  text TEXT NOT NULL,
  variants TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','approved','withdrawn','expired')),
  expires_at TEXT,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE INDEX claims_org_idx ON claims (org_id, updated_at, id);
CREATE INDEX claims_product_idx ON claims (product_id);

CREATE TABLE claim_references (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  claim_id TEXT NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
  reference_id TEXT NOT NULL REFERENCES content_references(id),
  page INTEGER NOT NULL CHECK (page >= 1),
  passage TEXT NOT NULL,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE INDEX claim_references_claim_idx ON claim_references (claim_id);
CREATE INDEX claim_references_reference_idx ON claim_references (reference_id);
CREATE INDEX claim_references_org_idx ON claim_references (org_id, updated_at, id);

CREATE TABLE modules (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('claim','isi','disclaimer','copy','image')),
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  claim_id TEXT REFERENCES claims(id),
  product_id TEXT REFERENCES products(id),
  image_path TEXT,
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','approved','retired')),
  expires_at TEXT,
  created_by TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);
CREATE INDEX modules_org_idx ON modules (org_id, updated_at, id);
CREATE INDEX modules_claim_idx ON modules (claim_id);
CREATE INDEX modules_product_idx ON modules (product_id);

-- Which modules an authored version holds (written with the version).
CREATE TABLE version_modules (
  version_id TEXT NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
  module_id TEXT NOT NULL REFERENCES modules(id),
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  created_at TIMESTAMP NOT NULL,
  PRIMARY KEY (version_id, module_id)
);
CREATE INDEX version_modules_module_idx ON version_modules (module_id);
CREATE INDEX version_modules_asset_idx ON version_modules (org_id, asset_id);

-- Product buckets: object names are chosen by the server
-- (<org_id>/<uuid>.<ext>) and every object belongs to the organisation
-- its name begins with.
ALTER TABLE storage_buckets ADD COLUMN server_paths INTEGER NOT NULL DEFAULT 0;
INSERT INTO storage_buckets (id, name, public, file_size_limit, allowed_mime_types, owner, org_id, created_at, updated_at, server_paths)
VALUES
  ('asset-files', 'asset-files', 0, 524288000, '["application/pdf","image/png","image/jpeg","image/webp"]', '', '',
   strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'), strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'), 1),
  ('reference-files', 'reference-files', 0, 524288000, '["application/pdf","image/png","image/jpeg","image/webp"]', '', '',
   strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'), strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'), 1);
