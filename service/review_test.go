package service_test

import (
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

// The review workflow (issue 15) through its functions, on both databases.

// A full round: submitted, three reviewers in parallel, changes requested
// with two change requests; version 2, both marked done, resubmitted;
// medical confirms and approves; the asset is approved with its expiry.
func TestReviewFullRound(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			marketer, viewer := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleViewer]
			med, legal, reg := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleReviewerLegal], e.own[fairbalance.RoleReviewerRegulatory]
			a := e.asset(t, "Launch e-mail")
			assetID := a["id"].(string)

			gate := e.must(t, viewer, "review_gate", map[string]any{"asset_id": assetID})
			if gate["ready"] != true || len(gate["unmet"].([]any)) != 0 {
				t.Fatalf("gate: %v", gate)
			}
			start := e.auditLength(t)
			r1, steps := e.submit(t, assetID)
			if r1["status"] != "open" || mustNumber(t, r1["round"]) != 1 || r1["version_id"] != a["current_version_id"] || r1["template_name"] != fairbalance.DefaultWorkflowName || len(steps) != 3 {
				t.Fatalf("round 1: %v", r1)
			}
			// Submitted on Monday 09:00: 5 business days → next Monday 09:00.
			due := "2026-03-09T09:00:00"
			for role, s := range steps {
				if s["status"] != "active" || !strings.HasPrefix(s["due_at"].(string), due) || s["required"] != true || mustNumber(t, s["step_order"]) != 1 {
					t.Fatalf("%s step: %v", role, s)
				}
			}
			if !strings.HasPrefix(r1["due_at"].(string), due) {
				t.Fatalf("round due: %v", r1["due_at"])
			}
			// submitted, three activations.
			if got := e.auditLength(t) - start; got != 4 {
				t.Fatalf("%d audit entries for a submission, want 4", got)
			}
			if e.row(t, "assets", assetID)["status"] != "in_review" || e.row(t, "asset_versions", a["current_version_id"].(string))["submitted_at"] == nil {
				t.Fatal("asset not in review or version not submitted")
			}
			// The version is immutable, even for the service role.
			if _, err := patchRows(t, e.matrixEnv, fairbalance.Caller{Role: "service_role"}, "asset_versions", "id=eq."+a["current_version_id"].(string),
				map[string]any{"change_note": "rewritten"}); err == nil {
				t.Fatal("a submitted version was changed")
			}
			if _, err := e.call(marketer, "add_asset_version", map[string]any{"asset_id": assetID, "content_html": readyHTML, "change_note": "x"}); err == nil {
				t.Fatal("a version was added while in review")
			}
			// Every reviewer of each role was told.
			for _, c := range []fairbalance.Caller{med, e.medical2, legal, reg} {
				if n := len(e.notifications(t, c, "step_activated")); n != 1 {
					t.Fatalf("%s has %d step notifications", c.UserID, n)
				}
			}
			if n := len(e.notifications(t, viewer, "step_activated")); n != 0 {
				t.Fatal("the viewer was told of a step")
			}

			e.clock = e.clock.Add(time.Hour)
			claimed := e.must(t, med, "claim_step", map[string]any{"step_id": steps["reviewer_medical"]["id"]})
			if claimed["claimed_by"] != med.UserID {
				t.Fatalf("claim: %v", claimed)
			}
			if _, err := e.call(e.medical2, "claim_step", map[string]any{"step_id": steps["reviewer_medical"]["id"]}); errKind(err) != refusedConflict {
				t.Fatalf("second claim: %v", err)
			}
			if _, err := e.decide(e.medical2, steps["reviewer_medical"]["id"].(string), "approved"); errKind(err) != refusedForbidden {
				t.Fatalf("another medical reviewer decided a claimed step: %v", err)
			}
			// Medical requests two changes; the round waits for the others.
			out := e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "changes_requested",
				"change_requests", []any{"Cite the LDL-C study.", map[string]any{"text": "Move the ISI above the fold."}})
			sig := out["signature"].(map[string]any)
			if out["review"].(map[string]any)["status"] != "open" || out["step"].(map[string]any)["status"] != "changes_requested" ||
				sig["meaning"] != "review" || sig["signer_name"] != "reviewer_medical" || sig["rendition_sha256"] != e.row(t, "asset_versions", a["current_version_id"].(string))["sha256"] ||
				len(out["change_requests"].([]any)) != 2 {
				t.Fatalf("medical decision: %v", out)
			}
			if e.row(t, "assets", assetID)["status"] != "in_review" {
				t.Fatal("the round closed before every required step decided")
			}
			e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "approved")
			out = e.mustDecide(t, reg, steps["reviewer_regulatory"]["id"].(string), "approved_with_changes")
			if out["review"].(map[string]any)["status"] != "changes_requested" || out["review"].(map[string]any)["closed_at"] == nil {
				t.Fatalf("round 1 closed: %v", out["review"])
			}
			if e.row(t, "assets", assetID)["status"] != "changes_requested" {
				t.Fatal("asset not changes_requested")
			}
			if n := len(e.notifications(t, marketer, "decision")); n != 3 {
				t.Fatalf("%d decision notifications", n)
			}
			if n := len(e.notifications(t, marketer, "round_closed")); n != 1 {
				t.Fatalf("%d round-closed notifications", n)
			}

			// The gate: same version, changes not done.
			_, err := e.call(marketer, "submit_for_review", map[string]any{"asset_id": assetID})
			if errKind(err) != refusedNotReady || fieldsOf(err)["change_requests"] == "" || fieldsOf(err)["version"] == "" {
				t.Fatalf("resubmitted at once: %v %v", err, fieldsOf(err))
			}
			v2, err := e.call(marketer, "add_asset_version", map[string]any{"asset_id": assetID, "content_html": readyHTML + "<p>Study: NEJM 2025.</p>", "change_note": "Changes of round 1"})
			if err != nil {
				t.Fatal(err)
			}
			crs := readRows(t, e.matrixEnv, viewer, "change_requests", "select=*&order=created_at&asset_id=eq."+assetID)
			if len(crs) != 2 || crs[0]["status"] != "open" || crs[0]["role"] != "reviewer_medical" || crs[0]["raised_by"] != med.UserID {
				t.Fatalf("change requests: %v", crs)
			}
			if _, err := e.call(marketer, "submit_for_review", map[string]any{"asset_id": assetID}); errKind(err) != refusedNotReady || len(fieldsOf(err)) != 1 {
				t.Fatalf("resubmitted with open change requests: %v %v", err, fieldsOf(err))
			}
			for _, cr := range crs {
				done := e.must(t, marketer, "mark_change_done", map[string]any{"change_request_id": cr["id"], "note": "Done in v2"})
				if done["status"] != "done" || done["done_version_id"] != v2["id"] || done["done_note"] != "Done in v2" {
					t.Fatalf("done: %v", done)
				}
			}
			if _, err := e.call(marketer, "mark_change_done", map[string]any{"change_request_id": crs[0]["id"]}); errKind(err) != refusedConflict {
				t.Fatalf("marked done twice: %v", err)
			}
			// Confirmed only in the next round.
			if _, err := e.call(med, "confirm_change", map[string]any{"change_request_id": crs[0]["id"]}); errKind(err) != refusedConflict {
				t.Fatalf("confirmed between rounds: %v", err)
			}

			e.clock = e.clock.Add(24 * time.Hour)
			r2, steps := e.submit(t, assetID)
			if mustNumber(t, r2["round"]) != 2 || r2["version_id"] != v2["id"] {
				t.Fatalf("round 2: %v", r2)
			}
			if _, err := e.decide(med, steps["reviewer_medical"]["id"].(string), "approved"); errKind(err) != refusedConflict {
				t.Fatalf("approved with unconfirmed changes: %v", err)
			}
			if _, err := e.call(legal, "confirm_change", map[string]any{"change_request_id": crs[0]["id"]}); errKind(err) != refusedForbidden {
				t.Fatalf("legal confirmed medical's change: %v", err)
			}
			for _, cr := range crs {
				c := e.must(t, e.medical2, "confirm_change", map[string]any{"change_request_id": cr["id"]})
				if c["status"] != "confirmed" || c["confirmed_review_id"] != r2["id"] || c["confirmed_by"] != e.medical2.UserID {
					t.Fatalf("confirm: %v", c)
				}
			}
			e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved")
			e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "approved")
			out = e.mustDecide(t, reg, steps["reviewer_regulatory"]["id"].(string), "approved")
			if out["review"].(map[string]any)["status"] != "approved" {
				t.Fatalf("round 2: %v", out["review"])
			}
			final := e.row(t, "assets", assetID)
			// Approved on 3 March 2026 for the default 12 months.
			if final["status"] != "approved" || final["approved_version_id"] != v2["id"] || final["expires_at"] != "2027-03-03" {
				t.Fatalf("approved asset: %v", final)
			}
			// Every signature of both rounds verifies.
			sigs := readRows(t, e.matrixEnv, viewer, "signatures", "select=id,signer_id,meaning&asset_id=eq."+assetID)
			if len(sigs) != 6 {
				t.Fatalf("%d signatures", len(sigs))
			}
			for _, s := range sigs {
				v := e.must(t, viewer, "verify_signature", map[string]any{"signature_id": s["id"]})
				if v["valid"] != true || v["seal_intact"] != true || v["bound_to_step"] != true || v["rendition_matches"] != true {
					t.Fatalf("verify %v: %v", s, v)
				}
			}
			for action, want := range map[string]int{
				fairbalance.ActionAssetSubmitted: 2, fairbalance.ActionStepActivated: 6, fairbalance.ActionStepClaimed: 1,
				fairbalance.ActionStepChangesRequested: 1, fairbalance.ActionStepApproved: 4, fairbalance.ActionStepApprovedWithChanges: 1,
				fairbalance.ActionReviewClosed: 2, fairbalance.ActionAssetChangesRequested: 1, fairbalance.ActionAssetApproved: 1,
				fairbalance.ActionChangeRequestRaised: 2, fairbalance.ActionChangeRequestDone: 2, fairbalance.ActionChangeRequestConfirmed: 2,
			} {
				if got := e.auditCount(t, action); got != want {
					t.Errorf("%d %s entries, want %d", got, action, want)
				}
			}
			if v, err := e.db.View().VerifyAudit(e.ctx, e.orgs["own"]); err != nil || !v.OK {
				t.Fatalf("chain: %+v %v", v, err)
			}
			// Notifications: read, own only.
			mine := readRows(t, e.matrixEnv, marketer, "notifications", "select=id,user_id")
			for _, n := range mine {
				if n["user_id"] != marketer.UserID {
					t.Fatalf("the marketer reads another's notification: %v", n)
				}
			}
			read := e.must(t, marketer, "mark_notifications_read", map[string]any{"ids": []any{mine[0]["id"]}})
			if mustNumber(t, read["updated"]) != 1 {
				t.Fatalf("read: %v", read)
			}
			read = e.must(t, marketer, "mark_notifications_read", nil)
			if mustNumber(t, read["updated"]) != len(mine)-1 {
				t.Fatalf("read all: %v (of %d)", read, len(mine))
			}
			if rows := readRows(t, e.matrixEnv, marketer, "notifications", "select=id&read_at=is.null"); len(rows) != 0 {
				t.Fatalf("unread left: %v", rows)
			}
		})
	}
}

// Every transition of the domain's tables, legal and illegal, through the
// functions: the tables say which moves succeed; every other one answers
// 409 and changes nothing (no row, no audit entry).
func TestReviewTransitionsFromTables(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			admin, marketer := e.own[fairbalance.RoleAdmin], e.own[fairbalance.RoleMarketer]
			med := e.own[fairbalance.RoleReviewerMedical]
			// refused checks that a refused call changed nothing.
			refused := func(t *testing.T, what string, err error, before int64) {
				t.Helper()
				if errKind(err) != refusedConflict {
					t.Errorf("%s: %v, want 409", what, err)
				}
				if got := e.auditLength(t); got != before {
					t.Errorf("%s: a refused call wrote %d audit entries", what, got-before)
				}
			}
			n := 0
			round := func() (map[string]any, map[string]map[string]any) {
				n++
				a := e.asset(t, "Asset "+sprint(n))
				return e.submit(t, a["id"].(string))
			}

			// Steps: decide_step from every status with every decision.
			for _, from := range fairbalance.AllStepStatuses {
				for _, d := range fairbalance.AllDecisions {
					_, steps := round()
					id := steps["reviewer_medical"]["id"].(string)
					if from != fairbalance.StepActive {
						e.patch(t, "review_steps", id, map[string]any{"status": string(from)})
					}
					var extra []any
					if d == fairbalance.DecisionChangesRequested {
						extra = []any{"change_requests", []any{"Fix it."}}
					}
					before := e.auditLength(t)
					_, err := e.decide(med, id, string(d), extra...)
					what := string(from) + ">" + string(d)
					if fairbalance.StepTransitions.Allows(from, d.StepStatus()) {
						if err != nil {
							t.Errorf("%s: %v", what, err)
						} else if s := e.row(t, "review_steps", id); s["status"] != string(d) {
							t.Errorf("%s: step %v", what, s["status"])
						}
						continue
					}
					refused(t, what, err, before)
					if s := e.row(t, "review_steps", id); s["status"] != string(from) || s["signature_id"] != nil {
						t.Errorf("%s: refused decision changed the step: %v", what, s)
					}
				}
			}
			// Claims: only a step that may still be decided is claimed.
			for _, from := range fairbalance.AllStepStatuses {
				_, steps := round()
				id := steps["reviewer_legal"]["id"].(string)
				e.patch(t, "review_steps", id, map[string]any{"status": string(from)})
				before := e.auditLength(t)
				_, err := e.call(e.own[fairbalance.RoleReviewerLegal], "claim_step", map[string]any{"step_id": id})
				if fairbalance.StepTransitions.Allows(from, fairbalance.StepApproved) {
					if err != nil {
						t.Errorf("claim %s: %v", from, err)
					}
					continue
				}
				refused(t, "claim "+string(from), err, before)
			}

			// Rounds: withdrawn and decided only while open.
			for _, from := range fairbalance.AllReviewStatuses {
				r, _ := round()
				e.patch(t, "reviews", r["id"].(string), map[string]any{"status": string(from)})
				before := e.auditLength(t)
				_, err := e.call(marketer, "withdraw_review", map[string]any{"review_id": r["id"]})
				if fairbalance.ReviewTransitions.Allows(from, fairbalance.ReviewWithdrawn) {
					if err != nil {
						t.Errorf("withdraw %s: %v", from, err)
					} else if got := e.row(t, "assets", r["asset_id"].(string))["status"]; got != "draft" {
						t.Errorf("withdrawn round left the asset %v", got)
					}
					continue
				}
				refused(t, "withdraw "+string(from), err, before)
			}
			for _, from := range fairbalance.AllReviewStatuses {
				r, steps := round()
				e.patch(t, "reviews", r["id"].(string), map[string]any{"status": string(from)})
				before := e.auditLength(t)
				_, err := e.decide(med, steps["reviewer_medical"]["id"].(string), "approved")
				if fairbalance.ReviewTransitions.Allows(from, fairbalance.ReviewApproved) {
					if err != nil {
						t.Errorf("decide in a %s round: %v", from, err)
					}
					continue
				}
				refused(t, "decide in a "+string(from)+" round", err, before)
			}
			// A round with a decision is no longer withdrawn.
			r, steps := round()
			e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved")
			before := e.auditLength(t)
			_, err := e.call(marketer, "withdraw_review", map[string]any{"review_id": r["id"]})
			refused(t, "withdraw after a decision", err, before)

			// Assets: submitted from draft and changes_requested; withdrawn
			// when approved.
			for _, from := range fairbalance.AllAssetStatuses {
				n++
				a := e.asset(t, "Asset "+sprint(n))
				e.patch(t, "assets", a["id"].(string), map[string]any{"status": string(from)})
				before := e.auditLength(t)
				_, err := e.call(marketer, "submit_for_review", map[string]any{"asset_id": a["id"]})
				if fairbalance.AssetTransitions.Allows(from, fairbalance.AssetInReview) {
					if err != nil {
						t.Errorf("submit %s: %v", from, err)
					}
				} else {
					refused(t, "submit "+string(from), err, before)
				}
				n++
				b := e.asset(t, "Asset "+sprint(n))
				e.patch(t, "assets", b["id"].(string), map[string]any{"status": string(from)})
				before = e.auditLength(t)
				_, err = e.call(admin, "withdraw_asset", map[string]any{"asset_id": b["id"], "reason": "Superseded by the 2027 campaign."})
				if fairbalance.AssetTransitions.Allows(from, fairbalance.AssetWithdrawn) {
					if err != nil {
						t.Errorf("withdraw asset %s: %v", from, err)
					} else if e.row(t, "assets", b["id"].(string))["status"] != "withdrawn" {
						t.Errorf("withdraw asset %s: not withdrawn", from)
					}
				} else {
					refused(t, "withdraw asset "+string(from), err, before)
				}
			}

			// Change requests: done from open, confirmed from done.
			a := e.asset(t, "Change requests")
			_, steps = e.submit(t, a["id"].(string))
			e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "changes_requested", "change_requests", []any{"One.", "Two."})
			e.mustDecide(t, e.own[fairbalance.RoleReviewerLegal], steps["reviewer_legal"]["id"].(string), "approved")
			e.mustDecide(t, e.own[fairbalance.RoleReviewerRegulatory], steps["reviewer_regulatory"]["id"].(string), "approved")
			crs := readRows(t, e.matrixEnv, marketer, "change_requests", "select=id&order=created_at&asset_id=eq."+a["id"].(string))
			cr, other := crs[0]["id"].(string), crs[1]["id"].(string)
			for _, from := range fairbalance.AllChangeRequestStatuses {
				e.patch(t, "change_requests", cr, map[string]any{"status": string(from)})
				before := e.auditLength(t)
				_, err := e.call(marketer, "mark_change_done", map[string]any{"change_request_id": cr})
				if fairbalance.ChangeRequestTransitions.Allows(from, fairbalance.ChangeDone) {
					if err != nil {
						t.Errorf("done from %s: %v", from, err)
					}
					continue
				}
				refused(t, "done from "+string(from), err, before)
			}
			e.patch(t, "change_requests", cr, map[string]any{"status": "done"})
			e.patch(t, "change_requests", other, map[string]any{"status": "done"})
			e.must(t, marketer, "add_asset_version", map[string]any{"asset_id": a["id"], "content_html": readyHTML + "<p>v2</p>", "change_note": "v2"})
			e.submit(t, a["id"].(string))
			for _, from := range fairbalance.AllChangeRequestStatuses {
				e.patch(t, "change_requests", cr, map[string]any{"status": string(from)})
				before := e.auditLength(t)
				_, err := e.call(med, "confirm_change", map[string]any{"change_request_id": cr})
				if fairbalance.ChangeRequestTransitions.Allows(from, fairbalance.ChangeConfirmed) {
					if err != nil {
						t.Errorf("confirm from %s: %v", from, err)
					}
					continue
				}
				refused(t, "confirm from "+string(from), err, before)
			}
		})
	}
}

// Reviewers deciding the parallel steps of a round at the same moment:
// each decision is recorded once, the round closes exactly once, with
// one review_closed entry, and the chain stays whole.
func TestReviewConcurrentDecisions(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			roles := []string{fairbalance.RoleReviewerMedical, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerRegulatory}
			const rounds = 3
			for i := range rounds {
				a := e.asset(t, "Concurrent "+sprint(i))
				_, steps := e.submit(t, a["id"].(string))
				errs := make(chan error, len(roles))
				for _, role := range roles {
					go func() {
						_, err := e.decide(e.own[role], steps[role]["id"].(string), "approved")
						errs <- err
					}()
				}
				for range roles {
					if err := <-errs; err != nil {
						t.Fatalf("round %d: %v", i, err)
					}
				}
				if got := e.row(t, "assets", a["id"].(string))["status"]; got != "approved" {
					t.Fatalf("round %d: asset %v", i, got)
				}
			}
			if n := e.auditCount(t, fairbalance.ActionReviewClosed); n != rounds {
				t.Fatalf("%d rounds closed, want %d", n, rounds)
			}
			if n := e.auditCount(t, fairbalance.ActionAssetApproved); n != rounds {
				t.Fatalf("%d approvals, want %d", n, rounds)
			}
			if v, err := e.db.View().VerifyAudit(e.ctx, e.orgs["own"]); err != nil || !v.OK {
				t.Fatalf("chain: %+v %v", v, err)
			}
		})
	}
}
