package sqlstore_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// A client-reported entry is hashed under its own tag with the flag as a
// last field, so the flag cannot be cleared or set without breaking the
// hash; an entry the server recorded hashes as before the flag existed.
func TestAuditClientReportedHash(t *testing.T) {
	e := testEntry()
	server := e.ComputeHash()
	e.ClientReported = true
	client := e.ComputeHash()
	if server == client {
		t.Fatal("the flag does not change the hash")
	}
	// Computed independently from the documented encoding.
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	for _, f := range []string{"fairbalance.audit.v2", "7", e.OrgID, e.ActorID, e.ActorEmail, e.Action, e.ObjectType, e.ObjectID,
		`{"tags":["a"],"title":"Old"}`, `{"tags":["a","b"],"title":"New"}`, `{"request_id":"r-1"}`, e.IP, e.UserAgent,
		"2026-08-01T09:30:00.123456Z", e.PrevHash, "1"} {
		field(f)
	}
	if want := hex.EncodeToString(h.Sum(nil)); client != want {
		t.Fatalf("client-reported hash %s, want %s", client, want)
	}
	const vector = "1df3cd6109aeaa15aa80ff35d78c3172f5e456cb59eddb953b043c63aff3ece1"
	if client != vector {
		t.Fatalf("client-reported hash %s, want %s (the encoding changed)", client, vector)
	}

	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			stored := appendAudit(t, db, []fairbalance.AuditEntry{
				{OrgID: "org-a", Action: "organization_created", ClientReported: true},
				{OrgID: "org-a", Action: "orgs.update"},
			})
			got, err := db.AuditView().ListAudit(ctx, fairbalance.AuditFilter{OrgID: "org-a"})
			if err != nil || len(got) != 2 || !got[1].ClientReported || got[0].ClientReported || !sameEntry(got[1], stored[0]) {
				t.Fatalf("read back %+v, %v", got, err)
			}
			mustVerify(t, db, "org-a", 2)
			// Clearing the flag of the client's entry breaks its hash.
			stmts := []string{"DROP TRIGGER audit_log_no_update", "UPDATE audit_log SET client_reported = 0 WHERE seq = 1"}
			if backend == "postgres" {
				stmts = []string{"ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change", "UPDATE audit_log SET client_reported = false WHERE seq = 1"}
			}
			for _, s := range stmts {
				if err := sqltest.Exec(ctx, db, s); err != nil {
					t.Fatal(err)
				}
			}
			v, err := db.AuditView().VerifyAudit(ctx, "org-a")
			if err != nil || v.OK || v.BrokenAt != 1 || !strings.HasPrefix(v.Reason, fairbalance.AuditHashMismatch) {
				t.Fatalf("after clearing the flag: %+v, %v", v, err)
			}
		})
	}
}

// VerifyAudit holds a chain to its seals: every sealed entry must be there
// with the sealed hash.
func TestAuditVerifySeals(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := storetest.Open(t, backend)
			ctx := context.Background()
			stored := appendAudit(t, db, entriesFor("org-a", 10))
			view := db.AuditView()
			at := auditT0
			seal := func(seq int64, hash string) fairbalance.AuditSeal {
				return fairbalance.AuditSeal{Seq: seq, Hash: hash, At: at}
			}

			v, err := view.VerifyAudit(ctx, "org-a", seal(5, stored[4].Hash), seal(10, stored[9].Hash), seal(5, stored[4].Hash))
			if err != nil || !v.OK || v.Seals != 3 || v.SealedSeq != 10 || v.Entries != 10 {
				t.Fatalf("matching seals: %+v, %v", v, err)
			}
			v, _ = view.VerifyAudit(ctx, "org-a", seal(3, stored[2].Hash), seal(8, stored[6].Hash))
			if v.OK || v.BrokenAt != 8 || !strings.HasPrefix(v.Reason, fairbalance.AuditSealMismatch+": entry 8 no longer has the hash sealed by the checkpoint of 2026-08-01T09:30:00Z") ||
				!strings.HasSuffix(v.Reason, "rewritten after entry 3 (the last sealed entry that still matches)") || v.SealedSeq != 3 {
				t.Fatalf("a mismatching seal: %+v", v)
			}
			v, _ = view.VerifyAudit(ctx, "org-a", seal(2, strings.Repeat("f", 64)))
			if v.OK || v.BrokenAt != 2 || !strings.HasSuffix(v.Reason, "rewritten at or before entry 2") {
				t.Fatalf("a mismatching first seal: %+v", v)
			}
			v, _ = view.VerifyAudit(ctx, "org-a", seal(10, stored[9].Hash), seal(14, strings.Repeat("e", 64)))
			if v.OK || v.BrokenAt != 11 || v.Reason != fairbalance.AuditSealMissing+": the checkpoint of 2026-08-01T09:30:00Z sealed entry 14 (eeeeeeeeeeee…), but the chain ends at entry 10" {
				t.Fatalf("a seal past the end: %+v", v)
			}
			v, _ = view.VerifyAudit(ctx, "org-gone", seal(1, strings.Repeat("e", 64)))
			if v.OK || v.BrokenAt != 1 || !strings.HasPrefix(v.Reason, fairbalance.AuditSealMissing) {
				t.Fatalf("a sealed chain that is gone: %+v", v)
			}

			heads, err := view.AuditHeads(ctx)
			if err != nil || len(heads) != 1 || heads[0].OrgID != "org-a" || heads[0].Seq != 10 || heads[0].Hash != stored[9].Hash || !heads[0].CreatedAt.Equal(stored[9].CreatedAt) {
				t.Fatalf("heads %+v, %v", heads, err)
			}
			if h, err := view.AuditHashAt(ctx, "org-a", 4); err != nil || h != stored[3].Hash {
				t.Fatalf("hash at 4: %s, %v", h, err)
			}
			if _, err := view.AuditHashAt(ctx, "org-a", 11); err != fairbalance.ErrNotFound {
				t.Fatalf("hash at 11: %v", err)
			}
		})
	}
}
