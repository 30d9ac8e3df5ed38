package sqlstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore/storetest"
)

func TestDataPlans(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
			orgCols := []fairbalance.SelectColumn{{Column: "id", Alias: "id", Type: fairbalance.TypeText}, {Column: "name", Alias: "title", Type: fairbalance.TypeText}, {Column: "created_at", Alias: "created_at", Type: fairbalance.TypeTimestamp}}
			var out json.RawMessage
			err := db.Tx(ctx, func(tx fairbalance.Tx) error {
				rows := []map[string]any{}
				for i := 0; i < 5; i++ {
					rows = append(rows, map[string]any{"id": fmt.Sprintf("org-%d", i), "name": fmt.Sprintf("Org %c%d", 'a'+i, i), "industry": "pharma", "created_by": "", "created_at": now.Add(time.Duration(i) * time.Hour), "updated_at": now})
				}
				var err error
				out, _, err = tx.Insert(ctx, &fairbalance.WritePlan{Table: "orgs", Rows: rows, Columns: []string{"id", "name", "industry", "created_by", "created_at", "updated_at"}, Returning: orgCols[:2]})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			var inserted []map[string]any
			if err := json.Unmarshal(out, &inserted); err != nil || len(inserted) != 5 || inserted[0]["title"] != "Org a0" {
				t.Fatalf("insert returned %s (%v)", out, err)
			}

			read := func(p *fairbalance.ReadPlan) ([]map[string]any, int64) {
				t.Helper()
				raw, total, err := db.View().Read(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				var rows []map[string]any
				if err := json.Unmarshal(raw, &rows); err != nil {
					t.Fatalf("%s: %v", raw, err)
				}
				return rows, total
			}
			rows, total := read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols, Order: []fairbalance.OrderTerm{{Column: "created_at", Desc: true}}, Limit: 2, Offset: 1, Count: true})
			if total != 5 || len(rows) != 2 || rows[0]["id"] != "org-3" || rows[0]["created_at"] != "2026-11-22T13:00:00Z" && rows[0]["created_at"] != "2026-11-22T13:00:00+00:00" {
				t.Fatalf("page: %v total %d", rows, total)
			}
			// Filters: or, in, like (case-sensitive), ilike, negation.
			rows, _ = read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols, Where: &fairbalance.Cond{Logic: "or", Children: []*fairbalance.Cond{
				{Column: "id", Operator: "in", Values: []any{"org-0", "org-1"}},
				{Column: "name", Operator: "like", Value: "%e4"},
			}}, Order: []fairbalance.OrderTerm{{Column: "id"}}})
			if len(rows) != 3 || rows[2]["id"] != "org-4" {
				t.Fatalf("or/in/like: %v", rows)
			}
			if rows, _ = read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols, Where: &fairbalance.Cond{Column: "name", Operator: "like", Value: "%E4"}}); len(rows) != 0 {
				t.Fatalf("like is case-sensitive: %v", rows)
			}
			if rows, _ = read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols, Where: &fairbalance.Cond{Column: "name", Operator: "ilike", Value: "%E4"}}); len(rows) != 1 {
				t.Fatalf("ilike: %v", rows)
			}
			if rows, _ = read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols, Where: &fairbalance.Cond{Column: "id", Operator: "eq", Value: "org-0", Negated: true}}); len(rows) != 4 {
				t.Fatalf("not.eq: %v", rows)
			}
			// A value is never SQL.
			if rows, _ = read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols, Where: &fairbalance.Cond{Column: "id", Operator: "eq", Value: "x' OR '1'='1"}}); len(rows) != 0 {
				t.Fatalf("injection: %v", rows)
			}

			// Embedding: profiles of an org (many) and a profile's org (one).
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				u := &fairbalance.User{ID: "00000000-0000-4000-8000-000000000001", Email: "m@example.com", CreatedAt: now, UpdatedAt: now}
				if err := tx.CreateUser(ctx, u); err != nil {
					return err
				}
				return tx.CreateProfile(ctx, &fairbalance.Profile{ID: u.ID, OrgID: "org-1", Role: "admin", FullName: "M", CreatedAt: now, UpdatedAt: now})
			})
			if err != nil {
				t.Fatal(err)
			}
			profCols := []fairbalance.SelectColumn{{Column: "id", Alias: "id"}, {Column: "role", Alias: "role"}}
			rows, _ = read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols[:1], Order: []fairbalance.OrderTerm{{Column: "id"}},
				Embeds: []fairbalance.Embed{{Name: "members", Table: "profiles_v2", Columns: profCols, LocalColumn: "id", ForeignColumn: "org_id", Many: true}}})
			if m, _ := rows[1]["members"].([]any); len(m) != 1 || len(rows) != 5 {
				t.Fatalf("embed many: %v", rows)
			}
			if m, _ := rows[0]["members"].([]any); m == nil || len(m) != 0 {
				t.Fatalf("embed many, none: %#v", rows[0]["members"])
			}
			rows, _ = read(&fairbalance.ReadPlan{Table: "orgs", Columns: orgCols[:1],
				Embeds: []fairbalance.Embed{{Name: "members", Table: "profiles_v2", Columns: profCols, LocalColumn: "id", ForeignColumn: "org_id", Many: true, Inner: true}}})
			if len(rows) != 1 || rows[0]["id"] != "org-1" {
				t.Fatalf("inner embed: %v", rows)
			}
			// Several counts in one statement, each with its filter and inner
			// embeds, as Read counts them; bound values in order.
			members := fairbalance.Embed{Name: "members", Table: "profiles_v2", LocalColumn: "id", ForeignColumn: "org_id", Many: true, Inner: true,
				Where: &fairbalance.Cond{Column: "role", Operator: "eq", Value: "admin"}}
			counts, err := db.View().Count(ctx, []*fairbalance.ReadPlan{
				{Table: "orgs"},
				{Table: "orgs", Where: &fairbalance.Cond{Column: "id", Operator: "in", Values: []any{"org-0", "org-1", "org-9"}}},
				{Table: "orgs", Embeds: []fairbalance.Embed{members}},
				{Table: "orgs", Where: &fairbalance.Cond{Column: "id", Operator: "eq", Value: "org-0"}, Embeds: []fairbalance.Embed{members}},
				{Table: "profiles_v2", Where: &fairbalance.Cond{Column: "org_id", Operator: "eq", Value: "org-1"}},
			})
			if err != nil || fmt.Sprint(counts) != "[5 2 1 0 1]" {
				t.Fatalf("counts: %v %v", counts, err)
			}
			if counts, err := db.View().Count(ctx, nil); err != nil || len(counts) != 0 {
				t.Fatalf("no counts: %v %v", counts, err)
			}
			rows, _ = read(&fairbalance.ReadPlan{Table: "profiles_v2", Columns: profCols,
				Embeds: []fairbalance.Embed{{Name: "org", Table: "orgs", Columns: orgCols[1:2], LocalColumn: "org_id", ForeignColumn: "id"}}})
			if org, _ := rows[0]["org"].(map[string]any); org["title"] != "Org b1" {
				t.Fatalf("embed one: %v", rows)
			}

			// Update and delete with a filter, returning rows.
			var n int64
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				var err error
				out, n, err = tx.Update(ctx, &fairbalance.WritePlan{Table: "orgs", Rows: []map[string]any{{"name": "Renamed"}}, Columns: []string{"name"}, Where: &fairbalance.Cond{Column: "id", Operator: "eq", Value: "org-2"}, Returning: orgCols[:2]})
				return err
			})
			if err != nil || n != 1 || string(out) != `[{"id":"org-2","title":"Renamed"}]` && string(out) != `[{"id" : "org-2", "title" : "Renamed"}]` {
				t.Fatalf("update: %s %d %v", out, n, err)
			}
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				var err error
				_, n, err = tx.Delete(ctx, &fairbalance.WritePlan{Table: "orgs", Where: &fairbalance.Cond{Column: "id", Operator: "in", Values: []any{"org-3", "org-4"}}})
				return err
			})
			if err != nil || n != 2 {
				t.Fatalf("delete: %d %v", n, err)
			}
			// Upsert: merge and ignore.
			err = db.Tx(ctx, func(tx fairbalance.Tx) error {
				row := map[string]any{"id": "org-0", "name": "Merged", "industry": "", "created_by": "", "created_at": now, "updated_at": now}
				if _, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "orgs", Rows: []map[string]any{row}, Columns: []string{"id", "name", "industry", "created_by", "created_at", "updated_at"}, OnConflict: []string{"id"}}); err != nil {
					return err
				}
				row["name"] = "Ignored"
				_, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "orgs", Rows: []map[string]any{row}, Columns: []string{"id", "name", "industry", "created_by", "created_at", "updated_at"}, OnConflict: []string{"id"}, IgnoreDuplicates: true})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if o, _ := db.View().OrgByID(ctx, "org-0"); o.Name != "Merged" {
				t.Fatalf("upsert: %+v", o)
			}
		})
	}
}
