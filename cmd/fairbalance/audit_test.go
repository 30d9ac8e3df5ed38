package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
)

// auditStore gives the flags that select a fresh database of the backend,
// and a function that opens it directly.
func auditStore(t *testing.T, backend string) (flags []string, open func() *sqlstore.DB) {
	t.Helper()
	ctx := context.Background()
	var o sqlstore.Options
	switch backend {
	case "sqlite":
		dir := t.TempDir()
		flags = []string{"--data-dir", dir}
		o.SQLitePath = filepath.Join(dir, "fairbalance.db")
	case "postgres":
		// A schema of its own, as storetest does, named on the URL.
		base := os.Getenv("TEST_DATABASE_URL")
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		schema := "t_" + hex.EncodeToString(b)
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			admin.Close()
			t.Fatal(err)
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
		o.DatabaseURL = u.String()
		flags = []string{"--database-url", o.DatabaseURL}
	}
	return flags, func() *sqlstore.DB {
		db, err := sqlstore.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
}

func TestAuditVerifyCommand(t *testing.T) {
	backends := []string{"sqlite"}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		backends = append(backends, "postgres")
	}
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			flags, open := auditStore(t, backend)
			verify := func(extra ...string) (string, error) {
				var out bytes.Buffer
				err := run(ctx, append(append([]string{"audit", "verify"}, flags...), extra...), nil, &out, io.Discard)
				return out.String(), err
			}

			out, err := verify()
			if err != nil || out != "no audit entries\n" {
				t.Fatalf("empty database: %q, %v", out, err)
			}

			db := open()
			err = db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
				for _, c := range []struct {
					org string
					n   int
				}{{"org-a", 5}, {"org-b", 3}, {"", 2}} {
					for i := 0; i < c.n; i++ {
						if err := tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: c.org, ActorID: "u1", Action: "asset.update", ObjectType: "asset", ObjectID: "a1"}); err != nil {
							return err
						}
					}
				}
				return nil
			})
			db.Close()
			if err != nil {
				t.Fatal(err)
			}

			out, err = verify()
			want := "org (instance): 2 entries, ok\norg org-a: 5 entries, ok\norg org-b: 3 entries, ok\n"
			if err != nil || out != want {
				t.Fatalf("verify: %v\n%s", err, out)
			}
			if out, err = verify("--org", "org-b"); err != nil || out != "org org-b: 3 entries, ok\n" {
				t.Fatalf("verify --org org-b: %v\n%s", err, out)
			}
			if out, err = verify("--org", ""); err != nil || out != "org (instance): 2 entries, ok\n" {
				t.Fatalf(`verify --org "": %v`+"\n%s", err, out)
			}
			if out, err = verify("--org", "org-none"); err != nil || out != "org org-none: 0 entries, ok\n" {
				t.Fatalf("verify --org org-none: %v\n%s", err, out)
			}

			// A direct edit of entry 3 of org-a, around the trigger.
			db = open()
			stmts := []string{"DROP TRIGGER audit_log_no_update", "UPDATE audit_log SET object_id = 'a2' WHERE org_id = 'org-a' AND seq = 3"}
			if backend == "postgres" {
				stmts = []string{"ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change", stmts[1], "ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change"}
			}
			for _, s := range stmts {
				if err := sqltest.Exec(ctx, db, s); err != nil {
					db.Close()
					t.Fatalf("%s: %v", s, err)
				}
			}
			db.Close()

			out, err = verify()
			want = "org (instance): 2 entries, ok\norg org-a: BROKEN at entry 3: hash mismatch: the entry's contents do not match its hash\norg org-b: 3 entries, ok\n"
			if err == nil || out != want {
				t.Fatalf("after tampering: %v\n%s", err, out)
			}
			if out, err = verify("--org", "org-a"); err == nil || !strings.HasPrefix(out, "org org-a: BROKEN at entry 3: ") {
				t.Fatalf("verify --org org-a after tampering: %v\n%s", err, out)
			}
		})
	}
}

func TestAuditCommandUsage(t *testing.T) {
	for _, args := range [][]string{{"audit"}, {"audit", "check"}, {"audit", "verify", "extra"}} {
		if err := run(context.Background(), args, nil, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "usage:") {
			t.Errorf("%q: %v", args, err)
		}
	}
}
