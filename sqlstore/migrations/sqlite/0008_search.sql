-- Full-text search over content (issue 5). One row per searchable object
-- in search_docs, kept in step with assets (title, job code and the current
-- version's plain text), claims, modules and references by triggers, with
-- the filterable columns copied so that a search reads one table. The FTS5
-- index search_fts is an external-content table over search_docs: the text
-- is stored once there and snippet() reads it back.
-- U+E000/U+E001 mark matches in snippets, so they are removed from the
-- indexed text.

CREATE TABLE search_docs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('asset','claim','module','reference')),
  ref_id TEXT NOT NULL,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  title TEXT NOT NULL DEFAULT '',
  subtitle TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT '',
  type TEXT,
  product_id TEXT,
  owner_id TEXT,
  market TEXT,
  UNIQUE (kind, ref_id)
);
CREATE INDEX search_docs_org_idx ON search_docs (org_id, kind);

CREATE VIRTUAL TABLE search_fts USING fts5(
  title, body,
  content = 'search_docs', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '2 3'
);

CREATE TRIGGER search_docs_ai AFTER INSERT ON search_docs BEGIN
  INSERT INTO search_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER search_docs_ad AFTER DELETE ON search_docs BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER search_docs_au AFTER UPDATE OF title, body ON search_docs
WHEN old.title IS NOT new.title OR old.body IS NOT new.body BEGIN
  INSERT INTO search_fts (search_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO search_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;

-- Assets: the body is the job code and the current version's text.
CREATE TRIGGER assets_search_ai AFTER INSERT ON assets BEGIN
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, type, product_id, owner_id, market)
  VALUES ('asset', new.id, new.org_id,
    replace(replace(new.title, char(57344), ''), char(57345), ''), new.job_code,
    new.job_code || char(10) || coalesce((SELECT replace(replace(v.plain_text, char(57344), ''), char(57345), '') FROM asset_versions v WHERE v.id = new.current_version_id), ''),
    new.status, new.type, new.product_id, new.owner_id, new.market)
  ON CONFLICT (kind, ref_id) DO NOTHING;
END;
CREATE TRIGGER assets_search_au AFTER UPDATE ON assets BEGIN
  UPDATE search_docs SET
    title = replace(replace(new.title, char(57344), ''), char(57345), ''),
    subtitle = new.job_code,
    body = new.job_code || char(10) || coalesce((SELECT replace(replace(v.plain_text, char(57344), ''), char(57345), '') FROM asset_versions v WHERE v.id = new.current_version_id), ''),
    status = new.status, type = new.type, product_id = new.product_id, owner_id = new.owner_id, market = new.market
  WHERE kind = 'asset' AND ref_id = new.id;
END;
CREATE TRIGGER assets_search_ad AFTER DELETE ON assets BEGIN
  DELETE FROM search_docs WHERE kind = 'asset' AND ref_id = old.id;
END;
-- A version may be inserted after the asset already points at it.
CREATE TRIGGER asset_versions_search_ai AFTER INSERT ON asset_versions BEGIN
  UPDATE search_docs SET
    body = subtitle || char(10) || replace(replace(new.plain_text, char(57344), ''), char(57345), '')
  WHERE kind = 'asset' AND ref_id = new.asset_id
    AND EXISTS (SELECT 1 FROM assets a WHERE a.id = new.asset_id AND a.current_version_id = new.id);
END;

CREATE TRIGGER claims_search_ai AFTER INSERT ON claims BEGIN
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
  VALUES ('claim', new.id, new.org_id, replace(replace(new.text, char(57344), ''), char(57345), ''), '',
    coalesce((SELECT group_concat(replace(replace(j.value, char(57344), ''), char(57345), ''), char(10)) FROM json_each(new.variants) j), ''),
    new.status, new.product_id);
END;
CREATE TRIGGER claims_search_au AFTER UPDATE ON claims BEGIN
  UPDATE search_docs SET
    title = replace(replace(new.text, char(57344), ''), char(57345), ''),
    body = coalesce((SELECT group_concat(replace(replace(j.value, char(57344), ''), char(57345), ''), char(10)) FROM json_each(new.variants) j), ''),
    status = new.status, product_id = new.product_id
  WHERE kind = 'claim' AND ref_id = new.id;
END;
CREATE TRIGGER claims_search_ad AFTER DELETE ON claims BEGIN
  DELETE FROM search_docs WHERE kind = 'claim' AND ref_id = old.id;
END;

CREATE TRIGGER modules_search_ai AFTER INSERT ON modules BEGIN
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
  VALUES ('module', new.id, new.org_id, replace(replace(new.title, char(57344), ''), char(57345), ''), new.kind,
    replace(replace(new.body, char(57344), ''), char(57345), ''), new.status, new.product_id);
END;
CREATE TRIGGER modules_search_au AFTER UPDATE ON modules BEGIN
  UPDATE search_docs SET
    title = replace(replace(new.title, char(57344), ''), char(57345), ''), subtitle = new.kind,
    body = replace(replace(new.body, char(57344), ''), char(57345), ''),
    status = new.status, product_id = new.product_id
  WHERE kind = 'module' AND ref_id = new.id;
END;
CREATE TRIGGER modules_search_ad AFTER DELETE ON modules BEGIN
  DELETE FROM search_docs WHERE kind = 'module' AND ref_id = old.id;
END;

CREATE TRIGGER content_references_search_ai AFTER INSERT ON content_references BEGIN
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status)
  VALUES ('reference', new.id, new.org_id, replace(replace(new.title, char(57344), ''), char(57345), ''),
    replace(replace(new.citation, char(57344), ''), char(57345), ''),
    replace(replace(new.citation || char(10) || new.plain_text, char(57344), ''), char(57345), ''), new.status);
END;
CREATE TRIGGER content_references_search_au AFTER UPDATE ON content_references BEGIN
  UPDATE search_docs SET
    title = replace(replace(new.title, char(57344), ''), char(57345), ''),
    subtitle = replace(replace(new.citation, char(57344), ''), char(57345), ''),
    body = replace(replace(new.citation || char(10) || new.plain_text, char(57344), ''), char(57345), ''),
    status = new.status
  WHERE kind = 'reference' AND ref_id = new.id;
END;
CREATE TRIGGER content_references_search_ad AFTER DELETE ON content_references BEGIN
  DELETE FROM search_docs WHERE kind = 'reference' AND ref_id = old.id;
END;

-- Rows that exist before this migration (none in a fresh database).
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, type, product_id, owner_id, market)
SELECT 'asset', a.id, a.org_id, a.title, a.job_code, a.job_code || char(10) || coalesce(v.plain_text, ''),
  a.status, a.type, a.product_id, a.owner_id, a.market
FROM assets a LEFT JOIN asset_versions v ON v.id = a.current_version_id;
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
SELECT 'claim', c.id, c.org_id, c.text, '', coalesce((SELECT group_concat(j.value, char(10)) FROM json_each(c.variants) j), ''), c.status, c.product_id
FROM claims c;
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
SELECT 'module', m.id, m.org_id, m.title, m.kind, m.body, m.status, m.product_id FROM modules m;
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status)
SELECT 'reference', r.id, r.org_id, r.title, r.citation, r.citation || char(10) || r.plain_text, r.status FROM content_references r;
