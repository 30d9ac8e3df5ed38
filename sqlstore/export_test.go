package sqlstore

// Test-only access to the search internals, for this package's tests;
// compiled only with them, so never part of the program.

import (
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"fairbalance"

	"modernc.org/sqlite"
)

// SearchCandidatesForTest runs PostgreSQL's search_candidates for text in
// orgID with s's filters and a cap of cap, and returns the ids it picks
// and the ids a plain scan gives for the newest cap matches, both in
// descending order. On SQLite it returns nothing.
func (db *DB) SearchCandidatesForTest(ctx context.Context, orgID, text string, s fairbalance.SearchQuery, cap int) (got, want []int64, err error) {
	if !db.d.postgres {
		return nil, nil, nil
	}
	tsq, args := pgTSQuery(searchTerms(text), 1)
	// The organisation's tagged query (migration 0013).
	args = append(args, orgID)
	tsq = "search_tag_query((SELECT tag FROM search_orgs WHERE org_id = $" + strconv.Itoa(len(args)) + "), " + tsq + ")"
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
	n := len(args)
	fargs := append(append([]any{}, args...), orgID, kinds, opt(s.Status), opt(s.Type), opt(s.ProductID), opt(s.OwnerID), opt(s.Market), cap)
	ph := func(i int) string { return "$" + strconv.Itoa(n+i) }
	ids := func(q string, args ...any) ([]int64, error) {
		rows, err := db.reader.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			out = append(out, id)
		}
		return out, rows.Err()
	}
	got, err = ids(`SELECT c.id FROM search_candidates(`+tsq+`, `+ph(1)+`, `+ph(2)+`, `+ph(3)+`, `+ph(4)+`, `+ph(5)+`, `+ph(6)+`, `+ph(7)+`, `+ph(8)+`) c ORDER BY c.id DESC`, fargs...)
	if err != nil {
		return nil, nil, err
	}
	wargs := append(append([]any{}, args...), orgID)
	filters := searchFilters(s, func(v any) string {
		wargs = append(wargs, v)
		return "$" + strconv.Itoa(len(wargs))
	})
	wargs = append(wargs, cap)
	want, err = ids(`SELECT d.id FROM search_docs d WHERE d.tsv @@ `+tsq+` AND d.org_id = $`+strconv.Itoa(n+1)+filters+
		` ORDER BY d.id DESC LIMIT $`+strconv.Itoa(len(wargs)), wargs...)
	return got, want, err
}

// RunMigrationForTest executes the body of migration number v of the
// store's dialect once more, outside Migrate's bookkeeping, so that a test
// can show what a migration does to data written before it.
func (db *DB) RunMigrationForTest(ctx context.Context, v int) error {
	dir := "migrations/" + db.backend
	entries, err := fs.ReadDir(migrationsFS, dir)
	if err != nil {
		return err
	}
	prefix := fmt.Sprintf("%04d_", v)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			body, err := migrationsFS.ReadFile(dir + "/" + e.Name())
			if err != nil {
				return err
			}
			_, err = db.writer.ExecContext(ctx, string(body))
			return err
		}
	}
	return fmt.Errorf("no migration %d", v)
}

// SearchWork is the work of one search in the database.
type SearchWork struct {
	// Pages counts the database pages the search asked for, whether
	// cached or read: on SQLite every page of the connection (the FTS5
	// indexes', search_docs', search_versions', search_orgs'), on
	// PostgreSQL every buffer of search_docs and search_versions, of their
	// TOAST tables and of their indexes.
	Pages int64
	// Rows counts the rows of search_docs and search_versions read on
	// PostgreSQL (fetched through an index or returned by a scan); 0 on
	// SQLite, whose FTS5 work shows in Pages.
	Rows int64
}

// SearchWorkForTest runs the search of q in orgID alone in a transaction
// of its own and returns its hits and the work it did, read from the
// database's own counters: tests compare work, which wall-clock time on a
// shared machine cannot show.
func (db *DB) SearchWorkForTest(ctx context.Context, orgID string, q fairbalance.SearchQuery) ([]fairbalance.SearchHit, SearchWork, error) {
	var w SearchWork
	if !db.d.postgres {
		// The writer's connection: the readers map the file, and pages
		// read through the map bypass the counters.
		conn, err := db.writer.Conn(ctx)
		if err != nil {
			return nil, w, err
		}
		defer conn.Close()
		pages := func(reset bool) (int64, error) {
			var n int64
			err := conn.Raw(func(dc any) error {
				st, ok := dc.(sqlite.DBStatus)
				if !ok {
					return fmt.Errorf("sqlstore: no page counters on %T", dc)
				}
				for _, op := range []sqlite.DBStatusOp{sqlite.DBStatusCacheHit, sqlite.DBStatusCacheMiss} {
					cur, _, err := st.Status(op, reset)
					if err != nil {
						return err
					}
					n += int64(cur)
				}
				return nil
			})
			return n, err
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return nil, w, err
		}
		defer tx.Rollback()
		if _, err := pages(true); err != nil {
			return nil, w, err
		}
		hits, err := (&querier{pool: db.writer, tx: tx, stmts: &db.wstmts, d: db.d, inTx: true}).SearchContent(ctx, orgID, q)
		if err != nil {
			return nil, w, err
		}
		w.Pages, err = pages(false)
		return hits, w, err
	}
	tx, err := db.reader.BeginTx(ctx, nil)
	if err != nil {
		return nil, w, err
	}
	defer tx.Rollback()
	// The transaction's own counters: pg_stat_get_xact_* count what this
	// transaction did so far.
	counters := func() (SearchWork, error) {
		var c SearchWork
		err := tx.QueryRowContext(ctx, `WITH tables AS (
  SELECT 'search_docs'::regclass::oid AS oid UNION ALL SELECT 'search_versions'::regclass::oid),
rels AS (
  SELECT oid FROM tables
  UNION ALL SELECT reltoastrelid FROM pg_class WHERE oid IN (SELECT oid FROM tables) AND reltoastrelid <> 0
  UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM tables
    UNION ALL SELECT reltoastrelid FROM pg_class WHERE oid IN (SELECT oid FROM tables)))
SELECT (SELECT coalesce(sum(pg_stat_get_xact_blocks_fetched(oid)), 0) FROM rels)::bigint,
  (SELECT sum(pg_stat_get_xact_tuples_fetched(oid) + pg_stat_get_xact_tuples_returned(oid)) FROM tables)::bigint`).Scan(&c.Pages, &c.Rows)
		return c, err
	}
	before, err := counters()
	if err != nil {
		return nil, w, err
	}
	hits, err := (&querier{pool: db.reader, tx: tx, stmts: &db.rstmts, d: db.d, inTx: true}).SearchContent(ctx, orgID, q)
	if err != nil {
		return nil, w, err
	}
	after, err := counters()
	if err != nil {
		return nil, w, err
	}
	return hits, SearchWork{Pages: after.Pages - before.Pages, Rows: after.Rows - before.Rows}, nil
}

// OpenAtForTest opens the database of o migrated up to migration most
// only, so that a test can write data as an older server did; Migrate
// then applies the rest, as an upgrade does.
func OpenAtForTest(ctx context.Context, o Options, most int) (*DB, error) {
	var db *DB
	var err error
	if o.DatabaseURL != "" {
		db, err = openPostgres(o.DatabaseURL)
	} else {
		db, err = openSQLite(o.SQLitePath, o.SQLiteSynchronous)
	}
	if err != nil {
		return nil, err
	}
	if err := db.migrate(ctx, most); err != nil {
		db.Close()
		return nil, err
	}
	if db.backend == "sqlite" {
		db.startGroupCommit()
	}
	return db, nil
}
