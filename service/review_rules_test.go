package service_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

// The roll-up of rounds with sequential orders and optional steps, the
// rejection that closes at once, and the ready-for-review gate's
// conditions, through the functions.

func TestReviewRollUpSequentialAndOptional(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			admin := e.own[fairbalance.RoleAdmin]
			med, legal, reg := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleReviewerLegal], e.own[fairbalance.RoleReviewerRegulatory]
			// Medical first; then legal (required) and regulatory (optional)
			// in parallel.
			tpl := e.must(t, admin, "save_workflow_template", map[string]any{"name": "Medical first", "steps": []any{
				map[string]any{"role": "reviewer_medical", "required": true, "order": 1, "due_days": 2},
				map[string]any{"role": "reviewer_legal", "required": true, "order": 2, "due_days": 3},
				map[string]any{"role": "reviewer_regulatory", "required": false, "order": 2, "due_days": 1},
			}})
			a := e.asset(t, "Sequential")
			// Friday 09:00.
			e.clock = time.Date(2026, 3, 6, 9, 0, 0, 0, time.UTC)
			r, steps := e.submit(t, a["id"].(string), "template_id", tpl["id"])
			if r["template_id"] != tpl["id"] || r["template_name"] != "Medical first" {
				t.Fatalf("round: %v", r)
			}
			if steps["reviewer_medical"]["status"] != "active" || steps["reviewer_legal"]["status"] != "waiting" || steps["reviewer_regulatory"]["status"] != "waiting" {
				t.Fatalf("order 1 only: %v", steps)
			}
			// Friday + 2 business days = Tuesday.
			if !strings.HasPrefix(steps["reviewer_medical"]["due_at"].(string), "2026-03-10T09:00:00") {
				t.Fatalf("due: %v", steps["reviewer_medical"]["due_at"])
			}
			if _, err := e.decide(legal, steps["reviewer_legal"]["id"].(string), "approved"); errKind(err) != refusedConflict {
				t.Fatalf("a waiting step was decided: %v", err)
			}
			if _, err := e.call(legal, "claim_step", map[string]any{"step_id": steps["reviewer_legal"]["id"]}); errKind(err) != refusedConflict {
				t.Fatalf("a waiting step was claimed: %v", err)
			}
			e.clock = time.Date(2026, 3, 9, 10, 0, 0, 0, time.UTC) // Monday
			e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved_with_changes")
			steps = e.steps(t, r["id"].(string))
			if steps["reviewer_legal"]["status"] != "active" || steps["reviewer_regulatory"]["status"] != "active" ||
				!strings.HasPrefix(steps["reviewer_legal"]["due_at"].(string), "2026-03-12T10:00:00") ||
				!strings.HasPrefix(steps["reviewer_regulatory"]["due_at"].(string), "2026-03-10T10:00:00") {
				t.Fatalf("order 2 active: %v", steps)
			}
			if got := e.row(t, "reviews", r["id"].(string))["due_at"]; !strings.HasPrefix(got.(string), "2026-03-10T10:00:00") {
				t.Fatalf("round due: %v", got)
			}
			// The optional step does not hold the round open.
			out := e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "approved")
			if out["review"].(map[string]any)["status"] != "approved" {
				t.Fatalf("round: %v", out["review"])
			}
			if s := e.steps(t, r["id"].(string))["reviewer_regulatory"]; s["status"] != "skipped" {
				t.Fatalf("optional step: %v", s)
			}
			if _, err := e.decide(reg, steps["reviewer_regulatory"]["id"].(string), "approved"); errKind(err) != refusedConflict {
				t.Fatalf("a skipped step was decided: %v", err)
			}
			if got := e.row(t, "assets", a["id"].(string)); got["status"] != "approved" || got["expires_at"] != "2027-03-09" {
				t.Fatalf("asset: %v", got)
			}

			// Changes requested in order 1: the round closes; order 2 never starts.
			b := e.asset(t, "Changes first")
			r, steps = e.submit(t, b["id"].(string), "template_id", tpl["id"])
			out = e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "changes_requested", "change_requests", []any{"Rework the headline."})
			if out["review"].(map[string]any)["status"] != "changes_requested" {
				t.Fatalf("round: %v", out["review"])
			}
			for role, s := range e.steps(t, r["id"].(string)) {
				if role != "reviewer_medical" && s["status"] != "skipped" {
					t.Fatalf("%s: %v", role, s["status"])
				}
			}

			// A rejection closes the round at once, whoever else is pending.
			c := e.asset(t, "Rejected")
			r, steps = e.submit(t, c["id"].(string))
			out = e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "rejected")
			if out["review"].(map[string]any)["status"] != "rejected" || out["signature"].(map[string]any)["meaning"] != "rejection" {
				t.Fatalf("rejection: %v", out)
			}
			for role, s := range e.steps(t, r["id"].(string)) {
				if role != "reviewer_legal" && s["status"] != "skipped" {
					t.Fatalf("%s: %v", role, s["status"])
				}
			}
			if got := e.row(t, "assets", c["id"].(string))["status"]; got != "rejected" {
				t.Fatalf("asset: %v", got)
			}

			// The organisation's approval validity and default template.
			if got := e.must(t, admin, "set_review_settings", map[string]any{"approval_validity_months": 6}); mustNumber(t, got["approval_validity_months"]) != 6 {
				t.Fatalf("settings: %v", got)
			}
			e.must(t, admin, "save_workflow_template", map[string]any{"template_id": tpl["id"], "name": "Medical only", "is_default": true,
				"steps": []any{map[string]any{"role": "reviewer_medical", "required": true, "order": 1, "due_days": 5}}})
			d := e.asset(t, "Default template")
			e.clock = time.Date(2026, 8, 31, 9, 0, 0, 0, time.UTC)
			r, steps = e.submit(t, d["id"].(string))
			if len(steps) != 1 || r["template_name"] != "Medical only" {
				t.Fatalf("default template: %v", r)
			}
			e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved")
			if got := e.row(t, "assets", d["id"].(string))["expires_at"]; got != "2027-02-28" {
				t.Fatalf("6 months from 31 August: %v", got)
			}
			// An administrator changes an approved asset's expiry; nobody
			// else does, and not through the table either.
			if _, err := e.call(e.own[fairbalance.RoleMarketer], "set_asset_expiry", map[string]any{"asset_id": d["id"], "expires_at": "2028-01-01"}); errKind(err) != refusedForbidden {
				t.Fatalf("a marketer set the expiry: %v", err)
			}
			if _, err := patchRows(t, e.matrixEnv, e.own[fairbalance.RoleMarketer], "assets", "id=eq."+d["id"].(string), map[string]any{"expires_at": "2030-01-01"}); !denied(err) {
				t.Fatalf("a marketer moved an approval's expiry through the table: %v", err)
			}
			if got := e.must(t, admin, "set_asset_expiry", map[string]any{"asset_id": d["id"], "expires_at": "2027-01-15"}); got["expires_at"] != "2027-01-15" {
				t.Fatalf("expiry: %v", got)
			}
			// A draft's planned expiry stays the author's.
			if _, err := patchRows(t, e.matrixEnv, e.own[fairbalance.RoleMarketer], "assets", "id=eq."+e.asset(t, "Draft")["id"].(string), map[string]any{"expires_at": "2030-01-01"}); err != nil {
				t.Fatalf("a draft's expiry: %v", err)
			}
			for _, bad := range []map[string]any{
				{"name": "", "steps": []any{}},
				{"name": "No required", "steps": []any{map[string]any{"role": "reviewer_legal", "required": false, "order": 1, "due_days": 1}}},
				{"name": "Bad role", "steps": []any{map[string]any{"role": "marketer", "required": true, "order": 1, "due_days": 1}}},
				{"name": "Unknown field", "steps": []any{map[string]any{"role": "reviewer_legal", "required": true, "order": 1, "due_days": 1, "x": 1}}},
			} {
				if _, err := e.call(admin, "save_workflow_template", bad); errKind(err) == "ok" || fieldsOf(err) == nil {
					t.Fatalf("template %v: %v", bad, err)
				}
			}
			if _, err := e.call(admin, "save_workflow_template", map[string]any{"name": "MEDICAL ONLY", "steps": []any{
				map[string]any{"role": "reviewer_legal", "required": true, "order": 1, "due_days": 1}}}); errKind(err) != "conflict/23505" {
				t.Fatalf("duplicate name: %v", err)
			}
			if got := e.must(t, admin, "delete_workflow_template", map[string]any{"template_id": tpl["id"]}); got["deleted"] != true {
				t.Fatalf("delete: %v", got)
			}
			if got := e.row(t, "reviews", r["id"].(string)); got["template_id"] != nil || got["template_name"] != "Medical only" {
				t.Fatalf("a round of a deleted template: %v", got)
			}
		})
	}
}

// The gate names every unmet condition, each on its own and all at once;
// the ISI is found in a composed version's text (case and white space
// ignored), by an ISI module's mark, or in a PDF's text.
func TestReviewGateConditions(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			marketer := e.own[fairbalance.RoleMarketer]
			create := func(args map[string]any) string {
				base := map[string]any{"title": "Gate", "type": "email", "audience": "hcp", "channel": "Email", "market": "US",
					"product_id": e.product["id"], "content_html": readyHTML}
				for k, v := range args {
					if v == nil {
						delete(base, k)
					} else {
						base[k] = v
					}
				}
				a := e.must(t, marketer, "create_asset", base)
				return a["id"].(string)
			}
			unmet := func(id string) []string {
				t.Helper()
				gate := e.must(t, e.own[fairbalance.RoleViewer], "review_gate", map[string]any{"asset_id": id})
				var gateCodes []string
				for _, u := range gate["unmet"].([]any) {
					gateCodes = append(gateCodes, u.(map[string]any)["code"].(string))
				}
				slices.Sort(gateCodes)
				before := e.auditLength(t)
				_, err := e.call(marketer, "submit_for_review", map[string]any{"asset_id": id})
				var codes []string
				for k := range fieldsOf(err) {
					codes = append(codes, k)
				}
				slices.Sort(codes)
				switch {
				case err == nil && len(gateCodes) > 0:
					t.Fatalf("submitted though the gate says %v", gateCodes)
				case err != nil && errKind(err) != refusedNotReady:
					t.Fatalf("refusal %v", err)
				case err != nil && e.auditLength(t) != before:
					t.Fatal("a refused submission wrote to the audit trail")
				case !slices.Equal(codes, gateCodes):
					t.Fatalf("submit says %v, review_gate %v", codes, gateCodes)
				}
				return codes
			}
			cases := []struct {
				name string
				args map[string]any
				want []string
			}{
				{"ready", nil, nil},
				{"no product", map[string]any{"product_id": nil}, []string{"isi", "product_id"}},
				{"no market", map[string]any{"market": ""}, []string{"market"}},
				// An efficacy claim with no safety information is also a
				// critical fair-balance finding of the compliance check.
				{"no ISI", map[string]any{"content_html": "<p>Zelvora lowers LDL-C.</p>"}, []string{"critical_findings", "isi"}},
				{"ISI module marked", map[string]any{"content_html": fmt.Sprintf(`<p>Hi</p><p><span data-module-id="%s" data-module-kind="isi">ISI</span></p>`, e.isi["id"])}, nil},
				{"ISI module text", map[string]any{"content_html": "<p>zelvora ISI module\nbody.</p>"}, nil},
				{"type other needs no ISI", map[string]any{"type": "other", "content_html": "<p>Internal note.</p>"}, nil},
				{"every condition", map[string]any{"product_id": nil, "market": "", "content_html": "<p>x</p>"}, []string{"isi", "market", "product_id"}},
			}
			for _, c := range cases {
				if got := unmet(create(c.args)); !slices.Equal(got, c.want) {
					t.Errorf("%s: unmet %v, want %v", c.name, got, c.want)
				}
			}
			// A PDF carrying the ISI on its second page, across lines.
			pdf := testPDF(t, "Zelvora lowers LDL-C.", "Important Safety Information:\nZelvora can cause liver problems.")
			path := upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "leaflet.pdf", pdf)
			if got := unmet(create(map[string]any{"content_html": nil, "file_path": path})); got != nil {
				t.Errorf("PDF with the ISI: %v", got)
			}
			pdf = testPDF(t, "Zelvora lowers LDL-C.")
			path = upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "leaflet.pdf", pdf)
			if got := unmet(create(map[string]any{"content_html": nil, "file_path": path})); !slices.Equal(got, []string{"critical_findings", "isi"}) {
				t.Errorf("PDF without the ISI: %v", got)
			}
			// The details name every condition, one per line.
			_, err := e.call(marketer, "submit_for_review", map[string]any{"asset_id": create(map[string]any{"product_id": nil, "market": ""})})
			pe := wantCode(t, "gate", err, "PT422")
			for _, code := range []string{"product_id:", "market:", "isi:"} {
				if !strings.Contains(pe.Details, code) {
					t.Errorf("details %q miss %s", pe.Details, code)
				}
			}
		})
	}
}

// review_queue: the three tabs, overdue first then by due time, keyset
// pages without gaps or repeats, filters and counts.
func TestReviewQueue(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			marketer, admin := e.own[fairbalance.RoleMarketer], e.own[fairbalance.RoleAdmin]
			med, legal := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleReviewerLegal]
			// Five rounds submitted a day apart (the first due first), one by
			// the admin; a banner among them; one closed.
			var rounds []map[string]map[string]any
			var ids []string
			for i := range 5 {
				e.clock = reviewNow.AddDate(0, 0, i)
				typ := "email"
				if i == 3 {
					typ = "banner"
				}
				a := e.must(t, marketer, "create_asset", map[string]any{"title": fmt.Sprintf("Q%d", i), "type": typ, "audience": "hcp", "channel": "x",
					"market": "US", "product_id": e.product["id"], "content_html": readyHTML})
				by := marketer
				if i == 4 {
					by = admin
				}
				r := e.must(t, by, "submit_for_review", map[string]any{"asset_id": a["id"]})
				rounds = append(rounds, byRole(r["steps"]))
				ids = append(ids, r["id"].(string))
			}
			// Medical claims round 2's step; the second medical reviewer
			// claims round 1's; round 0 is rejected by legal (closed).
			e.must(t, med, "claim_step", map[string]any{"step_id": rounds[2]["reviewer_medical"]["id"]})
			e.must(t, e.medical2, "claim_step", map[string]any{"step_id": rounds[1]["reviewer_medical"]["id"]})
			e.mustDecide(t, legal, rounds[0]["reviewer_legal"]["id"].(string), "rejected")
			// A week later, rounds 1 and 2 are overdue (due after 5 business days).
			e.clock = reviewNow.AddDate(0, 0, 10)

			page := func(c fairbalance.Caller, args map[string]any) ([]string, map[string]any) {
				t.Helper()
				var got []string
				var first map[string]any
				args["limit"] = 2
				for {
					out := e.must(t, c, "review_queue", args)
					if first == nil {
						first = out
					} else if out["counts"] != nil {
						t.Fatalf("counts on a later page: %v", out["counts"])
					}
					for _, it := range out["items"].([]any) {
						m := it.(map[string]any)
						id := m["id"].(string)
						if rid, ok := m["review_id"].(string); ok {
							id = rid // a step: name its round
						}
						got = append(got, id)
					}
					if out["next"] == nil {
						return got, first
					}
					args["after"] = out["next"]
				}
			}
			count := func(out map[string]any, tab string) int { return mustNumber(t, out["counts"].(map[string]any)[tab]) }

			// Medical's queue: unclaimed medical steps, and the one claimed
			// by them; not the one claimed by the other medical reviewer.
			got, first := page(med, map[string]any{"tab": "mine"})
			if want := []string{ids[2], ids[3], ids[4]}; !slices.Equal(got, want) {
				t.Fatalf("mine: %v, want %v", got, want)
			}
			if count(first, "mine") != 3 || count(first, "open") != 4 || count(first, "submitted") != 0 {
				t.Fatalf("counts: %v", first["counts"])
			}
			items := first["items"].([]any)
			it := items[0].(map[string]any)
			if it["overdue"] != true || it["asset"].(map[string]any)["title"] != "Q2" || it["review"].(map[string]any)["round"] != float64(1) {
				t.Fatalf("item: %v", it)
			}
			got, _ = page(e.medical2, map[string]any{"tab": "mine", "status": "claimed"})
			if !slices.Equal(got, []string{ids[1]}) {
				t.Fatalf("medical2 claimed: %v", got)
			}
			got, _ = page(med, map[string]any{"tab": "mine", "status": "unclaimed"})
			if !slices.Equal(got, []string{ids[3], ids[4]}) {
				t.Fatalf("unclaimed: %v", got)
			}
			// Open rounds, overdue first.
			got, first = page(e.own[fairbalance.RoleViewer], map[string]any{"tab": "open"})
			if !slices.Equal(got, ids[1:]) {
				t.Fatalf("open: %v", got)
			}
			r1 := first["items"].([]any)[0].(map[string]any)
			if r1["overdue"] != true || len(r1["steps"].([]any)) != 3 {
				t.Fatalf("open item: %v", r1)
			}
			got, _ = page(legal, map[string]any{"tab": "open", "status": "overdue"})
			if !slices.Equal(got, ids[1:3]) {
				t.Fatalf("overdue: %v", got)
			}
			got, _ = page(legal, map[string]any{"tab": "open", "type": "banner"})
			if !slices.Equal(got, []string{ids[3]}) {
				t.Fatalf("banner: %v", got)
			}
			got, _ = page(legal, map[string]any{"tab": "open", "product_id": e.product["id"], "role": "reviewer_legal"})
			if !slices.Equal(got, ids[1:]) {
				t.Fatalf("by product and role: %v", got)
			}
			// Submissions: the marketer's four, the closed one last.
			got, first = page(marketer, map[string]any{"tab": "submitted"})
			if want := []string{ids[1], ids[2], ids[3], ids[0]}; !slices.Equal(got, want) {
				t.Fatalf("submitted: %v, want %v", got, want)
			}
			if count(first, "submitted") != 4 || count(first, "mine") != 0 {
				t.Fatalf("marketer counts: %v", first["counts"])
			}
			got, _ = page(marketer, map[string]any{"tab": "submitted", "status": "rejected"})
			if !slices.Equal(got, []string{ids[0]}) {
				t.Fatalf("rejected: %v", got)
			}
			// The filters follow the asset: round 2's asset moves to another
			// product while in review, round 3's changes type (the service
			// role's fix), and the lists and counts follow at once.
			other := mustInsert(t, e.matrixEnv, admin, "products", map[string]any{"brand_name": "Cardiomax"})
			q2 := e.must(t, marketer, "review_queue", map[string]any{"tab": "submitted", "status": "open", "limit": 5})["items"].([]any)[1].(map[string]any)["asset"].(map[string]any)
			if q2["title"] != "Q2" {
				t.Fatalf("second open submission: %v", q2)
			}
			if _, err := patchRows(t, e.matrixEnv, marketer, "assets", "id=eq."+q2["id"].(string), map[string]any{"product_id": other["id"]}); err != nil {
				t.Fatal(err)
			}
			q3 := rounds[3]["reviewer_medical"]["asset_id"].(string)
			if _, err := patchRows(t, e.matrixEnv, fairbalance.Caller{Role: "service_role"}, "assets", "id=eq."+q3, map[string]any{"type": "print"}); err != nil {
				t.Fatal(err)
			}
			got, first = page(med, map[string]any{"tab": "mine", "product_id": other["id"]})
			if !slices.Equal(got, []string{ids[2]}) || count(first, "mine") != 1 || count(first, "open") != 1 || count(first, "submitted") != 0 {
				t.Fatalf("moved to another product: %v, counts %v", got, first["counts"])
			}
			got, first = page(marketer, map[string]any{"tab": "submitted", "product_id": e.product["id"]})
			if want := []string{ids[1], ids[3], ids[0]}; !slices.Equal(got, want) || count(first, "submitted") != 3 || count(first, "open") != 3 {
				t.Fatalf("left behind: %v, want %v, counts %v", got, want, first["counts"])
			}
			if got, first = page(legal, map[string]any{"tab": "open", "type": "banner"}); len(got) != 0 || count(first, "open") != 0 {
				t.Fatalf("banner after the change: %v, counts %v", got, first["counts"])
			}
			if got, first = page(legal, map[string]any{"tab": "open", "type": "print"}); !slices.Equal(got, []string{ids[3]}) || count(first, "open") != 1 {
				t.Fatalf("print: %v, counts %v", got, first["counts"])
			}
			for _, bad := range []map[string]any{{"tab": "all"}, {"type": "poster"}, {"role": "marketer"}, {"status": "claimed", "tab": "open"},
				{"limit": 0}, {"limit": 101}, {"after": "not-a-cursor"}} {
				if _, err := e.call(med, "review_queue", bad); errKind(err) != "invalid/P0001" {
					t.Fatalf("%v: %v", bad, err)
				}
			}
			// Another organisation sees none of it.
			out := e.must(t, e.members["other"][fairbalance.RoleAdmin], "review_queue", map[string]any{"tab": "open"})
			if len(out["items"].([]any)) != 0 || count(out, "open") != 0 {
				t.Fatalf("other organisation: %v", out)
			}
		})
	}
}
