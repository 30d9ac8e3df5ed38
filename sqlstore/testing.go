package sqlstore

import "context"

// TamperForTest runs a raw statement on the writer, bypassing the ports.
// Tests use it to show that the database itself refuses what the service
// layer never attempts (editing the audit trail).
func (db *DB) TamperForTest(ctx context.Context, stmt string) error {
	_, err := db.writer.ExecContext(ctx, stmt)
	return err
}
