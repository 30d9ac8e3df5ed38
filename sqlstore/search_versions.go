package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"fairbalance"

	"github.com/jackc/pgx/v5"
)

// Older versions (migration 0015). search_versions holds the search text
// of every asset version; those that are not current are indexed on their
// own (search_version_fts on SQLite, search_versions.tsv on PostgreSQL),
// tagged for the organisation like the main index. A search reads them only
// when the matches in current content leave its page short: matches in
// current content always come first, so a page they fill has no room for
// older versions, and the searches that fill a page pay nothing for them.

// wantsAssets reports whether a search with these kinds returns assets.
func wantsAssets(kinds []string) bool {
	return len(kinds) == 0 || slices.Contains(kinds, fairbalance.SearchAsset)
}

// assetIDs lists the assets among hits, which an older version's match
// must not repeat.
func assetIDs(hits []fairbalance.SearchHit) []string {
	out := []string{}
	for _, h := range hits {
		if h.Kind == fairbalance.SearchAsset {
			out = append(out, h.ID)
		}
	}
	return out
}

// olderSQLite returns up to need assets of orgID, not in exclude, that
// match (the tagged FTS5 query) in a version that is not current, each
// with its newest such version, best first, with snippets. As in
// searchSQLite, the newest searchCandidates matches are ranked unless the
// filters leave the page short.
func (q *querier) olderSQLite(ctx context.Context, match, orgID string, s fairbalance.SearchQuery, need int, exclude []string) ([]fairbalance.SearchHit, error) {
	out, ids, capped, err := q.rankOlderSQLite(ctx, match, orgID, s, need, exclude, searchCandidates)
	if err != nil {
		return nil, err
	}
	if capped && len(out) < need {
		if out, ids, _, err = q.rankOlderSQLite(ctx, match, orgID, s, need, exclude, -1); err != nil {
			return nil, err
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	lo, hi := ids[0].(int64), ids[0].(int64)
	for _, id := range ids {
		lo, hi = min(lo, id.(int64)), max(hi, id.(int64))
	}
	ph := strings.Repeat(", ?", len(ids))[2:]
	rows, err := q.query(ctx, `SELECT rowid, snippet(search_version_fts, 0, char(57344), char(57345), '…', 16)
FROM search_version_fts WHERE search_version_fts MATCH ? AND rowid >= ? AND rowid <= ? AND +rowid IN (`+ph+`)`, append([]any{match, lo, hi}, ids...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	snippets := make(map[int64]string, len(ids))
	for rows.Next() {
		var id int64
		var sn string
		if err := rows.Scan(&id, &sn); err != nil {
			return nil, translate(err)
		}
		snippets[id] = sn
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	for i := range out {
		out[i].Snippet = tidySnippet(snippets[ids[i].(int64)])
	}
	return out, nil
}

// rankOlderSQLite ranks the older-version matches among the newest
// candidates ones (all for candidates < 0); it returns the hits, their
// search_versions ids, and whether the page is short because of the cap.
func (q *querier) rankOlderSQLite(ctx context.Context, match, orgID string, s fairbalance.SearchQuery, need int, exclude []string, candidates int) ([]fairbalance.SearchHit, []any, bool, error) {
	args := []any{match, candidates, orgID, orgID}
	f := s
	f.Kinds = nil
	filters := searchFilters(f, func(v any) string {
		args = append(args, v)
		return "?"
	})
	// One statement text whatever the page holds: the ids as a JSON list.
	filters += " AND v.asset_id NOT IN (SELECT value FROM json_each(?))"
	list, _ := json.Marshal(exclude)
	args = append(args, string(list), need)
	rows, err := q.query(ctx, `SELECT id, asset_id, number, title, subtitle, status, r FROM (
  SELECT v.id, v.asset_id, v.number, d.title, d.subtitle, d.status, c.r,
    row_number() OVER (PARTITION BY v.asset_id ORDER BY v.number DESC) AS n
  FROM (SELECT rowid AS id, -bm25(search_version_fts) AS r
    FROM search_version_fts WHERE search_version_fts MATCH ? ORDER BY rowid DESC LIMIT ?) c
  CROSS JOIN search_versions v ON v.id = c.id
  CROSS JOIN search_docs d ON d.kind = 'asset' AND d.ref_id = v.asset_id
  WHERE v.org_id = ? AND d.org_id = ? AND NOT v.is_current`+filters+`
) WHERE n = 1
ORDER BY r DESC, id
LIMIT ?`, args...)
	if err != nil {
		return nil, nil, false, err
	}
	defer rows.Close()
	out := []fairbalance.SearchHit{}
	var ids []any
	for rows.Next() {
		h := fairbalance.SearchHit{Kind: fairbalance.SearchAsset}
		var id int64
		if err := rows.Scan(&id, &h.ID, &h.Version, &h.Title, &h.Subtitle, &h.Status, &h.Rank); err != nil {
			return nil, nil, false, translate(err)
		}
		h.AssetID = h.ID
		ids = append(ids, id)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, false, translate(err)
	}
	if candidates < 0 || len(out) == need {
		return out, ids, false, nil
	}
	var n int
	if err := q.row(ctx, `SELECT count(*) FROM (SELECT rowid FROM search_version_fts WHERE search_version_fts MATCH ? ORDER BY rowid DESC LIMIT ?)`, match, candidates+1).Scan(&n); err != nil {
		return nil, nil, false, translate(err)
	}
	return out, ids, n > candidates, nil
}

// olderPostgres is olderSQLite on PostgreSQL: tsq (with its arguments
// args, numbered from $1) is the untagged query. The GIN index gives the
// matches; up to searchCandidates of them (with the filters) are ranked.
// Unlike the search of current content, the statement is prepared once:
// its plan (the GIN bitmap, the only index for the match) does not depend
// on how common the words are, and planning it again would cost a short
// page more than running it.
func (q *querier) olderPostgres(ctx context.Context, tsq string, args []any, orgID string, s fairbalance.SearchQuery, need int, exclude []string) ([]fairbalance.SearchHit, error) {
	ph := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	org := ph(orgID)
	f := s
	f.Kinds = nil
	filters := searchFilters(f, ph)
	query := `SELECT c.asset_id, c.number, a.title, a.subtitle, a.status,
  ts_headline('english', left(v.body, 100000), x.q, ` + ph(headlineOptions) + `), c.r
FROM (SELECT ` + tsq + ` AS q) x
CROSS JOIN LATERAL (SELECT search_tag_query(o.tag, x.q) AS q FROM search_orgs o WHERE o.org_id = ` + org + `) s
CROSS JOIN LATERAL (
  SELECT DISTINCT ON (m.asset_id) m.id, m.asset_id, m.number, m.r FROM (
    SELECT v.id, v.asset_id, v.number, ts_rank_cd(v.tsv, s.q) AS r
    FROM search_versions v JOIN search_docs d ON d.kind = 'asset' AND d.ref_id = v.asset_id
    WHERE v.tsv @@ s.q AND v.org_id = ` + org + ` AND d.org_id = ` + org + filters + `
      AND NOT (v.asset_id = ANY(` + ph(exclude) + `::text[]))
    LIMIT ` + ph(searchCandidates) + `) m
  ORDER BY m.asset_id, m.number DESC) c
JOIN search_versions v ON v.id = c.id
JOIN search_docs a ON a.kind = 'asset' AND a.ref_id = c.asset_id
ORDER BY c.r DESC, c.id
LIMIT ` + ph(need)
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []fairbalance.SearchHit{}
	for rows.Next() {
		h := fairbalance.SearchHit{Kind: fairbalance.SearchAsset}
		if err := rows.Scan(&h.ID, &h.Version, &h.Title, &h.Subtitle, &h.Status, &h.Snippet, &h.Rank); err != nil {
			return nil, translate(err)
		}
		h.AssetID = h.ID
		h.Snippet = tidySnippet(h.Snippet)
		out = append(out, h)
	}
	return out, translate(rows.Err())
}

// queryPlanned runs a PostgreSQL query planned for its values (an
// unnamed statement): a cached generic plan cannot know how common the
// words are, and picks badly.
func (q *querier) queryPlanned(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	var rows *sql.Rows
	var err error
	if q.tx != nil {
		rows, err = q.tx.QueryContext(ctx, query, append([]any{pgx.QueryExecModeExec}, args...)...)
	} else {
		rows, err = q.pool.QueryContext(ctx, query, append([]any{pgx.QueryExecModeExec}, args...)...)
	}
	return rows, translate(err)
}

// markers removes the snippet markers from text to index, as the
// triggers do.
var markers = strings.NewReplacer(fairbalance.SnippetStart, "", fairbalance.SnippetEnd, "")

// SetSearchText implements fairbalance.SearchStore.
func (q *querier) SetSearchText(ctx context.Context, kind, id, text string) error {
	text = markers.Replace(text)
	var res sql.Result
	var err error
	switch kind {
	case fairbalance.SearchTextVersion:
		res, err = q.exec(ctx, `UPDATE search_versions SET body = ?, cleaned = TRUE WHERE version_id = ?`, text, id)
	case fairbalance.SearchTextReference:
		res, err = q.exec(ctx, `UPDATE content_references SET search_text = ? WHERE id = ?`, text, id)
	default:
		return fairbalance.ErrNotFound
	}
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fairbalance.ErrNotFound
	}
	return nil
}

// PendingSearchTexts implements fairbalance.SearchStore: versions first,
// then references, each through the partial index of what is pending.
func (q *querier) PendingSearchTexts(ctx context.Context, limit int) ([]fairbalance.PendingSearchText, error) {
	if limit <= 0 {
		return nil, nil
	}
	pending := "s.cleaned = 0"
	if q.d.postgres {
		pending = "NOT s.cleaned"
	}
	out := []fairbalance.PendingSearchText{}
	for _, p := range []struct{ kind, query string }{
		{fairbalance.SearchTextVersion, `SELECT v.id, v.page_texts, v.plain_text FROM search_versions s JOIN asset_versions v ON v.id = s.version_id
WHERE ` + pending + ` ORDER BY s.id LIMIT ?`},
		{fairbalance.SearchTextReference, `SELECT r.id, r.page_texts, r.plain_text FROM content_references r
WHERE r.search_text IS NULL AND r.file_path IS NOT NULL ORDER BY r.id LIMIT ?`},
	} {
		if len(out) == limit {
			break
		}
		rows, err := q.query(ctx, p.query, limit-len(out))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, plain string
			var raw []byte
			if err := rows.Scan(&id, &raw, &plain); err != nil {
				rows.Close()
				return nil, translate(err)
			}
			// Pages that are not a list of texts (never written so) are
			// the plain text's, split at its form feeds.
			var pages []string
			if json.Unmarshal(raw, &pages) != nil || len(pages) == 0 && plain != "" {
				pages = strings.Split(plain, "\f")
			}
			out = append(out, fairbalance.PendingSearchText{Kind: p.kind, ID: id, Pages: pages})
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, translate(err)
		}
	}
	return out, nil
}
