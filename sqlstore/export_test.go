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
