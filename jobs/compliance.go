package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Checker runs the compliance checks that do not fit in an upload's
// transaction (a large PDF's): the service's Compliance.
type Checker interface {
	// CheckVersion runs the pending check of one version (nothing when
	// it already ran).
	CheckVersion(ctx context.Context, versionID string) error
	// CheckPending runs up to limit pending checks, oldest first, and
	// returns how many it ran.
	CheckPending(ctx context.Context, limit int) (int, error)
}

// ComplianceArgs is the job that checks one version, inserted in the
// version's transaction.
type ComplianceArgs struct {
	VersionID string `json:"version_id"`
}

// Kind implements river.JobArgs.
func (ComplianceArgs) Kind() string { return "compliance_check" }

var complianceUnique = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
	rivertype.JobStateRunning, rivertype.JobStateScheduled,
}}

// EnqueueComplianceTx inserts the check of version versionID in tx (the
// store's JobHook: see sqlstore.DB.OnComplianceCheckEnqueued).
func (q *Queue) EnqueueComplianceTx(ctx context.Context, tx *sql.Tx, versionID string) error {
	if q.cfg.Checker == nil {
		return nil
	}
	if _, err := q.client.InsertTx(ctx, tx, ComplianceArgs{VersionID: versionID}, &river.InsertOpts{UniqueOpts: complianceUnique}); err != nil {
		return fmt.Errorf("jobs: enqueue compliance check of %s: %w", versionID, err)
	}
	return nil
}

type complianceWorker struct {
	river.WorkerDefaults[ComplianceArgs]
	q *Queue
}

// Timeout lets a check of a very long document finish.
func (w *complianceWorker) Timeout(*river.Job[ComplianceArgs]) time.Duration { return 5 * time.Minute }

func (w *complianceWorker) Work(ctx context.Context, job *river.Job[ComplianceArgs]) error {
	return w.q.cfg.Checker.CheckVersion(ctx, job.Args.VersionID)
}

// ComplianceSweepArgs is the periodic job that runs the checks still
// pending whose job was lost (or that were written while no queue ran).
type ComplianceSweepArgs struct{}

// Kind implements river.JobArgs.
func (ComplianceSweepArgs) Kind() string { return "compliance_sweep" }

type complianceSweepWorker struct {
	river.WorkerDefaults[ComplianceSweepArgs]
	q *Queue
}

func (w *complianceSweepWorker) Work(ctx context.Context, _ *river.Job[ComplianceSweepArgs]) error {
	_, err := w.q.cfg.Checker.CheckPending(ctx, 50)
	return err
}

// addCompliance registers the compliance workers and their sweep.
func addCompliance(workers *river.Workers, q *Queue, every time.Duration) *river.PeriodicJob {
	river.AddWorker(workers, &complianceWorker{q: q})
	river.AddWorker(workers, &complianceSweepWorker{q: q})
	return river.NewPeriodicJob(river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) {
			return ComplianceSweepArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: every}}
		}, &river.PeriodicJobOpts{ID: "compliance_sweep", RunOnStart: true})
}
