package storetest

import (
	"context"
	"testing"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
)

// The attacks on the audit trail that only its checkpoints reveal, played
// as someone with write access to the database would play them: around the
// append-only triggers, leaving every hash, link and the chain head
// consistent, so that the chain verifies against itself.

// chain reads the whole chain of org, oldest first.
func chain(t testing.TB, db *sqlstore.DB, org string) []fairbalance.AuditEntry {
	t.Helper()
	var out []fairbalance.AuditEntry
	var before int64
	for {
		page, err := db.AuditView().ListAudit(context.Background(), fairbalance.AuditFilter{OrgID: org, Before: before, Limit: fairbalance.MaxAuditPage})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		out = append(out, page...) // newest first
		before = page[len(page)-1].ID
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// tamper runs statements around the audit triggers of the backend.
func tamper(t testing.TB, db *sqlstore.DB, backend string, work func(exec func(stmt string, args ...any))) {
	t.Helper()
	ctx := context.Background()
	exec := func(stmt string, args ...any) {
		t.Helper()
		if err := sqltest.Exec(ctx, db, stmt, args...); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if backend == "postgres" {
		exec("ALTER TABLE audit_log DISABLE TRIGGER USER")
		exec("ALTER TABLE audit_chain_head DISABLE TRIGGER USER")
		work(exec)
		exec("ALTER TABLE audit_log ENABLE TRIGGER USER")
		exec("ALTER TABLE audit_chain_head ENABLE TRIGGER USER")
		return
	}
	// SQLite's triggers cannot be disabled: drop them, as an attacker with
	// the database file would (they are not put back).
	for _, tr := range []string{"audit_log_no_update", "audit_log_no_delete", "audit_chain_head_forward", "audit_chain_head_no_delete"} {
		exec("DROP TRIGGER IF EXISTS " + tr)
	}
	work(exec)
}

// RewriteAudit changes entry at of org's chain with change, then
// recomputes the hash of that entry and of every later one (each linked to
// the new hash before it) and moves the chain head to the new last hash:
// a consistent rewrite. It returns the new hash of the last entry.
func RewriteAudit(t testing.TB, db *sqlstore.DB, backend, org string, at int64, change func(e *fairbalance.AuditEntry)) string {
	t.Helper()
	entries := chain(t, db, org)
	if at < 1 || at > int64(len(entries)) {
		t.Fatalf("RewriteAudit: entry %d of a chain of %d", at, len(entries))
	}
	var last string
	tamper(t, db, backend, func(exec func(string, ...any)) {
		prev := fairbalance.GenesisHash
		if at > 1 {
			prev = entries[at-2].Hash
		}
		for i := at - 1; i < int64(len(entries)); i++ {
			e := &entries[i]
			if e.ID == at {
				change(e)
			}
			e.PrevHash = prev
			e.Hash = e.ComputeHash()
			exec(`UPDATE audit_log SET actor_id = ?, action = ?, object_type = ?, object_id = ?, before_data = ?, after_data = ?, meta = ?, prev_hash = ?, hash = ? WHERE org_id = ? AND seq = ?`,
				e.ActorID, e.Action, e.ObjectType, e.ObjectID, string(e.Before), string(e.After), string(e.Meta), e.PrevHash, e.Hash, org, e.ID)
			prev = e.Hash
		}
		exec(`UPDATE audit_chain_head SET hash = ? WHERE org_id = ?`, prev, org)
		last = prev
	})
	return last
}

// TruncateAudit deletes the last n entries of org's chain and rolls its
// head back to the entry before them.
func TruncateAudit(t testing.TB, db *sqlstore.DB, backend, org string, n int64) {
	t.Helper()
	entries := chain(t, db, org)
	keep := int64(len(entries)) - n
	if n < 1 || keep < 0 {
		t.Fatalf("TruncateAudit: %d entries of a chain of %d", n, len(entries))
	}
	tamper(t, db, backend, func(exec func(string, ...any)) {
		exec(`DELETE FROM audit_log WHERE org_id = ? AND seq > ?`, org, keep)
		if keep == 0 {
			exec(`UPDATE audit_chain_head SET seq = 0, hash = ?, created_at = NULL WHERE org_id = ?`, fairbalance.GenesisHash, org)
			return
		}
		last := entries[keep-1]
		exec(`UPDATE audit_chain_head SET seq = ?, hash = ?, created_at = ? WHERE org_id = ?`, keep, last.Hash, last.CreatedAt, org)
	})
}

// RemoveAuditChain deletes org's whole chain, head and all.
func RemoveAuditChain(t testing.TB, db *sqlstore.DB, backend, org string) {
	t.Helper()
	tamper(t, db, backend, func(exec func(string, ...any)) {
		exec(`DELETE FROM audit_log WHERE org_id = ?`, org)
		exec(`DELETE FROM audit_chain_head WHERE org_id = ?`, org)
	})
}
