package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/jobs"
	"fairbalance/mail"
	"fairbalance/sqlstore"

	"github.com/riverqueue/river/rivertype"
)

// A message put in the outbox gets its delivery job in the same
// transaction: both or neither are committed. The job then delivers it
// and the outbox row, which Diagnostics shows, records the outcome.
func TestMailJobCommittedWithItsMessage(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		ctx := context.Background()
		sender := newSender()
		q := newQueue(t, db, jobs.Config{Mailer: newOutbox(db, sender)})
		db.OnMailEnqueued(q.EnqueueMailTx)

		// A transaction that fails after enqueueing leaves neither.
		boom := errors.New("the change the e-mail reports failed")
		err := db.Tx(ctx, func(tx fairbalance.Tx) error {
			if err := tx.EnqueueMail(ctx, message("rolled-back@example.test")); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Tx = %v, want %v", err, boom)
		}
		if got := jobsOf(t, q, "mail"); len(got) != 0 {
			t.Fatalf("a rolled-back message left %d delivery jobs", len(got))
		}
		if recent, _ := db.RecentMail(ctx, "rolled-back@example.test", 5); len(recent) != 0 {
			t.Fatalf("a rolled-back message is in the outbox: %+v", recent[0])
		}

		// A committed one has its job, waiting for a worker.
		m := enqueue(t, db, message("reviewer@example.test"))
		list := jobsOf(t, q, "mail")
		var args jobs.MailArgs
		if len(list) == 1 {
			_ = json.Unmarshal(list[0].EncodedArgs, &args)
		}
		if len(list) != 1 || list[0].State != rivertype.JobStateAvailable || args.ID != m.ID {
			t.Fatalf("jobs after enqueue = %d, want one available job for message %d", len(list), m.ID)
		}

		start(t, q)
		eventually(t, "the message is delivered", func() bool { return mailByID(t, db, m.ID).Status == mail.StatusSent })
		got := mailByID(t, db, m.ID)
		if got.SentAt == nil || got.Attempts != 0 || got.LastError != "" || sender.count(m.ID) != 1 {
			t.Fatalf("delivered message = %+v, sent %d times", got, sender.count(m.ID))
		}
		eventually(t, "the job completes", func() bool {
			l := jobsOf(t, q, "mail")
			return len(l) == 1 && l[0].State == rivertype.JobStateCompleted
		})
	})
}

// A message the server refuses stays pending with its attempt counted,
// and its job waits (snoozed, not failed) for the outbox's next attempt;
// worked early, it sends nothing before that time.
func TestMailJobWaitsForTheOutboxRetry(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		ctx := context.Background()
		sender := newSender()
		sender.refuse = 1
		q := newQueue(t, db, jobs.Config{Mailer: newOutbox(db, sender)})
		db.OnMailEnqueued(q.EnqueueMailTx)
		start(t, q)
		before := time.Now()
		m := enqueue(t, db, message("smtp-down@example.test"))

		eventually(t, "the refusal is recorded", func() bool { return mailByID(t, db, m.ID).Attempts == 1 })
		got := mailByID(t, db, m.ID)
		if got.Status != mail.StatusPending || !strings.Contains(got.LastError, "451") {
			t.Fatalf("refused message = %+v, want pending with the server's answer", got)
		}
		if d := got.NextAttemptAt.Sub(before); d < mail.RetryDelay(1)-time.Second || d > mail.RetryDelay(1)+5*time.Second {
			t.Fatalf("next attempt in %s, want about %s", d, mail.RetryDelay(1))
		}
		var job *rivertype.JobRow
		eventually(t, "the job is snoozed until the next attempt", func() bool {
			l := jobsOf(t, q, "mail")
			if len(l) == 1 && l[0].State == rivertype.JobStateScheduled {
				job = l[0]
				return true
			}
			return false
		})
		if d := job.ScheduledAt.Sub(got.NextAttemptAt); d < -2*time.Second || d > 2*time.Second {
			t.Fatalf("job scheduled at %s, the outbox's next attempt is %s", job.ScheduledAt, got.NextAttemptAt)
		}
		if job.Attempt != 0 || len(job.Errors) != 0 {
			t.Fatalf("a snooze counted as a failed attempt: attempt %d, errors %v", job.Attempt, job.Errors)
		}

		// An operator retries the job at once: the outbox says not yet.
		if _, err := q.Client().JobRetry(ctx, job.ID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the early job is snoozed again", func() bool {
			l := jobsOf(t, q, "mail")
			return len(l) == 1 && l[0].State == rivertype.JobStateScheduled && l[0].ID == job.ID && l[0].AttemptedAt.After(*job.AttemptedAt)
		})
		if got := mailByID(t, db, m.ID); got.Attempts != 1 || sender.total() != 0 {
			t.Fatalf("worked early: attempts %d, sent %d; want no attempt before the due time", got.Attempts, sender.total())
		}
	})
}

// Messages that have no job (written before the job queue existed, or
// whose job was lost) are found by the outbox sweep and delivered once,
// even if the sweep runs again.
func TestMailSweepQueuesMessagesWithoutJob(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		var ids []int64
		for i := range 3 {
			ids = append(ids, enqueue(t, db, message(fmt.Sprintf("legacy-%d@example.test", i))).ID) // no hook yet
		}
		sender := newSender()
		q := newQueue(t, db, jobs.Config{Mailer: newOutbox(db, sender), MailSweepInterval: time.Second})
		if n := len(jobsOf(t, q, "mail")); n != 0 {
			t.Fatalf("%d mail jobs before the sweep", n)
		}
		start(t, q)
		for _, id := range ids {
			eventually(t, "a message without job is delivered", func() bool { return mailByID(t, db, id).Status == mail.StatusSent })
		}
		eventually(t, "the sweep ran at least twice", func() bool { return len(jobsOf(t, q, "mail_sweep")) >= 2 })
		for _, id := range ids {
			if n := sender.count(id); n != 1 {
				t.Fatalf("message %d sent %d times", id, n)
			}
		}
		if n := len(jobsOf(t, q, "mail")); n != len(ids) {
			t.Fatalf("%d mail jobs for %d messages", n, len(ids))
		}
	})
}

// Two instances on one PostgreSQL deliver every message exactly once.
func TestMailDeliveredOnceByTwoInstances(t *testing.T) {
	onPostgres(t, func(t *testing.T, a, b *sqlstore.DB) {
		sa, sb := newSender(), newSender()
		qa := newQueue(t, a, jobs.Config{Mailer: newOutbox(a, sa), ID: "instance-a"})
		qb := newQueue(t, b, jobs.Config{Mailer: newOutbox(b, sb), ID: "instance-b"})
		a.OnMailEnqueued(qa.EnqueueMailTx)
		b.OnMailEnqueued(qb.EnqueueMailTx)
		start(t, qa)
		start(t, qb)
		const n = 60
		var ids []int64
		for i := range n {
			db := a
			if i%2 == 1 {
				db = b
			}
			ids = append(ids, enqueue(t, db, message(fmt.Sprintf("member-%d@example.test", i))).ID)
		}
		eventually(t, "every message is delivered", func() bool { return sa.total()+sb.total() >= n })
		time.Sleep(300 * time.Millisecond) // time for a double delivery to show
		for _, id := range ids {
			if c := sa.count(id) + sb.count(id); c != 1 {
				t.Fatalf("message %d sent %d times (a %d, b %d)", id, c, sa.count(id), sb.count(id))
			}
			if m := mailByID(t, a, id); m.Status != mail.StatusSent {
				t.Fatalf("message %d is %s", id, m.Status)
			}
		}
		t.Logf("instance a sent %d, instance b %d", sa.total(), sb.total())
	})
}

// A job survives a restart: put in the outbox while no instance works
// jobs, it is delivered by the next one; and a delivery interrupted by a
// shutdown is made again, once, by the next instance.
func TestMailJobSurvivesRestart(t *testing.T) {
	forEachStore(t, func(t *testing.T, backend string, db *sqlstore.DB) {
		ctx := context.Background()
		blocked := newSender()
		blocked.block = true
		first := newQueue(t, db, jobs.Config{Mailer: newOutbox(db, blocked), ID: "first"})
		db.OnMailEnqueued(first.EnqueueMailTx)
		if err := first.Start(ctx); err != nil {
			t.Fatal(err)
		}
		interrupted := enqueue(t, db, message("interrupted@example.test"))
		select {
		case id := <-blocked.started:
			if id != interrupted.ID {
				t.Fatalf("sending %d, want %d", id, interrupted.ID)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the delivery did not start")
		}
		sctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		err := first.Stop(sctx) // the send is stuck: cancelled after the grace time
		cancel()
		if err != nil {
			t.Fatalf("Stop: %v", err)
		}
		// Stopped: the hook still inserts jobs, nobody works them.
		waiting := enqueue(t, db, message("while-down@example.test"))
		if got := mailByID(t, db, interrupted.ID); got.Status != mail.StatusPending || got.Attempts != 0 {
			t.Fatalf("interrupted message = %+v, want pending with no attempt counted", got)
		}

		sender := newSender()
		second := newQueue(t, db, jobs.Config{Mailer: newOutbox(db, sender), ID: "second"})
		start(t, second)
		for _, m := range []*fairbalance.MailMessage{interrupted, waiting} {
			eventually(t, "delivered after the restart", func() bool { return mailByID(t, db, m.ID).Status == mail.StatusSent })
			if c := sender.count(m.ID); c != 1 {
				t.Fatalf("message %d sent %d times after the restart", m.ID, c)
			}
		}
	})
}
