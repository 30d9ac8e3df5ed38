package service_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/dataapi"
	"fairbalance/service"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// Behaviour of the workspace tables and functions beyond who may call
// them (see workspace_matrix_test.go for that).

func call(t *testing.T, m *matrixEnv, c fairbalance.Caller, fn string, args map[string]any) map[string]any {
	t.Helper()
	raw, err := m.data.Call(m.ctx, c, fn, args, false)
	if err != nil {
		t.Fatalf("%s: %v", fn, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %s: %v", fn, raw, err)
	}
	return out
}

func readRows(t *testing.T, m *matrixEnv, c fairbalance.Caller, table, query string) []map[string]any {
	t.Helper()
	res, err := m.data.Read(m.ctx, c, table, req(t, query))
	if err != nil {
		t.Fatalf("read %s?%s: %v", table, query, err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(res.Rows, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

func wantCode(t *testing.T, what string, err error, code string) *fairbalance.Error {
	t.Helper()
	if pgCode(err) != code {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
	var pe *fairbalance.Error
	_ = asPgErr(err, &pe)
	return pe
}

func asPgErr(err error, pe **fairbalance.Error) bool {
	e, ok := err.(*fairbalance.Error)
	if ok {
		*pe = e
	}
	return ok
}

// lastEntry is the newest audit entry of an organisation with an action.
func lastEntry(t *testing.T, m *matrixEnv, org, action string) fairbalance.AuditEntry {
	t.Helper()
	ents, err := m.db.View().ListAudit(m.ctx, fairbalance.AuditFilter{OrgID: org, Action: action, Limit: 1})
	if err != nil || len(ents) != 1 {
		t.Fatalf("no %s entry in %s: %v", action, org, err)
	}
	return ents[0]
}

func TestInvitationsLifecycle(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			var woken atomic.Int32
			m.data.Config = service.DataConfig{SiteURL: "https://review.example.com/", MailQueued: func() { woken.Add(1) }}
			admin := m.members["own"][fairbalance.RoleAdmin]
			own := m.orgs["own"]

			inv := call(t, m, admin, "create_invite", map[string]any{"email": "New.Person@Example.com", "role": "reviewer_legal"})
			id, token := inv["id"].(string), inv["token"].(string)
			if e := lastEntry(t, m, own, fairbalance.ActionInviteCreated); e.ObjectID != id || e.ActorID != admin.UserID || strings.Contains(string(e.After), token) {
				t.Fatalf("invite_created entry %+v", e)
			}
			rows := readRows(t, m, admin, "invites", "select=*&order=created_at.desc")
			if len(rows) != 1 {
				t.Fatalf("invites %v", rows)
			}
			keys := []string{}
			for k := range rows[0] {
				keys = append(keys, k)
			}
			if len(keys) != 8 || rows[0]["email"] != "new.person@example.com" || rows[0]["status"] != "pending" || rows[0]["invited_by"] != admin.UserID || rows[0]["accepted_at"] != nil {
				t.Fatalf("invite row %v", rows[0])
			}
			// An invitation past its expiry reads as expired, and filters so.
			old := m.seedInvite(t, "own", "late@example.com", time.Now().Add(-time.Minute))
			if r := readRows(t, m, admin, "invites", "select=id,status&status=eq.expired"); len(r) != 1 || r[0]["id"] != old {
				t.Fatalf("expired invitations %v", r)
			}
			res, err := m.data.Read(m.ctx, admin, "invites", reqPrefer(t, "select=id&status=in.(pending,expired)", "count=exact"))
			if err != nil || res.Total != 2 {
				t.Fatalf("count %+v %v", res, err)
			}

			// Resending: a new token, the old one dead, seven more days, an e-mail.
			woken.Store(0)
			out := call(t, m, admin, "resend_invite", map[string]any{"invite_id": id})
			fresh := out["token"].(string)
			if fresh == token || out["id"] != id || out["email"] != "new.person@example.com" || out["role"] != "reviewer_legal" {
				t.Fatalf("resend_invite %v", out)
			}
			if exp, _ := time.Parse(time.RFC3339Nano, out["expires_at"].(string)); exp.Sub(time.Now()) < fairbalance.InviteValidity-time.Minute {
				t.Fatalf("expires_at %v", out["expires_at"])
			}
			if woken.Load() != 1 {
				t.Fatal("the mailer was not woken")
			}
			if _, err := m.data.Call(m.ctx, fairbalance.Caller{Role: "anon"}, "get_invite", map[string]any{"token": token}, true); pgCode(err) != "P0001" {
				t.Fatalf("old token: %v", err)
			}
			if raw, err := m.data.Call(m.ctx, fairbalance.Caller{Role: "anon"}, "get_invite", map[string]any{"token": fresh}, true); err != nil || !strings.Contains(string(raw), "reviewer_legal") {
				t.Fatalf("new token: %s %v", raw, err)
			}
			mails, err := m.db.View().OrgMail(m.ctx, own, 5)
			if err != nil || len(mails) != 1 || mails[0].To != "new.person@example.com" || mails[0].Kind != "org_invite" ||
				!strings.Contains(mails[0].Text, "https://review.example.com/signup?invite="+fresh) || !strings.Contains(mails[0].Subject, "own") {
				t.Fatalf("mail %+v %v", mails, err)
			}
			if other, _ := m.db.View().OrgMail(m.ctx, m.orgs["other"], 5); len(other) != 0 {
				t.Fatalf("the other organisation's outbox holds %d messages", len(other))
			}
			// Not again within the minute.
			pe := wantCode(t, "resend at once", mustFail(m.data.Call(m.ctx, admin, "resend_invite", map[string]any{"invite_id": id}, false)), "P0001")
			if !strings.HasPrefix(pe.Message, "For security purposes") {
				t.Fatalf("resend at once: %+v", pe)
			}
			e := lastEntry(t, m, own, fairbalance.ActionInviteResent)
			if e.ObjectID != id || bytes.Contains(append(append(e.Before, e.After...), e.Meta...), []byte(fresh)) {
				t.Fatalf("invite_resent entry %+v", e)
			}
			// An expired invitation may be resent; it is pending again.
			call(t, m, admin, "resend_invite", map[string]any{"invite_id": old})
			if r := readRows(t, m, admin, "invites", "select=status&id=eq."+old); r[0]["status"] != "pending" {
				t.Fatalf("resent expired invitation %v", r)
			}

			// Revoking: the token stops working; nothing more can be done with it.
			out = call(t, m, admin, "revoke_invite", map[string]any{"invite_id": id})
			if out["status"] != "revoked" || out["id"] != id {
				t.Fatalf("revoke_invite %v", out)
			}
			if e := lastEntry(t, m, own, fairbalance.ActionInviteRevoked); e.ObjectID != id || !strings.Contains(string(e.Before), `"pending"`) || !strings.Contains(string(e.After), `"revoked"`) {
				t.Fatalf("invite_revoked entry %+v", e)
			}
			if _, err := m.data.Call(m.ctx, fairbalance.Caller{Role: "anon"}, "get_invite", map[string]any{"token": fresh}, true); pgCode(err) != "P0001" {
				t.Fatalf("revoked token: %v", err)
			}
			pe = wantCode(t, "revoke twice", mustFail(m.data.Call(m.ctx, admin, "revoke_invite", map[string]any{"invite_id": id}, false)), "P0001")
			if pe.Kind != fairbalance.KindInvalid || pe.Message != "This invitation has already been revoked" {
				t.Fatalf("revoke twice: %+v", pe)
			}
			wantCode(t, "resend revoked", mustFail(m.data.Call(m.ctx, admin, "resend_invite", map[string]any{"invite_id": id}, false)), "P0001")

			// An accepted invitation is neither revoked nor resent.
			joiner := m.members["own"][fairbalance.RoleViewer]
			acc := call(t, m, admin, "create_invite", map[string]any{"email": "own-viewer@example.com", "role": "marketer"})
			if ok := call(t, m, fairbalance.Caller{Role: "authenticated", UserID: joiner.UserID}, "accept_invite", map[string]any{"token": acc["token"]}); ok["success"] != true {
				t.Fatalf("accept_invite %v", ok)
			}
			if e := lastEntry(t, m, own, fairbalance.ActionInviteAccepted); e.ActorID != joiner.UserID || e.ObjectID != acc["id"] {
				t.Fatalf("invite_accepted entry %+v", e)
			}
			wantCode(t, "revoke accepted", mustFail(m.data.Call(m.ctx, admin, "revoke_invite", map[string]any{"invite_id": acc["id"]}, false)), "P0001")

			// Bad input, in PostgREST's shapes.
			pe = wantCode(t, "malformed id", mustFail(m.data.Call(m.ctx, admin, "revoke_invite", map[string]any{"invite_id": "nope"}, false)), "22P02")
			if pe.Kind != fairbalance.KindInvalid {
				t.Fatalf("malformed id: %+v", pe)
			}
			wantCode(t, "missing id", mustFail(m.data.Call(m.ctx, admin, "revoke_invite", map[string]any{}, false)), "PGRST202")
			wantCode(t, "unknown invitation", mustFail(m.data.Call(m.ctx, admin, "revoke_invite", map[string]any{"invite_id": auth.NewUUID()}, false)), "P0001")
			demo := admin
			demo.Demo = true
			pe = wantCode(t, "demo", mustFail(m.data.Call(m.ctx, demo, "resend_invite", map[string]any{"invite_id": old}, false)), "42501")
			if pe.Message != service.DemoWriteRefused {
				t.Fatalf("demo: %+v", pe)
			}
			if v, err := m.db.View().VerifyAudit(m.ctx, own); err != nil || !v.OK {
				t.Fatalf("chain %+v %v", v, err)
			}
		})
	}
}

func mustFail(_ json.RawMessage, err error) error { return err }

func TestMembersDirectory(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			viewer := m.members["own"][fairbalance.RoleViewer]
			rows := readRows(t, m, viewer, "members", "select=*&order=email")
			if len(rows) != len(fairbalance.Roles) {
				t.Fatalf("%d members", len(rows))
			}
			first := rows[0]
			for _, k := range []string{"id", "org_id", "email", "full_name", "role", "avatar_url", "deactivated_at", "last_sign_in_at", "created_at", "mfa_enabled"} {
				if _, ok := first[k]; !ok {
					t.Fatalf("members has no %s: %v", k, first)
				}
			}
			if first["email"] != "own-admin@example.com" || first["mfa_enabled"] != false || first["deactivated_at"] != nil {
				t.Fatalf("first member %v", first)
			}
			// Filters, ordering, paging and counts, as on any table.
			res, err := m.data.Read(m.ctx, viewer, "members", reqPrefer(t, "select=email,role&role=like.reviewer_*&order=role.desc&limit=2", "count=exact"))
			if err != nil || res.Total != 3 || res.Count != 2 {
				t.Fatalf("filtered %+v %v", res, err)
			}
			var got []map[string]any
			_ = json.Unmarshal(res.Rows, &got)
			if got[0]["role"] != "reviewer_regulatory" || got[1]["role"] != "reviewer_medical" {
				t.Fatalf("order %v", got)
			}
			if r := readRows(t, m, viewer, "members", "select=email&or=(role.eq.owner,email.ilike.OWN-VIEWER*)&order=email"); len(r) != 2 {
				t.Fatalf("or filter %v", r)
			}
			// Deactivated members stay listed, with the time.
			admin := m.members["own"][fairbalance.RoleAdmin]
			call(t, m, admin, "deactivate_member", map[string]any{"user_id": viewer.UserID})
			if r := readRows(t, m, admin, "members", "select=id&deactivated_at=not.is.null"); len(r) != 1 || r[0]["id"] != viewer.UserID {
				t.Fatalf("deactivated %v", r)
			}
			// A verified second factor shows.
			now := time.Now().UTC()
			err = m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
				return tx.CreateFactor(m.ctx, &fairbalance.Factor{ID: auth.NewUUID(), UserID: admin.UserID, FactorType: "totp", Status: "verified", CreatedAt: now, UpdatedAt: now})
			})
			if err != nil {
				t.Fatal(err)
			}
			if r := readRows(t, m, viewer, "members", "select=id&mfa_enabled=is.true"); len(r) != 1 || r[0]["id"] != admin.UserID {
				t.Fatalf("mfa_enabled %v", r)
			}
		})
	}
}

func TestRoleChangeIsAudited(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			admin, viewer := m.members["own"][fairbalance.RoleAdmin], m.members["own"][fairbalance.RoleViewer]
			if _, err := m.data.Update(m.ctx, admin, "profiles_v2", req(t, "id=eq."+viewer.UserID), []byte(`{"role":"marketer"}`)); err != nil {
				t.Fatal(err)
			}
			e := lastEntry(t, m, m.orgs["own"], "profiles_v2.update")
			if e.ActorID != admin.UserID || e.ObjectID != viewer.UserID || !strings.Contains(string(e.Before), `"role":"viewer"`) || !strings.Contains(string(e.After), `"role":"marketer"`) {
				t.Fatalf("entry %+v", e)
			}
		})
	}
}

// A deactivated member cannot sign in or refresh; their sessions end at
// once; reactivation lets them back in.
func TestMemberDeactivationEndsSessions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *env) {
		d := service.NewRegistry(e.db, nil)
		d.Now = e.id.Now
		owner, victim := e.seed("owner@example.com"), e.seed("victim@example.com")
		orgID := auth.NewUUID()
		now := e.id.Now()
		err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
			if err := tx.CreateOrg(e.ctx, &fairbalance.Org{ID: orgID, Name: "Acme", CreatedBy: owner, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
			for id, role := range map[string]string{owner: fairbalance.RoleOwner, victim: fairbalance.RoleMarketer} {
				if err := tx.CreateProfile(e.ctx, &fairbalance.Profile{ID: id, OrgID: orgID, Role: role, CreatedAt: now, UpdatedAt: now}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		s1, s2 := e.signIn("victim@example.com"), e.signIn("victim@example.com")
		if _, err := e.id.Refresh(e.ctx, e.c, s1.RefreshToken); err != nil {
			t.Fatal(err)
		}
		c := fairbalance.Caller{Role: "authenticated", UserID: owner, OrgID: orgID, Member: fairbalance.RoleOwner}
		raw, err := d.Call(e.ctx, c, "deactivate_member", map[string]any{"user_id": victim}, false)
		if err != nil {
			t.Fatal(err)
		}
		var row map[string]any
		_ = json.Unmarshal(raw, &row)
		if row["id"] != victim || row["deactivated_at"] == nil || row["email"] != "victim@example.com" {
			t.Fatalf("deactivate_member %s", raw)
		}
		if _, err := e.id.Refresh(e.ctx, e.c, s2.RefreshToken); err == nil {
			t.Fatal("refreshed a session of a deactivated member")
		}
		if _, err := e.id.Authenticate(e.ctx, s1.AccessToken, ""); errCode(err) != "session_not_found" {
			t.Fatalf("access token of an ended session: %v", err)
		}
		_, err = e.id.SignInPassword(e.ctx, e.c, "victim@example.com", password)
		if fe := fairbalance.AsError(err); fe == nil || fe.Code != "user_banned" || fe.Kind != fairbalance.KindInvalid {
			t.Fatalf("sign-in of a deactivated member: %v", err)
		}
		evs, _ := sqltest.AuthEvents(e.ctx, e.db)
		if last := evs[len(evs)-1]; last.Action != "login_failed" || !strings.Contains(string(last.Payload), "member_deactivated") {
			t.Fatalf("refused sign-in not recorded: %+v", last)
		}
		// A wrong password still says only that.
		if _, err := e.id.SignInPassword(e.ctx, e.c, "victim@example.com", "wrong-password-1"); errCode(err) != "invalid_credentials" {
			t.Fatalf("wrong password: %v", err)
		}
		ents, err := e.db.View().ListAudit(e.ctx, fairbalance.AuditFilter{OrgID: orgID, Action: fairbalance.ActionMemberDeactivated})
		if err != nil || len(ents) != 1 || ents[0].ActorID != owner || ents[0].ObjectID != victim || !strings.Contains(string(ents[0].Before), `"deactivated_at":null`) {
			t.Fatalf("member_deactivated %+v %v", ents, err)
		}
		if _, err := d.Call(e.ctx, c, "deactivate_member", map[string]any{"user_id": victim}, false); pgCode(err) != "P0001" {
			t.Fatalf("deactivate twice: %v", err)
		}
		if _, err := d.Call(e.ctx, c, "reactivate_member", map[string]any{"user_id": victim}, false); err != nil {
			t.Fatal(err)
		}
		e.signIn("victim@example.com")
		ents, _ = e.db.View().ListAudit(e.ctx, fairbalance.AuditFilter{OrgID: orgID, Action: fairbalance.ActionMemberReactivated})
		if len(ents) != 1 || !strings.Contains(string(ents[0].After), `"deactivated_at":null`) {
			t.Fatalf("member_reactivated %+v", ents)
		}
	})
}

func TestNotificationPreferences(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			me := m.members["own"][fairbalance.RoleReviewerLegal]
			if r := readRows(t, m, me, "notification_preferences", "select=*"); len(r) != 0 {
				t.Fatalf("a row before any upsert: %v", r)
			}
			upsert := func(body string) map[string]any {
				t.Helper()
				res, err := m.data.Insert(m.ctx, me, "notification_preferences", reqPrefer(t, "select=*", "resolution=merge-duplicates,return=representation"), []byte(body))
				if err != nil {
					t.Fatalf("upsert %s: %v", body, err)
				}
				var rows []map[string]any
				_ = json.Unmarshal(res.Rows, &rows)
				if len(rows) != 1 {
					t.Fatalf("upsert %s: %s", body, res.Rows)
				}
				return rows[0]
			}
			row := upsert(`{"weekly_digest":true}`)
			want := map[string]any{"user_id": me.UserID, "review_assigned": true, "review_decision": true, "comment_mention": true, "due_reminders": true, "asset_expiring": true, "weekly_digest": true}
			for k, v := range want {
				if row[k] != v {
					t.Fatalf("first upsert: %s = %v, want %v (%v)", k, row[k], v, row)
				}
			}
			first := row["updated_at"]
			time.Sleep(5 * time.Millisecond)
			// A second upsert changes what it names and nothing else.
			row = upsert(fmt.Sprintf(`{"user_id":%q,"review_assigned":false}`, me.UserID))
			if row["review_assigned"] != false || row["weekly_digest"] != true || row["updated_at"] == first {
				t.Fatalf("second upsert %v", row)
			}
			// The representation is what the select names, nothing more.
			res, err := m.data.Insert(m.ctx, me, "notification_preferences", reqPrefer(t, "on_conflict=user_id&select=weekly_digest", "resolution=merge-duplicates,return=representation"), []byte(`{"comment_mention":false}`))
			if err != nil || string(res.Rows) != `[{"weekly_digest":true}]` {
				t.Fatalf("upsert returning one column: %s %v", res.Rows, err)
			}
			if _, err := m.data.Update(m.ctx, me, "notification_preferences", req(t, "user_id=eq."+me.UserID), []byte(`{"due_reminders":false}`)); err != nil {
				t.Fatal(err)
			}
			r := readRows(t, m, me, "notification_preferences", "select=review_assigned,due_reminders,weekly_digest")
			if len(r) != 1 || r[0]["review_assigned"] != false || r[0]["due_reminders"] != false || r[0]["weekly_digest"] != true {
				t.Fatalf("read back %v", r)
			}
			_, err = m.data.Update(m.ctx, me, "notification_preferences", req(t, "user_id=eq."+me.UserID), []byte(`{"user_id":"someone-else"}`))
			wantCode(t, "moving the row", err, "42501")
			_, err = m.data.Insert(m.ctx, me, "notification_preferences", reqPrefer(t, "", "resolution=merge-duplicates"), []byte(`{"weekly_digest":"sometimes"}`))
			wantCode(t, "a bad value", err, "22P02")
			ents, err := m.db.View().ListAudit(m.ctx, fairbalance.AuditFilter{OrgID: m.orgs["own"], ObjectType: "notification_preferences", Limit: 10})
			if err != nil || len(ents) != 4 || ents[3].Action != "notification_preferences.upsert" || ents[3].ActorID != me.UserID {
				t.Fatalf("entries %+v %v", ents, err)
			}
			demo := me
			demo.Demo = true
			_, err = m.data.Insert(m.ctx, demo, "notification_preferences", reqPrefer(t, "", "resolution=merge-duplicates"), []byte(`{"weekly_digest":false}`))
			if pe := wantCode(t, "demo", err, "42501"); pe.Message != service.DemoWriteRefused {
				t.Fatalf("demo: %+v", pe)
			}
		})
	}
}

func TestSessionsListAndRevoke(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *env) {
		d := service.NewRegistry(e.db, nil)
		d.Now = e.id.Now
		uid := e.seed("me@example.com")
		e.c.UserAgent = "Firefox"
		s1 := e.signIn("me@example.com")
		e.advance(time.Minute)
		e.c.UserAgent, e.c.IP = "Safari", "198.51.100.7"
		s2 := e.signIn("me@example.com")
		other := e.seed("other@example.com")
		s3 := e.signIn("other@example.com")
		ids := map[*service.Session]string{}
		for _, s := range []*service.Session{s1, s2, s3} {
			ids[s] = e.principal(s).Session.ID
		}
		sid := func(s *service.Session) string { return ids[s] }
		c := fairbalance.Caller{Role: "authenticated", UserID: uid, SessionID: sid(s1)}
		list := func() []map[string]any {
			t.Helper()
			raw, err := d.Call(e.ctx, c, "list_sessions", nil, true)
			if err != nil {
				t.Fatal(err)
			}
			var out []map[string]any
			_ = json.Unmarshal(raw, &out)
			return out
		}
		got := list()
		if len(got) != 2 || got[0]["id"] != sid(s1) || got[0]["current"] != true || got[0]["user_agent"] != "Firefox" ||
			got[1]["id"] != sid(s2) || got[1]["current"] != false || got[1]["ip"] != "198.51.100.7" || got[1]["aal"] != "aal1" {
			t.Fatalf("sessions %v", got)
		}
		for _, k := range []string{"created_at", "updated_at", "refreshed_at", "not_after"} {
			if got[0][k] == nil {
				t.Fatalf("no %s: %v", k, got[0])
			}
		}
		if _, err := d.Call(e.ctx, c, "revoke_session", map[string]any{"session_id": sid(s3)}, false); pgCode(err) != "P0001" {
			t.Fatalf("another user's session: %v", err)
		}
		raw, err := d.Call(e.ctx, c, "revoke_session", map[string]any{"session_id": sid(s2)}, false)
		if err != nil || !strings.Contains(string(raw), `"revoked":true`) {
			t.Fatalf("revoke_session %s %v", raw, err)
		}
		if _, err := e.id.Refresh(e.ctx, e.c, s2.RefreshToken); err == nil {
			t.Fatal("a revoked session refreshed")
		}
		if got := list(); len(got) != 1 || got[0]["id"] != sid(s1) {
			t.Fatalf("after revoking %v", got)
		}
		ents, err := e.db.View().ListAudit(e.ctx, fairbalance.AuditFilter{Action: fairbalance.ActionSessionRevoked})
		if err != nil || len(ents) != 1 || ents[0].ObjectID != sid(s2) || ents[0].ActorID != uid {
			t.Fatalf("session_revoked %+v %v", ents, err)
		}
		// A session idle past the inactivity timeout is no longer active.
		e.advance(13 * time.Hour)
		if got := list(); len(got) != 0 {
			t.Fatalf("idle sessions listed: %v", got)
		}
		_ = other
	})
}

func TestVerifyAuditChainAndPilot(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			own := m.orgs["own"]
			viewer, owner, admin := m.members["own"][fairbalance.RoleViewer], m.members["own"][fairbalance.RoleOwner], m.members["own"][fairbalance.RoleAdmin]
			steps := func() (map[string]bool, map[string]any) {
				out := call(t, m, viewer, "pilot_status", nil)
				done := map[string]bool{}
				for _, s := range out["steps"].([]any) {
					st := s.(map[string]any)
					done[st["key"].(string)] = st["done"].(bool)
					if st["title"] == "" || st["detail"] == "" {
						t.Fatalf("step %v", st)
					}
				}
				return done, out
			}
			done, out := steps()
			// The matrix organisation has a member of every role already.
			if out["total"] != float64(10) || out["done_count"] != float64(3) || !done["org_created"] || !done["reviewers_joined"] || !done["members_invited"] || done["admin_mfa"] || done["audit_verified"] || done["security_reviewed"] {
				t.Fatalf("pilot at the start %v", out)
			}
			keys := []string{}
			for _, s := range out["steps"].([]any) {
				keys = append(keys, s.(map[string]any)["key"].(string))
			}
			if strings.Join(keys, ",") != "org_created,members_invited,reviewers_joined,admin_mfa,security_reviewed,audit_verified,first_product,first_asset,first_review,first_esign_approval" {
				t.Fatalf("steps %v", keys)
			}

			n, _ := m.db.View().AuditLength(m.ctx, own)
			v := call(t, m, viewer, "verify_audit_chain", nil)
			if v["ok"] != true || v["checked"] != float64(n) || v["head_id"] != float64(n) || v["first_broken_id"] != nil || v["reason"] != nil || v["verified_at"] == nil || len(v["head_hash"].(string)) != 64 {
				t.Fatalf("verify_audit_chain %v (chain of %d)", v, n)
			}
			if e := lastEntry(t, m, own, fairbalance.ActionAuditChainVerified); e.ActorID != viewer.UserID || e.ID != n+1 {
				t.Fatalf("verification entry %+v", e)
			}
			// A demo session verifies without writing.
			demo := viewer
			demo.Demo = true
			call(t, m, demo, "verify_audit_chain", nil)
			if n2, _ := m.db.View().AuditLength(m.ctx, own); n2 != n+1 {
				t.Fatalf("demo verification wrote: %d entries, want %d", n2, n+1)
			}

			// Invitations, MFA for every administrator, the settings saved once.
			call(t, m, admin, "create_invite", map[string]any{"email": "a@example.com", "role": "viewer"})
			call(t, m, admin, "create_invite", map[string]any{"email": "b@example.com", "role": "viewer"})
			now := time.Now().UTC()
			// An enrolment not yet verified is not two-factor authentication:
			// only a verified factor is enforced at sign-in.
			err := m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
				for _, u := range []string{owner.UserID, admin.UserID} {
					if err := tx.CreateFactor(m.ctx, &fairbalance.Factor{ID: auth.NewUUID(), UserID: u, FriendlyName: "pending", FactorType: "totp", Status: "unverified", CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if done, out := steps(); done["admin_mfa"] {
				t.Fatalf("unverified factors count as two-factor authentication: %v", out)
			}
			err = m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
				for _, u := range []string{owner.UserID, admin.UserID} {
					if err := tx.CreateFactor(m.ctx, &fairbalance.Factor{ID: auth.NewUUID(), UserID: u, FactorType: "totp", Status: "verified", CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				}
				w, err := tx.WorkspaceSettings(m.ctx)
				if err != nil {
					return err
				}
				w.UpdatedBy, w.UpdatedAt = admin.UserID, now
				return tx.UpdateWorkspaceSettings(m.ctx, w)
			})
			if err != nil {
				t.Fatal(err)
			}
			done, out = steps()
			if out["done_count"] != float64(6) || !done["members_invited"] || !done["admin_mfa"] || !done["security_reviewed"] || !done["audit_verified"] || done["first_asset"] {
				t.Fatalf("pilot after the steps %v", out)
			}
			// The first product and the first asset tick from real rows.
			details := func() map[string]string {
				out := call(t, m, viewer, "pilot_status", nil)
				d := map[string]string{}
				for _, s := range out["steps"].([]any) {
					st := s.(map[string]any)
					d[st["key"].(string)] = st["detail"].(string)
				}
				return d
			}
			if d := details(); strings.HasPrefix(d["first_product"], "Available when") || strings.HasPrefix(d["first_asset"], "Available when") {
				t.Fatalf("products and assets exist, yet their steps wait for them: %v", d)
			}
			product := mustInsert(t, m, admin, "products", map[string]any{"brand_name": "Zelvora"})
			if done, out := steps(); !done["first_product"] || done["first_asset"] || out["done_count"] != float64(7) {
				t.Fatalf("pilot after the first product %v", out)
			}
			if _, err := callErr(m, m.members["own"][fairbalance.RoleMarketer], "create_asset", map[string]any{"title": "Launch e-mail", "type": "email", "audience": "hcp",
				"product_id": product["id"], "content_html": "<p>Hello</p>", "content_json": map[string]any{"type": "doc", "content": []any{}}}); err != nil {
				t.Fatal(err)
			}
			if done, out := steps(); !done["first_product"] || !done["first_asset"] || out["done_count"] != float64(8) {
				t.Fatalf("pilot after the first asset %v", out)
			}
			if d := details(); d["first_product"] != "1 product" || d["first_asset"] != "1 asset" {
				t.Fatalf("details %v", d)
			}

			// The other organisation's checklist is its own.
			other := call(t, m, m.members["other"][fairbalance.RoleViewer], "pilot_status", nil)
			if other["done_count"] != float64(4) { // created, members, reviewers, settings (instance-wide)
				t.Fatalf("other organisation %v", other)
			}

			// A tampered entry is found, and the failure recorded.
			tamperAudit(t, m, backend, fmt.Sprintf(`UPDATE audit_log SET action = 'rewritten' WHERE org_id = '%s' AND seq = 2`, own))
			v = call(t, m, viewer, "verify_audit_chain", nil)
			if v["ok"] != false || v["first_broken_id"] != float64(2) || !strings.HasPrefix(v["reason"].(string), fairbalance.AuditHashMismatch) {
				t.Fatalf("tampered chain %v", v)
			}
			if e := lastEntry(t, m, own, fairbalance.ActionAuditChainBroken); !strings.Contains(string(e.Meta), `"first_broken_id":2`) {
				t.Fatalf("failure entry %+v", e)
			}
		})
	}
}

func tamperAudit(t *testing.T, m *matrixEnv, backend, stmt string) {
	t.Helper()
	stmts := []string{"DROP TRIGGER IF EXISTS audit_log_no_update", stmt}
	if backend == "postgres" {
		stmts = []string{"ALTER TABLE audit_log DISABLE TRIGGER USER", stmt, "ALTER TABLE audit_log ENABLE TRIGGER USER"}
	}
	for _, s := range stmts {
		if err := sqltest.Exec(m.ctx, m.db, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestDiagnostics(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			m.data.Config = service.DataConfig{Version: "1.2.3", MailSender: "smtp"}
			now := time.Now().UTC()
			err := m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
				for _, to := range []string{"own-viewer@example.com", "other-viewer@example.com", "nobody@example.com"} {
					if err := tx.EnqueueMail(m.ctx, &fairbalance.MailMessage{To: to, Subject: "Hello " + to, Text: "secret-link", HTML: "secret-link", Kind: "recovery", CreatedAt: now, NextAttemptAt: now}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			out := call(t, m, m.members["own"][fairbalance.RoleMarketer], "diagnostics", nil)
			level, _ := m.db.MigrationLevel(m.ctx)
			want := map[string]any{"version": "1.2.3", "database": backend, "migration": float64(level), "storage": "not configured", "mail_sender": "smtp", "realtime": "not configured"}
			for k, v := range want {
				if out[k] != v {
					t.Fatalf("%s = %v, want %v (%v)", k, out[k], v, out)
				}
			}
			if _, ok := out["outbox"]; ok || len(out) != len(want) {
				t.Fatalf("a marketer's diagnostics %v", out)
			}
			raw, err := m.data.Call(m.ctx, m.members["own"][fairbalance.RoleAdmin], "diagnostics", nil, true)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(raw, []byte("secret-link")) {
				t.Fatalf("diagnostics show a mail body: %s", raw)
			}
			_ = json.Unmarshal(raw, &out)
			box := out["outbox"].([]any)
			if len(box) != 1 {
				t.Fatalf("outbox %v", box)
			}
			msg := box[0].(map[string]any)
			if msg["to"] != "own-viewer@example.com" || msg["status"] != "pending" || msg["kind"] != "recovery" || len(msg) != 10 || len(msg["links"].([]any)) != 0 {
				t.Fatalf("outbox message %v", msg)
			}
		})
	}
}

func tinyImage(t *testing.T, format string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	var b bytes.Buffer
	var err error
	if format == "png" {
		err = png.Encode(&b, img)
	} else {
		err = jpeg.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAvatarURL(t *testing.T) {
	m := newMatrix(t, "sqlite")
	me := m.members["own"][fairbalance.RoleMarketer]
	b64 := base64.StdEncoding.EncodeToString
	pngData, jpegData := tinyImage(t, "png"), tinyImage(t, "jpeg")
	webp := append([]byte("RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00"), make([]byte, 24)...)
	for _, c := range []struct {
		url string
		ok  bool
	}{
		{"", true},
		{"https://cdn.example.com/avatars/me.png?v=2", true},
		{"data:image/png;base64," + b64(pngData), true},
		{"data:image/jpeg;base64," + b64(jpegData), true},
		{"data:image/webp;base64," + b64(webp), true},
		{"http://cdn.example.com/me.png", false},
		{"javascript:alert(1)", false},
		{"https://", false},
		{"https://user:pw@example.com/a.png", false},
		{"https://example.com/a b.png", false},
		{"data:image/png;base64," + b64(jpegData), false},
		{"data:image/svg+xml;base64," + b64([]byte("<svg/>")), false},
		{"data:image/gif;base64,R0lGODlhAQABAAAAACw=", false},
		{"data:image/png," + string(pngData), false},
		{"data:image/png;base64,!!!not-base64!!!", false},
		{"data:image/png;base64," + b64(append(pngData, make([]byte, 120000)...)), false},
		{"https://example.com/" + strings.Repeat("a", 3000), false},
	} {
		body, _ := json.Marshal(map[string]string{"avatar_url": c.url})
		_, err := m.data.Update(m.ctx, me, "profiles_v2", req(t, "id=eq."+me.UserID), body)
		name := c.url
		if len(name) > 60 {
			name = name[:60]
		}
		if c.ok != (err == nil) {
			t.Errorf("%q: %v", name, err)
			continue
		}
		if err != nil {
			pe := wantCode(t, name, err, "23514")
			if pe.Kind != fairbalance.KindInvalid || pe.Message == "" || pe.Hint == "" || pe.Constraint != "profiles_v2_avatar_url_check" {
				t.Errorf("%q: %+v", name, pe)
			}
		}
	}
}

func TestCSV(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			viewer := m.members["own"][fairbalance.RoleViewer]
			for _, body := range []string{
				`{"action":"=HYPERLINK(\"http://evil\")","object_type":"a,b","meta":{"note":"line\nbreak","q":"say \"hi\""}}`,
				`{"action":"-2+3","object_id":"@sum","meta":[1,2]}`,
				`{"action":"plain","object_type":"  spaced  "}`,
			} {
				if _, err := m.data.Insert(m.ctx, viewer, "audit_logs_v2", req(t, ""), []byte(body)); err != nil {
					t.Fatal(err)
				}
			}
			csv := func(c fairbalance.Caller, table, query, prefer string) (string, dataapi.CSVInfo, bool, error) {
				var b bytes.Buffer
				var info dataapi.CSVInfo
				started := false
				err := m.data.ReadCSV(m.ctx, c, table, reqPrefer(t, query, prefer), func(i dataapi.CSVInfo) io.Writer {
					started, info = true, i
					return &b
				})
				return b.String(), info, started, err
			}
			got, info, _, err := csv(viewer, "audit_logs_v2", "select=id,action,object_type,object_id,meta&order=id.desc&limit=3", "count=exact")
			if err != nil {
				t.Fatal(err)
			}
			n, _ := m.db.View().AuditLength(m.ctx, m.orgs["own"])
			want := "id,action,object_type,object_id,meta\r\n" +
				fmt.Sprintf("%d,plain,  spaced  ,,\r\n", n) +
				fmt.Sprintf("%d,'-2+3,,'@sum,\"[1,2]\"\r\n", n-1) +
				fmt.Sprintf("%d,\"'=HYPERLINK(\"\"http://evil\"\")\",\"a,b\",,\"{\"\"note\"\":\"\"line\\nbreak\"\",\"\"q\"\":\"\"say \\\"\"hi\\\"\"\"\"}\"\r\n", n-2)
			if got != want {
				t.Fatalf("csv\n%q\nwant\n%q", got, want)
			}
			if !info.Counted || info.Total != n || info.Limit != 3 {
				t.Fatalf("info %+v", info)
			}
			// A text value with a newline is quoted, the newline kept.
			if _, err := m.data.Update(m.ctx, viewer, "profiles_v2", req(t, "id=eq."+viewer.UserID), []byte(`{"full_name":"Vera\r\nViewer"}`)); err != nil {
				t.Fatal(err)
			}
			got, _, _, err = csv(viewer, "profiles_v2", "select=full_name,role,orgs(name)&id=eq."+viewer.UserID, "")
			if err != nil || got != "full_name,role,orgs\r\n\"Vera\r\nViewer\",viewer,\"{\"\"name\"\":\"\"own\"\"}\"\r\n" {
				t.Fatalf("embedded %q %v", got, err)
			}
			// No rows: the header alone. The row policy holds.
			got, _, started, err := csv(viewer, "members", "select=id,email&org_id=eq."+m.orgs["other"], "")
			if err != nil || !started || got != "id,email\r\n" {
				t.Fatalf("empty %q %v", got, err)
			}
			// Refusals come before anything is written.
			if _, _, started, err := csv(viewer, "members", "select=nope", ""); started || pgCode(err) != "42703" {
				t.Fatalf("bad column: started %v, %v", started, err)
			}
			if _, _, started, err := csv(fairbalance.Caller{Role: "anon"}, "members", "select=id", ""); started || !denied(err) {
				t.Fatalf("anonymous: started %v, %v", started, err)
			}
			// Exports are not capped at MaxRows.
			err = m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
				for i := 0; i < dataapi.MaxRows+10; i++ {
					if err := tx.AppendAudit(m.ctx, &fairbalance.AuditEntry{OrgID: m.orgs["own"], Action: "bulk"}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got, _, _, err = csv(viewer, "audit_logs", "select=id&action=eq.bulk", "")
			if err != nil || strings.Count(got, "\r\n") != dataapi.MaxRows+11 {
				t.Fatalf("%d lines, %v", strings.Count(got, "\r\n"), err)
			}
			got, _, _, _ = csv(viewer, "audit_logs", "select=id&action=eq.bulk&limit=5&offset=2", "")
			if strings.Count(got, "\r\n") != 6 {
				t.Fatalf("limit: %q", got)
			}
		})
	}
}
