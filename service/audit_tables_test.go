package service_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"testing"

	"fairbalance"
	"fairbalance/dataapi"
	"fairbalance/sqlstore/storetest"
)

// audit_logs_v2 reads an entry's before and after values (those audit_logs
// shows), in JSON and in a CSV export, and a client cannot write them.
func TestAuditLogsV2BeforeAndAfter(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			admin, viewer := m.members["own"][fairbalance.RoleAdmin], m.members["own"][fairbalance.RoleViewer]
			if _, err := m.data.Update(m.ctx, admin, "orgs", req(t, "id=eq."+m.orgs["own"]), []byte(`{"name":"Renamed, Inc."}`)); err != nil {
				t.Fatal(err)
			}
			v2 := readRows(t, m, viewer, "audit_logs_v2", "select=id,action,before_json,after_json&action=eq.orgs.update")
			old := readRows(t, m, viewer, "audit_logs", "select=id,before_json,after_json&action=eq.orgs.update")
			if len(v2) != 1 || len(old) != 1 || v2[0]["id"] != old[0]["id"] {
				t.Fatalf("entries %v %v", v2, old)
			}
			b, _ := json.Marshal([]any{v2[0]["before_json"], v2[0]["after_json"]})
			ob, _ := json.Marshal([]any{old[0]["before_json"], old[0]["after_json"]})
			if !bytes.Equal(b, ob) || !bytes.Contains(b, []byte(`"name":"own"`)) || !bytes.Contains(b, []byte(`"name":"Renamed, Inc."`)) {
				t.Fatalf("before/after %s, audit_logs %s", b, ob)
			}

			var out bytes.Buffer
			err := m.data.ReadCSV(m.ctx, viewer, "audit_logs_v2", req(t, "select=id,action,before:before_json,after:after_json&action=eq.orgs.update"), func(dataapi.CSVInfo) io.Writer { return &out })
			if err != nil {
				t.Fatal(err)
			}
			records, err := csv.NewReader(&out).ReadAll()
			if err != nil || len(records) != 2 {
				t.Fatalf("csv %q %v", out.String(), err)
			}
			if h := records[0]; len(h) != 4 || h[2] != "before" || h[3] != "after" {
				t.Fatalf("header %v", h)
			}
			var before, after []map[string]any
			if json.Unmarshal([]byte(records[1][2]), &before) != nil || json.Unmarshal([]byte(records[1][3]), &after) != nil ||
				len(before) != 1 || before[0]["name"] != "own" || len(after) != 1 || after[0]["name"] != "Renamed, Inc." {
				t.Fatalf("csv record %v", records[1])
			}

			// The values are the server's: a client's entry cannot claim any.
			if _, err := m.data.Insert(m.ctx, viewer, "audit_logs_v2", req(t, ""), []byte(`{"action":"note","after_json":{"forged":true}}`)); !denied(err) {
				t.Fatalf("a client wrote after_json: %v", err)
			}
		})
	}
}
