package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
)

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
