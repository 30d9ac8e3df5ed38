package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"fairbalance"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Mailer delivers the messages of the outbox; *mail.Outbox is one.
type Mailer interface {
	// DeliverMessage makes one attempt at message id if it is pending and
	// due, records the outcome in the outbox, and returns the time of the
	// message's next attempt, or the zero time when nothing more is to be
	// done. Its error is about the store, never about a refused message.
	DeliverMessage(ctx context.Context, id int64) (next time.Time, err error)
	// DueMessages lists up to limit pending messages due at now.
	DueMessages(ctx context.Context, now time.Time, limit int) ([]int64, error)
}

// MailArgs is the job that delivers one message of the outbox. The outbox
// row stays the record of the message (Diagnostics shows it); the job only
// says that it is to be worked, and when.
type MailArgs struct {
	// ID is the message's id in the outbox.
	ID int64 `json:"id"`
}

// Kind implements river.JobArgs.
func (MailArgs) Kind() string { return "mail" }

// mailUnique keeps one live job per message: the outbox sweep and the
// insert at enqueue time never make two, so two instances never work one
// message at the same time. A completed job does not count: if its
// message is pending again, it needs a new one.
var mailUnique = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
	rivertype.JobStateRunning, rivertype.JobStateScheduled,
}}

// EnqueueMailTx inserts the delivery job of message m in tx, the
// transaction that has just written m to the outbox, so that the message
// and its job are committed together or not at all. It has the shape of
// sqlstore's MailHook. Messages not pending get no job.
func (q *Queue) EnqueueMailTx(ctx context.Context, tx *sql.Tx, m *fairbalance.MailMessage) error {
	if m.Status != "pending" {
		return nil
	}
	opts := &river.InsertOpts{UniqueOpts: mailUnique}
	if m.NextAttemptAt.After(q.now()) {
		opts.ScheduledAt = m.NextAttemptAt
	}
	if _, err := q.client.InsertTx(ctx, tx, MailArgs{ID: m.ID}, opts); err != nil {
		return fmt.Errorf("jobs: enqueue mail %d: %w", m.ID, err)
	}
	return nil
}

type mailWorker struct {
	river.WorkerDefaults[MailArgs]
	q *Queue
}

// Work makes one attempt and, while the message is still pending (refused,
// or not due yet), snoozes the job until the outbox's next attempt: the
// outbox row counts the attempts and decides when the message has failed,
// so a snooze, which River does not count as an attempt, fits. An error
// (the store failed) is retried by River.
func (w *mailWorker) Work(ctx context.Context, job *river.Job[MailArgs]) error {
	next, err := w.q.cfg.Mailer.DeliverMessage(ctx, job.Args.ID)
	if err != nil {
		return err
	}
	if next.IsZero() {
		return nil
	}
	return river.JobSnooze(max(0, next.Sub(w.q.now())))
}

// MailSweepArgs is the periodic job that gives every due message of the
// outbox a delivery job if it has none: messages written before the job
// queue existed, and any whose job was lost (discarded after River's
// attempts while the database was down, deleted by an operator).
type MailSweepArgs struct{}

// Kind implements river.JobArgs.
func (MailSweepArgs) Kind() string { return "mail_sweep" }

// mailSweepBatch is how many due messages one sweep takes.
const mailSweepBatch = 500

type mailSweepWorker struct {
	river.WorkerDefaults[MailSweepArgs]
	q *Queue
}

func (w *mailSweepWorker) Work(ctx context.Context, _ *river.Job[MailSweepArgs]) error {
	ids, err := w.q.cfg.Mailer.DueMessages(ctx, w.q.now(), mailSweepBatch)
	if err != nil || len(ids) == 0 {
		return err
	}
	params := make([]river.InsertManyParams, len(ids))
	for i, id := range ids {
		params[i] = river.InsertManyParams{Args: MailArgs{ID: id}, InsertOpts: &river.InsertOpts{UniqueOpts: mailUnique}}
	}
	res, err := w.q.client.InsertMany(ctx, params)
	if err != nil {
		return fmt.Errorf("jobs: mail sweep: %w", err)
	}
	added := 0
	for _, r := range res {
		if !r.UniqueSkippedAsDuplicate {
			added++
		}
	}
	if added > 0 {
		w.q.log.InfoContext(ctx, "jobs: due e-mails without a delivery job were queued", "count", added)
	}
	return nil
}
