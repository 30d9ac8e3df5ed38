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
// queue's clock, and returns how many items it acted on.
//
// Contract, because a job can run twice (a retry after an error, a job
// rescued from an instance that died, two instances): every method is
// idempotent per item and calendar day. A second call with any now of the
// same day notifies nobody again and changes nothing more; the item keys
// below are unique in the sweeper's own tables, written in the same
// transaction as the change they record. Two calls may even overlap.
type Sweeper interface {
	// RemindDue notifies the reviewers of every active step whose due date
	// is tomorrow ("due tomorrow"), once per (step, day).
	RemindDue(ctx context.Context, now time.Time) (int, error)
	// MarkOverdue marks every active step whose due time has passed as
	// overdue and notifies its reviewers and the author, once per step.
	MarkOverdue(ctx context.Context, now time.Time) (int, error)
	// NotifyExpiring notifies the owners of every approved asset that
	// expires within 30 days, once per (asset, expiry date).
	NotifyExpiring(ctx context.Context, now time.Time) (int, error)
	// ExpireApproved moves every approved asset whose expiry has come to
	// expired, once per asset, with its audit entry.
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
