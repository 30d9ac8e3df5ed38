package jobs_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/jobs"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/storetest"
)

// What the delivery job adds to a transaction that puts one message in
// the outbox: "outbox" is the row alone (as before the job queue),
// "outbox+job" the row and its River job.
func BenchmarkEnqueueMail(b *testing.B) {
	for _, backend := range storetest.Backends() {
		for _, withJob := range []bool{false, true} {
			name := backend + "/outbox"
			if withJob {
				name += "+job"
			}
			b.Run(name, func(b *testing.B) {
				db := storetest.Open(b, backend)
				if withJob {
					q := newBenchQueue(b, db, jobs.Config{Mailer: newOutbox(db, newSender())})
					db.OnMailEnqueued(q.EnqueueMailTx)
				}
				ctx := context.Background()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					m := message(fmt.Sprintf("bench-%d@example.test", i))
					if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.EnqueueMail(ctx, m) }); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// The time from the start of the transaction that puts a message in the
// outbox to its delivery by a started queue, one message at a time, with
// River's default poll interval (a second): SQLite (River's SQLite
// listener polls its notification table every 50 ms), PostgreSQL with the
// LISTEN connection, and PostgreSQL polling only.
func BenchmarkDeliveryLatency(b *testing.B) {
	type variant struct {
		backend string
		listen  bool
	}
	vs := []variant{{"sqlite", false}}
	if len(storetest.Backends()) > 1 {
		vs = append(vs, variant{"postgres", true}, variant{"postgres", false})
	}
	for _, v := range vs {
		name := v.backend
		if v.backend == "postgres" {
			name += map[bool]string{true: "/listen", false: "/poll"}[v.listen]
		}
		b.Run(name, func(b *testing.B) {
			db := storetest.Open(b, v.backend)
			sender := newSender()
			c := jobs.Config{Mailer: newOutbox(db, sender), FetchPollInterval: time.Second}
			if v.backend == "postgres" && !v.listen {
				c.ListenURL = "-" // newBenchQueue: no listener
			}
			q := newBenchQueue(b, db, c)
			db.OnMailEnqueued(q.EnqueueMailTx)
			if err := q.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = q.Stop(context.Background()) })
			ctx := context.Background()
			time.Sleep(500 * time.Millisecond) // the first sweeps and the election
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// River sends at most one insert notification per queue
				// and FetchCooldown (100 ms); a message within that time
				// of the previous one waits for the next poll.
				b.StopTimer()
				time.Sleep(150 * time.Millisecond)
				b.StartTimer()
				m := message(fmt.Sprintf("latency-%d@example.test", i))
				if err := db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.EnqueueMail(ctx, m) }); err != nil {
					b.Fatal(err)
				}
				for sender.count(m.ID) == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
}

// newBenchQueue is newQueue for benchmarks; ListenURL "-" means none.
func newBenchQueue(b *testing.B, db *sqlstore.DB, c jobs.Config) *jobs.Queue {
	b.Helper()
	ctx := context.Background()
	jq, err := db.JobQueue(ctx)
	if err != nil {
		b.Fatal(err)
	}
	c.Pool, c.Postgres, c.Schema, c.Migrate = jq.Pool, jq.Postgres, jq.Schema, db.WithMigrationLock
	switch {
	case c.ListenURL == "-":
		c.ListenURL = ""
	case c.Postgres:
		c.ListenURL = testDatabaseURL()
	}
	q, err := jobs.New(ctx, c)
	if err != nil {
		b.Fatal(err)
	}
	return q
}
