package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// BenchmarkInsights10k measures compliance_insights (every series in one
// call) through the data API over 10 000 review rounds of the last twelve
// months: 5 000 assets of two products with one to three rounds each
// (30 000 decided or active steps), a change request per round that asked
// for changes, two compliance findings per round, approvals expiring over
// the next four months, and 500 assets still in review. Issue 17's figure
// is ≤ 100 ms a query.
//
//	go test -tags noui ./service -run '^$' -bench BenchmarkInsights10k -benchtime 30x
//	TEST_DATABASE_URL=postgres://… go test -tags noui ./service -run '^$' -bench BenchmarkInsights10k -benchtime 30x
func BenchmarkInsights10k(b *testing.B) {
	for _, backend := range storetest.Backends() {
		b.Run(backend, func(b *testing.B) {
			db := storetest.Open(b, backend)
			d := service.NewRegistry(db, nil)
			members, productID := benchOrg(b, db, d)
			now := time.Now().UTC()
			d.Reviews.Now = func() time.Time { return now }
			if n := seedInsightsBench(b, db, members, productID, now); n != 10_000 {
				b.Fatalf("%d rounds", n)
			}
			ctx := context.Background()
			viewer := members[fairbalance.RoleReviewerMedical]
			for _, q := range []struct {
				name string
				args map[string]any
			}{
				{"all-products-12-months", nil},
				{"one-product-12-months", map[string]any{"product_id": productID}},
				{"all-products-one-quarter", map[string]any{"from": now.AddDate(0, -3, 0).Format(time.DateOnly), "to": now.Format(time.DateOnly)}},
			} {
				b.Run(q.name, func(b *testing.B) {
					var took []float64
					var out map[string]any
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						start := time.Now()
						raw, err := d.Call(ctx, viewer, "compliance_insights", q.args, true)
						took = append(took, float64(time.Since(start).Microseconds())/1000)
						if err != nil {
							b.Fatal(err)
						}
						if i == 0 {
							if err := json.Unmarshal(raw, &out); err != nil {
								b.Fatal(err)
							}
						}
					}
					b.StopTimer()
					fp := out["first_pass"].(map[string]any)
					if fp["approved"].(float64) == 0 || len(out["findings_by_rule"].([]any)) == 0 || out["overdue_total"].(float64) == 0 {
						b.Fatalf("%s: nothing to say: %v", q.name, fp)
					}
					b.Logf("%s %s: first pass %v, cycle %v, overdue %v", backend, q.name, fp, out["cycle_time"], out["overdue_total"])
					reportTimes(b, took)
				})
			}
		})
	}
}

// seedInsightsBench writes the history BenchmarkInsights10k reads and
// returns how many rounds it made.
func seedInsightsBench(b *testing.B, db *sqlstore.DB, members map[string]fairbalance.Caller, productID string, now time.Time) int {
	b.Helper()
	ctx := context.Background()
	marketer := members[fairbalance.RoleMarketer]
	org := marketer.OrgID
	other := "00000000-0000-4000-8000-0000000002bb"
	err := db.Tx(ctx, func(tx fairbalance.Tx) error {
		_, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "products", Columns: []string{"id", "org_id", "brand_name", "isi_text", "created_at", "updated_at"},
			Rows: []map[string]any{{"id": other, "org_id": org, "brand_name": "Corvanta", "isi_text": "ISI", "created_at": now, "updated_at": now}}})
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	const assetsN = 5000
	types := []string{"email", "web_page", "detail_aid", "social_post", "banner", "print", "video_script"}
	var assets []sqltest.BulkAsset
	for i := range assetsN {
		p := productID
		if i%4 == 3 {
			p = other
		}
		assets = append(assets, sqltest.BulkAsset{
			ID: fmt.Sprintf("a%07d-0000-4000-8000-000000000000", i), VersionID: fmt.Sprintf("b%07d-0000-4000-8000-000000000000", i),
			OrgID: org, CreatedBy: marketer.UserID, OwnerID: marketer.UserID, ProductID: p,
			Title: fmt.Sprintf("Insight asset %d", i), Type: types[i%len(types)], Audience: "hcp", Market: "US", Channel: "email",
			JobCode: fmt.Sprintf("FB-IN-%06d", i), Status: "approved", Text: "Zelvora lowers LDL-C.",
		})
	}
	if err := sqltest.BulkInsertAssets(ctx, db, assets); err != nil {
		b.Fatal(err)
	}
	roles := []string{fairbalance.RoleReviewerMedical, fairbalance.RoleReviewerLegal, fairbalance.RoleReviewerRegulatory}
	reviewCols := []string{"id", "org_id", "asset_id", "version_id", "round", "status", "template_name", "submitted_by", "submitted_at", "due_at", "closed_at", "created_at", "updated_at"}
	stepCols := []string{"id", "org_id", "review_id", "asset_id", "position", "role", "required", "step_order", "due_days", "status", "activated_at", "due_at",
		"decided_by", "decided_at", "comment", "created_at", "updated_at"}
	crCols := []string{"id", "org_id", "asset_id", "review_id", "step_id", "role", "raised_by", "text", "status", "done_note", "created_at", "updated_at"}
	fCols := []string{"id", "org_id", "asset_id", "version_id", "product_id", "asset_type", "rule", "rule_version", "severity", "state", "start_pos", "end_pos",
		"quote", "message", "guidance", "target", "sort_page", "sort_pos", "first_version_id", "created_at", "updated_at"}
	rules := []string{"superlative", "comparative", "unsubstantiated", "fair-balance", "established-name", "off-label", "new-claim"}
	requests := []string{"Add a reference for the efficacy claim.", "Add the established name next to the brand name.", "Move the ISI above the fold.",
		"Qualify the superlative.", "Cite the head-to-head study."}
	rounds := 0
	const batch = 250
	for base := 0; base < assetsN; base += batch {
		var reviews, steps, crs, findings []map[string]any
		var expiries []string
		for i := base; i < min(base+batch, assetsN); i++ {
			a := assets[i]
			n := 1 + i%3
			if i == 0 {
				n = 2
			}
			// Submitted somewhere in the last twelve months, three days a round.
			t := now.Add(-time.Duration(i%360+10) * 24 * time.Hour).Truncate(time.Microsecond)
			open := i >= assetsN-500
			for r := 1; r <= n; r++ {
				rounds++
				id := fmt.Sprintf("c%07d-000%d-4000-8000-000000000000", i, r)
				status, closed := "changes_requested", t.Add(48*time.Hour)
				var due any
				switch {
				case r < n:
				case open:
					status, closed, due = "open", time.Time{}, t.Add(120*time.Hour)
				case i%5 == 4:
					status = "rejected"
				default:
					status = "approved"
				}
				row := map[string]any{"id": id, "org_id": org, "asset_id": a.ID, "version_id": a.VersionID, "round": int64(r), "status": status,
					"template_name": fairbalance.DefaultWorkflowName, "submitted_by": marketer.UserID, "submitted_at": t, "due_at": due, "closed_at": nil,
					"created_at": t, "updated_at": t}
				if !closed.IsZero() {
					row["closed_at"] = closed
				}
				reviews = append(reviews, row)
				for p, role := range roles {
					sid := fmt.Sprintf("d%07d-%d00%d-4000-8000-000000000000", i, r, p)
					st := map[string]any{"id": sid, "org_id": org, "review_id": id, "asset_id": a.ID, "position": int64(p + 1), "role": role, "required": true,
						"step_order": int64(1), "due_days": int64(5), "status": "approved", "activated_at": t, "due_at": t.Add(120 * time.Hour),
						"decided_by": members[role].UserID, "decided_at": t.Add(time.Duration(12+p*12) * time.Hour), "comment": "", "created_at": t, "updated_at": t}
					switch {
					case status == "open":
						st["status"], st["decided_by"], st["decided_at"] = "active", nil, nil
					case status == "rejected" && p == 1:
						st["status"], st["comment"] = "rejected", "Off-label population."
					case status == "changes_requested" && p == i%3:
						st["status"] = "changes_requested"
						crs = append(crs, map[string]any{"id": fmt.Sprintf("e%07d-000%d-4000-8000-000000000000", i, r), "org_id": org, "asset_id": a.ID,
							"review_id": id, "step_id": sid, "role": role, "raised_by": members[role].UserID, "text": requests[(i+r)%len(requests)],
							"status": "open", "done_note": "", "created_at": st["decided_at"], "updated_at": st["decided_at"]})
					}
					steps = append(steps, st)
				}
				for f := range 2 {
					findings = append(findings, map[string]any{"id": fmt.Sprintf("f%07d-%d00%d-4000-8000-000000000000", i, r, f), "org_id": org, "asset_id": a.ID,
						"version_id": a.VersionID, "product_id": a.ProductID, "asset_type": a.Type, "rule": rules[(i+f*3+r)%len(rules)], "rule_version": int64(1),
						"severity": "warning", "state": "open", "start_pos": int64(0), "end_pos": int64(7), "quote": "Zelvora", "message": "m", "guidance": "",
						"target": "{}", "sort_page": int64(1), "sort_pos": int64(0), "first_version_id": a.VersionID, "created_at": t, "updated_at": t})
				}
				t = t.Add(72 * time.Hour)
			}
			if !open && i%5 != 4 {
				expiries = append(expiries, a.ID, now.AddDate(0, 0, i%120).Format(time.DateOnly))
			}
		}
		err := db.Tx(ctx, func(tx fairbalance.Tx) error {
			for _, w := range []*fairbalance.WritePlan{{Table: "reviews", Columns: reviewCols, Rows: reviews}, {Table: "review_steps", Columns: stepCols, Rows: steps},
				{Table: "change_requests", Columns: crCols, Rows: crs}, {Table: "compliance_findings", Columns: fCols, Rows: findings}} {
				if len(w.Rows) == 0 {
					continue
				}
				if _, _, err := tx.Insert(ctx, w); err != nil {
					return fmt.Errorf("%s: %w", w.Table, err)
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < len(expiries); j += 2 {
			if err := sqltest.Exec(ctx, db, "UPDATE assets SET expires_at = ? WHERE id = ?", expiries[j+1], expiries[j]); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := sqltest.Exec(ctx, db, "UPDATE assets SET status = 'in_review' WHERE expires_at IS NULL"); err != nil {
		b.Fatal(err)
	}
	if db.Backend() == "postgres" {
		if err := sqltest.Exec(ctx, db, "VACUUM ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
	return rounds
}
