package sqlstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

func TestIdentityStore(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			level, err := db.MigrationLevel(ctx)
			if err != nil || level < 1 {
				t.Fatalf("migration level %d, %v", level, err)
			}
			now := time.Now().UTC().Truncate(time.Microsecond)
			u := &fairbalance.User{ID: "00000000-0000-4000-8000-000000000001", Aud: "authenticated", Role: "authenticated", Email: "a@example.com", CreatedAt: now, UpdatedAt: now}
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				if err := tx.CreateUser(ctx, u); err != nil {
					return err
				}
				return tx.CreateUser(ctx, &fairbalance.User{ID: "00000000-0000-4000-8000-000000000002", Email: "a@example.com", CreatedAt: now, UpdatedAt: now})
			})
			if !errors.Is(err, fairbalance.ErrConflict) {
				t.Fatalf("duplicate e-mail: got %v, want ErrConflict", err)
			}
			if _, err := db.View().UserByEmail(ctx, "a@example.com"); !errors.Is(err, fairbalance.ErrNotFound) {
				t.Fatalf("rolled-back user visible: %v", err)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.CreateUser(ctx, u) }); err != nil {
				t.Fatal(err)
			}
			got, err := db.View().UserByEmail(ctx, "A@example.com")
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != u.ID || !got.CreatedAt.Equal(now) || string(got.AppMetadata) != "{}" {
				t.Fatalf("read back %+v", got)
			}
			// The auth audit is append-only.
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				return tx.RecordAuthEvent(ctx, &fairbalance.AuthEvent{Action: "login", ActorID: u.ID, CreatedAt: now})
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := sqltest.Exec(ctx, db, "UPDATE auth_audit SET action = 'x'"); err == nil {
				t.Fatal("auth_audit row updated")
			}
			if err := sqltest.Exec(ctx, db, "DELETE FROM auth_audit"); err == nil {
				t.Fatal("auth_audit row deleted")
			}
		})
	}
}
