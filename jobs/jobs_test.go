package jobs_test

import (
	"context"
	"sync"
	"testing"

	"fairbalance/jobs"
	"fairbalance/sqlstore"
)

// Several instances starting at once on one fresh PostgreSQL database
// apply River's migrations one after another (under the store's
// migration lock) and all start.
func TestInstancesStartingTogetherMigrateOnce(t *testing.T) {
	onPostgres(t, func(t *testing.T, a, b *sqlstore.DB) {
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make([]error, 4)
		versions := make([]int, 4)
		for i := range errs {
			db := a
			if i%2 == 1 {
				db = b
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				jq, err := db.JobQueue(ctx)
				if err != nil {
					errs[i] = err
					return
				}
				versions[i], errs[i] = jobs.Migrate(ctx, jobs.Config{Pool: jq.Pool, Postgres: true, Schema: jq.Schema, Migrate: db.WithMigrationLock})
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("instance %d: %v", i, err)
			}
			if versions[i] == 0 || versions[i] != versions[0] {
				t.Fatalf("River migration versions %v", versions)
			}
		}
		// And a queue on the migrated database starts.
		start(t, newQueue(t, a, jobs.Config{Mailer: newOutbox(a, newSender())}))
	})
}
