-- Search candidates (issue 5): the newest p_cap documents of an
-- organisation that match q (with the filters, NULL meaning any), with
-- their ts_rank_cd. The planner alone picks badly between its two ways:
-- walking the primary key backwards tests tsv @@ q on every row it passes
-- (a tsvector read, detoasted for a long text, per row), which pays off
-- only when most rows match; a GIN bitmap reads only the matches, but all
-- of them. It prices the test per row as nearly free, so it walks for
-- words in a few percent of the documents and reads 20 rows per match.
-- Here a walk over the newest 250 rows measures how common the words are.
-- When a tenth of them or more match, the walk goes on (up to 10 × p_cap
-- rows), and when it finds p_cap matches that is the answer. Otherwise the GIN
-- bitmap is forced (for this function only), first over the id window
-- that should hold 2 × p_cap matches at the density seen, then, if that
-- falls short, over all ids. The result is always the set that ORDER BY
-- id DESC LIMIT p_cap over all matches gives.
CREATE FUNCTION search_candidates(q tsquery, p_org text, p_kinds text[], p_status text, p_type text,
  p_product text, p_owner text, p_market text, p_cap int)
RETURNS TABLE (id bigint, rank real) LANGUAGE plpgsql STABLE
SET enable_seqscan = on SET enable_indexscan = on
AS $$
DECLARE
  filters constant text := ' AND d.org_id = $2'
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
  -- EXECUTE plans each statement with its values (a cached generic plan
  -- cannot tell a rare word from a common one, nor a large organisation
  -- from a small one).
  EXECUTE 'SELECT array_agg(w.id ORDER BY w.id DESC) FILTER (WHERE w.m),'
    ' array_agg(ts_rank_cd(w.tsv, $1) ORDER BY w.id DESC) FILTER (WHERE w.m), count(*), max(w.id), min(w.id)'
    ' FROM (SELECT d.id, d.tsv, d.tsv @@ $1 AS m FROM search_docs d WHERE true' || filters || ' ORDER BY d.id DESC LIMIT $9) w'
    INTO ids, ranks, seen, hi, lo USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, first;
  n := coalesce(cardinality(ids), 0);
  IF n >= p_cap OR seen < first THEN
    -- Enough, or every row of the organisation (with the filters) read.
    RETURN QUERY SELECT * FROM unnest(ids[1:p_cap], ranks[1:p_cap]);
    RETURN;
  END IF;
  IF 10 * n >= first THEN
    -- A tenth of the rows match or more: walking on (up to ten times the
    -- cap) costs less than the GIN bitmap's posting lists and row reads.
    EXECUTE 'SELECT array_agg(s.id), array_agg(ts_rank_cd(s.tsv, $1)) FROM (SELECT w.id, w.tsv FROM'
      ' (SELECT d.id, d.tsv FROM search_docs d WHERE d.id < $11' || filters ||
      ' ORDER BY d.id DESC LIMIT $10) w WHERE w.tsv @@ $1 LIMIT $9) s'
      INTO more, mranks USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap - n, p_cap * 10, lo;
    IF n + coalesce(cardinality(more), 0) >= p_cap THEN
      RETURN QUERY SELECT * FROM unnest(ids || more, ranks || mranks);
      RETURN;
    END IF;
  END IF;
  -- Fewer: the GIN bitmap, over the id window that should hold twice
  -- p_cap matches at the density seen (when it was seen on ten or more),
  -- else, or when that falls short, over all ids.
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
