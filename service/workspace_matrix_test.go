package service_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// The workspace tables and functions in the permission matrix (called from
// TestPermissionMatrix).

// pgCode is the PostgREST code the data API answers err with: a
// *pgrest.Error's, or the code of a (non-internal) *fairbalance.Error,
// which the data API renders with its own code (the typed inputs of the
// content functions refuse so).
func pgCode(err error) string {
	var pe *fairbalance.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	if fe := fairbalance.AsError(err); fe != nil && fe.Kind != fairbalance.KindInternal {
		return fe.Code
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}

// seedInvite stores a pending invitation of org and returns its id.
func (m *matrixEnv) seedInvite(t *testing.T, org, email string, expires time.Time) string {
	t.Helper()
	now := time.Now().UTC()
	inv := &fairbalance.Invite{ID: auth.NewUUID(), OrgID: m.orgs[org], Email: email, Role: fairbalance.RoleViewer, TokenHash: auth.NewUUID(),
		Status: fairbalance.InvitePending, ExpiresAt: expires, CreatedAt: now}
	if err := m.db.Tx(m.ctx, func(tx fairbalance.Tx) error { return tx.CreateInvite(m.ctx, inv) }); err != nil {
		t.Fatal(err)
	}
	return inv.ID
}

// seedSession stores a session (with its first refresh token) of a user
// and returns its id.
func (m *matrixEnv) seedSession(t *testing.T, userID string) string {
	t.Helper()
	now := time.Now().UTC()
	notAfter := now.Add(24 * time.Hour)
	s := &fairbalance.Session{ID: auth.NewUUID(), UserID: userID, AAL: "aal1", AMR: []fairbalance.AMREntry{{Method: "password", Timestamp: now.Unix()}},
		UserAgent: "matrix", IP: "192.0.2.9", CreatedAt: now, UpdatedAt: now, RefreshedAt: &now, NotAfter: &notAfter}
	err := m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
		if err := tx.CreateSession(m.ctx, s); err != nil {
			return err
		}
		return tx.CreateRefreshToken(m.ctx, &fairbalance.RefreshToken{TokenHash: auth.NewUUID(), UserID: userID, SessionID: s.ID, Counter: 1, CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func checkWorkspaceMatrix(t *testing.T, m *matrixEnv, tested map[string]bool, check func(string, bool)) {
	anon := fairbalance.Caller{Role: "anon"}
	rows := func(raw json.RawMessage) []map[string]any {
		var out []map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return out
	}
	far := time.Now().Add(time.Hour)
	for _, org := range []string{"own", "other"} {
		m.seedInvite(t, org, "invitee-"+org+"@example.com", far)
	}

	// members: every member reads its organisation's members, all of them.
	tested["members"] = true
	for _, role := range fairbalance.Roles {
		res, err := m.data.Read(m.ctx, m.members["own"][role], "members", reqPrefer(t, "select=id,org_id,email,role", "count=exact"))
		if err != nil {
			check(fmt.Sprintf("%s reads members: %v", role, err), false)
			continue
		}
		got := rows(res.Rows)
		check(fmt.Sprintf("%s sees %d members, want %d", role, len(got), len(fairbalance.Roles)), len(got) == len(fairbalance.Roles) && res.Total == int64(len(fairbalance.Roles)))
		for _, r := range got {
			check(fmt.Sprintf("%s sees member %v of %v", role, r["email"], r["org_id"]), r["org_id"] == m.orgs["own"] && strings.HasPrefix(r["email"].(string), "own-"))
		}
		other := m.members["other"][fairbalance.RoleViewer].UserID
		res, err = m.data.Read(m.ctx, m.members["own"][role], "members", req(t, "id=eq."+other))
		check(fmt.Sprintf("%s reads a member of another organisation", role), err == nil && len(rows(res.Rows)) == 0)
		_, err = m.data.Update(m.ctx, m.members["own"][role], "members", req(t, "id=eq."+m.members["own"][role].UserID), []byte(`{"full_name":"x"}`))
		check(fmt.Sprintf("%s writes members", role), denied(err))
	}
	_, err := m.data.Read(m.ctx, anon, "members", req(t, "select=id"))
	check("anonymous reads members", denied(err))

	// invites: owners and admins list their organisation's invitations;
	// other members get no rows; nobody sees a token.
	tested["invites"] = true
	for _, role := range fairbalance.Roles {
		res, err := m.data.Read(m.ctx, m.members["own"][role], "invites", req(t, "select=*"))
		if err != nil {
			check(fmt.Sprintf("%s reads invites: %v", role, err), false)
			continue
		}
		got := rows(res.Rows)
		check(fmt.Sprintf("%s sees %d invites", role, len(got)), (len(got) > 0) == admins[role])
		for _, r := range got {
			check(fmt.Sprintf("%s sees invite %v", role, r["email"]), !strings.Contains(r["email"].(string), "other"))
			for k := range r {
				check("invites exposes "+k, !strings.Contains(k, "token"))
			}
		}
		_, err = m.data.Read(m.ctx, m.members["own"][role], "invites", req(t, "select=token_hash"))
		check(fmt.Sprintf("%s selects token_hash: %v", role, err), pgCode(err) == "42703")
		_, err = m.data.Insert(m.ctx, m.members["own"][role], "invites", req(t, ""), []byte(`{"email":"x@example.com"}`))
		check(fmt.Sprintf("%s inserts into invites", role), denied(err))
	}
	_, err = m.data.Read(m.ctx, anon, "invites", req(t, "select=id"))
	check("anonymous reads invites", denied(err))

	// revoke_invite and resend_invite: owners and admins, their organisation only.
	for _, fn := range []string{"revoke_invite", "resend_invite"} {
		tested["rpc:"+fn] = true
		for _, role := range fairbalance.Roles {
			c := m.members["own"][role]
			id := m.seedInvite(t, "own", fmt.Sprintf("%s-%s@example.com", fn, role), far)
			_, err := m.data.Call(m.ctx, c, fn, map[string]any{"invite_id": id}, false)
			check(fmt.Sprintf("%s calls %s: %v", role, fn, err), (err == nil) == admins[role])
			theirs := m.seedInvite(t, "other", fmt.Sprintf("%s-%s-other@example.com", fn, role), far)
			_, err = m.data.Call(m.ctx, c, fn, map[string]any{"invite_id": theirs}, false)
			check(fmt.Sprintf("%s calls %s on another organisation's invitation: %v", role, fn, err), err != nil)
		}
		_, err := m.data.Call(m.ctx, anon, fn, map[string]any{"invite_id": auth.NewUUID()}, false)
		check("anonymous calls "+fn, denied(err))
	}

	// deactivate_member and reactivate_member: owners and admins, never
	// themselves, never an owner by an admin, never another organisation.
	for _, fn := range []string{"deactivate_member", "reactivate_member"} {
		tested["rpc:"+fn] = true
	}
	for _, role := range fairbalance.Roles {
		c := m.members["own"][role]
		target := m.members["own"][fairbalance.RoleViewer]
		if role == fairbalance.RoleViewer {
			target = m.members["own"][fairbalance.RoleMarketer]
		}
		_, err := m.data.Call(m.ctx, c, "deactivate_member", map[string]any{"user_id": target.UserID}, false)
		check(fmt.Sprintf("%s deactivates a colleague: %v", role, err), (err == nil) == admins[role])
		if err == nil {
			_, err = m.data.Call(m.ctx, c, "reactivate_member", map[string]any{"user_id": target.UserID}, false)
			check(fmt.Sprintf("%s reactivates a colleague: %v", role, err), err == nil)
		}
		_, err = m.data.Call(m.ctx, c, "deactivate_member", map[string]any{"user_id": c.UserID}, false)
		check(fmt.Sprintf("%s deactivates itself", role), err != nil)
		_, err = m.data.Call(m.ctx, c, "deactivate_member", map[string]any{"user_id": m.members["other"][fairbalance.RoleViewer].UserID}, false)
		check(fmt.Sprintf("%s deactivates a member of another organisation", role), err != nil)
		_, err = m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+target.UserID), []byte(`{"deactivated_at":"2026-01-01T00:00:00Z"}`))
		check(fmt.Sprintf("%s writes deactivated_at directly", role), denied(err))
	}
	_, err = m.data.Call(m.ctx, m.members["own"][fairbalance.RoleAdmin], "deactivate_member", map[string]any{"user_id": m.members["own"][fairbalance.RoleOwner].UserID}, false)
	check("an admin deactivates the owner", denied(err))
	_, err = m.data.Call(m.ctx, anon, "deactivate_member", map[string]any{"user_id": auth.NewUUID()}, false)
	check("anonymous deactivates", denied(err))

	// notification_preferences: each user reads and writes only their own row.
	tested["notification_preferences"] = true
	for _, role := range fairbalance.Roles {
		c := m.members["own"][role]
		_, err := m.data.Insert(m.ctx, c, "notification_preferences", reqPrefer(t, "", "resolution=merge-duplicates"), []byte(`{"weekly_digest":true}`))
		check(fmt.Sprintf("%s sets its notification preferences: %v", role, err), err == nil)
		res, err := m.data.Read(m.ctx, c, "notification_preferences", req(t, "select=user_id"))
		check(fmt.Sprintf("%s reads its preferences: %v", role, err), err == nil && len(rows(res.Rows)) == 1 && rows(res.Rows)[0]["user_id"] == c.UserID)
		colleague := m.members["own"][fairbalance.RoleViewer]
		if role == fairbalance.RoleViewer {
			colleague = m.members["own"][fairbalance.RoleMarketer]
		}
		_, err = m.data.Insert(m.ctx, c, "notification_preferences", reqPrefer(t, "", "resolution=merge-duplicates"), []byte(fmt.Sprintf(`{"user_id":%q,"weekly_digest":false}`, colleague.UserID)))
		check(fmt.Sprintf("%s sets a colleague's preferences", role), denied(err))
		upd, err := m.data.Update(m.ctx, c, "notification_preferences", req(t, "user_id=eq."+colleague.UserID), []byte(`{"review_assigned":false}`))
		check(fmt.Sprintf("%s updates a colleague's preferences", role), err == nil && upd.Affected == 0)
		_, err = m.data.Delete(m.ctx, c, "notification_preferences", req(t, "user_id=eq."+c.UserID))
		check(fmt.Sprintf("%s deletes preferences", role), denied(err))
	}
	_, err = m.data.Read(m.ctx, anon, "notification_preferences", req(t, "select=*"))
	check("anonymous reads preferences", denied(err))

	// list_sessions and revoke_session: one's own sessions only.
	tested["rpc:list_sessions"], tested["rpc:revoke_session"] = true, true
	for _, role := range fairbalance.Roles {
		c := m.members["own"][role]
		mine := m.seedSession(t, c.UserID)
		theirs := m.seedSession(t, m.members["other"][role].UserID)
		c.SessionID = mine
		raw, err := m.data.Call(m.ctx, c, "list_sessions", nil, true)
		var list []map[string]any
		_ = json.Unmarshal(raw, &list)
		check(fmt.Sprintf("%s lists its sessions: %v %s", role, err, raw), err == nil && len(list) == 1 && list[0]["id"] == mine && list[0]["current"] == true)
		_, err = m.data.Call(m.ctx, c, "revoke_session", map[string]any{"session_id": theirs}, false)
		check(fmt.Sprintf("%s revokes another member's session: %v", role, err), pgCode(err) == "P0001")
		_, err = m.data.Call(m.ctx, c, "revoke_session", map[string]any{"session_id": mine}, false)
		check(fmt.Sprintf("%s revokes its session: %v", role, err), err == nil)
	}
	for _, fn := range []string{"list_sessions", "revoke_session"} {
		_, err = m.data.Call(m.ctx, anon, fn, map[string]any{}, false)
		check("anonymous calls "+fn, denied(err))
	}

	// verify_audit_chain, diagnostics, pilot_status, audit_checkpoint: every
	// member, of their organisation; the outbox only for owners and admins.
	for _, fn := range []string{"verify_audit_chain", "diagnostics", "pilot_status", "audit_checkpoint"} {
		tested["rpc:"+fn] = true
		for _, role := range fairbalance.Roles {
			raw, err := m.data.Call(m.ctx, m.members["own"][role], fn, nil, true)
			check(fmt.Sprintf("%s calls %s: %v", role, fn, err), err == nil)
			var out map[string]any
			_ = json.Unmarshal(raw, &out)
			if fn == "diagnostics" {
				_, hasOutbox := out["outbox"]
				check(fmt.Sprintf("%s sees the outbox: %v", role, hasOutbox), hasOutbox == admins[role])
			}
		}
		_, err := m.data.Call(m.ctx, anon, fn, nil, true)
		check("anonymous calls "+fn, denied(err))
	}
}
