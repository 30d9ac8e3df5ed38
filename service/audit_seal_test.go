package service_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auditseal"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// What a client appends through audit_logs_v2 and audit_logs is marked
// client-reported; the spec's own client actions go in as before, the
// server's action names are refused with PostgREST's 403, and a batch with
// one of them writes nothing.
func TestClientReportedEntries(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			own := m.orgs["own"]
			viewer := m.members["own"][fairbalance.RoleViewer]
			admin := m.members["own"][fairbalance.RoleAdmin]
			insert := func(c fairbalance.Caller, table, body string) ([]map[string]any, error) {
				res, err := m.data.Insert(m.ctx, c, table, reqPrefer(t, "select=action,client_reported", "return=representation"), []byte(body))
				if err != nil {
					return nil, err
				}
				var rows []map[string]any
				if err := json.Unmarshal(res.Rows, &rows); err != nil {
					t.Fatal(err)
				}
				return rows, nil
			}

			// The spec's client actions, as the app sends them.
			for _, body := range []string{
				fmt.Sprintf(`{"action":"organization_created","actor_id":%q,"org_id":%q,"object_type":"organization","object_id":%q,"meta":{"organization_name":"Own","industry":"pharma"}}`, admin.UserID, own, own),
				fmt.Sprintf(`{"action":"user_invited","actor_id":%q,"org_id":%q,"object_type":"user_invite","meta":{"invited_email":"x@example.com","invited_role":"marketer","invitation_method":"onboarding_wizard"}}`, admin.UserID, own),
				fmt.Sprintf(`{"action":"onboarding_completed","actor_id":%q,"org_id":%q,"meta":{"completed_steps":["organization_setup","user_invites"]}}`, admin.UserID, own),
				`{"action":"demo_role_switched","object_type":"demo_impersonation","object_id":"viewer","meta":{"role":"viewer","active":true}}`,
				`{"action":"demo_role_reset","object_type":"demo_impersonation","object_id":"viewer","meta":{"role":"viewer","active":false}}`,
				`{"action":"client_error","object_type":"client","object_id":"s-1","meta":{"message":"boom","path":"/"}}`,
				`{"action":"login","meta":{"user_agent":"test"}}`,
			} {
				rows, err := insert(viewer, "audit_logs_v2", body)
				if err != nil || len(rows) != 1 || rows[0]["client_reported"] != true {
					t.Fatalf("%s: %v %v", body, rows, err)
				}
			}
			rows, err := insert(viewer, "audit_logs", `{"action":"demo_role_switched","after_json":{"role":"admin","status":"active","details":"x"}}`)
			if err != nil || rows[0]["client_reported"] != true {
				t.Fatalf("audit_logs: %v %v", rows, err)
			}
			for _, e := range []string{"organization_created", "demo_role_switched", "client_error"} {
				if got := lastEntry(t, m, own, e); !got.ClientReported {
					t.Fatalf("%s stored as %+v", e, got)
				}
			}

			// The server's actions.
			before, _ := m.db.View().AuditLength(m.ctx, own)
			for _, table := range []string{"audit_logs_v2", "audit_logs"} {
				for _, action := range []string{fairbalance.ActionAssetApproved, "product_created", fairbalance.ActionInviteCreated,
					fairbalance.ActionAuditChainVerified, "orgs.update", fairbalance.ActionObjectDeleted, fairbalance.ActionMemberDeactivated} {
					_, err := insert(viewer, table, fmt.Sprintf(`{"action":%q}`, action))
					pe := wantCode(t, table+" "+action, err, "42501")
					if pe.Kind != fairbalance.KindForbidden || pe.Code != "42501" || !strings.Contains(pe.Message, `"`+action+`" is recorded only by the server`) {
						t.Fatalf("%s %s: %+v", table, action, pe)
					}
				}
				// One bad row in a batch: nothing is written.
				_, err := insert(admin, table, `[{"action":"asset_viewed"},{"action":"asset_approved"}]`)
				wantCode(t, table+" batch", err, "42501")
			}
			// The service role writes for the instance; it is a client all the same.
			_, err = m.data.Insert(m.ctx, fairbalance.Caller{Role: "service_role"}, "audit_logs_v2", req(t, ""), []byte(`{"action":"product_deleted"}`))
			wantCode(t, "service role", err, "42501")
			if after, _ := m.db.View().AuditLength(m.ctx, own); after != before {
				t.Fatalf("refused entries were written: %d → %d", before, after)
			}

			// What the server records is not client-reported.
			call(t, m, viewer, "verify_audit_chain", nil)
			if e := lastEntry(t, m, own, fairbalance.ActionAuditChainVerified); e.ClientReported {
				t.Fatalf("server entry %+v", e)
			}
			if _, err := m.data.Update(m.ctx, admin, "orgs", req(t, "id=eq."+own), []byte(`{"name":"Renamed"}`)); err != nil {
				t.Fatal(err)
			}
			if e := lastEntry(t, m, own, "orgs.update"); e.ClientReported {
				t.Fatalf("server entry %+v", e)
			}
			// The column reads back on both shapes.
			got := readRows(t, m, viewer, "audit_logs_v2", "select=action,client_reported&order=id.desc&limit=2")
			if got[0]["action"] != "orgs.update" || got[0]["client_reported"] != false || got[1]["client_reported"] != false {
				t.Fatalf("audit_logs_v2 %v", got)
			}
			got = readRows(t, m, viewer, "audit_logs", "select=action,client_reported&action=eq.client_error")
			if len(got) != 1 || got[0]["client_reported"] != true {
				t.Fatalf("audit_logs %v", got)
			}
			mustVerifyChain(t, m, own)
		})
	}
}

func mustVerifyChain(t *testing.T, m *matrixEnv, org string, seals ...fairbalance.AuditSeal) {
	t.Helper()
	if v, err := m.db.View().VerifyAudit(m.ctx, org, seals...); err != nil || !v.OK {
		t.Fatalf("chain of %s: %+v, %v", org, v, err)
	}
}

// Every action the data API records for a write of a registered table is
// one of the server's declared actions, so no client can write it.
func TestServerAuditActionsDeclared(t *testing.T) {
	tables := service.NewRegistry(nil, nil).Tables()
	for _, tb := range tables {
		for _, op := range fairbalance.DataAPIOps {
			a, ok := tb.AuditActions[op]
			if !ok {
				a = fairbalance.DataAPIAuditAction(tb.Name, op)
			}
			if !fairbalance.IsServerAuditAction(a) {
				t.Errorf("%s %s records %q, not a declared server action", tb.Name, op, a)
			}
		}
	}
}

// verify_audit_chain checks the chain against its last checkpoint and
// reports it; audit_checkpoint and diagnostics tell how sealing goes. A
// consistent rewrite and a cut tail are caught; the sealer stops sealing a
// chain that no longer matches, and only that organisation's members see
// why.
func TestVerifyAuditChainSealed(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			own, other := m.orgs["own"], m.orgs["other"]
			viewer, admin := m.members["own"][fairbalance.RoleViewer], m.members["own"][fairbalance.RoleAdmin]
			otherViewer, otherAdmin := m.members["other"][fairbalance.RoleViewer], m.members["other"][fairbalance.RoleAdmin]

			// Sealing off: nothing to compare with.
			if out := call(t, m, viewer, "audit_checkpoint", nil); out["sealing"] != "off" || out["checkpoint"] != nil {
				t.Fatalf("off: %v", out)
			}
			if v := call(t, m, viewer, "verify_audit_chain", nil); v["ok"] != true || v["checkpoint"] != nil {
				t.Fatalf("verify without sealing: %v", v)
			}
			if d := call(t, m, admin, "diagnostics", nil); d["audit_sealing"].(map[string]any)["status"] != "off" {
				t.Fatalf("diagnostics without sealing: %v", d["audit_sealing"])
			}

			_, key, _ := ed25519.GenerateKey(nil)
			at := time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)
			sealer, err := auditseal.New(m.ctx, auditseal.Config{Chains: m.db.AuditView(), Key: key, Now: func() time.Time { return at },
				Logs: []auditseal.Log{auditseal.NewFileLog(filepath.Join(t.TempDir(), auditseal.FileName))}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				t.Fatal(err)
			}
			m.data.Config.Sealer = sealer
			if out := call(t, m, viewer, "audit_checkpoint", nil); out["sealing"] != "on" || out["checkpoint"] != nil || out["interval_seconds"] != float64(60) || out["refused"] != nil {
				t.Fatalf("not sealed yet: %v", out)
			}
			if err := sealer.Seal(context.Background()); err != nil {
				t.Fatal(err)
			}
			n, _ := m.db.View().AuditLength(m.ctx, own)
			head, _ := m.db.View().AuditHashAt(m.ctx, own, n)
			out := call(t, m, viewer, "audit_checkpoint", nil)
			cp, _ := out["checkpoint"].(map[string]any)
			if cp == nil || cp["seq"] != float64(n) || cp["hash"] != head || cp["at"] != "2026-08-01T09:00:00Z" || cp["signature_ok"] != true || cp["key_id"] != fairbalance.AuditKeyID(key.Public().(ed25519.PublicKey)) {
				t.Fatalf("sealed: %v", out)
			}
			v := call(t, m, viewer, "verify_audit_chain", nil)
			vcp, _ := v["checkpoint"].(map[string]any)
			if v["ok"] != true || vcp == nil || vcp["seq"] != float64(n) || vcp["matches"] != true {
				t.Fatalf("verify sealed: %v", v)
			}
			if e := lastEntry(t, m, own, fairbalance.ActionAuditChainVerified); !strings.Contains(string(e.Meta), `"matches":true`) {
				t.Fatalf("the recorded verification lacks the checkpoint: %s", e.Meta)
			}
			if err := sealer.Seal(context.Background()); err != nil { // the verification entry
				t.Fatal(err)
			}

			// A consistent rewrite of own's first entry.
			storetest.RewriteAudit(t, m.db, backend, own, 1, func(e *fairbalance.AuditEntry) { e.Action = "org.renamed" })
			mustVerifyChain(t, m, own)
			sealed, _ := sealer.LastCheckpoint(own)
			v = call(t, m, viewer, "verify_audit_chain", nil)
			vcp, _ = v["checkpoint"].(map[string]any)
			if v["ok"] != false || v["first_broken_id"] != float64(sealed.Seq) || !strings.HasPrefix(v["reason"].(string), fairbalance.AuditSealMismatch) || vcp["matches"] != false {
				t.Fatalf("verify after the rewrite: %v", v)
			}
			if e := lastEntry(t, m, own, fairbalance.ActionAuditChainBroken); !strings.Contains(string(e.Meta), `"matches":false`) {
				t.Fatalf("the recorded failure: %s", e.Meta)
			}
			// The sealer will not vouch for it, and says so to own's members only.
			if err := sealer.Seal(context.Background()); err != nil {
				t.Fatal(err)
			}
			if cp2, _ := sealer.LastCheckpoint(own); cp2.Seq != sealed.Seq {
				t.Fatalf("the rewritten chain was sealed: %+v", cp2)
			}
			if out := call(t, m, viewer, "audit_checkpoint", nil); !strings.Contains(fmt.Sprint(out["refused"]), "no longer has the hash sealed") {
				t.Fatalf("refusal: %v", out)
			}
			if d := call(t, m, admin, "diagnostics", nil)["audit_sealing"].(map[string]any); d["status"] != "on" || !strings.Contains(fmt.Sprint(d["refused"]), "no longer has the hash") || d["key_id"] == nil {
				t.Fatalf("diagnostics: %v", d)
			}
			if d := call(t, m, otherAdmin, "diagnostics", nil)["audit_sealing"].(map[string]any); d["refused"] != nil {
				t.Fatalf("another organisation sees the refusal: %v", d)
			}
			if out := call(t, m, otherViewer, "audit_checkpoint", nil); out["refused"] != nil {
				t.Fatalf("another organisation sees the refusal: %v", out)
			}

			// The other organisation's tail is cut and its head rolled back.
			if v := call(t, m, otherViewer, "verify_audit_chain", nil); v["ok"] != true {
				t.Fatalf("other before: %v", v)
			}
			if err := sealer.Seal(context.Background()); err != nil {
				t.Fatal(err)
			}
			on, _ := m.db.View().AuditLength(m.ctx, other)
			storetest.TruncateAudit(t, m.db, backend, other, 1)
			v = call(t, m, otherViewer, "verify_audit_chain", nil)
			if v["ok"] != false || v["first_broken_id"] != float64(on) || !strings.HasPrefix(v["reason"].(string), fairbalance.AuditSealMissing) {
				t.Fatalf("verify after the cut: %v", v)
			}
		})
	}
}
