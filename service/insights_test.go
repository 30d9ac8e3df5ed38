package service_test

import (
	"encoding/json"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// TestComplianceInsights drives known rounds through the workflow with a
// controlled clock and checks every number of compliance_insights:
//
//	A  round 1 approved after 24 h                     (first pass)
//	B  round 1 changes requested by medical (two requests, one pointing at
//	   an annotation of category claim_needs_reference), round 2 approved
//	   72 h after round 1's submission                   (two rounds)
//	C  round 1 rejected by legal after 10 h
//	D  round 1 open, its steps overdue
//	E  of a second product, approved at round 1 after 48 h
func TestComplianceInsights(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			marketer, admin := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleAdmin]
			med, legal, reg := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleReviewerLegal], e.own[fairbalance.RoleReviewerRegulatory]
			viewer := e.own[fairbalance.RoleViewer]
			t0 := e.clock
			at := func(h int) { e.clock = t0.Add(time.Duration(h) * time.Hour) }

			a, b, c, d := e.asset(t, "A"), e.asset(t, "B"), e.asset(t, "C"), e.asset(t, "D")
			_, sa := e.submit(t, a["id"].(string))
			_, sb := e.submit(t, b["id"].(string))
			_, sc := e.submit(t, c["id"].(string))
			_, sd := e.submit(t, d["id"].(string))

			// B's medical reviewer annotates the version and points a change request at it.
			ann := e.must(t, med, "create_annotation", map[string]any{"version_id": b["current_version_id"], "category": "claim_needs_reference",
				"body": "Which study?", "target": map[string]any{"type": "text", "exact": "LDL-C by half"}})

			at(10)
			e.mustDecide(t, legal, sc["reviewer_legal"]["id"].(string), "rejected", "comment", "Off-label population in the headline.")
			at(24)
			for role, who := range map[string]fairbalance.Caller{"reviewer_medical": med, "reviewer_legal": legal, "reviewer_regulatory": reg} {
				e.mustDecide(t, who, sa[role]["id"].(string), "approved")
			}
			e.mustDecide(t, legal, sb["reviewer_legal"]["id"].(string), "approved")
			e.mustDecide(t, reg, sb["reviewer_regulatory"]["id"].(string), "approved")
			e.mustDecide(t, med, sb["reviewer_medical"]["id"].(string), "changes_requested", "change_requests",
				[]any{map[string]any{"text": "Add a reference for the LDL-C claim.", "annotation_id": ann["id"]}, "Add a reference for the LDL-C claim. "})
			at(30)
			e.must(t, marketer, "add_asset_version", map[string]any{"asset_id": b["id"], "content_html": readyHTML + "<p>Study: NEJM 2025.</p>", "change_note": "v2"})
			for _, cr := range readRows(t, e.matrixEnv, viewer, "change_requests", "select=id&asset_id=eq."+b["id"].(string)) {
				e.must(t, marketer, "mark_change_done", map[string]any{"change_request_id": cr["id"], "note": "Done"})
			}
			_, sb2 := e.submit(t, b["id"].(string))
			at(72)
			for _, cr := range readRows(t, e.matrixEnv, viewer, "change_requests", "select=id&asset_id=eq."+b["id"].(string)) {
				e.must(t, med, "confirm_change", map[string]any{"change_request_id": cr["id"]})
			}
			for role, who := range map[string]fairbalance.Caller{"reviewer_medical": med, "reviewer_legal": legal, "reviewer_regulatory": reg} {
				e.mustDecide(t, who, sb2[role]["id"].(string), "approved")
			}

			// E: a second product, approved at round 1 after 48 h (submitted at 72 h).
			p2 := mustInsert(t, e.matrixEnv, admin, "products", map[string]any{"brand_name": "Corvanta", "isi_text": e.product["isi_text"]})
			mustInsert(t, e.matrixEnv, marketer, "modules", map[string]any{"kind": "isi", "title": "Corvanta ISI", "body": "Corvanta ISI.", "product_id": p2["id"]})
			ea, err := e.call(marketer, "create_asset", map[string]any{"title": "E", "type": "banner", "audience": "hcp",
				"channel": "Web", "market": "US", "product_id": p2["id"], "content_html": readyHTML})
			if err != nil {
				t.Fatal(err)
			}
			_, se := e.submit(t, ea["id"].(string))
			at(120)
			for role, who := range map[string]fairbalance.Caller{"reviewer_medical": med, "reviewer_legal": legal, "reviewer_regulatory": reg} {
				e.mustDecide(t, who, se[role]["id"].(string), "approved")
			}
			// Approvals expire: A in 20 days, E in 50, B in 400.
			e.clock = t0.Add(30 * 24 * time.Hour)
			now := e.clock
			for id, days := range map[string]int{a["id"].(string): 20, ea["id"].(string): 50, b["id"].(string): 400} {
				e.must(t, admin, "set_asset_expiry", map[string]any{"asset_id": id, "expires_at": now.AddDate(0, 0, days).Format(time.DateOnly)})
			}

			// Findings of rules of the test's own (the compliance check adds
			// its findings to every version): B's superlative on version 1 and carried onto version 2
			// (counted once), E's superlative, A's comparative a month later.
			bv := readRows(t, e.matrixEnv, viewer, "asset_versions", "select=id&order=number&asset_id=eq."+b["id"].(string))
			finding := func(asset map[string]any, productID any, version, first, rule string, created time.Time) {
				t.Helper()
				err := sqltest.Exec(e.ctx, e.db, `INSERT INTO compliance_findings (id, org_id, asset_id, version_id, product_id, asset_type, rule, rule_version, severity,
  state, start_pos, end_pos, quote, message, guidance, target, sort_page, sort_pos, first_version_id, created_at, updated_at)
  VALUES (?,?,?,?,?,'email',?,1,'critical','open',0,8,'the best','m','','{}',1,0,?,?,?)`,
					auth.NewUUID(), e.orgs["own"], asset["id"], version, productID, rule, first, created, created)
				if err != nil {
					t.Fatal(err)
				}
			}
			v1, v2 := bv[0]["id"].(string), bv[1]["id"].(string)
			finding(b, e.product["id"], v1, v1, "test-superlative", t0)
			finding(b, e.product["id"], v2, v1, "test-superlative", t0.Add(30*time.Hour))
			finding(ea, p2["id"], ea["current_version_id"].(string), ea["current_version_id"].(string), "test-superlative", t0.Add(72*time.Hour))
			finding(a, e.product["id"], a["current_version_id"].(string), a["current_version_id"].(string), "test-comparative", now.Add(-time.Hour))

			all := e.must(t, viewer, "compliance_insights", nil)
			wantJSON(t, "findings_by_rule", ours(all["findings_by_rule"]), `[{"count":2,"month":"2026-03","rule":"test-superlative"},{"count":1,"month":"2026-04","rule":"test-comparative"}]`)
			// The compliance check's own findings on the versions are counted too.
			if len(all["findings_by_rule"].([]any)) == len(ours(all["findings_by_rule"])) {
				t.Fatalf("no findings of the compliance check: %v", all["findings_by_rule"])
			}
			wantJSON(t, "first_pass", all["first_pass"], `{"approved":3,"first_pass":2,"rate":0.667}`)
			// Cycle times 24, 48, 72 h: median 48.
			wantJSON(t, "cycle_time", all["cycle_time"], `{"approved":3,"median_hours":48,"p90_hours":67.2}`)
			wantJSON(t, "rounds_per_asset", all["rounds_per_asset"], `[{"assets":2,"rounds":1},{"assets":1,"rounds":2},{"assets":0,"rounds":3},{"assets":0,"rounds":4}]`)
			wantJSON(t, "decisions", all["reasons"].(map[string]any)["decisions"],
				`[{"count":1,"decision":"rejected","role":"reviewer_legal"},{"count":1,"decision":"changes_requested","role":"reviewer_medical"}]`)
			wantJSON(t, "by_category", all["reasons"].(map[string]any)["by_category"],
				`[{"category":"claim_needs_reference","count":1,"role":"reviewer_medical"},{"category":"general","count":1,"role":"reviewer_medical"}]`)
			wantJSON(t, "top_requests", all["reasons"].(map[string]any)["top_requests"],
				`[{"count":2,"role":"reviewer_medical","text":"Add a reference for the LDL-C claim."}]`)
			rej := all["reasons"].(map[string]any)["recent_rejections"].([]any)
			if len(rej) != 1 || rej[0].(map[string]any)["comment"] != "Off-label population in the headline." || rej[0].(map[string]any)["asset_title"] != "C" {
				t.Fatalf("recent rejections: %v", rej)
			}
			// Steps decided: A 3 (24 h), B round 1 3 (24 h), round 2 3 (42 h),
			// C legal 1 (10 h), E 3 (48 h) — medians 33 h (24 24 42 48) and 24 h
			// (10 24 24 42 48); D's three are open and overdue,
			// C's medical and regulatory were skipped by the rejection.
			wantJSON(t, "workload", all["workload"], `[`+
				`{"completed_steps":4,"median_turnaround_hours":33,"open_steps":1,"overdue_steps":1,"role":"reviewer_medical"},`+
				`{"completed_steps":5,"median_turnaround_hours":24,"open_steps":1,"overdue_steps":1,"role":"reviewer_legal"},`+
				`{"completed_steps":4,"median_turnaround_hours":33,"open_steps":1,"overdue_steps":1,"role":"reviewer_regulatory"}]`)
			if all["overdue_total"] != float64(3) || len(all["overdue"].([]any)) != 3 || all["overdue"].([]any)[0].(map[string]any)["asset_id"] != d["id"] {
				t.Fatalf("overdue: %v %v", all["overdue_total"], all["overdue"])
			}
			wantJSON(t, "expiring", all["expiring"], `[{"count":1,"days":30},{"count":2,"days":60},{"count":2,"days":90}]`)
			if ex := all["expiring_assets"].([]any); len(ex) != 2 || ex[0].(map[string]any)["title"] != "A" || ex[0].(map[string]any)["days_left"] != float64(20) {
				t.Fatalf("expiring assets: %v", ex)
			}
			_ = sd

			// One product: E leaves every series.
			one := e.must(t, viewer, "compliance_insights", map[string]any{"product_id": e.product["id"]})
			wantJSON(t, "first_pass of one product", one["first_pass"], `{"approved":2,"first_pass":1,"rate":0.5}`)
			wantJSON(t, "findings of one product", ours(one["findings_by_rule"]), `[{"count":1,"month":"2026-03","rule":"test-superlative"},{"count":1,"month":"2026-04","rule":"test-comparative"}]`)
			wantJSON(t, "expiring of one product", one["expiring"], `[{"count":1,"days":30},{"count":1,"days":60},{"count":1,"days":90}]`)
			// A period before everything: no history, the present unchanged.
			old := e.must(t, viewer, "compliance_insights", map[string]any{"from": "2025-01-01", "to": "2025-12-31"})
			wantJSON(t, "first_pass of 2025", old["first_pass"], `{"approved":0,"first_pass":0,"rate":null}`)
			if old["from"] != "2025-01-01" || old["to"] != "2025-12-31" || old["overdue_total"] != float64(3) {
				t.Fatalf("period: %v %v %v", old["from"], old["to"], old["overdue_total"])
			}
			// The default period: the twelve calendar months to today.
			if all["from"] != "2025-05-01" || all["to"] != now.Format(time.DateOnly) {
				t.Fatalf("default period: %v to %v", all["from"], all["to"])
			}

			// Refusals: bad dates name their field; another organisation's product is not found.
			for _, bad := range []struct {
				args  map[string]any
				field string
			}{{map[string]any{"from": "2026-13-01"}, "from"}, {map[string]any{"to": "yesterday"}, "to"},
				{map[string]any{"from": "2026-03-01", "to": "2026-02-01"}, "from"}, {map[string]any{"from": "2010-01-01", "to": "2026-01-01"}, "from"}} {
				if _, err := e.call(viewer, "compliance_insights", bad.args); errKind(err) != "invalid/P0001" || fieldsOf(err)[bad.field] == "" {
					t.Fatalf("%v: %v %v", bad.args, err, fieldsOf(err))
				}
			}
			otherProduct, _ := e.productOf(t, e.members["other"])
			for _, id := range []any{otherProduct["id"], "not-a-uuid"} {
				if _, err := e.call(viewer, "compliance_insights", map[string]any{"product_id": id}); errKind(err) != refusedNotFound || fieldsOf(err)["product_id"] == "" {
					t.Fatalf("product %v: %v", id, err)
				}
			}
			// Another organisation sees none of this.
			theirs := e.must(t, e.members["other"][fairbalance.RoleViewer], "compliance_insights", nil)
			wantJSON(t, "other organisation", theirs["first_pass"], `{"approved":0,"first_pass":0,"rate":null}`)
			if theirs["overdue_total"] != float64(0) {
				t.Fatalf("other organisation overdue: %v", theirs["overdue_total"])
			}
			if _, err := e.call(fairbalance.Caller{Role: "anon"}, "compliance_insights", nil); err == nil {
				t.Fatal("anonymous insights")
			}
		})
	}
}

// wantJSON compares v, as JSON, with want.
func wantJSON(t *testing.T, what string, v any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if got, wantS := jsonString(v), jsonString(w); got != wantS {
		t.Fatalf("%s:\n got %s\nwant %s", what, got, wantS)
	}
}

// ours keeps the series' entries of the test's own rules ("test-…").
func ours(series any) []any {
	out := []any{}
	for _, e := range series.([]any) {
		if r, _ := e.(map[string]any)["rule"].(string); len(r) > 5 && r[:5] == "test-" {
			out = append(out, e)
		}
	}
	return out
}

// checkInsightsMatrix: every member of an organisation reads its insights
// (a reader, who changes nothing); an anonymous caller does not.
func checkInsightsMatrix(t *testing.T, m *matrixEnv, tested map[string]bool, check func(string, bool)) {
	t.Helper()
	tested["rpc:compliance_insights"] = true
	for _, role := range fairbalance.Roles {
		c, ok := m.members["own"][role]
		if !ok {
			continue
		}
		_, err := callErr(m, c, "compliance_insights", nil)
		check(role+" reads the insights", err == nil)
	}
	_, err := m.data.Call(m.ctx, fairbalance.Caller{Role: "anon"}, "compliance_insights", nil, true)
	check("anonymous reads the insights", denied(err))
}
