// Package sqlstore is the only place with SQL. It implements the storage
// ports of package fairbalance on SQLite (modernc.org/sqlite, the default)
// and PostgreSQL (pgx), with embedded, append-only migrations per dialect.
package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fairbalance"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations
var migrationsFS embed.FS

// Options configure Open.
type Options struct {
	// DatabaseURL selects PostgreSQL when set (postgres:// or postgresql://).
	DatabaseURL string
	// SQLitePath is the database file used when DatabaseURL is empty.
	SQLitePath string
	// SQLiteSynchronous is the SQLite synchronous mode: NORMAL (default) or FULL.
	SQLiteSynchronous string
}

// DB is an open store. It is safe for concurrent use.
type DB struct {
	backend string
	writer  *sql.DB // SQLite: one connection; PostgreSQL: the pool
	reader  *sql.DB // SQLite: a pool of read-only connections; PostgreSQL: the pool
	d       dialect
	wstmts  stmtCache
	rstmts  stmtCache
	gc      *groupCommitter // SQLite only
	// mailHook runs in the transaction of every EnqueueMail (OnMailEnqueued).
	mailHook atomic.Pointer[MailHook]
	// jobHook runs in the transaction of every EnqueueComplianceCheck.
	jobHook atomic.Pointer[JobHook]
}

var _ fairbalance.Store = (*DB)(nil)

// Open opens the database and applies pending migrations.
func Open(ctx context.Context, o Options) (*DB, error) {
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
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if db.backend == "sqlite" {
		db.startGroupCommit()
	}
	return db, nil
}

func openSQLite(path, sync string) (*DB, error) {
	if path == "" {
		return nil, errors.New("sqlstore: no SQLite path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	switch strings.ToUpper(sync) {
	case "":
		sync = "NORMAL"
	case "NORMAL", "FULL":
	default:
		return nil, fmt.Errorf("sqlstore: synchronous must be NORMAL or FULL, not %q", sync)
	}
	// busy_timeout comes before journal_mode so that switching to WAL waits
	// for other openers instead of failing.
	// _time_format=sqlite stores times as "2006-01-02 15:04:05.999999999-07:00",
	// which sorts and converts to ISO 8601 (Go's time.String form does not).
	base := "file:" + path + "?_time_format=sqlite&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(" + strings.ToUpper(sync) + ")"
	w, err := sql.Open("sqlite", base+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	// Open the writer first so the file exists in WAL mode before readers.
	if err := w.Ping(); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlstore: open %s: %w", path, err)
	}
	// Readers map the file (up to 1 GiB), so that reads copy no pages out
	// of the OS cache: a search reads an FTS5 index's posting lists and
	// many rows, and measured about half as long (BenchmarkSearch100k). A
	// larger page cache on top measured no better.
	r, err := sql.Open("sqlite", base+"&_pragma=query_only(1)&_pragma=mmap_size(1073741824)")
	if err != nil {
		w.Close()
		return nil, err
	}
	n := 2 * runtime.GOMAXPROCS(0)
	if n < 4 {
		n = 4
	}
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	r.SetConnMaxLifetime(0)
	return &DB{backend: "sqlite", writer: w, reader: r, d: dialect{}}, nil
}

func openPostgres(url string) (*DB, error) {
	p, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	p.SetMaxOpenConns(32)
	p.SetMaxIdleConns(32)
	p.SetConnMaxIdleTime(5 * time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.PingContext(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("sqlstore: connect to PostgreSQL: %w", err)
	}
	return &DB{backend: "postgres", writer: p, reader: p, d: dialect{postgres: true}}, nil
}

// Backend is "sqlite" or "postgres".
func (db *DB) Backend() string { return db.backend }

// Ping checks the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.reader.PingContext(ctx) }

// Close closes every connection. For SQLite it first checkpoints the WAL.
func (db *DB) Close() error {
	db.stopGroupCommit()
	db.wstmts.close()
	db.rstmts.close()
	if db.backend == "sqlite" {
		_, _ = db.writer.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		db.reader.Close()
	}
	return db.writer.Close()
}

// Tx runs fn in one write transaction (BEGIN IMMEDIATE on SQLite).
// On SQLite, concurrent transactions are committed together (see
// groupcommit.go); each still succeeds or fails on its own.
//
// On PostgreSQL a transaction that the database aborts because it
// deadlocked with another, or could not be serialised, is run again from
// the start, up to txAttempts times: two writers that touch the same rows
// in different orders (a reviewer's decision and the sweeper's
// notification of the same asset) are ordinary traffic, not an error to
// show the user. fn must therefore keep no state outside tx from one run
// to the next except what it assigns afresh.
func (db *DB) Tx(ctx context.Context, fn func(tx fairbalance.Tx) error) error {
	if db.gc != nil {
		return db.groupTx(ctx, fn)
	}
	for attempt := 1; ; attempt++ {
		err := db.tx1(ctx, fn)
		if attempt == txAttempts || !retryable(err) {
			return err
		}
		// A short, growing, jittered pause lets the other transaction finish.
		pause := time.Duration(attempt*attempt) * (5*time.Millisecond + time.Duration(rand.Int64N(int64(5*time.Millisecond))))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// txAttempts bounds the runs of one PostgreSQL transaction (see Tx).
const txAttempts = 4

// retryable reports whether err is PostgreSQL aborting a transaction that
// succeeds when run again: a deadlock (40P01) or a serialisation failure
// (40001).
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// tx1 is one run of Tx's transaction on PostgreSQL.
func (db *DB) tx1(ctx context.Context, fn func(tx fairbalance.Tx) error) error {
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: begin: %w", err)
	}
	q := &querier{pool: db.writer, tx: tx, stmts: &db.wstmts, d: db.d, inTx: true, mailHook: db.mailHook.Load(), jobHook: db.jobHook.Load()}
	defer db.prepareMissed(ctx, q)
	if err := fn(q); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: commit: %w", err)
	}
	return nil
}

func (db *DB) prepareMissed(ctx context.Context, q *querier) {
	for _, query := range q.missed {
		// A failure only means the query stays unprepared until next time.
		_, _ = db.wstmts.get(context.WithoutCancel(ctx), db.writer, query)
	}
}

func (db *DB) read() *querier { return &querier{pool: db.reader, stmts: &db.rstmts, d: db.d} }

// View returns queries against the reader pool, for reads outside Tx.
func (db *DB) View() fairbalance.Tx { return db.read() }
func (db *DB) write() *querier      { return &querier{pool: db.writer, stmts: &db.wstmts, d: db.d} }

// Migrate applies the embedded migrations that have not been applied yet,
// each in its own transaction, recording them in schema_migrations.
func (db *DB) Migrate(ctx context.Context) error { return db.migrate(ctx, math.MaxInt) }

// migrate is Migrate up to migration number most.
func (db *DB) migrate(ctx context.Context, most int) error {
	dir := "migrations/" + db.backend
	entries, err := fs.ReadDir(migrationsFS, dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if _, err := db.writer.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("sqlstore: migrations table: %w", err)
	}
	if db.backend == "postgres" {
		// Several instances may start at once against one database.
		conn, err := db.writer.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(7215001)`); err != nil {
			return err
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(7215001)`)
	}
	level, err := db.MigrationLevel(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		v, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("sqlstore: migration %s: name must start with a number", name)
		}
		if v <= level || v > most {
			continue
		}
		body, err := migrationsFS.ReadFile(dir + "/" + name)
		if err != nil {
			return err
		}
		tx, err := db.writer.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("sqlstore: migration %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, db.d.rebind(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`), v, name, time.Now().UTC().Format(time.RFC3339)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("sqlstore: migration %s: %w", name, err)
		}
	}
	return nil
}

// MigrationLevel is the highest applied migration number (0 for none).
func (db *DB) MigrationLevel(ctx context.Context) (int, error) {
	var v sql.NullInt64
	if err := db.writer.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("sqlstore: migration level: %w", err)
	}
	return int(v.Int64), nil
}

// dialect holds the few differences between SQLite and PostgreSQL.
type dialect struct{ postgres bool }

var rebound sync.Map // SQL with ? → SQL with $n

// rebind turns ? placeholders into $1, $2… for PostgreSQL. Queries in this
// package never contain a literal question mark.
func (d dialect) rebind(q string) string {
	if !d.postgres {
		return q
	}
	if v, ok := rebound.Load(q); ok {
		return v.(string)
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	out := b.String()
	rebound.Store(q, out)
	return out
}

// stmtCache holds prepared statements of one pool, by query text. Preparing
// once matters on SQLite, where parsing a statement costs as much as
// running a point query.
type stmtCache struct {
	m sync.Map
	n atomic.Int64
}

func (c *stmtCache) size() int64 { return c.n.Load() }

func (c *stmtCache) get(ctx context.Context, pool *sql.DB, query string) (*sql.Stmt, error) {
	if v, ok := c.m.Load(query); ok {
		return v.(*sql.Stmt), nil
	}
	st, err := pool.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if v, loaded := c.m.LoadOrStore(query, st); loaded {
		st.Close()
		return v.(*sql.Stmt), nil
	}
	c.n.Add(1)
	return st, nil
}

func (c *stmtCache) close() {
	c.m.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		c.m.Delete(k)
		c.n.Add(-1)
		return true
	})
}

// querier runs the queries of the ports against a pool or a transaction,
// through prepared statements.
type querier struct {
	pool  *sql.DB
	tx    *sql.Tx // nil outside a transaction
	stmts *stmtCache
	d     dialect
	inTx  bool
	// missed lists queries run in tx before they were prepared; Tx prepares
	// them on the pool after the transaction (on SQLite the pool's only
	// connection is the transaction's, so preparing during it would wait
	// for itself).
	missed []string
	// mailHook is the store's MailHook when the querier runs a transaction.
	mailHook *MailHook
	// jobHook is the store's JobHook when the querier runs a transaction.
	jobHook *JobHook
}

func (q *querier) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	query = q.d.rebind(query)
	if q.tx != nil {
		v, ok := q.stmts.m.Load(query)
		if !ok {
			q.missed = append(q.missed, query)
			return q.tx.PrepareContext(ctx, query)
		}
		return q.tx.StmtContext(ctx, v.(*sql.Stmt)), nil
	}
	return q.stmts.get(ctx, q.pool, query)
}

func (q *querier) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := q.stmt(ctx, query)
	if err != nil {
		return nil, translate(err)
	}
	res, err := st.ExecContext(ctx, args...)
	return res, translate(err)
}

func (q *querier) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := q.stmt(ctx, query)
	if err != nil {
		return nil, translate(err)
	}
	rows, err := st.QueryContext(ctx, args...)
	return rows, translate(err)
}

// rowResult is a single-row result whose Scan reports a failed prepare too.
type rowResult struct {
	row *sql.Row
	err error
}

func (r rowResult) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.row.Scan(dest...)
}

func (q *querier) row(ctx context.Context, query string, args ...any) rowResult {
	st, err := q.stmt(ctx, query)
	if err != nil {
		return rowResult{err: err}
	}
	return rowResult{row: st.QueryRowContext(ctx, args...)}
}

// forUpdate locks the selected rows on PostgreSQL inside a transaction;
// SQLite's BEGIN IMMEDIATE already holds the write lock.
func (q *querier) forUpdate() string {
	if q.d.postgres && q.inTx {
		return " FOR UPDATE"
	}
	return ""
}

// translate maps driver errors to the port's sentinel errors.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fairbalance.ErrNotFound
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505":
			return fmt.Errorf("%w: %s", fairbalance.ErrConflict, pgErr.ConstraintName)
		case "23503": // the referenced row is gone
			return fmt.Errorf("%w: %s", fairbalance.ErrNotFound, pgErr.ConstraintName)
		case "23514", "23502":
			return fmt.Errorf("%w: %s", fairbalance.ErrConstraint, pgErr.Message)
		case "22021", "22P05":
			// Text PostgreSQL cannot hold (a NUL character, bytes that are
			// not UTF-8, \u0000 in JSON) came from the client: its error.
			return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: pgErr.Code, Message: pgErr.Message, Err: err}
		}
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %s", fairbalance.ErrConflict, sqErr.Error())
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("%w: %s", fairbalance.ErrNotFound, sqErr.Error())
		case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL:
			return fmt.Errorf("%w: %s", fairbalance.ErrConstraint, sqErr.Error())
		}
	}
	return err
}
