-- Search scoped to the organisation (issue 13): the work of a search, and
-- its result, must not depend on other organisations' content. The GIN
-- index kept one posting list per lexeme for the whole table (and the
-- planner one estimate), so a word common in one organisation made it
-- slower to search in every other one. Every lexeme of search_docs.tsv now
-- starts with its organisation's tag (made from the organisation's number
-- in search_orgs; see sqlstore/searchscope.go),
-- and a query is tagged the same way (search_tag_query): it reads its
-- organisation's posting lists only, and the statistics of the index are
-- per organisation too. Ranks (ts_rank_cd) are unchanged: they read one
-- document's vector and the query, which carry the same tag.

-- Without a foreign key, as on SQLite: a number is never given twice.
CREATE SEQUENCE search_orgs_key_seq MINVALUE 1 MAXVALUE 14776397;
CREATE TABLE search_orgs (
  org_id TEXT PRIMARY KEY,
  key BIGINT NOT NULL UNIQUE,
  tag TEXT NOT NULL UNIQUE
);

-- The tag of organisation number k, short because every lexeme of every
-- row carries it: one character (0-9, A-Z, a-y) for the first 61
-- organisations, then 'z' and four base-62 digits. No tag is the start of
-- another, so a tagged lexeme names its organisation and its word alone.
CREATE FUNCTION search_org_tag(k bigint) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN k <= 61 THEN substr(d, k::int, 1)
  ELSE 'z' || substr(d, ((k - 62) / 238328 % 62)::int + 1, 1) || substr(d, ((k - 62) / 3844 % 62)::int + 1, 1)
    || substr(d, ((k - 62) / 62 % 62)::int + 1, 1) || substr(d, ((k - 62) % 62)::int + 1, 1) END
  FROM (SELECT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' AS d) x $$;

-- v, q with tag before every lexeme. In the text forms every lexeme is
-- quoted, with quotes doubled inside. A vector's text is its lexemes, each
-- with its positions, separated by spaces, and to_tsvector's parser never
-- makes a lexeme holding a space: every " '" starts a lexeme. (A plain
-- replace, as the query's regular expression would cost three times as
-- much: this runs for every row written.)
CREATE FUNCTION search_tag_vector(tag text, v tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN length(v) = 0 THEN v
  ELSE ('''' || tag || substr(replace(v::text, ' ''', ' ''' || tag), 2))::tsvector END $$;
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

-- search_candidates as in 0009, with the walks over the newest rows bound
-- to the organisation's rows: the planner priced the primary key walked
-- backwards (testing org_id on every row it passes, another
-- organisation's too) below the (org_id, id) index, whose org_id it takes
-- for scattered. With org_id written as a range and in the ORDER BY, only
-- the (org_id, id) index gives that order; q comes tagged.
CREATE OR REPLACE FUNCTION search_candidates(q tsquery, p_org text, p_kinds text[], p_status text, p_type text,
  p_product text, p_owner text, p_market text, p_cap int)
RETURNS TABLE (id bigint, rank real) LANGUAGE plpgsql STABLE
SET enable_seqscan = on SET enable_indexscan = on
AS $$
DECLARE
  filters constant text := ' AND d.org_id >= $2 AND d.org_id <= $2'
    ' AND ($3::text[] IS NULL OR d.kind = ANY($3)) AND ($4::text IS NULL OR d.status = $4)'
    ' AND ($5::text IS NULL OR d.type = $5) AND ($6::text IS NULL OR d.product_id = $6)'
    ' AND ($7::text IS NULL OR d.owner_id = $7) AND ($8::text IS NULL OR d.market = $8)';
  first constant int := least(250, p_cap * 2);
  ids bigint[];
  ranks real[];
  more bigint[];
  mranks real[];
  n int;
  seen int;
  hi bigint;
  lo bigint;
BEGIN
  EXECUTE 'SELECT array_agg(w.id ORDER BY w.id DESC) FILTER (WHERE w.m),'
    ' array_agg(ts_rank_cd(w.tsv, $1) ORDER BY w.id DESC) FILTER (WHERE w.m), count(*), max(w.id), min(w.id)'
    ' FROM (SELECT d.id, d.tsv, d.tsv @@ $1 AS m FROM search_docs d WHERE true' || filters ||
    ' ORDER BY d.org_id DESC, d.id DESC LIMIT $9) w'
    INTO ids, ranks, seen, hi, lo USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, first;
  n := coalesce(cardinality(ids), 0);
  IF n >= p_cap OR seen < first THEN
    RETURN QUERY SELECT * FROM unnest(ids[1:p_cap], ranks[1:p_cap]);
    RETURN;
  END IF;
  IF 10 * n >= first THEN
    EXECUTE 'SELECT array_agg(s.id), array_agg(ts_rank_cd(s.tsv, $1)) FROM (SELECT w.id, w.tsv FROM'
      ' (SELECT d.id, d.tsv FROM search_docs d WHERE d.id < $11' || filters ||
      ' ORDER BY d.org_id DESC, d.id DESC LIMIT $10) w WHERE w.tsv @@ $1 LIMIT $9) s'
      INTO more, mranks USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap - n, p_cap * 10, lo;
    IF n + coalesce(cardinality(more), 0) >= p_cap THEN
      RETURN QUERY SELECT * FROM unnest(ids || more, ranks || mranks);
      RETURN;
    END IF;
  END IF;
  PERFORM set_config('enable_seqscan', 'off', true);
  PERFORM set_config('enable_indexscan', 'off', true);
  ids := NULL;
  IF n >= 10 THEN
    lo := hi - ((hi - lo + 1)::float8 * p_cap * 2 / n)::bigint;
    EXECUTE 'SELECT array_agg(s.id), array_agg(ts_rank_cd(s.tsv, $1)) FROM (SELECT d.id, d.tsv FROM search_docs d'
      ' WHERE d.tsv @@ $1' || filters || ' AND d.id >= $10 ORDER BY d.id DESC LIMIT $9) s'
      INTO ids, ranks USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap, lo;
  END IF;
  IF coalesce(cardinality(ids), 0) < p_cap THEN
    EXECUTE 'SELECT array_agg(s.id), array_agg(ts_rank_cd(s.tsv, $1)) FROM (SELECT d.id, d.tsv FROM search_docs d'
      ' WHERE d.tsv @@ $1' || filters || ' ORDER BY d.id DESC LIMIT $9) s'
      INTO ids, ranks USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap;
  END IF;
  RETURN QUERY SELECT * FROM unnest(ids, ranks);
END
$$;
