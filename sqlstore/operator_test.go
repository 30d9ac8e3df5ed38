package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// seedAccount creates an account with a member profile, created at.
func seedAccount(t *testing.T, db *sqlstore.DB, n int, email, orgID, role string, at time.Time, deactivated bool) string {
	t.Helper()
	ctx := context.Background()
	id := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
	err := db.Tx(ctx, func(tx fairbalance.Tx) error {
		if err := tx.CreateUser(ctx, &fairbalance.User{ID: id, Email: email, CreatedAt: at, UpdatedAt: at}); err != nil {
			return err
		}
		p := &fairbalance.Profile{ID: id, OrgID: orgID, Role: role, CreatedAt: at, UpdatedAt: at}
		if deactivated {
			p.DeactivatedAt = &at
		}
		return tx.CreateProfile(ctx, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func operatorIDs(t *testing.T, db *sqlstore.DB) []string {
	t.Helper()
	ops, err := db.View().ListOperators(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range ops {
		ids = append(ids, o.UserID)
	}
	return ids
}

// Migration 0010 makes the earliest active owner or admin outside the demo
// organisation the operator of an upgraded instance, and nobody else.
func TestMigrationMarksEarliestAdminOperator(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			rerun := func() {
				t.Helper()
				if err := sqltest.Exec(ctx, db, "DROP TABLE instance_operators"); err != nil {
					t.Fatal(err)
				}
				if err := db.RunMigrationForTest(ctx, 10); err != nil {
					t.Fatal(err)
				}
			}
			// An instance without an administrator gets no operator.
			t0 := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
			seedAccount(t, db, 1, "early-viewer@example.com", "", fairbalance.RoleViewer, t0, false)
			rerun()
			if ids := operatorIDs(t, db); len(ids) != 0 {
				t.Fatalf("operators without an admin: %v", ids)
			}

			now := t0
			err := db.Tx(ctx, func(tx fairbalance.Tx) error {
				for _, id := range []string{"org-a", "org-b", fairbalance.DemoOrgID} {
					if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: id, Name: id, CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// Earlier than the first real admin: a demo admin (by its
			// organisation), a demo address, and a deactivated admin.
			seedAccount(t, db, 2, "admin@"+fairbalance.DemoEmailDomain, fairbalance.DemoOrgID, fairbalance.RoleAdmin, t0.Add(time.Minute), false)
			seedAccount(t, db, 3, "owner@"+fairbalance.DemoEmailDomain, "", fairbalance.RoleOwner, t0.Add(2*time.Minute), false)
			seedAccount(t, db, 4, "gone@example.com", "org-a", fairbalance.RoleAdmin, t0.Add(3*time.Minute), true)
			first := seedAccount(t, db, 5, "first@example.com", "org-a", fairbalance.RoleAdmin, t0.Add(4*time.Minute), false)
			seedAccount(t, db, 6, "owner-b@example.com", "org-b", fairbalance.RoleOwner, t0.Add(5*time.Minute), false)
			seedAccount(t, db, 7, "admin-b@example.com", "org-b", fairbalance.RoleAdmin, t0.Add(6*time.Minute), false)
			rerun()
			ops, err := db.View().ListOperators(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(ops) != 1 || ops[0].UserID != first || ops[0].GrantedBy != "migration" || ops[0].Email != "first@example.com" {
				t.Fatalf("operators after the migration: %+v", ops)
			}
			if ok, err := db.View().IsOperator(ctx, first); err != nil || !ok {
				t.Fatalf("IsOperator(first) = %v, %v", ok, err)
			}
		})
	}
}

func TestOperatorStore(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Microsecond)
			a := seedAccount(t, db, 1, "a@example.com", "", fairbalance.RoleAdmin, now, false)
			b := seedAccount(t, db, 2, "b@example.com", "", fairbalance.RoleViewer, now, false)
			// A fresh instance has no operator (the migration found no admin).
			if n, err := db.View().CountOperators(ctx); err != nil || n != 0 {
				t.Fatalf("count %d %v", n, err)
			}
			add := func(id string) bool {
				t.Helper()
				var added bool
				if err := db.Tx(ctx, func(tx fairbalance.Tx) error {
					var err error
					added, err = tx.AddOperator(ctx, &fairbalance.Operator{UserID: id, GrantedBy: "cli", CreatedAt: now})
					return err
				}); err != nil {
					t.Fatal(err)
				}
				return added
			}
			if !add(a) || add(a) || !add(b) {
				t.Fatal("AddOperator reports wrongly whether it added")
			}
			if ids := operatorIDs(t, db); len(ids) != 2 || ids[0] != a || ids[1] != b {
				t.Fatalf("list %v", ids)
			}
			if ok, _ := db.View().IsOperator(ctx, "00000000-0000-4000-8000-000000000099"); ok {
				t.Fatal("an unknown account is an operator")
			}
			// Removing: once, then not found.
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.RemoveOperator(ctx, b) }); err != nil {
				t.Fatal(err)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.RemoveOperator(ctx, b) }); !errors.Is(err, fairbalance.ErrNotFound) {
				t.Fatalf("second removal: %v", err)
			}
			if ok, _ := db.View().IsOperator(ctx, b); ok {
				t.Fatal("removed mark still there")
			}
			// A soft-deleted account is not counted; a deleted one takes its mark along.
			if err := sqltest.Exec(ctx, db, "UPDATE users SET deleted_at = created_at WHERE email = 'a@example.com'"); err != nil {
				t.Fatal(err)
			}
			if n, _ := db.View().CountOperators(ctx); n != 0 {
				t.Fatalf("count with the operator soft-deleted: %d", n)
			}
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.DeleteUser(ctx, a) }); err != nil {
				t.Fatal(err)
			}
			if ids := operatorIDs(t, db); len(ids) != 0 {
				t.Fatalf("a deleted account's mark stayed: %v", ids)
			}
		})
	}
}
