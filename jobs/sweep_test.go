package jobs_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"fairbalance/jobs"
	"fairbalance/sqlstore"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Every sweep task runs as a periodic job when the queue starts and again
// every period, and is handed the queue's clock, not the machine's.
func TestSweepsRunPeriodicallyWithTheQueueClock(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		day := time.Date(2027, 3, 14, 8, 0, 0, 0, time.UTC)
		clk := &clock{t: day}
		s := newSweeper()
		q := newQueue(t, db, jobs.Config{Sweeper: s, Now: clk.Now, SweepInterval: time.Second})
		start(t, q)
		for _, task := range jobs.Tasks {
			eventually(t, task+" runs on start", func() bool { return len(s.calledWith(task)) >= 1 })
			if got := s.calledWith(task)[0]; !got.Equal(day) {
				t.Fatalf("%s ran with now = %s, want the queue clock's %s", task, got, day)
			}
		}
		later := day.Add(24 * time.Hour)
		clk.Set(later)
		for _, task := range jobs.Tasks {
			eventually(t, task+" runs again a period later", func() bool {
				c := s.calledWith(task)
				return len(c) >= 2 && c[len(c)-1].Equal(later)
			})
		}
	})
}

// A sweep that fails is retried (the Sweeper is idempotent, so running it
// again is safe), and the job then completes.
func TestFailedSweepIsRetried(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		s := newSweeper()
		s.fail[jobs.TaskExpireApproved] = 1
		q := newQueue(t, db, jobs.Config{Sweeper: s, SweepInterval: time.Hour})
		start(t, q)
		eventually(t, "the failed expiry sweep runs again", func() bool { return len(s.calledWith(jobs.TaskExpireApproved)) >= 2 })
		eventually(t, "its job completes after one error", func() bool {
			for _, j := range jobsOf(t, q, "sweep") {
				var a jobs.SweepArgs
				_ = json.Unmarshal(j.EncodedArgs, &a)
				if a.Task == jobs.TaskExpireApproved {
					return j.State == rivertype.JobStateCompleted && len(j.Errors) == 1
				}
			}
			return false
		})
		if n := len(s.calledWith(jobs.TaskExpireApproved)); n != 2 {
			t.Fatalf("expiry sweep ran %d times, want 2 (one failure, one retry)", n)
		}
	})
}

// A sweep inserted while no instance works jobs (the server stopped) is
// run by the next instance that starts.
func TestSweepJobSurvivesRestart(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		ctx := context.Background()
		s := newSweeper()
		down := newQueue(t, db, jobs.Config{Sweeper: s, SweepInterval: time.Hour, ID: "down"})
		if _, err := down.Client().Insert(ctx, jobs.SweepArgs{Task: jobs.TaskRemindDue}, nil); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if n := len(s.calledWith(jobs.TaskRemindDue)); n != 0 {
			t.Fatalf("a queue never started ran the sweep %d times", n)
		}
		// The next instance has no periodic jobs of its own to run on
		// start: only the job in the database can call the sweeper.
		next := newSweeper()
		up := newQueue(t, db, jobs.Config{Sweeper: next, SweepInterval: time.Hour, ID: "up"})
		up.Client().PeriodicJobs().Clear()
		start(t, up)
		eventually(t, "the waiting sweep runs", func() bool { return len(next.calledWith(jobs.TaskRemindDue)) >= 1 })
		time.Sleep(200 * time.Millisecond)
		if n := len(next.calledWith(jobs.TaskRemindDue)); n != 1 {
			t.Fatalf("the waiting sweep ran %d times", n)
		}
	})
}

// Two instances on one PostgreSQL run each sweep once per period: only
// the elected leader inserts periodic jobs, and a second insert of the
// same task in the same period (a new leader, a restart) is skipped.
func TestSweepsRunOncePerPeriodAcrossInstances(t *testing.T) {
	onPostgres(t, func(t *testing.T, a, b *sqlstore.DB) {
		ctx := context.Background()
		sa, sb := newSweeper(), newSweeper()
		qa := newQueue(t, a, jobs.Config{Sweeper: sa, SweepInterval: time.Hour, ID: "instance-a"})
		qb := newQueue(t, b, jobs.Config{Sweeper: sb, SweepInterval: time.Hour, ID: "instance-b"})
		start(t, qa)
		start(t, qb)
		for _, task := range jobs.Tasks {
			eventually(t, task+" runs", func() bool { return len(sa.calledWith(task))+len(sb.calledWith(task)) >= 1 })
		}
		// Both instances insert every task again within the period, as
		// RunOnStart does for a new leader.
		for _, q := range []*jobs.Queue{qa, qb} {
			for _, task := range jobs.Tasks {
				res, err := q.Client().Insert(ctx, jobs.SweepArgs{Task: task}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByPeriod: time.Hour}})
				if err != nil {
					t.Fatal(err)
				}
				if !res.UniqueSkippedAsDuplicate {
					t.Fatalf("a second %s sweep in the period was inserted", task)
				}
			}
		}
		time.Sleep(500 * time.Millisecond)
		for _, task := range jobs.Tasks {
			if n := len(sa.calledWith(task)) + len(sb.calledWith(task)); n != 1 {
				t.Fatalf("%s ran %d times in one period on two instances (a %d, b %d)", task, n, len(sa.calledWith(task)), len(sb.calledWith(task)))
			}
		}
		if n := len(jobsOf(t, qa, "sweep")); n != len(jobs.Tasks) {
			t.Fatalf("%d sweep jobs, want one per task", n)
		}
	})
}
