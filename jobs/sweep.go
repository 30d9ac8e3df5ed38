package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
)

// Sweeper is the review workflow's time-driven work, run periodically by
// the queue (every Config.SweepInterval, on the elected instance). Each
// method handles everything that is due at now, a UTC time read from the
// queue's clock (tests set it), and returns how many items it acted on.
//
// Contract, because a job can run more than once (a retry after an error,
// a job rescued from an instance that died, a second instance): every
// method is idempotent per item and calendar day. A second call with any
// now of the same day notifies nobody again and changes nothing more,
// because the sweeper records what it did under a key unique in its own
// tables, (step, day) or (asset, day), in the same transaction as the
// change or notification it records; two calls may even overlap. Each
// item is best handled in a transaction of its own, so that one bad item
// does not hold back the others; an error makes River retry the whole
// call later. E-mails are written to the outbox with EnqueueMail in those
// transactions: their delivery jobs are inserted with them.
type Sweeper interface {
	// RemindDue notifies those who can decide each active step that is due
	// within the next day ("due tomorrow"), once per (step, day).
	RemindDue(ctx context.Context, now time.Time) (int, error)
	// MarkOverdue marks each active step whose due time has passed as
	// overdue and notifies about it, once per step.
	MarkOverdue(ctx context.Context, now time.Time) (int, error)
	// NotifyExpiring notifies about each approved asset whose expiry is
	// at most 30 days away ("expiry in 30 days"), once per (asset, expiry
	// date).
	NotifyExpiring(ctx context.Context, now time.Time) (int, error)
	// ExpireApproved moves each approved asset whose expiry has come to
	// expired, with its audit entry, once per asset.
	ExpireApproved(ctx context.Context, now time.Time) (int, error)
}

// The tasks of the Sweeper, as SweepArgs name them.
const (
	TaskRemindDue      = "remind_due"
	TaskMarkOverdue    = "mark_overdue"
	TaskNotifyExpiring = "notify_expiring"
	TaskExpireApproved = "expire_approved"
)

// Tasks lists every sweep task, each a periodic job of its own.
var Tasks = []string{TaskMarkOverdue, TaskRemindDue, TaskExpireApproved, TaskNotifyExpiring}

// SweepArgs is the periodic job that runs one task of the Sweeper. It is
// unique per task and period, so a new leader, or a restart, within the
// period inserts no second one.
type SweepArgs struct {
	Task string `json:"task"`
}

// Kind implements river.JobArgs.
func (SweepArgs) Kind() string { return "sweep" }

type sweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	q *Queue
}

// Timeout lets a sweep over a large organisation take longer than a
// mail delivery (River's default, a minute).
func (w *sweepWorker) Timeout(*river.Job[SweepArgs]) time.Duration { return 10 * time.Minute }

func (w *sweepWorker) Work(ctx context.Context, job *river.Job[SweepArgs]) error {
	s := w.q.cfg.Sweeper
	var run func(context.Context, time.Time) (int, error)
	switch job.Args.Task {
	case TaskRemindDue:
		run = s.RemindDue
	case TaskMarkOverdue:
		run = s.MarkOverdue
	case TaskNotifyExpiring:
		run = s.NotifyExpiring
	case TaskExpireApproved:
		run = s.ExpireApproved
	default:
		return river.JobCancel(fmt.Errorf("jobs: unknown sweep task %q", job.Args.Task))
	}
	n, err := run(ctx, w.q.now())
	if err != nil {
		return fmt.Errorf("jobs: sweep %s: %w", job.Args.Task, err)
	}
	if n > 0 {
		w.q.log.InfoContext(ctx, "jobs: sweep", "task", job.Args.Task, "count", n)
	}
	return nil
}
