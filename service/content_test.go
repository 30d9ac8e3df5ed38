package service_test

import (
	"encoding/json"
	"testing"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The content model (issue 5): tables, functions and product buckets.

// contentEnv is the permission matrix's organisations and members with the
// content tables and functions registered.
func newContentEnv(t *testing.T, backend string) *matrixEnv {
	m := newMatrix(t, backend)
	tables := append(service.RecordTables(), service.WorkspaceTables()...)
	d := service.NewData(m.db, append(tables, service.ContentTables()...)...)
	d.RegisterFunctions(d.RecordFunctions()...)
	d.RegisterFunctions(d.WorkspaceFunctions()...)
	m.data = d
	return m
}

func insert(t *testing.T, m *matrixEnv, c service.Caller, table string, row any) (map[string]any, error) {
	t.Helper()
	body, _ := json.Marshal(row)
	res, err := m.data.Insert(m.ctx, c, table, reqPrefer(t, "select=*", "return=representation"), body)
	if err != nil {
		return nil, err
	}
	var rows []map[string]any
	if err := json.Unmarshal(res.Rows, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("insert %s: %s %v", table, res.Rows, err)
	}
	return rows[0], nil
}

func mustInsert(t *testing.T, m *matrixEnv, c service.Caller, table string, row any) map[string]any {
	t.Helper()
	r, err := insert(t, m, c, table, row)
	if err != nil {
		t.Fatalf("insert %s: %v", table, err)
	}
	return r
}

func TestContentProducts(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			admin := m.members["own"][fairbalance.RoleAdmin]
			p := mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Zelvora", "markets": []string{"US", "EU"}, "launch_date": "2025-01-31"})
			if p["org_id"] != m.orgs["own"] || p["active"] != true || p["created_by"] != admin.UserID {
				t.Fatalf("product row: %v", p)
			}
			if ms, _ := p["markets"].([]any); len(ms) != 2 || ms[0] != "US" {
				t.Fatalf("markets: %v", p["markets"])
			}
			_, err := insert(t, m, admin, "products", map[string]any{"brand_name": "ZELVORA"})
			wantCode(t, "duplicate brand", err, "23505")
			_, err = insert(t, m, admin, "products", map[string]any{"brand_name": " "})
			pe := wantCode(t, "empty brand", err, "23514")
			if pe.Message != "The brand name is required." {
				t.Fatalf("message: %q", pe.Message)
			}
			_, err = insert(t, m, admin, "products", map[string]any{"brand_name": "X", "launch_date": "31/01/2025"})
			wantCode(t, "bad date", err, "23514")
			for _, role := range []string{fairbalance.RoleMarketer, fairbalance.RoleViewer, fairbalance.RoleReviewerMedical} {
				_, err := insert(t, m, m.members["own"][role], "products", map[string]any{"brand_name": "Other " + role})
				if !denied(err) {
					t.Fatalf("%s inserted a product: %v", role, err)
				}
				if rows := readRows(t, m, m.members["own"][role], "products", "select=id"); len(rows) != 1 {
					t.Fatalf("%s reads %d products", role, len(rows))
				}
			}
			if rows := readRows(t, m, m.members["other"][fairbalance.RoleAdmin], "products", "select=id"); len(rows) != 0 {
				t.Fatalf("another organisation reads %d products", len(rows))
			}
			if e := lastEntry(t, m, m.orgs["own"], "product_created"); e.ObjectID != p["id"] {
				t.Fatalf("audit entry: %+v", e)
			}
		})
	}
}
