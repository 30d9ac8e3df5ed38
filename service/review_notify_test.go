package service_test

import (
	"context"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// setPrefs saves c's notification preferences (the Settings screen's upsert).
func (e *reviewEnv) setPrefs(t *testing.T, c fairbalance.Caller, body string) {
	t.Helper()
	if _, err := e.data.Insert(e.ctx, c, "notification_preferences", reqPrefer(t, "", "resolution=merge-duplicates"), []byte(body)); err != nil {
		t.Fatal(err)
	}
}

// Every notification of the workflow is also e-mailed through the outbox
// when the recipient's preferences allow it: a clear subject (the
// notification's title) and a link to the asset; emailed_at records it.
// A switch turned off keeps the notice in the app and sends no e-mail.
func TestReviewNotificationEmails(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			e.data.Config.SiteURL = "https://review.example.com"
			marketer, legal, medical := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleReviewerLegal], e.own[fairbalance.RoleReviewerMedical]
			// Legal wants no e-mail when a review needs them; the
			// marketer none about decisions.
			e.setPrefs(t, legal, `{"review_assigned":false}`)

			a := e.asset(t, "Mailed")
			link := "https://review.example.com/assets/" + a["id"].(string)
			_, steps := e.submit(t, a["id"].(string))

			// Step activated: medical by e-mail, legal in the app only.
			note := e.notifications(t, medical, "step_activated")
			if len(note) != 1 || note[0]["emailed_at"] == nil {
				t.Fatalf("medical's notice: %v", note)
			}
			mails := e.mailTo(t, email(fairbalance.RoleReviewerMedical), "notification_step_activated")
			if len(mails) != 1 {
				t.Fatalf("medical's e-mails: %d", len(mails))
			}
			m := mails[0]
			if m.Subject != note[0]["title"] || !strings.Contains(m.Subject, "Mailed") || !strings.Contains(m.Subject, "awaits review") ||
				!strings.Contains(m.Text, link) || !strings.Contains(m.HTML, `href="`+link+`"`) || m.OrgID != e.orgs["own"] || m.Status != "pending" {
				t.Fatalf("the e-mail: %+v", m)
			}
			note = e.notifications(t, legal, "step_activated")
			if len(note) != 1 || note[0]["emailed_at"] != nil {
				t.Fatalf("legal's notice: %v", note)
			}
			if n := len(e.mailTo(t, email(fairbalance.RoleReviewerLegal), "notification_step_activated")); n != 0 {
				t.Fatalf("legal got %d e-mails though their switch is off", n)
			}

			// A decision on my asset and the round closing: to the
			// marketer, while their review_decision switch is on.
			e.mustDecide(t, medical, steps["reviewer_medical"]["id"].(string), "approved")
			if m := e.mailTo(t, email(fairbalance.RoleMarketer), "notification_decision"); len(m) != 1 || !strings.Contains(m[0].Subject, "approved") || !strings.Contains(m[0].Text, link) {
				t.Fatalf("decision e-mails: %+v", m)
			}
			e.setPrefs(t, marketer, `{"review_decision":false}`)
			e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "approved")
			e.mustDecide(t, e.own[fairbalance.RoleReviewerRegulatory], steps["reviewer_regulatory"]["id"].(string), "approved")
			if n := len(e.notifications(t, marketer, "decision")); n != 3 {
				t.Fatalf("%d decision notices, want 3", n)
			}
			if n := len(e.mailTo(t, email(fairbalance.RoleMarketer), "notification_decision")); n != 1 {
				t.Fatalf("%d decision e-mails after the switch went off, want still 1", n)
			}
			if n := len(e.notifications(t, marketer, "round_closed")); n != 1 {
				t.Fatalf("%d round closed notices", n)
			}
			if n := len(e.mailTo(t, email(fairbalance.RoleMarketer), "notification_round_closed")); n != 0 {
				t.Fatalf("%d round closed e-mails with the switch off", n)
			}

			// Signing locked: to the owners and admins, the owner having
			// switched it off.
			e.setPrefs(t, e.own[fairbalance.RoleOwner], `{"signing_locked":false}`)
			b := e.asset(t, "Locked out")
			_, steps = e.submit(t, b["id"].(string))
			for range fairbalance.SigningAttemptsBeforeLock {
				if _, err := e.call(legal, "decide_step", map[string]any{"step_id": steps["reviewer_legal"]["id"], "decision": "approved", "comment": "ok", "password": "Wrong-Password-1"}); errKind(err) != refusedPassword {
					t.Fatalf("wrong password: %v", err)
				}
			}
			if m := e.mailTo(t, email(fairbalance.RoleAdmin), "notification_signing_locked"); len(m) != 1 || !strings.Contains(m[0].Subject, "Signing locked") {
				t.Fatalf("the admin's lockout e-mails: %+v", m)
			}
			if n := len(e.notifications(t, e.own[fairbalance.RoleOwner], "signing_locked")); n != 1 {
				t.Fatalf("the owner's lockout notices: %d", n)
			}
			if n := len(e.mailTo(t, email(fairbalance.RoleOwner), "notification_signing_locked")); n != 0 {
				t.Fatalf("the owner got %d lockout e-mails with the switch off", n)
			}

			// A deactivated member gets the notice's e-mail no more.
			if _, err := e.call(e.own[fairbalance.RoleAdmin], "deactivate_member", map[string]any{"user_id": e.medical2.UserID}); err != nil {
				t.Fatal(err)
			}
			c := e.asset(t, "After deactivation")
			e.submit(t, c["id"].(string))
			if n := len(e.mailTo(t, "own-medical2@example.com", "notification_step_activated")); n != 2 {
				t.Fatalf("%d e-mails to the second medical reviewer, want the 2 sent before deactivation", n)
			}
		})
	}
}

// Every notification kind is e-mailed under one of the preference
// switches, each a column of notification_preferences that defaults to on.
func TestNotificationKindsHaveEmailSwitches(t *testing.T) {
	cols := map[string]bool{}
	for _, c := range service.NotificationPreferencesTable().Columns {
		cols[c.Name] = true
	}
	for _, k := range fairbalance.AllNotificationKinds {
		p := k.EmailPreference()
		if p == "" || !cols[p] {
			t.Errorf("kind %s: switch %q is no column of notification_preferences", k, p)
		}
	}
	for _, c := range service.NotificationPreferencesTable().Columns {
		if c.Default != nil && c.Name != "user_id" && c.Name != "updated_at" && c.Name != "weekly_digest" {
			if v := c.Default(fairbalance.Caller{}, reviewNow); v != true {
				t.Errorf("switch %s defaults to %v", c.Name, v)
			}
		}
	}
}

// assign_step: an administrator assigns an active step to a named reviewer
// of its role, who is notified; refusals change nothing.
func TestAssignStep(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			admin, medical := e.own[fairbalance.RoleAdmin], e.own[fairbalance.RoleReviewerMedical]
			a := e.asset(t, "Assigned")
			round, steps := e.submit(t, a["id"].(string))
			step := steps["reviewer_medical"]["id"].(string)

			out := e.must(t, admin, "assign_step", map[string]any{"step_id": step, "user_id": e.medical2.UserID})
			if out["claimed_by"] != e.medical2.UserID || out["claimed_at"] == nil {
				t.Fatalf("assigned: %v", out)
			}
			note := e.notifications(t, e.medical2, "step_assigned")
			if len(note) != 1 || note[0]["step_id"] != step || !strings.Contains(note[0]["title"].(string), "assigned to you") || note[0]["emailed_at"] == nil {
				t.Fatalf("the assignee's notice: %v", note)
			}
			if ent := lastEntry(t, e.matrixEnv, e.orgs["own"], fairbalance.ActionStepAssigned); ent.ActorID != admin.UserID || ent.ObjectID != step {
				t.Fatalf("entry %+v", ent)
			}
			// Again: nothing more. The first medical reviewer can no
			// longer decide it; reassigned to them, they can.
			e.must(t, e.own[fairbalance.RoleOwner], "assign_step", map[string]any{"step_id": step, "user_id": e.medical2.UserID})
			if n := len(e.notifications(t, e.medical2, "step_assigned")); n != 1 || e.auditCount(t, fairbalance.ActionStepAssigned) != 1 {
				t.Fatalf("assigning again notified %d times, %d entries", n, e.auditCount(t, fairbalance.ActionStepAssigned))
			}
			if _, err := e.decide(medical, step, "approved"); errKind(err) != refusedForbidden {
				t.Fatalf("deciding a step assigned to another: %v", err)
			}
			if out := e.must(t, admin, "assign_step", map[string]any{"step_id": step, "user_id": medical.UserID}); out["claimed_by"] != medical.UserID {
				t.Fatalf("reassigned: %v", out)
			}

			length := e.auditLength(t)
			for _, c := range []struct {
				name   string
				caller fairbalance.Caller
				args   map[string]any
				want   string
			}{
				{"a marketer", e.own[fairbalance.RoleMarketer], map[string]any{"step_id": step, "user_id": e.medical2.UserID}, refusedForbidden},
				{"a reviewer of the role", medical, map[string]any{"step_id": step, "user_id": e.medical2.UserID}, refusedForbidden},
				{"a legal reviewer for a medical step", admin, map[string]any{"step_id": step, "user_id": e.own[fairbalance.RoleReviewerLegal].UserID}, "invalid/P0001"},
				{"the marketer", admin, map[string]any{"step_id": step, "user_id": e.own[fairbalance.RoleMarketer].UserID}, "invalid/P0001"},
				{"a medical reviewer of another organisation", admin, map[string]any{"step_id": step, "user_id": e.members["other"][fairbalance.RoleReviewerMedical].UserID}, "invalid/P0001"},
				{"nobody", admin, map[string]any{"step_id": step, "user_id": "00000000-0000-4000-8000-00000000dead"}, "invalid/P0001"},
				{"not an id", admin, map[string]any{"step_id": step, "user_id": "medical"}, "invalid/P0001"},
				{"another organisation's step", e.members["other"][fairbalance.RoleAdmin], map[string]any{"step_id": step, "user_id": e.medical2.UserID}, refusedNotFound},
			} {
				_, err := e.call(c.caller, "assign_step", c.args)
				if errKind(err) != c.want {
					t.Errorf("%s: %v, want %s", c.name, err, c.want)
				}
				if c.want == "invalid/P0001" && fieldsOf(err)["user_id"] == "" {
					t.Errorf("%s: the refusal names no field: %v", c.name, err)
				}
			}
			if e.auditLength(t) != length || e.steps(t, round["id"].(string))["reviewer_medical"]["claimed_by"] != medical.UserID {
				t.Fatal("a refused assignment changed something")
			}

			// A decided step, and the steps of a closed round: 409.
			e.mustDecide(t, medical, step, "rejected")
			for role, s := range e.steps(t, round["id"].(string)) {
				_, err := e.call(admin, "assign_step", map[string]any{"step_id": s["id"], "user_id": e.own[role].UserID})
				if errKind(err) != refusedConflict {
					t.Errorf("assigning the %s step of a rejected round: %v", role, err)
				}
			}
		})
	}
}

// decide_step records where the signature was given — the client's
// address and user agent, as the HTTP surface puts them in the call's
// context — on the signature, sealed: verify_signature holds.
func TestSignatureRecordsClient(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			a := e.asset(t, "Signed from somewhere")
			_, steps := e.submit(t, a["id"].(string))
			ctx := service.WithClient(context.Background(), service.Client{IP: "203.0.113.7", UserAgent: "Mozilla/5.0 (Signer) " + strings.Repeat("x", 600)})
			raw, err := e.data.Call(ctx, e.own[fairbalance.RoleReviewerLegal], "decide_step", map[string]any{"step_id": steps["reviewer_legal"]["id"],
				"decision": "approved", "comment": "ok", "password": reviewPassword}, false)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), `"client_ip":"203.0.113.7"`) {
				t.Fatalf("decision: %s", raw)
			}
			sigs := readRows(t, e.matrixEnv, e.own[fairbalance.RoleViewer], "signatures", "select=id,client_ip,user_agent&step_id=eq."+steps["reviewer_legal"]["id"].(string))
			if len(sigs) != 1 || sigs[0]["client_ip"] != "203.0.113.7" || !strings.HasPrefix(sigs[0]["user_agent"].(string), "Mozilla/5.0 (Signer) ") || len(sigs[0]["user_agent"].(string)) != 512 {
				t.Fatalf("signature: %v", sigs)
			}
			v := e.must(t, e.own[fairbalance.RoleViewer], "verify_signature", map[string]any{"signature_id": sigs[0]["id"]})
			if v["valid"] != true {
				t.Fatalf("verification: %v", v)
			}
			// The decision's audit entry records the client too.
			if ent := lastEntry(t, e.matrixEnv, e.orgs["own"], fairbalance.ActionStepApproved); ent.IP != "203.0.113.7" || !strings.HasPrefix(ent.UserAgent, "Mozilla/5.0 (Signer)") {
				t.Fatalf("entry %+v", ent)
			}
			// A decision without a known client (the demo seeding) keeps
			// the v1 seal and verifies as well.
			out, err := e.data.Reviews.DecideSigned(e.ctx, e.own[fairbalance.RoleReviewerMedical], service.DecideInput{StepID: steps["reviewer_medical"]["id"].(string), Decision: fairbalance.DecisionApproved, Comment: "ok"})
			if err != nil {
				t.Fatal(err)
			}
			sig := out["signature"].(map[string]any)
			if sig["client_ip"] != "" || sig["user_agent"] != "" {
				t.Fatalf("signature without a client: %v", sig)
			}
			if v := e.must(t, e.own[fairbalance.RoleViewer], "verify_signature", map[string]any{"signature_id": sig["id"]}); v["valid"] != true {
				t.Fatalf("verification: %v", v)
			}
		})
	}
}
