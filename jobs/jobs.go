// Package jobs runs the durable background work of the server on River
// (github.com/riverqueue/river), a job queue that keeps its jobs in the
// application's own database: e-mail delivery, and the periodic sweeps of
// the review workflow (due reminders, overdue marks, expiry notices,
// expiry itself).
//
// A job is a row in River's tables, so it survives a restart: a job
// inserted before the process stopped is worked by the next process, and a
// job whose process died while working it is rescued and retried. On
// PostgreSQL several instances may share one database: each job is locked
// by the one instance that works it (SELECT … FOR UPDATE SKIP LOCKED), and
// periodic jobs are inserted only by the elected leader, unique per period,
// so every job runs once. Work is at least once all the same (a process
// can die after the effect and before recording it), so every worker is
// idempotent: mail delivery reads the outbox row's status first, and a
// [Sweeper] promises that a second call changes nothing more.
//
// River runs its own SQL on the store's connections (see Config.Pool) with
// its SQLite driver (riversqlite) or its database/sql PostgreSQL driver
// (riverdatabasesql), so that one transaction type, *sql.Tx, serves both:
// a job is inserted in the very transaction that writes the row it works
// on ([Queue.EnqueueMailTx]).
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
)

// Defaults of Config.
const (
	// DefaultSweepInterval is how often each review sweep runs.
	DefaultSweepInterval = 15 * time.Minute
	// DefaultMailSweepInterval is how often the outbox is searched for due
	// messages without a delivery job.
	DefaultMailSweepInterval = time.Minute
	// DefaultWorkers is how many jobs one instance works at a time.
	DefaultWorkers = 4
	// StopTimeout is how long Run waits, when its context ends, for the
	// jobs being worked to finish before it cancels them.
	StopTimeout = 10 * time.Second
)

// Config configures a Queue.
type Config struct {
	// Pool is the database/sql pool River runs its statements on: the
	// store's (on SQLite its single writer connection, which River's
	// SQLite driver asks for: SQLite has one writer at a time).
	Pool *sql.DB
	// Postgres selects River's PostgreSQL driver; else SQLite.
	Postgres bool
	// Schema is the PostgreSQL schema of River's tables (the store's); ""
	// means the pool's search path.
	Schema string
	// ListenURL, on PostgreSQL, is a connection string for the one extra
	// connection on which River LISTENs, so that a job inserted by any
	// instance is picked up at once; "" polls every FetchPollInterval
	// instead. It must reach the database of Pool; Schema says where
	// River's tables are.
	ListenURL string
	// Migrate runs fn holding the store's migration lock (sqlstore's
	// WithMigrationLock); New applies River's migrations in it. Nil
	// applies them without the lock.
	Migrate func(ctx context.Context, fn func(ctx context.Context) error) error

	// Mailer delivers the outbox; nil registers no mail jobs.
	Mailer Mailer
	// Sweeper runs the review workflow's sweeps; nil schedules none.
	Sweeper Sweeper
	// Checker runs the compliance checks of large versions; nil
	// registers no compliance jobs.
	Checker Checker

	// Now is the clock handed to the Sweeper and compared with the
	// outbox's due times; nil is time.Now. Tests move it.
	Now func() time.Time
	// SweepInterval is the period of each review sweep (default
	// DefaultSweepInterval, at least a second).
	SweepInterval time.Duration
	// MailSweepInterval is the period of the outbox sweep (default
	// DefaultMailSweepInterval, at least a second).
	MailSweepInterval time.Duration
	// Workers is how many jobs this instance works at a time (default
	// DefaultWorkers).
	Workers int
	// FetchPollInterval is how often an instance looks for jobs when it
	// has heard of none (River's default, a second, when zero). Tests
	// shorten it.
	FetchPollInterval time.Duration
	// Log receives River's warnings and errors and the workers' reports;
	// nil is slog.Default().
	Log *slog.Logger
	// ID names this instance among River's clients; "" is random. Tests
	// give one.
	ID string
}

// Queue owns this instance's River client: the workers, the periodic
// jobs, and the inserts of the program's jobs.
type Queue struct {
	client *river.Client[*sql.Tx]
	cfg    Config
	listen *pgxpool.Pool // nil when polling
	log    *slog.Logger
	state  atomic.Value // string: see State
}

// New applies River's pending migrations to the database of c.Pool and
// returns a Queue that inserts jobs at once and works them once started
// (Start or Run). Jobs inserted before Start wait in the database.
func New(ctx context.Context, c Config) (*Queue, error) {
	if c.Pool == nil {
		return nil, errors.New("jobs: no database pool")
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.SweepInterval == 0 {
		c.SweepInterval = DefaultSweepInterval
	}
	if c.MailSweepInterval == 0 {
		c.MailSweepInterval = DefaultMailSweepInterval
	}
	if c.SweepInterval < time.Second || c.MailSweepInterval < time.Second {
		return nil, errors.New("jobs: sweep intervals must be at least a second")
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	q := &Queue{cfg: c, log: c.Log}
	q.state.Store(StateStarting)

	var driver riverdriver.Driver[*sql.Tx]
	switch {
	case !c.Postgres:
		driver = riversqlite.New(c.Pool)
	case c.ListenURL != "":
		pc, err := pgxpool.ParseConfig(c.ListenURL)
		if err != nil {
			return nil, fmt.Errorf("jobs: listen URL: %w", err)
		}
		// River takes the listening connection out of the pool for good.
		pc.MinConns, pc.MaxConns = 0, 1
		q.listen, err = pgxpool.NewWithConfig(ctx, pc)
		if err != nil {
			return nil, fmt.Errorf("jobs: listen pool: %w", err)
		}
		driver = riverdatabasesql.NewWithPgxListener(c.Pool, q.listen)
	default:
		driver = riverdatabasesql.New(c.Pool)
	}
	if _, err := migrate(ctx, c, driver); err != nil {
		q.closeListen()
		return nil, err
	}

	workers := river.NewWorkers()
	var periodic []*river.PeriodicJob
	if c.Mailer != nil {
		river.AddWorker(workers, &mailWorker{q: q})
		river.AddWorker(workers, &mailSweepWorker{q: q})
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(c.MailSweepInterval),
			func() (river.JobArgs, *river.InsertOpts) {
				return MailSweepArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: c.MailSweepInterval}}
			}, &river.PeriodicJobOpts{ID: "mail_sweep", RunOnStart: true}))
	}
	if c.Sweeper != nil {
		river.AddWorker(workers, &sweepWorker{q: q})
		for _, task := range Tasks {
			periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(c.SweepInterval),
				func() (river.JobArgs, *river.InsertOpts) {
					return SweepArgs{Task: task}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByPeriod: c.SweepInterval}}
				}, &river.PeriodicJobOpts{ID: "sweep_" + task, RunOnStart: true}))
		}
	}
	if c.Checker != nil {
		periodic = append(periodic, addCompliance(workers, q, c.MailSweepInterval))
	}
	rc := &river.Config{
		ID:                c.ID,
		Schema:            c.Schema,
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: c.Workers}},
		Workers:           workers,
		PeriodicJobs:      periodic,
		FetchPollInterval: c.FetchPollInterval,
		Logger:            slog.New(warnings{c.Log.Handler()}),
		ErrorHandler:      &errorHandler{log: c.Log},
	}
	if c.FetchPollInterval > 0 && c.FetchPollInterval < 100*time.Millisecond {
		rc.FetchCooldown = c.FetchPollInterval / 2 // must not exceed the poll interval
	}
	client, err := river.NewClient(driver, rc)
	if err != nil {
		q.closeListen()
		return nil, fmt.Errorf("jobs: %w", err)
	}
	q.client = client
	return q, nil
}

// Migrate applies River's pending migrations to the database of c.Pool,
// as New does, and returns the version River's tables are at. Only Pool,
// Postgres, Schema, Migrate and Log are read.
func Migrate(ctx context.Context, c Config) (int, error) {
	if c.Pool == nil {
		return 0, errors.New("jobs: no database pool")
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	var driver riverdriver.Driver[*sql.Tx] = riversqlite.New(c.Pool)
	if c.Postgres {
		driver = riverdatabasesql.New(c.Pool)
	}
	return migrate(ctx, c, driver)
}

func migrate(ctx context.Context, c Config, driver riverdriver.Driver[*sql.Tx]) (int, error) {
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Schema: c.Schema, Logger: slog.New(warnings{c.Log.Handler()})})
	if err != nil {
		return 0, fmt.Errorf("jobs: migrator: %w", err)
	}
	// Each of River's migrations in a transaction of its own: on
	// PostgreSQL one adds a value to an enum that the next one uses.
	version := 0
	up := func(ctx context.Context) error {
		if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("jobs: River migrations: %w", err)
		}
		applied, err := m.ExistingVersions(ctx)
		if err != nil {
			return fmt.Errorf("jobs: River migrations: %w", err)
		}
		if len(applied) > 0 {
			version = applied[len(applied)-1].Version
		}
		return nil
	}
	if c.Migrate != nil {
		err = c.Migrate(ctx, up)
	} else {
		err = up(ctx)
	}
	return version, err
}

func (q *Queue) closeListen() {
	if q.listen != nil {
		q.listen.Close()
	}
}

// Start starts working jobs and, when elected leader, inserting the
// periodic ones. It returns at once; Stop ends it.
func (q *Queue) Start(ctx context.Context) error {
	if err := q.client.Start(ctx); err != nil {
		q.state.Store(StateStopped)
		return fmt.Errorf("jobs: start: %w", err)
	}
	q.state.Store(StateRunning)
	return nil
}

// The states of a Queue, as State reports them.
const (
	StateStarting = "starting" // made, not started yet
	StateRunning  = "running"  // working jobs
	StateStopped  = "stopped"  // stopped, or failed to start
)

// State says whether this instance works jobs: StateStarting,
// StateRunning or StateStopped. Health checks report it.
func (q *Queue) State() string { return q.state.Load().(string) }

// Stop stops fetching jobs and waits for the running ones until ctx ends,
// then cancels them and waits for them to return. A cancelled job is
// worked again later, by this instance after a restart or by another.
// Stop releases the listening connection; the Queue cannot start again.
func (q *Queue) Stop(ctx context.Context) error {
	defer q.closeListen()
	defer q.state.Store(StateStopped)
	err := q.client.Stop(ctx)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return err
	}
	hard, cancel := context.WithTimeout(context.WithoutCancel(ctx), StopTimeout)
	defer cancel()
	return q.client.StopAndCancel(hard)
}

// Run works jobs until ctx ends, then stops as Stop does, giving the
// running jobs StopTimeout to finish. Failures are logged; the server
// goes on serving without background work rather than not at all.
func (q *Queue) Run(ctx context.Context) {
	// River's own work must outlive ctx until Stop has drained it.
	if err := q.Start(context.WithoutCancel(ctx)); err != nil {
		q.log.Error("jobs: not started", "error", err)
		q.closeListen()
		q.state.Store(StateStopped)
		return
	}
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), StopTimeout)
	defer cancel()
	if err := q.Stop(sctx); err != nil {
		q.log.Error("jobs: stop", "error", err)
	}
}

func (q *Queue) now() time.Time { return q.cfg.Now().UTC() }

// Client is the River client, for tests and for what this package does
// not wrap (listing jobs, subscribing to their events).
func (q *Queue) Client() *river.Client[*sql.Tx] { return q.client }

// warnings passes on River's records of level Warn and above only: River
// reports its routine (elections, maintenance) at Info.
type warnings struct{ slog.Handler }

func (w warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}
func (w warnings) WithAttrs(a []slog.Attr) slog.Handler { return warnings{w.Handler.WithAttrs(a)} }
func (w warnings) WithGroup(n string) slog.Handler      { return warnings{w.Handler.WithGroup(n)} }

// errorHandler logs a job's error or panic; River then retries the job
// with its back-off, up to its attempts.
type errorHandler struct{ log *slog.Logger }

func (h *errorHandler) HandleError(ctx context.Context, job *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	h.log.WarnContext(ctx, "jobs: job failed, will retry", "kind", job.Kind, "job", job.ID, "attempt", job.Attempt, "error", err)
	return nil
}

func (h *errorHandler) HandlePanic(ctx context.Context, job *rivertype.JobRow, v any, trace string) *river.ErrorHandlerResult {
	h.log.ErrorContext(ctx, "jobs: job panicked, will retry", "kind", job.Kind, "job", job.ID, "attempt", job.Attempt, "panic", v, "stack", trace)
	return nil
}
