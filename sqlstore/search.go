package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"unicode"

	"fairbalance"
)

var _ fairbalance.SearchStore = (*querier)(nil)

// maxSearchTerms bounds the work of one search; further words are ignored.
const maxSearchTerms = 12

// searchTerms splits what a user typed into words that can match: each
// has a letter or digit (words of punctuation alone match nothing in
// either engine and would only make a query invalid) and is at most 100
// characters long.
func searchTerms(text string) []string {
	var out []string
	// NUL separates words too: SQLite would end the FTS5 query at it.
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == 0 || unicode.IsSpace(r) }) {
		if !strings.ContainsFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		if len(f) > 100 {
			f = strings.ToValidUTF8(f[:100], "")
		}
		out = append(out, f)
		if len(out) == maxSearchTerms {
			break
		}
	}
	return out
}

// fts5Query turns words into an FTS5 query of the organisation whose tag
// is tag: each word a quoted phrase (so no input is syntax: quotes are
// doubled, OR/NOT/NEAR/* are just text) of tagged words, all required,
// the last matching as a prefix.
func fts5Query(terms []string, tag string) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		b.WriteString(tagWords(tag, strings.ReplaceAll(t, `"`, `""`)))
		b.WriteByte('"')
		if i == len(terms)-1 {
			b.WriteByte('*')
		}
	}
	return b.String()
}

// lastPrefixToken is the last word when it is one run of letters and
// digits, the only shape PostgreSQL can match as a prefix safely.
func lastPrefixToken(t string) (string, bool) {
	for _, r := range t {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return "", false
		}
	}
	return t, true
}

// pgTSQuery builds the tsquery expression for terms with $n parameters
// from next on: each word through phraseto_tsquery (PostgreSQL's own
// parser, so "38.5%" or "FB-US-0001" split as they were indexed), the last
// also as a prefix when it is a plain word.
func pgTSQuery(terms []string, next int) (string, []any) {
	var parts []string
	var args []any
	for i, t := range terms {
		p := "phraseto_tsquery('english', $" + strconv.Itoa(next) + ")"
		args = append(args, t)
		next++
		if i == len(terms)-1 {
			if tok, ok := lastPrefixToken(t); ok {
				p = "(" + p + " || to_tsquery('english', $" + strconv.Itoa(next) + "))"
				args = append(args, "'"+strings.ReplaceAll(tok, "'", "''")+"':*")
				next++
			}
		}
		parts = append(parts, p)
	}
	return "(" + strings.Join(parts, " && ") + ")", args
}

// searchFilters appends the filter conditions on search_docs d.
func searchFilters(q fairbalance.SearchQuery, ph func(v any) string) string {
	var b strings.Builder
	if len(q.Kinds) > 0 {
		b.WriteString(" AND d.kind IN (")
		for i, k := range q.Kinds {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(ph(k))
		}
		b.WriteString(")")
	}
	for _, f := range []struct{ col, v string }{{"status", q.Status}, {"type", q.Type}, {"product_id", q.ProductID}, {"owner_id", q.OwnerID}, {"market", q.Market}} {
		if f.v != "" {
			b.WriteString(" AND d." + f.col + " = " + ph(f.v))
		}
	}
	return b.String()
}

// headlineOptions are ts_headline's options for snippets marked like FTS5's.
const headlineOptions = "StartSel=" + fairbalance.SnippetStart + ", StopSel=" + fairbalance.SnippetEnd +
	", MaxWords=24, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=\" … \""

// SearchContent implements fairbalance.SearchStore.
func (q *querier) SearchContent(ctx context.Context, orgID string, s fairbalance.SearchQuery) ([]fairbalance.SearchHit, error) {
	terms := searchTerms(s.Text)
	if len(terms) == 0 {
		return []fairbalance.SearchHit{}, nil
	}
	limit := s.Limit
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	var query string
	var args []any
	if q.d.postgres {
		tsq, targs := pgTSQuery(terms, 1)
		args = append(args, targs...)
		ph := func(v any) string {
			args = append(args, v)
			return "$" + strconv.Itoa(len(args))
		}
		opt := func(v string) any {
			if v == "" {
				return nil
			}
			return v
		}
		var kinds any
		if len(s.Kinds) > 0 {
			kinds = s.Kinds
		}
		org := ph(orgID)
		cand := org + ", " + ph(kinds) + ", " + ph(opt(s.Status)) + ", " + ph(opt(s.Type)) + ", " +
			ph(opt(s.ProductID)) + ", " + ph(opt(s.OwnerID)) + ", " + ph(opt(s.Market)) + ", " + ph(searchCandidates)
		lim := ph(limit)
		opts := ph(headlineOptions)
		// The query is tagged with the organisation's tag (migration
		// 0013): it reads the organisation's posting lists only, and an
		// organisation without any searchable row matches nothing.
		// search_candidates (migration 0009) picks the newest
		// searchCandidates matches (with the filters) and ranks them, as
		// on SQLite; then headlines are built for the page only, with the
		// plain query: ts_headline re-parses the text, the costly part.
		query = `SELECT d.kind, d.ref_id, d.title, d.subtitle, d.status,
  CASE WHEN to_tsvector('english', left(d.body, 100000)) @@ x.q
    THEN ts_headline('english', left(d.body, 100000), x.q, ` + opts + `)
    ELSE ts_headline('english', d.title, x.q, ` + opts + `) END,
  t.r
FROM (SELECT ` + tsq + ` AS q) x
CROSS JOIN LATERAL (SELECT search_tag_query(o.tag, x.q) AS q FROM search_orgs o WHERE o.org_id = ` + org + `) s
CROSS JOIN LATERAL (SELECT c.id, c.rank AS r FROM search_candidates(s.q, ` + cand + `) c
  ORDER BY c.rank DESC, c.id
  LIMIT ` + lim + `) t
JOIN search_docs d ON d.id = t.id
ORDER BY t.r DESC, d.id`
	} else {
		return q.searchSQLite(ctx, orgID, s, terms, limit)
	}
	rows, err := q.queryPlanned(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []fairbalance.SearchHit{}
	for rows.Next() {
		var h fairbalance.SearchHit
		if err := rows.Scan(&h.Kind, &h.ID, &h.Title, &h.Subtitle, &h.Status, &h.Snippet, &h.Rank); err != nil {
			return nil, translate(err)
		}
		h.Snippet = tidySnippet(h.Snippet)
		if h.Kind == fairbalance.SearchAsset {
			h.AssetID = h.ID
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	rows.Close()
	if len(out) < limit && wantsAssets(s.Kinds) {
		tsq, targs := pgTSQuery(terms, 1)
		older, err := q.olderPostgres(ctx, tsq, targs, orgID, s, limit-len(out), assetIDs(out))
		if err != nil {
			return nil, err
		}
		out = append(out, older...)
	}
	return out, nil
}

// searchCandidates caps the matches ranked: a word in most documents
// would otherwise cost a bm25 (or ts_rank_cd) and a row lookup per match,
// several hundred ms at 100 000 assets. Beyond the cap, the newest matches
// are ranked; a narrower query ranks all of its matches.
const searchCandidates = 1000

// searchSQLite ranks in one query and builds snippets in a second one for
// the page only (snippet() re-tokenizes a row's text). Weights: a match in
// the title counts eight times one in the body. The query is tagged for
// the organisation (see searchscope.go): FTS5 reads the organisation's
// posting lists only, and an organisation without any searchable row
// matches nothing.
func (q *querier) searchSQLite(ctx context.Context, orgID string, s fairbalance.SearchQuery, terms []string, limit int) ([]fairbalance.SearchHit, error) {
	var key int64
	switch err := q.row(ctx, `SELECT key FROM search_orgs WHERE org_id = ?`, orgID).Scan(&key); {
	case errors.Is(err, sql.ErrNoRows):
		return []fairbalance.SearchHit{}, nil // nothing of the organisation was ever indexed
	case err != nil:
		return nil, translate(err)
	}
	tag, err := searchTag(key)
	if err != nil {
		return nil, err
	}
	match := fts5Query(terms, tag)
	out, ids, capped, err := q.rankSQLite(ctx, match, orgID, s, limit, searchCandidates)
	if err != nil {
		return nil, err
	}
	// The filters apply after the cap (the organisation before it, in the
	// tagged words; d.org_id is checked again): when they leave the page
	// short, rank every match instead.
	if capped && len(out) < limit {
		if out, ids, _, err = q.rankSQLite(ctx, match, orgID, s, limit, -1); err != nil {
			return nil, err
		}
	}
	if len(ids) == 0 {
		return q.withOlderSQLite(ctx, match, orgID, s, limit, out)
	}
	// One pass of the match over the page's rowid range: a plain
	// "rowid IN" would run the match (and its prefix merge) once per row;
	// "+rowid" keeps the list a filter, so snippets are made for the page only.
	lo, hi := ids[0].(int64), ids[0].(int64)
	for _, id := range ids {
		lo, hi = min(lo, id.(int64)), max(hi, id.(int64))
	}
	ph := strings.Repeat(", ?", len(ids))[2:]
	rows, err := q.query(ctx, `SELECT rowid,
  snippet(search_fts, 0, char(57344), char(57345), '…', 16),
  snippet(search_fts, 1, char(57344), char(57345), '…', 16)
FROM search_fts WHERE search_fts MATCH ? AND rowid >= ? AND rowid <= ? AND +rowid IN (`+ph+`)`, append([]any{match, lo, hi}, ids...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	snippets := make(map[int64]string, len(ids))
	for rows.Next() {
		var id int64
		var title, body string
		if err := rows.Scan(&id, &title, &body); err != nil {
			return nil, translate(err)
		}
		// The body's passage when the words occur there, else the title.
		if strings.Contains(body, fairbalance.SnippetStart) {
			snippets[id] = body
		} else {
			snippets[id] = title
		}
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	for i := range out {
		out[i].Snippet = tidySnippet(snippets[ids[i].(int64)])
	}
	return q.withOlderSQLite(ctx, match, orgID, s, limit, out)
}

// withOlderSQLite completes a page of current matches that is short with
// the assets found only in older versions.
func (q *querier) withOlderSQLite(ctx context.Context, match, orgID string, s fairbalance.SearchQuery, limit int, out []fairbalance.SearchHit) ([]fairbalance.SearchHit, error) {
	if len(out) >= limit || !wantsAssets(s.Kinds) {
		return out, nil
	}
	older, err := q.olderSQLite(ctx, match, orgID, s, limit-len(out), assetIDs(out))
	if err != nil {
		return nil, err
	}
	return append(out, older...), nil
}

// rankSQLite returns the best limit matches among the newest candidates
// ones (all for candidates < 0), their search_docs ids, and whether the
// page is short because of the cap.
func (q *querier) rankSQLite(ctx context.Context, match, orgID string, s fairbalance.SearchQuery, limit, candidates int) ([]fairbalance.SearchHit, []any, bool, error) {
	args := []any{match, candidates, orgID}
	filters := searchFilters(s, func(v any) string {
		args = append(args, v)
		return "?"
	})
	args = append(args, limit)
	rows, err := q.query(ctx, `SELECT d.id, d.kind, d.ref_id, d.title, d.subtitle, d.status, c.r
FROM (SELECT rowid AS id, -bm25(search_fts, 8.0, 1.0) AS r
  FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?) c
CROSS JOIN search_docs d ON d.id = c.id
WHERE d.org_id = ?`+filters+`
ORDER BY c.r DESC, d.id
LIMIT ?`, args...)
	if err != nil {
		return nil, nil, false, err
	}
	defer rows.Close()
	out := []fairbalance.SearchHit{}
	var ids []any
	for rows.Next() {
		var h fairbalance.SearchHit
		var id int64
		if err := rows.Scan(&id, &h.Kind, &h.ID, &h.Title, &h.Subtitle, &h.Status, &h.Rank); err != nil {
			return nil, nil, false, translate(err)
		}
		if h.Kind == fairbalance.SearchAsset {
			h.AssetID = h.ID
		}
		ids = append(ids, id)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, false, translate(err)
	}
	if candidates < 0 || len(out) == limit {
		return out, ids, false, nil
	}
	// Short page: were there more matches than candidates? (Counting the
	// capped rowids costs no ranking.)
	var n int
	if err := q.row(ctx, `SELECT count(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?)`, match, candidates+1).Scan(&n); err != nil {
		return nil, nil, false, translate(err)
	}
	return out, ids, n > candidates, nil
}

// tidySnippet makes page breaks and line breaks plain spaces and collapses
// runs of white space, keeping the match markers.
func tidySnippet(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
