package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"fairbalance"
)

// JobQueue is what the durable job queue (River, run by package jobs)
// needs to keep its own tables in this database: River brings its SQL and
// its migrations, and runs them on the store's own connections.
type JobQueue struct {
	// Pool is where River runs its statements. On SQLite it is the store's
	// writer, a single connection, so that the file keeps one writer and
	// River's statements queue behind the store's transactions instead of
	// failing with SQLITE_BUSY; on PostgreSQL it is the store's pool.
	Pool *sql.DB
	// Postgres tells which of River's drivers fits Pool.
	Postgres bool
	// Schema is the PostgreSQL schema of the store's tables (the pool's
	// current schema), where River's tables go too; "" on SQLite.
	Schema string
}

// JobQueue returns the connections and schema for the job queue.
func (db *DB) JobQueue(ctx context.Context) (JobQueue, error) {
	jq := JobQueue{Pool: db.writer, Postgres: db.d.postgres}
	if jq.Postgres {
		if err := db.writer.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&jq.Schema); err != nil {
			return JobQueue{}, fmt.Errorf("sqlstore: current schema: %w", err)
		}
	}
	return jq, nil
}

// WithMigrationLock runs fn while holding the migration lock Migrate
// takes on PostgreSQL, for the job queue's own migrations: several
// instances starting at once apply them one after another. On SQLite it
// just runs fn.
func (db *DB) WithMigrationLock(ctx context.Context, fn func(ctx context.Context) error) error {
	if !db.d.postgres {
		return fn(ctx)
	}
	// A session lock on a connection of its own: fn's migrations run on
	// other connections of the pool, each in its own transaction.
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return fmt.Errorf("sqlstore: migration lock: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(7215001)`); err != nil {
		return fmt.Errorf("sqlstore: migration lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(7215001)`)
	return fn(ctx)
}

// MailHook runs inside the transaction of every EnqueueMail, just after
// the outbox row m (with its ID) was written, with that transaction. Its
// error fails EnqueueMail and so the transaction.
type MailHook func(ctx context.Context, tx *sql.Tx, m *fairbalance.MailMessage) error

// OnMailEnqueued makes fn the MailHook of every later transaction; nil
// removes it. The job queue uses it to enqueue the message's delivery job
// atomically with the message. An EnqueueMail outside a transaction (there
// is none in the program) runs no hook.
func (db *DB) OnMailEnqueued(fn MailHook) {
	if fn == nil {
		db.mailHook.Store(nil)
		return
	}
	db.mailHook.Store(&fn)
}

// MailByID returns one message of the outbox, or fairbalance.ErrNotFound.
func (db *DB) MailByID(ctx context.Context, id int64) (*fairbalance.MailMessage, error) {
	return scanMail(db.read().row(ctx, `SELECT `+mailColumns+` FROM mail_outbox WHERE id = ?`, id))
}

// JobHook runs inside the transaction of every EnqueueComplianceCheck
// with that transaction; its error fails the transaction.
type JobHook func(ctx context.Context, tx *sql.Tx, versionID string) error

// OnComplianceCheckEnqueued makes fn the JobHook of every later
// transaction; nil removes it. The job queue uses it to insert the check's
// job atomically with the version.
func (db *DB) OnComplianceCheckEnqueued(fn JobHook) {
	if fn == nil {
		db.jobHook.Store(nil)
		return
	}
	db.jobHook.Store(&fn)
}

// EnqueueComplianceCheck runs the store's JobHook in the transaction; it
// does nothing outside one or without a hook.
func (q *querier) EnqueueComplianceCheck(ctx context.Context, versionID string) error {
	if q.tx == nil || q.jobHook == nil {
		return nil
	}
	return (*q.jobHook)(ctx, q.tx, versionID)
}
