-- Full-text search over content (issue 5). One row per searchable object
-- in search_docs, kept in step with assets (title, job code and the current
-- version's plain text), claims, modules and references by triggers, with
-- the filterable columns copied so that a search reads one table. tsv is a
-- generated tsvector ('english': title weight A, body weight B) under a GIN
-- index. The body is cut at 300 000 characters for the vector, since a
-- tsvector cannot exceed 1 MB.
-- U+E000/U+E001 mark matches in snippets, so they are removed from the
-- indexed text.

CREATE TABLE search_docs (
  id BIGSERIAL PRIMARY KEY,
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
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, left(body, 300000)), 'B')
  ) STORED,
  UNIQUE (kind, ref_id)
);
CREATE INDEX search_docs_org_idx ON search_docs (org_id, kind);
CREATE INDEX search_docs_tsv_idx ON search_docs USING GIN (tsv);

CREATE FUNCTION search_clean(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT translate(coalesce(t, ''), U&'\E000\E001', '')
$$;

CREATE FUNCTION assets_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  txt text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_docs WHERE kind = 'asset' AND ref_id = OLD.id;
    RETURN OLD;
  END IF;
  SELECT v.plain_text INTO txt FROM asset_versions v WHERE v.id = NEW.current_version_id;
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
CREATE TRIGGER assets_search AFTER INSERT OR UPDATE OR DELETE ON assets
FOR EACH ROW EXECUTE FUNCTION assets_search();

-- A version may be inserted after the asset already points at it.
CREATE FUNCTION asset_versions_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_docs d SET body = d.subtitle || E'\n' || search_clean(NEW.plain_text)
  FROM assets a
  WHERE d.kind = 'asset' AND d.ref_id = NEW.asset_id AND a.id = NEW.asset_id AND a.current_version_id = NEW.id;
  RETURN NEW;
END
$$;
CREATE TRIGGER asset_versions_search AFTER INSERT ON asset_versions
FOR EACH ROW EXECUTE FUNCTION asset_versions_search();

CREATE FUNCTION claims_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vars text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_docs WHERE kind = 'claim' AND ref_id = OLD.id;
    RETURN OLD;
  END IF;
  SELECT string_agg(search_clean(x), E'\n') INTO vars
  FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(NEW.variants) = 'array' THEN NEW.variants ELSE '[]'::jsonb END) x;
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
  VALUES ('claim', NEW.id, NEW.org_id, search_clean(NEW.text), '', coalesce(vars, ''), NEW.status, NEW.product_id)
  ON CONFLICT (kind, ref_id) DO UPDATE SET
    title = EXCLUDED.title, body = EXCLUDED.body, status = EXCLUDED.status, product_id = EXCLUDED.product_id;
  RETURN NEW;
END
$$;
CREATE TRIGGER claims_search AFTER INSERT OR UPDATE OR DELETE ON claims
FOR EACH ROW EXECUTE FUNCTION claims_search();

CREATE FUNCTION modules_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_docs WHERE kind = 'module' AND ref_id = OLD.id;
    RETURN OLD;
  END IF;
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
  VALUES ('module', NEW.id, NEW.org_id, search_clean(NEW.title), NEW.kind, search_clean(NEW.body), NEW.status, NEW.product_id)
  ON CONFLICT (kind, ref_id) DO UPDATE SET
    title = EXCLUDED.title, subtitle = EXCLUDED.subtitle, body = EXCLUDED.body, status = EXCLUDED.status,
    product_id = EXCLUDED.product_id;
  RETURN NEW;
END
$$;
CREATE TRIGGER modules_search AFTER INSERT OR UPDATE OR DELETE ON modules
FOR EACH ROW EXECUTE FUNCTION modules_search();

CREATE FUNCTION content_references_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_docs WHERE kind = 'reference' AND ref_id = OLD.id;
    RETURN OLD;
  END IF;
  INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status)
  VALUES ('reference', NEW.id, NEW.org_id, search_clean(NEW.title), search_clean(NEW.citation),
    search_clean(NEW.citation) || E'\n' || search_clean(NEW.plain_text), NEW.status)
  ON CONFLICT (kind, ref_id) DO UPDATE SET
    title = EXCLUDED.title, subtitle = EXCLUDED.subtitle, body = EXCLUDED.body, status = EXCLUDED.status
  WHERE (search_docs.title, search_docs.subtitle, search_docs.body, search_docs.status)
    IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.subtitle, EXCLUDED.body, EXCLUDED.status);
  RETURN NEW;
END
$$;
CREATE TRIGGER content_references_search AFTER INSERT OR UPDATE OR DELETE ON content_references
FOR EACH ROW EXECUTE FUNCTION content_references_search();

-- Rows that exist before this migration (none in a fresh database).
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, type, product_id, owner_id, market)
SELECT 'asset', a.id, a.org_id, search_clean(a.title), a.job_code, a.job_code || E'\n' || search_clean(v.plain_text),
  a.status, a.type, a.product_id, a.owner_id, a.market
FROM assets a LEFT JOIN asset_versions v ON v.id = a.current_version_id;
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
SELECT 'claim', c.id, c.org_id, search_clean(c.text), '',
  coalesce((SELECT string_agg(search_clean(x), E'\n') FROM jsonb_array_elements_text(
    CASE WHEN jsonb_typeof(c.variants) = 'array' THEN c.variants ELSE '[]'::jsonb END) x), ''),
  c.status, c.product_id
FROM claims c;
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status, product_id)
SELECT 'module', m.id, m.org_id, search_clean(m.title), m.kind, search_clean(m.body), m.status, m.product_id FROM modules m;
INSERT INTO search_docs (kind, ref_id, org_id, title, subtitle, body, status)
SELECT 'reference', r.id, r.org_id, search_clean(r.title), search_clean(r.citation),
  search_clean(r.citation) || E'\n' || search_clean(r.plain_text), r.status FROM content_references r;
