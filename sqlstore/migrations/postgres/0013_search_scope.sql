-- Search scoped to the organisation (issue 13): the work of a search, and
-- its result, must not depend on other organisations' content. The GIN
-- index kept one posting list per lexeme for the whole table (and the
-- planner one estimate), so a word common in one organisation made it
-- slower to search in every other one. Every lexeme of search_docs.tsv now
-- starts with its organisation's tag (two private-use characters made from
-- the organisation's number in search_orgs; see sqlstore/searchscope.go),
-- and a query is tagged the same way (search_tag_query): it reads its
-- organisation's posting lists only, and the statistics of the index are
-- per organisation too. Ranks (ts_rank_cd) are unchanged: they read one
-- document's vector and the query, which carry the same tag.

-- Without a foreign key, as on SQLite: a number is never given twice.
CREATE SEQUENCE search_orgs_key_seq MINVALUE 1 MAXVALUE 16777215;
CREATE TABLE search_orgs (
  org_id TEXT PRIMARY KEY,
  key BIGINT NOT NULL UNIQUE,
  tag TEXT NOT NULL UNIQUE
);

-- The tag of organisation number k: U+E100 + the high 12 bits, U+E100 +
-- the low 12 bits.
CREATE FUNCTION search_org_tag(k bigint) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT chr(57600 + (k >> 12)::int) || chr(57600 + (k & 4095)::int) $$;

-- v, q with tag before every lexeme. Lexemes are always quoted in the text
-- form, with quotes doubled inside.
CREATE FUNCTION search_tag_vector(tag text, v tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT regexp_replace(v::text, '''((?:[^'']|'''')*)''', '''' || tag || '\1''', 'g')::tsvector $$;
CREATE FUNCTION search_tag_query(tag text, q tsquery) RETURNS tsquery LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN numnode(q) = 0 THEN q
  ELSE regexp_replace(q::text, '''((?:[^'']|'''')*)''', '''' || tag || '\1''', 'g')::tsquery END $$;

-- An organisation gets its number with its first searchable row.
CREATE FUNCTION search_docs_org() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k bigint;
BEGIN
  SELECT o.tag INTO NEW.org_tag FROM search_orgs o WHERE o.org_id = NEW.org_id;
  IF NEW.org_tag IS NULL THEN
    k := nextval('search_orgs_key_seq');
    INSERT INTO search_orgs (org_id, key, tag) VALUES (NEW.org_id, k, search_org_tag(k))
    ON CONFLICT (org_id) DO NOTHING;
    SELECT o.tag INTO STRICT NEW.org_tag FROM search_orgs o WHERE o.org_id = NEW.org_id;
  END IF;
  RETURN NEW;
END
$$;

DROP INDEX search_docs_tsv_idx;
ALTER TABLE search_docs DROP COLUMN tsv;
ALTER TABLE search_docs ADD COLUMN org_tag TEXT;
INSERT INTO search_orgs (org_id, key, tag)
SELECT org_id, k, search_org_tag(k)
FROM (SELECT org_id, nextval('search_orgs_key_seq') AS k FROM (SELECT org_id FROM search_docs GROUP BY org_id ORDER BY min(id)) o) n;
UPDATE search_docs d SET org_tag = o.tag FROM search_orgs o WHERE o.org_id = d.org_id;
ALTER TABLE search_docs ALTER COLUMN org_tag SET NOT NULL;
CREATE TRIGGER search_docs_org BEFORE INSERT ON search_docs
FOR EACH ROW EXECUTE FUNCTION search_docs_org();

-- Generated after the BEFORE trigger has set org_tag.
ALTER TABLE search_docs ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
  search_tag_vector(org_tag,
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, left(body, 300000)), 'B'))
) STORED;
CREATE INDEX search_docs_tsv_idx ON search_docs USING GIN (tsv);

-- search_candidates walks the organisation's rows newest first.
DROP INDEX search_docs_org_idx;
CREATE INDEX search_docs_org_idx ON search_docs (org_id, id);
