package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/jobs"
	"fairbalance/mail"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/storetest"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// forEachStore runs fn on a fresh real store of every backend, SQLite
// always and PostgreSQL (a schema of its own, where River's tables go too)
// when TEST_DATABASE_URL is set.
func forEachStore(t *testing.T, fn func(t *testing.T, backend string, db *sqlstore.DB)) {
	t.Helper()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			fn(t, backend, storetest.Open(t, backend))
		})
	}
}

// onPostgres runs fn on PostgreSQL only, with two stores on one schema:
// two instances of the server sharing a database.
func onPostgres(t *testing.T, fn func(t *testing.T, a, b *sqlstore.DB)) {
	t.Helper()
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Skip("TEST_DATABASE_URL not set: several instances share PostgreSQL only")
	}
	a, b := storetest.OpenPair(t, "postgres")
	fn(t, a, b)
}

func testDatabaseURL() string { return os.Getenv("TEST_DATABASE_URL") }

// logBuffer collects a logger's records for tests, safely.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newQueue makes a Queue on db as the server does, polling often so tests
// are quick; on PostgreSQL it LISTENs on TEST_DATABASE_URL. The queue is
// stopped when the test ends (if it was started).
func newQueue(t *testing.T, db *sqlstore.DB, c jobs.Config) *jobs.Queue {
	t.Helper()
	ctx := context.Background()
	jq, err := db.JobQueue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.Pool, c.Postgres, c.Schema, c.Migrate = jq.Pool, jq.Postgres, jq.Schema, db.WithMigrationLock
	if c.Postgres && c.ListenURL == "" {
		c.ListenURL = testDatabaseURL()
	}
	if c.FetchPollInterval == 0 {
		c.FetchPollInterval = 50 * time.Millisecond
	}
	if c.Log == nil {
		c.Log = slog.New(slog.NewTextHandler(&logBuffer{}, nil))
	}
	q, err := jobs.New(ctx, c)
	if err != nil {
		t.Fatalf("jobs.New: %v", err)
	}
	return q
}

// start starts q and stops it when the test ends.
func start(t *testing.T, q *jobs.Queue) {
	t.Helper()
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = q.Stop(ctx)
	})
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// enqueue writes m to the outbox in a transaction of its own, as the
// services do.
func enqueue(t *testing.T, db *sqlstore.DB, m *fairbalance.MailMessage) *fairbalance.MailMessage {
	t.Helper()
	if err := db.Tx(context.Background(), func(tx fairbalance.Tx) error { return tx.EnqueueMail(context.Background(), m) }); err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	return m
}

func message(to string) *fairbalance.MailMessage {
	now := time.Now().UTC()
	return &fairbalance.MailMessage{To: to, Subject: "Step due tomorrow", Text: "Your review step is due tomorrow.\n", Kind: "due_tomorrow",
		CreatedAt: now, NextAttemptAt: now}
}

func mailByID(t *testing.T, db *sqlstore.DB, id int64) *fairbalance.MailMessage {
	t.Helper()
	m, err := db.MailByID(context.Background(), id)
	if err != nil {
		t.Fatalf("message %d: %v", id, err)
	}
	return m
}

// jobsOf lists the jobs of a kind, in every state.
func jobsOf(t *testing.T, q *jobs.Queue, kind string) []*rivertype.JobRow {
	t.Helper()
	res, err := q.Client().JobList(context.Background(), river.NewJobListParams().Kinds(kind).First(1000))
	if err != nil {
		t.Fatalf("list %s jobs: %v", kind, err)
	}
	return res.Jobs
}

// recordingSender is a mail.Sender that records every message handed to
// it, by id; refuse makes it refuse each message's first n attempts, and
// block holds every send until its context ends.
type recordingSender struct {
	mu      sync.Mutex
	sent    map[int64]int
	tries   map[int64]int
	refuse  int
	block   bool
	started chan int64
}

func newSender() *recordingSender {
	return &recordingSender{sent: map[int64]int{}, tries: map[int64]int{}, started: make(chan int64, 100)}
}

func (s *recordingSender) Send(ctx context.Context, m *fairbalance.MailMessage) error {
	s.mu.Lock()
	s.tries[m.ID]++
	refuse, block := s.tries[m.ID] <= s.refuse, s.block
	s.mu.Unlock()
	if block {
		s.started <- m.ID
		<-ctx.Done()
		return ctx.Err()
	}
	if refuse {
		return fmt.Errorf("451 try again later (attempt %d)", s.tries[m.ID])
	}
	s.mu.Lock()
	s.sent[m.ID]++
	s.mu.Unlock()
	return nil
}

func (s *recordingSender) count(id int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent[id]
}

func (s *recordingSender) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.sent {
		n += c
	}
	return n
}

var _ mail.Sender = (*recordingSender)(nil)

// newOutbox is the outbox of db delivering through s, logging nowhere.
func newOutbox(db *sqlstore.DB, s mail.Sender) *mail.Outbox {
	return mail.NewOutbox(db, s, slog.New(slog.NewTextHandler(&logBuffer{}, nil)))
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// recordingSweeper is a test double of the review workflow's side of the
// seam (not of any storage): it records each call with the time it was
// given, and may fail a task's first calls.
type recordingSweeper struct {
	mu    sync.Mutex
	calls map[string][]time.Time
	fail  map[string]int
}

func newSweeper() *recordingSweeper {
	return &recordingSweeper{calls: map[string][]time.Time{}, fail: map[string]int{}}
}

func (s *recordingSweeper) record(task string, now time.Time) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[task] = append(s.calls[task], now)
	if s.fail[task] > 0 {
		s.fail[task]--
		return 0, errors.New("database is away")
	}
	return 1, nil
}

func (s *recordingSweeper) RemindDue(_ context.Context, now time.Time) (int, error) {
	return s.record(jobs.TaskRemindDue, now)
}
func (s *recordingSweeper) MarkOverdue(_ context.Context, now time.Time) (int, error) {
	return s.record(jobs.TaskMarkOverdue, now)
}
func (s *recordingSweeper) NotifyExpiring(_ context.Context, now time.Time) (int, error) {
	return s.record(jobs.TaskNotifyExpiring, now)
}
func (s *recordingSweeper) ExpireApproved(_ context.Context, now time.Time) (int, error) {
	return s.record(jobs.TaskExpireApproved, now)
}

func (s *recordingSweeper) calledWith(task string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.calls[task]...)
}

var _ jobs.Sweeper = (*recordingSweeper)(nil)
