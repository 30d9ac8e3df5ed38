package service_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/jobs"
	"fairbalance/mail"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The job queue's Sweeper is the review service: its compile-time shape.
var _ jobs.Sweeper = (*service.ReviewSweeper)(nil)

// approveAll approves every step of a fresh round on asset id, as each
// reviewer (the demo's path: signer verified by other means).
func (e *reviewEnv) approveAll(t *testing.T, assetID string) {
	t.Helper()
	_, steps := e.submit(t, assetID)
	for _, role := range []string{fairbalance.RoleReviewerMedical, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerRegulatory} {
		if _, err := e.data.Reviews.DecideSigned(e.ctx, e.own[role], service.DecideInput{StepID: steps[role]["id"].(string), Decision: fairbalance.DecisionApproved, Comment: "ok"}); err != nil {
			t.Fatalf("%s approves: %v", role, err)
		}
	}
}

// mailTo lists the e-mails in the outbox to address whose kind is kind.
func (e *reviewEnv) mailTo(t *testing.T, address, kind string) []*fairbalance.MailMessage {
	t.Helper()
	all, err := e.db.RecentMail(e.ctx, address, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []*fairbalance.MailMessage
	for _, m := range all {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

func email(role string) string { return "own-" + role + "@example.com" }

// The four sweeps with a controlled clock: each acts on what is due at the
// time it is given, once per item — a second run the same day (or any
// later one) changes nothing more and notifies nobody again.
func TestReviewSweeps(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			e.data.Config.SiteURL = "https://review.example.com"
			sw := e.data.Reviews.Sweeper()
			marketer, legal := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleReviewerLegal]

			// A round submitted Monday 09:00 is due next Monday 09:00.
			a := e.asset(t, "Sweeps")
			round, steps := e.submit(t, a["id"].(string))
			e.must(t, legal, "claim_step", map[string]any{"step_id": steps["reviewer_legal"]["id"]})
			due := reviewNow.AddDate(0, 0, 7)

			for _, c := range []struct {
				at   time.Time
				want int
			}{{due.Add(-25 * time.Hour), 0}, {due.Add(-23 * time.Hour), 3}, {due.Add(-22 * time.Hour), 0}, {due.Add(-time.Minute), 0}, {due.Add(time.Hour), 0}} {
				if n, err := sw.RemindDue(e.ctx, c.at); err != nil || n != c.want {
					t.Fatalf("remind due at %s: %d %v, want %d", c.at, n, err, c.want)
				}
			}
			// Due tomorrow: the claimer of legal only; every medical reviewer.
			if n := e.notifications(t, legal, "due_soon"); len(n) != 1 || !strings.Contains(n[0]["title"].(string), "due") {
				t.Fatalf("the claimer's reminders: %v", n)
			}
			if n := e.notifications(t, e.medical2, "due_soon"); len(n) != 1 {
				t.Fatalf("the second medical reviewer's reminders: %v", n)
			}
			if n := e.notifications(t, e.own[fairbalance.RoleReviewerRegulatory], "due_soon"); len(n) != 1 {
				t.Fatalf("the regulatory reviewer's reminders: %v", n)
			}
			if n := e.notifications(t, marketer, "due_soon"); len(n) != 0 {
				t.Fatalf("the submitter was reminded: %v", n)
			}
			if m := e.mailTo(t, email(fairbalance.RoleReviewerLegal), "notification_due_soon"); len(m) != 1 {
				t.Fatalf("the claimer's reminder e-mails: %d", len(m))
			}

			// Overdue: not at the due time itself; an hour later every
			// step is marked once, with its audit entry and notices.
			before := e.auditCount(t, fairbalance.ActionStepOverdue)
			for _, c := range []struct {
				at   time.Time
				want int
			}{{due, 0}, {due.Add(time.Hour), 3}, {due.Add(2 * time.Hour), 0}, {due.Add(48 * time.Hour), 0}} {
				if n, err := sw.MarkOverdue(e.ctx, c.at); err != nil || n != c.want {
					t.Fatalf("mark overdue at %s: %d %v, want %d", c.at, n, err, c.want)
				}
			}
			for role, s := range e.steps(t, round["id"].(string)) {
				if s["overdue_at"] == nil {
					t.Fatalf("%s step not marked overdue: %v", role, s)
				}
				at, _ := time.Parse(time.RFC3339Nano, s["overdue_at"].(string))
				if !at.Equal(due.Add(time.Hour)) {
					t.Fatalf("%s step marked at %s, want the first sweep's time", role, at)
				}
			}
			if n := e.auditCount(t, fairbalance.ActionStepOverdue) - before; n != 3 {
				t.Fatalf("%d overdue audit entries, want 3", n)
			}
			if ent := lastEntry(t, e.matrixEnv, e.orgs["own"], fairbalance.ActionStepOverdue); ent.ActorID != service.SystemActor || ent.ObjectType != "review_steps" {
				t.Fatalf("overdue entry %+v", ent)
			}
			if n := e.notifications(t, marketer, "overdue"); len(n) != 3 {
				t.Fatalf("the submitter's overdue notices: %v", n)
			}
			if n := e.notifications(t, legal, "overdue"); len(n) != 1 {
				t.Fatalf("the claimer's overdue notices: %v", n)
			}
			if m := e.mailTo(t, email(fairbalance.RoleMarketer), "notification_overdue"); len(m) != 3 {
				t.Fatalf("the submitter's overdue e-mails: %d", len(m))
			}

			// A step decided before its due time is never marked.
			b := e.asset(t, "Decided in time")
			round2, steps2 := e.submit(t, b["id"].(string))
			e.mustDecide(t, e.own[fairbalance.RoleReviewerMedical], steps2["reviewer_medical"]["id"].(string), "approved")
			if n, err := sw.MarkOverdue(e.ctx, reviewNow.AddDate(0, 0, 8)); err != nil || n != 2 {
				t.Fatalf("overdue in the second round: %d %v, want the 2 undecided steps", n, err)
			}
			if s := e.steps(t, round2["id"].(string))["reviewer_medical"]; s["overdue_at"] != nil {
				t.Fatalf("a decided step was marked overdue: %v", s)
			}

			// Expiry: an approved asset is noticed 30 days ahead, once,
			// and expires on its day, once.
			c := e.asset(t, "Expiring")
			e.approveAll(t, c["id"].(string))
			expires := e.row(t, "assets", c["id"].(string))["expires_at"].(string)
			day, _ := time.Parse(time.DateOnly, expires)
			for _, x := range []struct {
				at   time.Time
				want int
			}{{day.AddDate(0, 0, -31), 0}, {day.AddDate(0, 0, -30), 1}, {day.AddDate(0, 0, -30).Add(10 * time.Hour), 0}, {day.AddDate(0, 0, -2), 0}} {
				if n, err := sw.NotifyExpiring(e.ctx, x.at); err != nil || n != x.want {
					t.Fatalf("expiry notices at %s: %d %v, want %d", x.at, n, err, x.want)
				}
			}
			notes := e.notifications(t, marketer, "expiry_soon")
			if len(notes) != 1 || notes[0]["asset_id"] != c["id"] || notes[0]["emailed_at"] == nil {
				t.Fatalf("expiry notices: %v", notes)
			}
			if m := e.mailTo(t, email(fairbalance.RoleMarketer), "notification_expiry_soon"); len(m) != 1 ||
				!strings.Contains(m[0].Text, "https://review.example.com/assets/"+c["id"].(string)) || !strings.Contains(m[0].Subject, "expires on "+expires) {
				t.Fatalf("expiry e-mails: %+v", m)
			}
			for _, x := range []struct {
				at   time.Time
				want int
			}{{day.Add(-time.Minute), 0}, {day.Add(time.Minute), 1}, {day.Add(5 * time.Hour), 0}} {
				if n, err := sw.ExpireApproved(e.ctx, x.at); err != nil || n != x.want {
					t.Fatalf("expire at %s: %d %v, want %d", x.at, n, err, x.want)
				}
			}
			if got := e.row(t, "assets", c["id"].(string))["status"]; got != "expired" {
				t.Fatalf("status %v", got)
			}
			// An expired asset is no longer noticed.
			if n, err := sw.NotifyExpiring(e.ctx, day.AddDate(0, 0, 1)); err != nil || n != 0 {
				t.Fatalf("notices after expiry: %d %v", n, err)
			}
			if v, err := e.db.View().VerifyAudit(e.ctx, e.orgs["own"]); err != nil || !v.OK {
				t.Fatalf("chain: %+v %v", v, err)
			}
		})
	}
}

// syncBuffer is a logger's output, safe for the queue's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// End to end through the real queue (River) with its clock set past an
// approval's expiry: the periodic sweep job expires the asset (status,
// audit entry by "system", notice), and the notice's e-mail is delivered
// by the queue's mail job (logged: no SMTP server); the overdue sweep
// marks the steps of a late round.
func TestReviewSweepsThroughTheJobQueue(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			e.data.Config.SiteURL = "https://review.example.com"
			a := e.asset(t, "Expires through the queue")
			e.approveAll(t, a["id"].(string))
			b := e.asset(t, "Late through the queue")
			late, _ := e.submit(t, b["id"].(string))
			expires := e.row(t, "assets", a["id"].(string))["expires_at"].(string)
			day, _ := time.Parse(time.DateOnly, expires)
			clock := day.Add(10 * time.Hour)

			ctx := context.Background()
			jq, err := e.db.JobQueue(ctx)
			if err != nil {
				t.Fatal(err)
			}
			log := slog.New(slog.NewTextHandler(&syncBuffer{}, nil))
			cfg := jobs.Config{Pool: jq.Pool, Postgres: jq.Postgres, Schema: jq.Schema, Migrate: e.db.WithMigrationLock,
				Mailer: mail.NewOutbox(e.db, nil, log), Sweeper: e.data.Reviews.Sweeper(), Now: func() time.Time { return clock },
				SweepInterval: time.Hour, FetchPollInterval: 50 * time.Millisecond, Log: log, ID: "review-sweeps-" + backend}
			if jq.Postgres {
				cfg.ListenURL = os.Getenv("TEST_DATABASE_URL")
			}
			q, err := jobs.New(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			e.db.OnMailEnqueued(q.EnqueueMailTx)
			t.Cleanup(func() { e.db.OnMailEnqueued(nil) })
			if err := q.Start(ctx); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_ = q.Stop(sctx)
			})

			waitFor(t, "the asset expires", func() bool { return e.row(t, "assets", a["id"].(string))["status"] == "expired" })
			if ent := lastEntry(t, e.matrixEnv, e.orgs["own"], fairbalance.ActionAssetExpired); ent.ActorID != service.SystemActor || ent.ObjectID != a["id"] {
				t.Fatalf("entry %+v", ent)
			}
			waitFor(t, "the expiry e-mail is delivered by a job", func() bool {
				m := e.mailTo(t, email(fairbalance.RoleMarketer), "notification_expired")
				return len(m) == 1 && m[0].Status == "logged"
			})
			waitFor(t, "the late round's steps are marked overdue", func() bool {
				for _, s := range e.steps(t, late["id"].(string)) {
					if s["overdue_at"] == nil {
						return false
					}
				}
				return true
			})
			if n := e.notifications(t, e.own[fairbalance.RoleMarketer], "expired"); len(n) != 1 {
				t.Fatalf("expired notices: %v", n)
			}
		})
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
