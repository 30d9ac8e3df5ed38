package jobs_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"fairbalance"
	"fairbalance/jobs"
	"fairbalance/sqlstore"
)

// checks records what the queue asks of the compliance checker.
type checks struct {
	mu       sync.Mutex
	versions []string
	sweeps   int
}

func (c *checks) CheckVersion(_ context.Context, id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.versions = append(c.versions, id)
	return nil
}

func (c *checks) CheckPending(context.Context, int) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweeps++
	return 0, nil
}

func (c *checks) seen() ([]string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.versions), c.sweeps
}

// A version's check is enqueued in the version's transaction: committed,
// the worker checks it once; rolled back, never. The sweep runs at start.
func TestComplianceCheckJobs(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		ctx := context.Background()
		c := &checks{}
		q := newQueue(t, db, jobs.Config{Checker: c})
		db.OnComplianceCheckEnqueued(q.EnqueueComplianceTx)
		t.Cleanup(func() { db.OnComplianceCheckEnqueued(nil) })
		start(t, q)
		if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.EnqueueComplianceCheck(ctx, "version-1") }); err != nil {
			t.Fatal(err)
		}
		refused := errors.New("the upload failed")
		if err := db.Tx(ctx, func(tx fairbalance.Tx) error {
			if err := tx.EnqueueComplianceCheck(ctx, "version-2"); err != nil {
				return err
			}
			return refused
		}); !errors.Is(err, refused) {
			t.Fatal(err)
		}
		eventually(t, "the check of version-1 and a sweep", func() bool {
			v, sweeps := c.seen()
			return len(v) == 1 && sweeps >= 1
		})
		if v, _ := c.seen(); v[0] != "version-1" {
			t.Errorf("checked %v", v)
		}
	})
}
