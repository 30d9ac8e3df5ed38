package service_test

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// Electronic signatures: sealed records that cannot be altered, moved or
// outlive a change of the signed bytes unnoticed; the components checked
// at signing; the lockout after failed attempts.

func (e *reviewEnv) verifySig(t *testing.T, id string) map[string]any {
	t.Helper()
	return e.must(t, e.own[fairbalance.RoleViewer], "verify_signature", map[string]any{"signature_id": id})
}

// exec runs statements as someone with direct access to the database,
// the triggers that refuse them dropped first.
func (e *reviewEnv) exec(t *testing.T, sqlite, postgres []string) {
	t.Helper()
	stmts := sqlite
	if e.db.Backend() == "postgres" {
		stmts = postgres
	}
	for _, s := range stmts {
		if err := sqltest.Exec(e.ctx, e.db, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestSignatureSealingAndVerification(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			marketer := e.own[fairbalance.RoleMarketer]
			med, legal := e.own[fairbalance.RoleReviewerMedical], e.own[fairbalance.RoleReviewerLegal]
			e.exec(t, []string{"DROP TRIGGER signatures_no_update"}, []string{"ALTER TABLE signatures DISABLE TRIGGER signatures_no_update"})

			a := e.asset(t, "Signed")
			_, steps := e.submit(t, a["id"].(string))
			s1 := e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved")["signature"].(map[string]any)
			s2 := e.mustDecide(t, legal, steps["reviewer_legal"]["id"].(string), "approved_with_changes")["signature"].(map[string]any)
			if v := e.verifySig(t, s1["id"].(string)); v["valid"] != true {
				t.Fatalf("fresh signature: %v", v)
			}
			// The manifestation and the binding as recorded.
			if s1["signer_id"] != med.UserID || s1["signer_name"] != "reviewer_medical" || s1["meaning"] != "approval" || s1["decision"] != "approved" ||
				s1["step_id"] != steps["reviewer_medical"]["id"] || s1["version_id"] != a["current_version_id"] || len(s1["seal"].(string)) != 64 ||
				s1["key_id"] != fairbalance.AuditKeyID(e.keys.AuditKey.Public().(ed25519.PublicKey)) {
				t.Fatalf("signature: %v", s1)
			}
			if step := e.row(t, "review_steps", steps["reviewer_medical"]["id"].(string)); step["signature_id"] != s1["id"] || step["decided_by"] != med.UserID {
				t.Fatalf("step: %v", step)
			}

			// Altering a field breaks the seal.
			e.exec(t, []string{"UPDATE signatures SET signer_name = 'Dr. Impostor' WHERE id = '" + s1["id"].(string) + "'"},
				[]string{"UPDATE signatures SET signer_name = 'Dr. Impostor' WHERE id = '" + s1["id"].(string) + "'"})
			v := e.verifySig(t, s1["id"].(string))
			if v["valid"] != false || v["seal_intact"] != false || v["bound_to_step"] != true || !strings.Contains(v["reason"].(string), "altered") {
				t.Fatalf("altered name: %v", v)
			}
			// So does a time moved by a microsecond.
			e.exec(t, []string{"UPDATE signatures SET signed_at = '2020-01-01 00:00:00+00:00' WHERE id = '" + s2["id"].(string) + "'"},
				[]string{"UPDATE signatures SET signed_at = '2020-01-01 00:00:00+00' WHERE id = '" + s2["id"].(string) + "'"})
			if v := e.verifySig(t, s2["id"].(string)); v["seal_intact"] != false {
				t.Fatalf("altered time: %v", v)
			}

			// A record moved to another step: its seal and its binding fail.
			b := e.asset(t, "Moved")
			_, bsteps := e.submit(t, b["id"].(string))
			m1 := e.mustDecide(t, med, bsteps["reviewer_medical"]["id"].(string), "approved")["signature"].(map[string]any)
			m2 := e.mustDecide(t, legal, bsteps["reviewer_legal"]["id"].(string), "approved")["signature"].(map[string]any)
			e.exec(t, []string{"UPDATE signatures SET step_id = '" + bsteps["reviewer_legal"]["id"].(string) + "' WHERE id = '" + m1["id"].(string) + "'"},
				[]string{"UPDATE signatures SET step_id = '" + bsteps["reviewer_legal"]["id"].(string) + "' WHERE id = '" + m1["id"].(string) + "'"})
			v = e.verifySig(t, m1["id"].(string))
			if v["valid"] != false || v["seal_intact"] != false || v["bound_to_step"] != false {
				t.Fatalf("moved record: %v", v)
			}
			// A step pointed at another signature: that signature is intact
			// but its own step no longer names it.
			e.exec(t, []string{"UPDATE review_steps SET signature_id = '" + m1["id"].(string) + "' WHERE id = '" + bsteps["reviewer_legal"]["id"].(string) + "'"},
				[]string{"UPDATE review_steps SET signature_id = '" + m1["id"].(string) + "' WHERE id = '" + bsteps["reviewer_legal"]["id"].(string) + "'"})
			v = e.verifySig(t, m2["id"].(string))
			if v["valid"] != false || v["seal_intact"] != true || v["bound_to_step"] != false || !strings.Contains(v["reason"].(string), "moved") {
				t.Fatalf("step re-pointed: %v", v)
			}

			// The composed version's content changed under the signature.
			e.exec(t, []string{"DROP TRIGGER asset_versions_immutable", "UPDATE asset_versions SET content_html = '<p>Changed</p>' WHERE id = '" + a["current_version_id"].(string) + "'"},
				[]string{"ALTER TABLE asset_versions DISABLE TRIGGER asset_versions_immutable", "UPDATE asset_versions SET content_html = '<p>Changed</p>' WHERE id = '" + a["current_version_id"].(string) + "'"})
			if v := e.verifySig(t, s1["id"].(string)); v["rendition_matches"] != false {
				t.Fatalf("changed content: %v", v)
			}

			// An uploaded file whose bytes change in the file store.
			pdf := testPDF(t, "Zelvora lowers LDL-C.", "Important Safety Information: Zelvora can cause liver problems.")
			path := upload(t, e.matrixEnv, e.storage, marketer, "asset-files", "leaflet.pdf", pdf)
			f := e.must(t, marketer, "create_asset", map[string]any{"title": "Leaflet", "type": "print", "audience": "hcp", "channel": "Print", "market": "US",
				"product_id": e.product["id"], "file_path": path})
			_, fsteps := e.submit(t, f["id"].(string))
			fs := e.mustDecide(t, med, fsteps["reviewer_medical"]["id"].(string), "rejected")["signature"].(map[string]any)
			if v := e.verifySig(t, fs["id"].(string)); v["valid"] != true || fs["meaning"] != "rejection" {
				t.Fatalf("file signature: %v %v", v, fs)
			}
			o, err := e.db.View().ObjectByName(e.ctx, "asset-files", path)
			if err != nil {
				t.Fatal(err)
			}
			tampered := append(bytes.Clone(pdf), "% one byte more\n"...)
			if _, err := e.blobs.Store.Put(e.ctx, o.BlobKey, bytes.NewReader(tampered), 0); err != nil {
				t.Fatal(err)
			}
			v = e.verifySig(t, fs["id"].(string))
			if v["valid"] != false || v["seal_intact"] != true || v["bound_to_step"] != true || v["rendition_matches"] != false {
				t.Fatalf("changed file: %v", v)
			}

			// Signatures of another organisation are not found; nobody
			// changes one through the data API.
			if _, err := e.call(e.members["other"][fairbalance.RoleAdmin], "verify_signature", map[string]any{"signature_id": s1["id"]}); errKind(err) != refusedNotFound {
				t.Fatalf("another organisation verified: %v", err)
			}
			for _, role := range fairbalance.Roles {
				if _, err := patchRows(t, e.matrixEnv, e.own[role], "signatures", "id=eq."+s1["id"].(string), map[string]any{"signer_name": "x"}); !denied(err) {
					t.Fatalf("%s patched a signature: %v", role, err)
				}
			}
		})
	}
}

func TestSigningLockout(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			legal, med := e.own[fairbalance.RoleReviewerLegal], e.own[fairbalance.RoleReviewerMedical]
			a := e.asset(t, "Lockout")
			_, steps := e.submit(t, a["id"].(string))
			step := steps["reviewer_legal"]["id"].(string)
			wrong := func(c fairbalance.Caller, id string) error {
				_, err := e.call(c, "decide_step", map[string]any{"step_id": id, "decision": "approved", "comment": "ok", "password": "Wrong-Password-1"})
				return err
			}
			// A non-member of the role spends nobody's attempts.
			if err := wrong(e.own[fairbalance.RoleViewer], step); errKind(err) != refusedForbidden {
				t.Fatalf("viewer: %v", err)
			}
			// Three failures, a success: the run starts again.
			for range 3 {
				if err := wrong(legal, step); errKind(err) != refusedPassword || fieldsOf(err)["password"] == "" {
					t.Fatalf("wrong password: %v", err)
				}
			}
			e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved")
			b := e.asset(t, "Lockout 2")
			_, steps = e.submit(t, b["id"].(string))
			e.mustDecide(t, legal, step0(t, steps, "reviewer_legal"), "approved")
			c := e.asset(t, "Lockout 3")
			_, steps = e.submit(t, c["id"].(string))
			step = steps["reviewer_legal"]["id"].(string)
			before := e.auditCount(t, fairbalance.ActionSignatureFailed)
			for i := 1; i <= 4; i++ {
				if err := wrong(legal, step); errKind(err) != refusedPassword || strings.Contains(pgMessage(err), "locked") {
					t.Fatalf("attempt %d: %v", i, err)
				}
			}
			err := wrong(legal, step)
			if errKind(err) != refusedPassword || !strings.Contains(pgMessage(err), "locked for 15 minutes") {
				t.Fatalf("fifth attempt: %v", err)
			}
			if got := e.auditCount(t, fairbalance.ActionSignatureFailed) - before; got != 5 {
				t.Fatalf("%d failed attempts audited", got)
			}
			if e.auditCount(t, fairbalance.ActionSigningLocked) != 1 {
				t.Fatal("the lock was not audited")
			}
			for _, role := range []string{fairbalance.RoleOwner, fairbalance.RoleAdmin} {
				if n := e.notifications(t, e.own[role], "signing_locked"); len(n) != 1 || !strings.Contains(n[0]["title"].(string), "reviewer_legal") {
					t.Fatalf("%s notified: %v", role, n)
				}
			}
			if n := e.notifications(t, legal, "signing_locked"); len(n) != 0 {
				t.Fatalf("the locked member was notified as an admin: %v", n)
			}
			// Locked: even the right password is refused, for 15 minutes.
			if _, err := e.decide(legal, step, "approved"); errKind(err) != refusedLocked {
				t.Fatalf("locked member signed: %v", err)
			}
			if s := e.row(t, "review_steps", step); s["status"] != "active" {
				t.Fatalf("step changed: %v", s)
			}
			// Another member signs on.
			e.mustDecide(t, med, steps["reviewer_medical"]["id"].(string), "approved")
			e.clock = e.clock.Add(14 * time.Minute)
			if _, err := e.decide(legal, step, "approved"); errKind(err) != refusedLocked {
				t.Fatalf("after 14 minutes: %v", err)
			}
			e.clock = e.clock.Add(time.Minute + time.Second)
			e.mustDecide(t, legal, step, "approved")
		})
	}
}

func step0(t *testing.T, steps map[string]map[string]any, role string) string {
	t.Helper()
	return steps[role]["id"].(string)
}

// A signer with a verified authenticator signs with its code too.
func TestSigningWithAuthenticator(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newReviewEnv(t, backend)
			reg := e.own[fairbalance.RoleReviewerRegulatory]
			enr, err := auth.NewTOTP("Fairbalance", "reg@example.com")
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			err = e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
				return tx.CreateFactor(e.ctx, &fairbalance.Factor{ID: auth.NewUUID(), UserID: reg.UserID, FriendlyName: "phone", FactorType: "totp",
					Status: "verified", Secret: auth.NewSealer(e.keys.Secret).Seal(enr.Secret), CreatedAt: now, UpdatedAt: now})
			})
			if err != nil {
				t.Fatal(err)
			}
			a := e.asset(t, "Two-step")
			_, steps := e.submit(t, a["id"].(string))
			step := steps["reviewer_regulatory"]["id"].(string)
			before := e.auditCount(t, fairbalance.ActionSignatureFailed)
			_, err = e.decide(reg, step, "approved")
			if errKind(err) != "invalid/P0001" || fieldsOf(err)["totp_code"] == "" {
				t.Fatalf("without a code: %v", err)
			}
			if e.auditCount(t, fairbalance.ActionSignatureFailed) != before {
				t.Fatal("a missing code counted as a failed attempt")
			}
			code, err := totp.GenerateCodeCustom(enr.Secret, e.clock, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
			if err != nil {
				t.Fatal(err)
			}
			bad := "000000"
			if code == bad {
				bad = "111111"
			}
			_, err = e.decide(reg, step, "approved", "totp_code", bad)
			if errKind(err) != refusedPassword || fieldsOf(err)["totp_code"] == "" {
				t.Fatalf("wrong code: %v", err)
			}
			if e.auditCount(t, fairbalance.ActionSignatureFailed) != before+1 {
				t.Fatal("a wrong code was not audited")
			}
			// The right code with a wrong password is still refused.
			if _, err := e.call(reg, "decide_step", map[string]any{"step_id": step, "decision": "approved", "comment": "ok", "password": "nope", "totp_code": code}); errKind(err) != refusedPassword {
				t.Fatalf("wrong password, right code: %v", err)
			}
			e.mustDecide(t, reg, step, "approved", "totp_code", code)
		})
	}
}
