package service_test

import (
	"testing"
	"time"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The background work's entry points, with a controlled clock: expiry
// notices, expiry itself and due reminders, each idempotent.
func TestReviewJobs(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			marketer, legal := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleReviewerLegal]
			jobs := e.data.Reviews
			a := e.asset(t, "Expiring")
			_, steps := e.submit(t, a["id"].(string))
			for _, role := range []string{"reviewer_medical", "reviewer_legal", "reviewer_regulatory"} {
				out, err := jobs.DecideSigned(e.ctx, e.own[role], service.DecideInput{StepID: steps[role]["id"].(string), Decision: fairbalance.DecisionApproved, Comment: "ok"})
				if err != nil {
					t.Fatalf("%s: %v", role, err)
				}
				if out["signature"] == nil {
					t.Fatalf("no signature: %v", out)
				}
			}
			expires := e.row(t, "assets", a["id"].(string))["expires_at"].(string) // 2027-03-02
			day, _ := time.Parse(time.DateOnly, expires)

			// 31 days before: nothing; 30 days before: one notice, once.
			for _, c := range []struct {
				at   time.Time
				want int
			}{{day.AddDate(0, 0, -31), 0}, {day.AddDate(0, 0, -30), 1}, {day.AddDate(0, 0, -29), 0}} {
				if n, err := jobs.NotifyExpiring(e.ctx, c.at, 30*24*time.Hour); err != nil || n != c.want {
					t.Fatalf("expiring at %s: %d %v, want %d", c.at, n, err, c.want)
				}
			}
			if n := e.notifications(t, marketer, "expiry_soon"); len(n) != 1 {
				t.Fatalf("expiry notices: %v", n)
			}
			// The day before: still approved; the day itself: expired, once.
			if n, err := jobs.ExpireApprovals(e.ctx, day.Add(-time.Minute)); err != nil || n != 0 {
				t.Fatalf("before the day: %d %v", n, err)
			}
			if n, err := jobs.ExpireApprovals(e.ctx, day.Add(time.Hour)); err != nil || n != 1 {
				t.Fatalf("on the day: %d %v", n, err)
			}
			if n, err := jobs.ExpireApprovals(e.ctx, day.Add(2*time.Hour)); err != nil || n != 0 {
				t.Fatalf("again: %d %v", n, err)
			}
			if got := e.row(t, "assets", a["id"].(string))["status"]; got != "expired" {
				t.Fatalf("status %v", got)
			}
			if ent := lastEntry(t, e.matrixEnv, e.orgs["own"], fairbalance.ActionAssetExpired); ent.ActorID != service.SystemActor || ent.ObjectID != a["id"] {
				t.Fatalf("entry %+v", ent)
			}
			if n := e.notifications(t, marketer, "expired"); len(n) != 1 {
				t.Fatalf("expired notices: %v", n)
			}
			if v, err := e.db.View().VerifyAudit(e.ctx, e.orgs["own"]); err != nil || !v.OK {
				t.Fatalf("chain: %+v %v", v, err)
			}

			// Due reminders: a round submitted Monday 09:00 is due next Monday.
			b := e.asset(t, "Due")
			_, steps = e.submit(t, b["id"].(string))
			e.must(t, legal, "claim_step", map[string]any{"step_id": steps["reviewer_legal"]["id"]})
			due := reviewNow.AddDate(0, 0, 7)
			if n, err := jobs.NotifyDue(e.ctx, due.Add(-25*time.Hour)); err != nil || n != 0 {
				t.Fatalf("two days before: %d %v", n, err)
			}
			// A day before: the claimer of legal; every medical and
			// regulatory reviewer (two medical ones).
			if n, err := jobs.NotifyDue(e.ctx, due.Add(-23*time.Hour)); err != nil || n != 4 {
				t.Fatalf("a day before: %d %v", n, err)
			}
			if n, err := jobs.NotifyDue(e.ctx, due.Add(-22*time.Hour)); err != nil || n != 0 {
				t.Fatalf("again: %d %v", n, err)
			}
			// Overdue: the same reviewers, and the submitter for each step, once.
			if n, err := jobs.NotifyDue(e.ctx, due.Add(time.Hour)); err != nil || n != 4+3 {
				t.Fatalf("overdue: %d %v", n, err)
			}
			if n, err := jobs.NotifyDue(e.ctx, due.Add(2*time.Hour)); err != nil || n != 0 {
				t.Fatalf("overdue again: %d %v", n, err)
			}
			if n := e.notifications(t, marketer, "overdue"); len(n) != 3 {
				t.Fatalf("the submitter's overdue notices: %v", n)
			}
			if n := e.notifications(t, legal, "due_soon"); len(n) != 1 {
				t.Fatalf("the claimer's due notices: %v", n)
			}
		})
	}
}
