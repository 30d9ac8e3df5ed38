package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

// Two transactions that update the same two rows in opposite orders
// deadlock on PostgreSQL; the database aborts one of them, and Tx runs it
// again, so both callers succeed. (SQLite has one writer and cannot
// deadlock; the test runs there too and must simply pass.)
func TestDeadlockedTransactionRunsAgain(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			now := time.Now().UTC()
			users := make([]*fairbalance.User, 2)
			if err := db.Tx(ctx, func(tx fairbalance.Tx) error {
				for i := range users {
					users[i] = &fairbalance.User{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1), Email: fmt.Sprintf("d%d@example.com", i), CreatedAt: now, UpdatedAt: now}
					if err := tx.CreateUser(ctx, users[i]); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			// Both first runs hold their first row before either takes its
			// second; later runs do not wait.
			var firstRows sync.WaitGroup
			firstRows.Add(2)
			var runs atomic.Int32
			update := func(first, second int) error {
				attempt := 0
				return db.Tx(ctx, func(tx fairbalance.Tx) error {
					attempt++
					runs.Add(1)
					for k, i := range []int{first, second} {
						u := *users[i]
						u.UpdatedAt = time.Now().UTC()
						u.Phone = fmt.Sprintf("+1555000%d%d", first, attempt)
						if err := tx.UpdateUser(ctx, &u); err != nil {
							return err
						}
						if k == 0 && attempt == 1 && backend == "postgres" {
							firstRows.Done()
							firstRows.Wait()
						}
					}
					return nil
				})
			}
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for g, order := range [][2]int{{0, 1}, {1, 0}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[g] = update(order[0], order[1])
				}()
			}
			wg.Wait()
			for g, err := range errs {
				if err != nil {
					t.Fatalf("transaction %d: %v", g, err)
				}
			}
			if backend == "postgres" && runs.Load() < 3 {
				t.Fatalf("%d runs; want a deadlock and a second run", runs.Load())
			}
		})
	}
}
