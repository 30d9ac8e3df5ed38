package sqlstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/sqlstore"
)

func TestTmpInsertVariants(t *testing.T) {
	variants := map[string][]string{
		"current": nil,
		"fail": {`DROP TRIGGER audit_log_at_head`, `CREATE TRIGGER audit_log_at_head BEFORE INSERT ON audit_log
WHEN NOT EXISTS (SELECT 1 FROM audit_chain_head h WHERE h.org_id = NEW.org_id AND h.seq + 1 = NEW.seq AND h.hash = NEW.prev_hash)
BEGIN SELECT RAISE(FAIL, 'audit_log entries are appended at the chain head'); END`,
			`DROP TRIGGER audit_chain_head_forward`, `CREATE TRIGGER audit_chain_head_forward BEFORE UPDATE ON audit_chain_head
WHEN NEW.org_id IS NOT OLD.org_id OR NEW.seq IS NOT OLD.seq + 1
BEGIN SELECT RAISE(FAIL, 'audit_chain_head only moves forward'); END`},
		"notrig": {`DROP TRIGGER audit_log_at_head`, `DROP TRIGGER audit_chain_head_forward`},
	}
	for _, name := range []string{"current", "fail", "notrig"} {
		ctx := context.Background()
		db, err := sqlstore.Open(ctx, sqlstore.Options{SQLitePath: filepath.Join(t.TempDir(), "b.db")})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range variants[name] {
			if err := db.TamperForTest(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		const total, batch = 100_000, 20_000
		for done := 0; done < total; done += batch {
			err := db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
				for i := done; i < done+batch; i++ {
					e := &fairbalance.AuditEntry{OrgID: "o", ActorID: fmt.Sprintf("user-%d", i%37), Action: "a", ObjectType: "asset", ObjectID: fmt.Sprintf("asset-%d", i%5000),
						After: json.RawMessage(`{"status":"in_review","title":"Asset"}`), CreatedAt: auditT0.Add(time.Duration(i) * time.Millisecond)}
					if err := tx.AppendAudit(ctx, e); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		el := time.Since(start)
		// single appends, one per tx
		start = time.Now()
		for i := 0; i < 2000; i++ {
			db.AuditTx(ctx, func(tx fairbalance.AuditStore) error {
				return tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: "o", Action: "a", ObjectType: "asset", ObjectID: "x"})
			})
		}
		t.Logf("%s: bulk %v/append, single-tx %v/append", name, el/total, time.Since(start)/2000)
		db.Close()
	}
}
