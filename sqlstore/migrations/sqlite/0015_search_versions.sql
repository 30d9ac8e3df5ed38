-- Search every version (issue 14): a word only in version 1 of an asset
-- whose current version is 2 was not found. search_versions holds the
-- search text of every asset version; the versions that are not current
-- are indexed in search_version_fts (tagged for the organisation as in
-- migration 0013), the current one stays in its asset's search_docs row,
-- whose body is now made from search_versions. A search reads
-- search_version_fts only when the current content leaves its page short.
--
-- The search text of a PDF is its pages without running headers, footers
-- and bare page numbers, which the server works out (pdftext.SearchText):
-- it sets search_versions.body (the version row itself is immutable once
-- submitted) and content_references.search_text. cleaned = 0 marks a PDF
-- version whose body is still its plain text, as every one written before
-- this migration is; the server re-indexes them, and references with a
-- file and no search_text, when it starts.

CREATE TABLE search_versions (
  id INTEGER PRIMARY KEY,
  version_id TEXT NOT NULL UNIQUE REFERENCES asset_versions(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  is_current INTEGER NOT NULL DEFAULT 0,
  cleaned INTEGER NOT NULL DEFAULT 1,
  body TEXT NOT NULL DEFAULT ''
);
CREATE INDEX search_versions_pending_idx ON search_versions (id) WHERE cleaned = 0;

-- As search_fts (0013): never run FTS5's 'rebuild' on it.
CREATE VIRTUAL TABLE search_version_fts USING fts5(
  body,
  content = 'search_versions', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '4 5'
);

CREATE TRIGGER search_versions_org BEFORE INSERT ON search_versions BEGIN
  INSERT INTO search_orgs (org_id, key)
  SELECT new.org_id, (SELECT coalesce(max(key), 0) + 1 FROM search_orgs)
  WHERE NOT EXISTS (SELECT 1 FROM search_orgs WHERE org_id = new.org_id);
END;
CREATE TRIGGER search_versions_ai AFTER INSERT ON search_versions WHEN NOT new.is_current BEGIN
  INSERT INTO search_version_fts (rowid, body)
  VALUES (new.id, search_org_words((SELECT key FROM search_orgs WHERE org_id = new.org_id), new.body));
END;
CREATE TRIGGER search_versions_ad AFTER DELETE ON search_versions WHEN NOT old.is_current BEGIN
  INSERT INTO search_version_fts (search_version_fts, rowid, body)
  VALUES ('delete', old.id, search_org_words((SELECT key FROM search_orgs WHERE org_id = old.org_id), old.body));
END;
-- A version leaves the index when it becomes current and joins it when it
-- stops being current; the current version's new text goes to its asset.
CREATE TRIGGER search_versions_au AFTER UPDATE OF body, is_current ON search_versions
WHEN old.body IS NOT new.body OR old.is_current IS NOT new.is_current BEGIN
  INSERT INTO search_version_fts (search_version_fts, rowid, body)
  SELECT 'delete', old.id, search_org_words((SELECT key FROM search_orgs WHERE org_id = old.org_id), old.body)
  WHERE NOT old.is_current;
  INSERT INTO search_version_fts (rowid, body)
  SELECT new.id, search_org_words((SELECT key FROM search_orgs WHERE org_id = new.org_id), new.body)
  WHERE NOT new.is_current;
  UPDATE search_docs SET body = subtitle || char(10) || new.body
  WHERE new.is_current AND old.body IS NOT new.body AND kind = 'asset' AND ref_id = new.asset_id;
END;

-- Versions: every one gets its search text (its plain text until the
-- server cleans a PDF's); a version may be inserted after its asset
-- already points at it.
DROP TRIGGER asset_versions_search_ai;
CREATE TRIGGER asset_versions_search_ai AFTER INSERT ON asset_versions BEGIN
  INSERT INTO search_versions (version_id, asset_id, org_id, number, is_current, cleaned, body)
  VALUES (new.id, new.asset_id, new.org_id, new.number,
    EXISTS (SELECT 1 FROM assets a WHERE a.id = new.asset_id AND a.current_version_id = new.id),
    NOT (new.kind = 'file' AND coalesce(new.mimetype, '') = 'application/pdf'),
    replace(replace(new.plain_text, char(57344), ''), char(57345), ''));
  UPDATE search_docs SET
    body = subtitle || char(10) || (SELECT s.body FROM search_versions s WHERE s.version_id = new.id)
  WHERE kind = 'asset' AND ref_id = new.asset_id
    AND EXISTS (SELECT 1 FROM assets a WHERE a.id = new.asset_id AND a.current_version_id = new.id);
END;

-- Assets: the body is the job code and the current version's search text.
DROP TRIGGER assets_search_ai;
CREATE TRIGGER assets_search_ai AFTER INSERT ON assets BEGIN
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, type, product_id, owner_id, market)
  VALUES ('asset', new.id, new.org_id,
    replace(replace(new.title, char(57344), ''), char(57345), ''), new.job_code,
    new.job_code || char(10) || coalesce((SELECT s.body FROM search_versions s WHERE s.version_id = new.current_version_id), ''),
    new.status, new.type, new.product_id, new.owner_id, new.market)
  ON CONFLICT (kind, ref_id) DO NOTHING;
END;
DROP TRIGGER assets_search_au;
CREATE TRIGGER assets_search_au AFTER UPDATE ON assets BEGIN
  UPDATE search_docs SET
    title = replace(replace(new.title, char(57344), ''), char(57345), ''),
    subtitle = new.job_code,
    body = new.job_code || char(10) || coalesce((SELECT s.body FROM search_versions s WHERE s.version_id = new.current_version_id), ''),
    status = new.status, type = new.type, product_id = new.product_id, owner_id = new.owner_id, market = new.market
  WHERE kind = 'asset' AND ref_id = new.id;
END;
CREATE TRIGGER assets_search_versions_au AFTER UPDATE OF current_version_id ON assets
WHEN old.current_version_id IS NOT new.current_version_id BEGIN
  UPDATE search_versions SET is_current = (version_id IS new.current_version_id)
  WHERE version_id IN (old.current_version_id, new.current_version_id) AND asset_id = new.id;
END;

-- References: the search text of the attached PDF when the server made
-- it, else the plain text. A search text is stale once the plain text
-- changes without it, and is dropped then (the server makes it again).
ALTER TABLE content_references ADD COLUMN search_text TEXT;
CREATE INDEX content_references_search_pending_idx ON content_references (id)
  WHERE search_text IS NULL AND file_path IS NOT NULL;
DROP TRIGGER content_references_search_ai;
CREATE TRIGGER content_references_search_ai AFTER INSERT ON content_references BEGIN
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status)
  VALUES ('reference', new.id, new.org_id, replace(replace(new.title, char(57344), ''), char(57345), ''),
    replace(replace(new.citation, char(57344), ''), char(57345), ''),
    replace(replace(new.citation || char(10) || coalesce(new.search_text, new.plain_text), char(57344), ''), char(57345), ''), new.status);
END;
DROP TRIGGER content_references_search_au;
CREATE TRIGGER content_references_search_au AFTER UPDATE ON content_references BEGIN
  UPDATE search_docs SET
    title = replace(replace(new.title, char(57344), ''), char(57345), ''),
    subtitle = replace(replace(new.citation, char(57344), ''), char(57345), ''),
    body = replace(replace(new.citation || char(10) ||
      CASE WHEN old.plain_text IS NOT new.plain_text AND old.search_text IS new.search_text THEN new.plain_text
        ELSE coalesce(new.search_text, new.plain_text) END, char(57344), ''), char(57345), ''),
    status = new.status
  WHERE kind = 'reference' AND ref_id = new.id;
END;
CREATE TRIGGER content_references_search_text AFTER UPDATE OF plain_text ON content_references
WHEN old.plain_text IS NOT new.plain_text AND old.search_text IS new.search_text AND new.search_text IS NOT NULL BEGIN
  UPDATE content_references SET search_text = NULL WHERE id = new.id;
END;

-- The versions written so far, oldest first (the index lists matches
-- newest first by id).
INSERT INTO search_versions (version_id, asset_id, org_id, number, is_current, cleaned, body)
SELECT v.id, v.asset_id, v.org_id, v.number, a.current_version_id IS v.id,
  NOT (v.kind = 'file' AND coalesce(v.mimetype, '') = 'application/pdf'),
  replace(replace(v.plain_text, char(57344), ''), char(57345), '')
FROM asset_versions v JOIN assets a ON a.id = v.asset_id
ORDER BY v.created_at, v.number, v.id;
