// Package storetest opens real stores for tests: SQLite in a temporary
// directory always, and PostgreSQL in a schema of its own when the
// environment variable TEST_DATABASE_URL is set, so that every test gets an
// empty database and tests of several packages can share one server.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"fairbalance/sqlstore"
)

// Backends lists the backends to run a suite on: "sqlite", and "postgres"
// when TEST_DATABASE_URL is set.
func Backends() []string {
	if os.Getenv("TEST_DATABASE_URL") != "" {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

// Open returns an empty, migrated store of the given backend, closed (and
// for PostgreSQL, dropped) when the test ends.
func Open(t testing.TB, backend string) *sqlstore.DB {
	t.Helper()
	db, _ := open(t, backend)
	return db
}

// OpenPair returns two stores on one empty database of the given backend,
// each with its own connections, as two instances of the server sharing a
// database see it (on SQLite: two handles on one file).
func OpenPair(t testing.TB, backend string) (*sqlstore.DB, *sqlstore.DB) {
	t.Helper()
	a, o := open(t, backend)
	b, err := sqlstore.Open(context.Background(), o)
	if err != nil {
		t.Fatalf("open %s again: %v", backend, err)
	}
	// Registered after a's cleanup, so it runs first: b is closed before
	// the schema goes.
	t.Cleanup(func() { b.Close() })
	return a, b
}

// open returns a fresh store and the options that open it.
func open(t testing.TB, backend string) (*sqlstore.DB, sqlstore.Options) {
	t.Helper()
	o := Empty(t, backend)
	db, err := sqlstore.Open(context.Background(), o)
	if err != nil {
		t.Fatalf("open %s: %v", backend, err)
	}
	// Registered after Empty's cleanup, so it runs first: the store is
	// closed before its schema goes.
	t.Cleanup(func() { db.Close() })
	return db, o
}

// Empty returns the options that open an empty database of the given
// backend: a file in a temporary directory, or on PostgreSQL a schema of
// its own, dropped when the test ends (close what opens it in a cleanup
// registered later). Tests that open a database themselves use it, to
// write data at an earlier migration for instance.
func Empty(t testing.TB, backend string) sqlstore.Options {
	t.Helper()
	switch backend {
	case "sqlite":
		return sqlstore.Options{SQLitePath: filepath.Join(t.TempDir(), "test.db")}
	case "postgres":
		base := os.Getenv("TEST_DATABASE_URL")
		if base == "" {
			t.Skip("TEST_DATABASE_URL not set")
		}
		ctx := context.Background()
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		schema := "t_" + hex.EncodeToString(b)
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			admin.Close()
			t.Fatalf("create schema: %v", err)
		}
		t.Cleanup(func() {
			_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			admin.Close()
		})
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return sqlstore.Options{DatabaseURL: u.String()}
	}
	t.Fatalf("unknown backend %q", backend)
	return sqlstore.Options{}
}
