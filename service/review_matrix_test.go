package service_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/service"
)

// checkReviewMatrix extends the permission matrix (TestPermissionMatrix)
// to the review workflow: every table is read by every member of its own
// organisation only (notifications: one's own only) and written by nobody
// through the table; every function is refused (42501) to whoever product
// design, section 2, does not let do it, to demo sessions and to
// anonymous callers, and reaches nothing of another organisation.
func checkReviewMatrix(t *testing.T, m *matrixEnv, tested map[string]bool, check func(string, bool)) {
	e := reviewEnvOn(t, m)
	anon := fairbalance.Caller{Role: "anon"}
	other := m.members["other"]

	// Rows in both organisations: a round with a decision and a change
	// request, settings, a template, notifications.
	var rounds = map[string]map[string]any{}
	var crs = map[string]string{}
	var sigs = map[string]string{}
	var decidedStep = map[string]string{}
	var openAsset = map[string]string{}
	var notReady = map[string]string{}
	for _, org := range []string{"own", "other"} {
		mem := m.members[org]
		product := e.product
		if org == "other" {
			product, _ = e.productOf(t, mem)
		}
		create := func(title, market string) string {
			a := e.must(t, mem[fairbalance.RoleMarketer], "create_asset", map[string]any{"title": title, "type": "email", "audience": "hcp",
				"channel": "Email", "market": market, "product_id": product["id"], "content_html": readyHTML})
			return a["id"].(string)
		}
		// A closed round with a change request, marked done.
		a := create("Changes", "US")
		r := e.must(t, mem[fairbalance.RoleMarketer], "submit_for_review", map[string]any{"asset_id": a})
		steps := byRole(r["steps"])
		e.mustDecide(t, mem[fairbalance.RoleReviewerMedical], steps["reviewer_medical"]["id"].(string), "changes_requested", "change_requests", []any{"Fix."})
		e.mustDecide(t, mem[fairbalance.RoleReviewerLegal], steps["reviewer_legal"]["id"].(string), "approved")
		e.mustDecide(t, mem[fairbalance.RoleReviewerRegulatory], steps["reviewer_regulatory"]["id"].(string), "approved")
		cr := readRows(t, m, mem[fairbalance.RoleViewer], "change_requests", "select=id&asset_id=eq."+a)[0]["id"].(string)
		e.must(t, mem[fairbalance.RoleMarketer], "mark_change_done", map[string]any{"change_request_id": cr})
		crs[org] = cr
		// An open round with a decided step.
		b := create("Open", "US")
		r = e.must(t, mem[fairbalance.RoleMarketer], "submit_for_review", map[string]any{"asset_id": b})
		steps = byRole(r["steps"])
		out := e.mustDecide(t, mem[fairbalance.RoleReviewerMedical], steps["reviewer_medical"]["id"].(string), "approved")
		rounds[org], openAsset[org] = r, b
		sigs[org], decidedStep[org] = out["signature"].(map[string]any)["id"].(string), steps["reviewer_medical"]["id"].(string)
		notReady[org] = create("Not ready", "")
		e.must(t, mem[fairbalance.RoleAdmin], "set_review_settings", map[string]any{"approval_validity_months": 24})
		e.must(t, mem[fairbalance.RoleAdmin], "save_workflow_template", map[string]any{"name": "Legal only", "steps": []any{
			map[string]any{"role": "reviewer_legal", "required": true, "order": 1, "due_days": 3}}})
	}
	own := m.members["own"]
	legalStep := byRole(rounds["own"]["steps"])["reviewer_legal"]["id"].(string)
	regulatoryStep := byRole(rounds["own"]["steps"])["reviewer_regulatory"]["id"].(string)

	// Reads.
	for _, table := range []string{"workflow_templates", "review_settings", "reviews", "review_steps", "signatures", "change_requests", "notifications"} {
		tested[table] = true
		for _, role := range fairbalance.Roles {
			c := own[role]
			rows := readRows(t, m, c, table, "select=*")
			for _, r := range rows {
				check(fmt.Sprintf("%s sees %s of %v", role, table, r["org_id"]), r["org_id"] == m.orgs["own"])
				if table == "notifications" {
					check(fmt.Sprintf("%s reads a notification of %v", role, r["user_id"]), r["user_id"] == c.UserID)
				}
			}
			if table != "notifications" {
				check(fmt.Sprintf("%s sees no %s", role, table), len(rows) > 0)
			}
			for op, do := range map[string]func() error{
				"insert": func() error {
					_, err := m.data.Insert(m.ctx, c, table, req(t, ""), []byte(`{"org_id":"org-own"}`))
					return err
				},
				"update": func() error {
					_, err := m.data.Update(m.ctx, c, table, req(t, "org_id=eq.org-own"), []byte(`{"org_id":"org-own"}`))
					return err
				},
				"delete": func() error {
					_, err := m.data.Delete(m.ctx, c, table, req(t, "org_id=eq.org-own"))
					return err
				},
			} {
				err := do()
				check(fmt.Sprintf("%s %ss %s through the table: %v", role, op, table, err), denied(err))
			}
		}
		_, err := m.data.Read(m.ctx, anon, table, req(t, "select=*"))
		check("anonymous reads "+table, denied(err))
	}
	for _, role := range []string{fairbalance.RoleMarketer, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerMedical} {
		check(role+" has notifications", len(readRows(t, m, own[role], "notifications", "select=id")) > 0)
	}

	// Functions: who may, by role; the rest of the rows are answered by
	// the workflow's state (409, 422, 400, 404) without a change.
	writers := map[string]bool{fairbalance.RoleOwner: true, fairbalance.RoleAdmin: true, fairbalance.RoleMarketer: true}
	everyone := map[string]bool{}
	for _, r := range fairbalance.Roles {
		everyone[r] = true
	}
	only := func(role string) map[string]bool { return map[string]bool{role: true} }
	calls := []struct {
		fn   string
		args map[string]any
		may  map[string]bool
	}{
		{"submit_for_review", map[string]any{"asset_id": notReady["own"]}, writers},
		{"review_gate", map[string]any{"asset_id": openAsset["own"]}, everyone},
		{"withdraw_review", map[string]any{"review_id": rounds["own"]["id"]}, writers},
		{"claim_step", map[string]any{"step_id": decidedStep["own"]}, only(fairbalance.RoleReviewerMedical)},
		{"assign_step", map[string]any{"step_id": regulatoryStep, "user_id": own[fairbalance.RoleReviewerRegulatory].UserID}, admins},
		{"decide_step", map[string]any{"step_id": legalStep, "decision": "approved", "comment": "ok", "password": "Not-The-Password-1"}, only(fairbalance.RoleReviewerLegal)},
		{"mark_change_done", map[string]any{"change_request_id": crs["own"]}, writers},
		{"confirm_change", map[string]any{"change_request_id": crs["own"]}, only(fairbalance.RoleReviewerMedical)},
		{"verify_signature", map[string]any{"signature_id": sigs["own"]}, everyone},
		{"withdraw_asset", map[string]any{"asset_id": openAsset["own"], "reason": "Because."}, admins},
		{"set_asset_expiry", map[string]any{"asset_id": openAsset["own"], "expires_at": "2030-01-01"}, admins},
		{"mark_notifications_read", map[string]any{"ids": []any{}}, everyone},
		{"save_workflow_template", map[string]any{"name": "", "steps": []any{}}, admins},
		{"delete_workflow_template", map[string]any{"template_id": "00000000-0000-4000-8000-00000000abcd"}, admins},
		{"set_review_settings", map[string]any{"approval_validity_months": 0}, admins},
		{"review_queue", map[string]any{"tab": "open"}, everyone},
	}
	readOnly := map[string]bool{"review_gate": true, "verify_signature": true, "review_queue": true}
	for _, cl := range calls {
		tested["rpc:"+cl.fn] = true
		for _, role := range fairbalance.Roles {
			c := own[role]
			before := e.auditLength(t)
			_, err := e.call(c, cl.fn, cl.args)
			if cl.may[role] {
				check(fmt.Sprintf("%s may call %s: %v", role, cl.fn, err), !denied(err) && (errKind(err) != refusedNotFound || cl.fn == "delete_workflow_template") && (err == nil || fairbalance.AsError(err).Kind != fairbalance.KindInternal))
			} else {
				check(fmt.Sprintf("%s calls %s: %v", role, cl.fn, err), denied(err))
				check(fmt.Sprintf("%s's refused %s wrote to the audit trail", role, cl.fn), e.auditLength(t) == before)
			}
			demo := c
			demo.Demo = true
			_, err = e.call(demo, cl.fn, cl.args)
			check(fmt.Sprintf("demo %s calls %s: %v", role, cl.fn, err), readOnly[cl.fn] || denied(err))
			// Another organisation's member, whatever their role, reaches
			// nothing of this one.
			_, err = e.call(other[role], cl.fn, cl.args)
			check(fmt.Sprintf("%s of another organisation calls %s: %v", role, cl.fn, err), err != nil || cl.fn == "review_queue" || cl.fn == "mark_notifications_read")
		}
		_, err := e.call(anon, cl.fn, cl.args)
		check("anonymous calls "+cl.fn, denied(err))
	}
	// The workflow's own rows are unchanged by all this.
	check("the open round is still open", e.row(t, "reviews", rounds["own"]["id"].(string))["status"] == "open")
	check("the change request is still done", e.row(t, "change_requests", crs["own"])["status"] == "done")
	check("the open asset is still in review", e.row(t, "assets", openAsset["own"])["status"] == "in_review")
	// Another organisation's queue lists nothing of this one.
	q := e.must(t, other[fairbalance.RoleAdmin], "review_queue", map[string]any{"tab": "open"})
	for _, it := range q["items"].([]any) {
		check("another organisation's queue lists "+fmt.Sprint(it.(map[string]any)["id"]), it.(map[string]any)["id"] != rounds["own"]["id"])
	}
}

// The review workflow's domain types hold a row as its table serves it:
// one field per column, and rows read through the registry decode into them.
func TestReviewDomainTypesMatchRegistry(t *testing.T) {
	types := map[string]any{
		"workflow_templates": fairbalance.WorkflowTemplate{}, "review_settings": fairbalance.ReviewSettings{}, "reviews": fairbalance.Review{},
		"review_steps": fairbalance.ReviewStep{}, "signatures": fairbalance.Signature{}, "change_requests": fairbalance.ChangeRequest{},
		"notifications": fairbalance.Notification{}, "annotations": fairbalance.Annotation{}, "annotation_replies": fairbalance.AnnotationReply{},
	}
	for _, table := range service.ReviewTables() {
		v, ok := types[table.Name]
		if !ok {
			t.Errorf("table %s has no domain type", table.Name)
			continue
		}
		var cols, fields []string
		for _, c := range table.Columns {
			cols = append(cols, c.Name)
		}
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			fields = append(fields, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
		}
		slices.Sort(cols)
		slices.Sort(fields)
		if !slices.Equal(cols, fields) {
			t.Errorf("%s: columns %v, %s fields %v", table.Name, cols, rt.Name(), fields)
		}
	}
}
