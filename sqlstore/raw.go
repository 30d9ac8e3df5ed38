package sqlstore

import (
	"database/sql"

	"fairbalance/sqlstore/internal/rawkey"
)

// Raw returns the database's connection pools (the writer, the readers)
// and whether it is PostgreSQL, for package sqlstore/sqltest alone: tests
// use them to run raw SQL that the program never runs (tampering with the
// audit trail, snapshots of whole tables, bulk rows). The key can be named
// only inside sqlstore, so no other package can call Raw.
func (db *DB) Raw(rawkey.Key) (writer, reader *sql.DB, postgres bool) {
	return db.writer, db.reader, db.d.postgres
}
