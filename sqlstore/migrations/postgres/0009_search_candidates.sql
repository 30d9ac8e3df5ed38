-- Search candidates (issue 5): the newest p_cap documents of an
-- organisation that match q (with the filters, NULL meaning any), with
-- their ts_rank_cd. The planner alone picks badly between its two ways:
-- walking the primary key backwards tests tsv @@ q on every row it passes
-- (a tsvector read, detoasted for a long text, per row), which pays off
-- only when most rows match; a GIN bitmap reads only the matches, but all
-- of them. It prices the test per row as nearly free, so it walks for
-- words in a few percent of the documents and reads 20 rows per match.
-- Here a short walk over the newest 2 × p_cap rows measures how common
-- the words are: when it finds p_cap matches it is the answer; otherwise
-- the GIN bitmap is forced (for this function only), first over the id
-- window that should hold 1.5 × p_cap matches at the density seen (when
-- the walk saw at least 20), then, if that falls short, over all ids. The
-- result is the same set as ORDER BY id DESC LIMIT p_cap over all matches.
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
  probe constant int := p_cap * 2;
  ids bigint[];
  n int;
  hi bigint;
  lo bigint;
  seen int;
BEGIN
  -- EXECUTE plans each statement with its values (a cached generic plan
  -- cannot tell a rare word from a common one, nor a large organisation
  -- from a small one).
  EXECUTE 'SELECT array_agg(s.id) FROM (SELECT w.id FROM (SELECT d.id, d.tsv FROM search_docs d WHERE true' || filters ||
    ' ORDER BY d.id DESC LIMIT $10) w WHERE w.tsv @@ $1 LIMIT $9) s'
    INTO ids USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap, probe;
  n := coalesce(cardinality(ids), 0);
  IF n < p_cap THEN
    -- The probe read every one of its rows: their id span gives the
    -- density of matches, and so the window expected to hold p_cap.
    EXECUTE 'SELECT max(w.id), min(w.id), count(*) FROM (SELECT d.id FROM search_docs d WHERE true' || filters ||
      ' ORDER BY d.id DESC LIMIT $10) w'
      INTO hi, lo, seen USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap, probe;
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    IF n >= 20 AND seen = probe THEN
      lo := hi - ((hi - lo + 1)::float8 * p_cap * 3 / (2 * n))::bigint;
    ELSE
      lo := NULL;
    END IF;
    IF lo IS NOT NULL THEN
      EXECUTE 'SELECT array_agg(s.id) FROM (SELECT d.id FROM search_docs d WHERE d.tsv @@ $1' || filters ||
        ' AND d.id >= $10 ORDER BY d.id DESC LIMIT $9) s'
        INTO ids USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap, lo;
    END IF;
    IF lo IS NULL OR coalesce(cardinality(ids), 0) < p_cap THEN
      EXECUTE 'SELECT array_agg(s.id) FROM (SELECT d.id FROM search_docs d WHERE d.tsv @@ $1' || filters ||
        ' ORDER BY d.id DESC LIMIT $9) s'
        INTO ids USING q, p_org, p_kinds, p_status, p_type, p_product, p_owner, p_market, p_cap;
    END IF;
  END IF;
  RETURN QUERY SELECT d.id, ts_rank_cd(d.tsv, q) FROM search_docs d WHERE d.id = ANY(ids);
END
$$;
