package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

// Concurrent transactions, some of which fail half-way, each keep their own
// all-or-nothing outcome (on SQLite they are committed in groups).
func TestConcurrentTransactionsKeepTheirOutcome(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			now := time.Now().UTC()
			errBoom := errors.New("boom")
			const n = 48
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = db.Tx(ctx, func(tx fairbalance.Tx) error {
						u := &fairbalance.User{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Email: fmt.Sprintf("u%d@example.com", i), CreatedAt: now, UpdatedAt: now}
						if err := tx.CreateUser(ctx, u); err != nil {
							return err
						}
						if i%3 == 0 {
							return errBoom // after a write: it must be undone
						}
						return tx.RecordAuthEvent(ctx, &fairbalance.AuthEvent{Action: "test", ActorID: u.ID, CreatedAt: now})
					})
				}()
			}
			wg.Wait()
			for i, err := range errs {
				_, uerr := db.View().UserByEmail(ctx, fmt.Sprintf("u%d@example.com", i))
				if i%3 == 0 {
					if !errors.Is(err, errBoom) || !errors.Is(uerr, fairbalance.ErrNotFound) {
						t.Fatalf("tx %d: err %v, user lookup %v; want boom and no user", i, err, uerr)
					}
				} else if err != nil || uerr != nil {
					t.Fatalf("tx %d: err %v, user lookup %v", i, err, uerr)
				}
			}
			count, err := db.View().CountUsers(ctx)
			if err != nil || count != n-n/3 {
				t.Fatalf("%d users, %v; want %d", count, err, n-n/3)
			}

			// A constraint violation fails only its own transaction.
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				return tx.CreateUser(ctx, &fairbalance.User{ID: "00000000-0000-4000-8000-999999999999", Email: "u1@example.com", CreatedAt: now, UpdatedAt: now})
			})
			if !errors.Is(err, fairbalance.ErrConflict) {
				t.Fatalf("duplicate e-mail: %v", err)
			}

			// A panic reaches the caller, and the store keeps working.
			func() {
				defer func() {
					if recover() == nil {
						t.Fatal("panic in a transaction was swallowed")
					}
				}()
				_ = db.Tx(ctx, func(tx fairbalance.Tx) error { panic("in tx") })
			}()
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return nil }); err != nil {
				t.Fatalf("after a panic: %v", err)
			}

			// A cancelled caller's transaction does not run.
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			ran := false
			err = db.Tx(cctx, func(tx fairbalance.Tx) error { ran = true; return nil })
			if err == nil || ran {
				t.Fatalf("cancelled tx: err %v, ran %v", err, ran)
			}
		})
	}
}
