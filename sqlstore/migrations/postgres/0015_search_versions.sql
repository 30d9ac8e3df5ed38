-- Search every version (issue 14): a word only in version 1 of an asset
-- whose current version is 2 was not found. search_versions holds the
-- search text of every asset version; the versions that are not current
-- have a tsvector (tagged for the organisation as in migration 0013) under
-- a GIN index, the current one stays in its asset's search_docs row, whose
-- body is now made from search_versions. A search reads search_versions
-- only when the current content leaves its page short.
--
-- The search text of a PDF is its pages without running headers, footers
-- and bare page numbers, which the server works out (pdftext.SearchText):
-- it sets search_versions.body (the version row itself is immutable once
-- submitted) and content_references.search_text. cleaned = false marks a
-- PDF version whose body is still its plain text, as every one written
-- before this migration is; the server re-indexes them, and references
-- with a file and no search_text, when it starts.

CREATE TABLE search_versions (
  id BIGSERIAL PRIMARY KEY,
  version_id TEXT NOT NULL UNIQUE REFERENCES asset_versions(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  is_current BOOLEAN NOT NULL DEFAULT false,
  cleaned BOOLEAN NOT NULL DEFAULT true,
  body TEXT NOT NULL DEFAULT '',
  -- Set by search_docs_org() before the row is written.
  org_tag TEXT NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (
    CASE WHEN is_current THEN NULL
      ELSE search_tag_vector(org_tag, setweight(to_tsvector('english'::regconfig, left(body, 300000)), 'B')) END
  ) STORED
);
CREATE INDEX search_versions_tsv_idx ON search_versions USING GIN (tsv);
CREATE INDEX search_versions_pending_idx ON search_versions (id) WHERE NOT cleaned;
CREATE TRIGGER search_versions_org BEFORE INSERT ON search_versions
FOR EACH ROW EXECUTE FUNCTION search_docs_org();

-- The current version's new search text goes to its asset.
CREATE FUNCTION search_versions_body() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_docs d SET body = d.subtitle || E'\n' || NEW.body
  WHERE d.kind = 'asset' AND d.ref_id = NEW.asset_id;
  RETURN NEW;
END
$$;
CREATE TRIGGER search_versions_body AFTER UPDATE OF body ON search_versions
FOR EACH ROW WHEN (NEW.is_current AND OLD.body IS DISTINCT FROM NEW.body) EXECUTE FUNCTION search_versions_body();

-- Versions: every one gets its search text (its plain text until the
-- server cleans a PDF's); a version may be inserted after its asset
-- already points at it.
CREATE OR REPLACE FUNCTION asset_versions_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cur boolean;
BEGIN
  cur := EXISTS (SELECT 1 FROM assets a WHERE a.id = NEW.asset_id AND a.current_version_id = NEW.id);
  INSERT INTO search_versions (version_id, asset_id, org_id, number, is_current, cleaned, body)
  VALUES (NEW.id, NEW.asset_id, NEW.org_id, NEW.number, cur,
    NOT (NEW.kind = 'file' AND coalesce(NEW.mimetype, '') = 'application/pdf'), search_clean(NEW.plain_text));
  IF cur THEN
    UPDATE search_docs d SET body = d.subtitle || E'\n' || search_clean(NEW.plain_text)
    WHERE d.kind = 'asset' AND d.ref_id = NEW.asset_id;
  END IF;
  RETURN NEW;
END
$$;

-- Assets: the body is the job code and the current version's search
-- text; a version leaves the index when it becomes current and joins it
-- when it stops being current.
CREATE OR REPLACE FUNCTION assets_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  txt text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_docs WHERE kind = 'asset' AND ref_id = OLD.id;
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.current_version_id IS DISTINCT FROM NEW.current_version_id THEN
    UPDATE search_versions s SET is_current = (s.version_id IS NOT DISTINCT FROM NEW.current_version_id)
    WHERE s.version_id IN (OLD.current_version_id, NEW.current_version_id) AND s.asset_id = NEW.id;
  END IF;
  SELECT s.body INTO txt FROM search_versions s WHERE s.version_id = NEW.current_version_id;
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, type, product_id, owner_id, market)
  VALUES ('asset', NEW.id, NEW.org_id, search_clean(NEW.title), NEW.job_code,
    NEW.job_code || E'\n' || search_clean(txt), NEW.status, NEW.type, NEW.product_id, NEW.owner_id, NEW.market)
  ON CONFLICT (kind, ref_id) DO UPDATE SET
    title = EXCLUDED.title, subtitle = EXCLUDED.subtitle, body = EXCLUDED.body, status = EXCLUDED.status,
    type = EXCLUDED.type, product_id = EXCLUDED.product_id, owner_id = EXCLUDED.owner_id, market = EXCLUDED.market
  WHERE (search_docs.title, search_docs.subtitle, search_docs.body, search_docs.status, search_docs.type,
         search_docs.product_id, search_docs.owner_id, search_docs.market)
    IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.subtitle, EXCLUDED.body, EXCLUDED.status, EXCLUDED.type,
         EXCLUDED.product_id, EXCLUDED.owner_id, EXCLUDED.market);
  RETURN NEW;
END
$$;

-- References: the search text of the attached PDF when the server made
-- it, else the plain text. A search text is stale once the plain text
-- changes without it, and is dropped then (the server makes it again).
ALTER TABLE content_references ADD COLUMN search_text TEXT;
CREATE INDEX content_references_search_pending_idx ON content_references (id)
  WHERE search_text IS NULL AND file_path IS NOT NULL;
CREATE FUNCTION content_references_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.plain_text IS DISTINCT FROM OLD.plain_text AND NEW.search_text IS NOT DISTINCT FROM OLD.search_text THEN
    NEW.search_text := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER content_references_search_text BEFORE UPDATE ON content_references
FOR EACH ROW EXECUTE FUNCTION content_references_search_text();
CREATE OR REPLACE FUNCTION content_references_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_docs WHERE kind = 'reference' AND ref_id = OLD.id;
    RETURN OLD;
  END IF;
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status)
  VALUES ('reference', NEW.id, NEW.org_id, search_clean(NEW.title), search_clean(NEW.citation),
    search_clean(NEW.citation) || E'\n' || search_clean(coalesce(NEW.search_text, NEW.plain_text)), NEW.status)
  ON CONFLICT (kind, ref_id) DO UPDATE SET
    title = EXCLUDED.title, subtitle = EXCLUDED.subtitle, body = EXCLUDED.body, status = EXCLUDED.status
  WHERE (search_docs.title, search_docs.subtitle, search_docs.body, search_docs.status)
    IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.subtitle, EXCLUDED.body, EXCLUDED.status);
  RETURN NEW;
END
$$;

-- The versions written so far, oldest first (as the ids of new ones).
INSERT INTO search_versions (version_id, asset_id, org_id, number, is_current, cleaned, body)
SELECT v.id, v.asset_id, v.org_id, v.number, a.current_version_id IS NOT DISTINCT FROM v.id,
  NOT (v.kind = 'file' AND coalesce(v.mimetype, '') = 'application/pdf'), search_clean(v.plain_text)
FROM asset_versions v JOIN assets a ON a.id = v.asset_id
ORDER BY v.created_at, v.number, v.id;
