package service

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// The workspace screens' tables and functions: the member directory,
// invitations as administrators manage them, member deactivation,
// notification preferences, the caller's sessions, audit-chain
// verification, diagnostics and the pilot checklist.

func serverCol(name string, t fairbalance.ColumnType, nullable bool) ColumnSpec {
	return ColumnSpec{Name: name, Type: t, ServerSet: true, Nullable: nullable}
}

// memberColumns are the columns of members, in order.
var memberColumns = []ColumnSpec{
	serverCol("id", fairbalance.TypeText, false),
	serverCol("org_id", fairbalance.TypeText, false),
	serverCol("email", fairbalance.TypeText, false),
	serverCol("full_name", fairbalance.TypeText, false),
	serverCol("role", fairbalance.TypeText, false),
	serverCol("avatar_url", fairbalance.TypeText, false),
	serverCol("deactivated_at", fairbalance.TypeTimestamp, true),
	serverCol("last_sign_in_at", fairbalance.TypeTimestamp, true),
	serverCol("created_at", fairbalance.TypeTimestamp, false),
	serverCol("mfa_enabled", fairbalance.TypeBoolean, false),
}

// MembersTable is members (read-only): one row per member of the caller's
// organisation, deactivated members included, with the account's e-mail
// address, last sign-in and whether a verified second factor exists. Any
// member reads their organisation's members and nobody else's; it changes
// through profiles_v2 and the member functions.
func MembersTable() *TableSpec {
	return &TableSpec{
		Name: "members", Source: "members_view", Key: []string{"id"},
		Columns: memberColumns,
		Rows:    orgScoped("org_id"),
	}
}

// inviteColumns are the columns of invites, in order. The token (and its
// hash) is never among them.
var inviteColumns = []ColumnSpec{
	serverCol("id", fairbalance.TypeText, false),
	serverCol("email", fairbalance.TypeText, false),
	serverCol("role", fairbalance.TypeText, false),
	serverCol("status", fairbalance.TypeText, false),
	serverCol("expires_at", fairbalance.TypeTimestamp, false),
	serverCol("created_at", fairbalance.TypeTimestamp, false),
	serverCol("invited_by", fairbalance.TypeText, false),
	serverCol("accepted_at", fairbalance.TypeTimestamp, true),
}

// InvitesTable is invites (read-only), for the owners and admins of the
// organisation: status is pending, accepted, revoked or expired (a pending
// invitation past expires_at). Other members read no rows, anonymous
// callers are refused. It changes through create_invite, revoke_invite,
// resend_invite and accept_invite.
func InvitesTable() *TableSpec {
	return &TableSpec{
		Name: "invites", Source: "invites_view", Key: []string{"id"},
		Columns: inviteColumns,
		Rows: func(c fairbalance.Caller) (*fairbalance.Cond, bool) {
			switch {
			case c.Anon():
				return nil, false
			case !c.IsAdmin():
				return nothing, true
			}
			return &fairbalance.Cond{Column: "org_id", Operator: "eq", Value: c.OrgID}, true
		},
	}
}

func boolDefault(v bool) func(fairbalance.Caller, time.Time) any {
	return func(fairbalance.Caller, time.Time) any { return v }
}

// NotificationPreferencesTable is notification_preferences: one row per
// user (user_id is the caller), created by the first upsert; without a row
// the defaults apply (every notification on, the weekly digest off). Each
// user reads and writes only their own row.
func NotificationPreferencesTable() *TableSpec {
	own := func(c fairbalance.Caller) (*fairbalance.Cond, bool) {
		if c.Anon() {
			return nil, false
		}
		return &fairbalance.Cond{Column: "user_id", Operator: "eq", Value: c.UserID}, true
	}
	signedIn := func(c fairbalance.Caller) bool { return !c.Anon() && c.UserID != "" }
	refuse := func(c fairbalance.Caller) error {
		e := denied(c, "new row violates row-level security policy for table \"notification_preferences\"")
		e.Details = "Each member sets only their own notification preferences."
		return e
	}
	return &TableSpec{
		Name: "notification_preferences", Key: []string{"user_id"},
		Columns: []ColumnSpec{
			{Name: "user_id", Type: fairbalance.TypeText, Default: func(c fairbalance.Caller, _ time.Time) any { return c.UserID }},
			{Name: "review_assigned", Type: fairbalance.TypeBoolean, Default: boolDefault(true)},
			{Name: "review_decision", Type: fairbalance.TypeBoolean, Default: boolDefault(true)},
			{Name: "comment_mention", Type: fairbalance.TypeBoolean, Default: boolDefault(true)},
			{Name: "due_reminders", Type: fairbalance.TypeBoolean, Default: boolDefault(true)},
			{Name: "asset_expiring", Type: fairbalance.TypeBoolean, Default: boolDefault(true)},
			{Name: "weekly_digest", Type: fairbalance.TypeBoolean, Default: boolDefault(false)},
			{Name: "signing_locked", Type: fairbalance.TypeBoolean, Default: boolDefault(true)},
			{Name: "updated_at", Type: fairbalance.TypeTimestamp, ServerSet: true, Default: nowDefault},
		},
		Rows:      own,
		CanInsert: signedIn,
		CanUpdate: signedIn,
		CheckInsert: func(_ context.Context, _ fairbalance.Tx, c fairbalance.Caller, row map[string]any) error {
			if row["user_id"] != c.UserID {
				return refuse(c)
			}
			return nil
		},
		CheckUpdate: func(_ context.Context, _ fairbalance.Tx, c fairbalance.Caller, values map[string]any, _ *fairbalance.Cond) error {
			if v, ok := values["user_id"]; ok && v != c.UserID {
				return refuse(c)
			}
			return nil
		},
	}
}

// workspaceTables are the workspace screens' tables.
func workspaceTables() []*TableSpec {
	return []*TableSpec{MembersTable(), InvitesTable(), NotificationPreferencesTable()}
}

// uuidArg reads a required UUID argument, refusing a missing one as
// PostgREST refuses a call without a parameter of the function, and a
// malformed one as PostgreSQL refuses the text.
func uuidArg(fn string, args map[string]any, k string) (string, error) {
	v, ok := args[k]
	if !ok || v == nil {
		return "", pgErr(fairbalance.KindNotFound, "PGRST202", fmt.Sprintf("Could not find the function public.%s without parameter %s in the schema cache", fn, k), "", fmt.Sprintf("Call public.%s with the argument %s.", fn, k))
	}
	s, _ := v.(string)
	if !auth.IsUUID(s) {
		return "", pgErr(fairbalance.KindInvalid, "22P02", fmt.Sprintf("invalid input syntax for type uuid: \"%v\"", v), "The argument "+k+" must be a UUID.", "")
	}
	return strings.ToLower(s), nil
}

// appendAudit appends an entry of the caller's organisation (or the
// instance's chain for a caller without one) in tx.
func appendAudit(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, e *fairbalance.AuditEntry) error {
	e.OrgID, e.ActorID = c.OrgID, c.UserID
	if c.Service() {
		e.OrgID, e.ActorID = "", "service_role"
	} else if u, err := tx.UserByID(ctx, c.UserID); err == nil {
		e.ActorEmail = u.Email
	}
	return tx.AppendAudit(ctx, e)
}

func mustRaw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// inviteRow is an invitation as invites serves it.
func inviteRow(i *fairbalance.Invite, now time.Time) map[string]any {
	status := i.Status
	if status == fairbalance.InvitePending && !now.Before(i.ExpiresAt) {
		status = "expired"
	}
	var acc any
	if i.AcceptedAt != nil {
		acc = i.AcceptedAt.UTC()
	}
	return map[string]any{"id": i.ID, "email": i.Email, "role": i.Role, "status": status, "expires_at": i.ExpiresAt.UTC(),
		"created_at": i.CreatedAt.UTC(), "invited_by": i.InvitedBy, "accepted_at": acc}
}

// orgInvite finds an invitation of the caller's organisation.
func orgInvite(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, id string) (*fairbalance.Invite, error) {
	inv, err := tx.InviteByID(ctx, id)
	if errors.Is(err, fairbalance.ErrNotFound) || err == nil && inv.OrgID != c.OrgID {
		return nil, raise("Invitation not found")
	}
	return inv, err
}

// memberRow reads one row of members.
func memberRow(ctx context.Context, tx fairbalance.Tx, id string) (json.RawMessage, error) {
	t := MembersTable()
	raw, _, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: t.DBName(), Columns: allColumns(t), Where: &fairbalance.Cond{Column: "id", Operator: "eq", Value: id}, Limit: 1})
	if err != nil {
		return nil, err
	}
	return singleRow(raw), nil
}

// singleRow turns a one-element JSON array into its element (null when empty).
func singleRow(raw json.RawMessage) json.RawMessage {
	var rows []json.RawMessage
	if json.Unmarshal(raw, &rows) != nil || len(rows) == 0 {
		return json.RawMessage("null")
	}
	return rows[0]
}

var roleLabels = map[string]string{
	fairbalance.RoleOwner: "owner", fairbalance.RoleAdmin: "administrator", fairbalance.RoleMarketer: "marketer",
	fairbalance.RoleReviewerMedical: "medical reviewer", fairbalance.RoleReviewerLegal: "legal reviewer",
	fairbalance.RoleReviewerRegulatory: "regulatory reviewer", fairbalance.RoleViewer: "viewer",
}

// oneLine keeps a value fit for a mail header: printable, one line, short.
func oneLine(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return s
}

// InviteResendInterval is the shortest time between two resends of one
// invitation.
const InviteResendInterval = 60 * time.Second

func newInviteToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// workspaceFunctions are the workspace screens' functions.
func (d *Registry) workspaceFunctions() []*FunctionSpec {
	return []*FunctionSpec{
		{
			// revoke_invite(invite_id): an admin withdraws a pending (or
			// expired) invitation of the organisation; returns its invites row.
			Name: "revoke_invite", Args: []string{"invite_id"},
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
				if !c.IsAdmin() {
					return nil, denied(c, "only administrators revoke invitations")
				}
				id, err := uuidArg("revoke_invite", args, "invite_id")
				if err != nil {
					return nil, err
				}
				inv, err := orgInvite(ctx, tx, c, id)
				if err != nil {
					return nil, err
				}
				switch inv.Status {
				case fairbalance.InviteAccepted:
					return nil, raise("This invitation has already been accepted")
				case fairbalance.InviteRevoked:
					return nil, raise("This invitation has already been revoked")
				}
				now := d.Now()
				before := inviteRow(inv, now)
				inv.Status = fairbalance.InviteRevoked
				if err := tx.UpdateInvite(ctx, inv); err != nil {
					return nil, err
				}
				after := inviteRow(inv, now)
				err = appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: fairbalance.ActionInviteRevoked, ObjectType: "invite", ObjectID: inv.ID,
					Before: mustRaw(before), After: mustRaw(after), Meta: mustRaw(map[string]any{"via": "data_api"})})
				return after, err
			},
		},
		{
			// resend_invite(invite_id): an admin issues a pending (or
			// expired) invitation again: a fresh token, valid for another
			// seven days, e-mailed as {SiteURL}/signup?invite={token}.
			// The old token stops working. Returns {id, email, role, token,
			// expires_at}; the token is shown this once.
			Name: "resend_invite", Args: []string{"invite_id"}, Mails: true,
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
				if !c.IsAdmin() {
					return nil, denied(c, "only administrators resend invitations")
				}
				id, err := uuidArg("resend_invite", args, "invite_id")
				if err != nil {
					return nil, err
				}
				inv, err := orgInvite(ctx, tx, c, id)
				if err != nil {
					return nil, err
				}
				switch inv.Status {
				case fairbalance.InviteAccepted:
					return nil, raise("This invitation has already been accepted")
				case fairbalance.InviteRevoked:
					return nil, raise("This invitation has been revoked; invite the person again")
				}
				now := d.Now()
				// One e-mail per invitation per InviteResendInterval: resending
				// is no way to flood an inbox.
				last, err := tx.ListAudit(ctx, fairbalance.AuditFilter{OrgID: c.OrgID, Action: fairbalance.ActionInviteResent, ObjectType: "invite", ObjectID: inv.ID, Limit: 1})
				if err != nil {
					return nil, err
				}
				if len(last) > 0 {
					if wait := last[0].CreatedAt.Add(InviteResendInterval).Sub(now); wait > 0 {
						return nil, raise(fmt.Sprintf("For security purposes, you can only resend this invitation after %d seconds.", int(wait.Seconds()+0.999)))
					}
				}
				org, err := tx.OrgByID(ctx, c.OrgID)
				if err != nil {
					return nil, err
				}
				before := inviteRow(inv, now)
				token := newInviteToken()
				inv.TokenHash, inv.ExpiresAt = hashToken(token), now.Add(fairbalance.InviteValidity)
				if err := tx.ReissueInvite(ctx, inv); err != nil {
					return nil, err
				}
				cfg := d.cfg()
				orgName := oneLine(org.Name, 80)
				k := mailKind{
					name:    "org_invite",
					subject: "You have been invited to " + orgName + " on Fairbalance",
					intro:   fmt.Sprintf("You have been invited to join %s on Fairbalance as %s. The invitation is valid for 7 days.", orgName, roleLabels[inv.Role]),
					action:  "Accept the invitation",
					outro:   "If you were not expecting this invitation, you can ignore this e-mail.",
				}
				link := cfg.SiteURL + "/signup?invite=" + token
				text, html, err := renderMail(k, link, "")
				if err != nil {
					return nil, err
				}
				if err := tx.EnqueueMail(ctx, &fairbalance.MailMessage{To: inv.Email, Subject: k.subject, Text: text, HTML: html, Kind: k.name,
					Status: "pending", CreatedAt: now, NextAttemptAt: now, OrgID: c.OrgID}); err != nil {
					return nil, err
				}
				err = appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: fairbalance.ActionInviteResent, ObjectType: "invite", ObjectID: inv.ID,
					Before: mustRaw(before), After: mustRaw(inviteRow(inv, now)), Meta: mustRaw(map[string]any{"via": "data_api", "email": inv.Email})})
				if err != nil {
					return nil, err
				}
				return map[string]any{"id": inv.ID, "email": inv.Email, "role": inv.Role, "token": token, "expires_at": inv.ExpiresAt}, nil
			},
		},
		d.memberSwitch("deactivate_member", true),
		d.memberSwitch("reactivate_member", false),
		{
			// list_sessions(): the caller's active sessions, the current
			// one (the session of the caller's token) first.
			Name: "list_sessions", ReadOnly: true,
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, _ map[string]any) (any, error) {
				if c.Anon() {
					return nil, denied(c, "sign in to list your sessions")
				}
				out := []map[string]any{}
				if c.UserID == "" {
					return out, nil
				}
				sessions, err := tx.UserSessions(ctx, c.UserID)
				if err != nil {
					return nil, err
				}
				cfg, now := d.cfg(), d.Now()
				for _, s := range sessions {
					last := s.CreatedAt
					if s.RefreshedAt != nil {
						last = *s.RefreshedAt
					}
					if s.NotAfter != nil && now.After(*s.NotAfter) || now.After(s.CreatedAt.Add(cfg.SessionLifetime)) || now.After(last.Add(cfg.SessionInactivity)) {
						continue
					}
					var notAfter any
					if s.NotAfter != nil {
						notAfter = s.NotAfter.UTC()
					}
					row := map[string]any{"id": s.ID, "created_at": s.CreatedAt, "updated_at": s.UpdatedAt, "refreshed_at": last,
						"user_agent": s.UserAgent, "ip": s.IP, "aal": s.AAL, "not_after": notAfter, "current": s.ID == c.SessionID}
					if s.ID == c.SessionID {
						out = append([]map[string]any{row}, out...)
					} else {
						out = append(out, row)
					}
				}
				return out, nil
			},
		},
		{
			// revoke_session(session_id): signs out one of the caller's own
			// sessions (its refresh tokens stop working at once; access
			// tokens already issued run out at their expiry).
			Name: "revoke_session", Args: []string{"session_id"},
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
				if c.Anon() || c.UserID == "" {
					return nil, denied(c, "sign in to end your sessions")
				}
				id, err := uuidArg("revoke_session", args, "session_id")
				if err != nil {
					return nil, err
				}
				s, err := tx.SessionByID(ctx, id)
				if errors.Is(err, fairbalance.ErrNotFound) || err == nil && s.UserID != c.UserID {
					return nil, raise("Session not found")
				}
				if err != nil {
					return nil, err
				}
				if err := tx.DeleteSession(ctx, id); err != nil {
					return nil, err
				}
				current := id == c.SessionID
				info := map[string]any{"id": s.ID, "created_at": s.CreatedAt, "user_agent": s.UserAgent, "ip": s.IP, "aal": s.AAL}
				if err := appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: fairbalance.ActionSessionRevoked, ObjectType: "session", ObjectID: id,
					Before: mustRaw(info), Meta: mustRaw(map[string]any{"via": "data_api", "current": current})}); err != nil {
					return nil, err
				}
				if err := tx.RecordAuthEvent(ctx, &fairbalance.AuthEvent{Action: "logout", ActorID: c.UserID, Payload: mustRaw(map[string]any{"scope": "session", "session_id": id}), CreatedAt: d.Now()}); err != nil {
					return nil, err
				}
				return map[string]any{"id": id, "revoked": true, "current": current}, nil
			},
		},
		{
			// verify_audit_chain(): recomputes the caller's organisation's
			// audit chain and records the outcome in it.
			Name: "verify_audit_chain", ReadOnly: true,
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, _ map[string]any) (any, error) {
				if !c.InOrg() {
					return nil, denied(c, "only members of an organisation verify its audit trail")
				}
				return d.verifyChain(ctx, tx, c)
			},
		},
		{
			// audit_checkpoint(): how the caller's organisation's audit
			// chain is sealed, and its last checkpoint.
			Name: "audit_checkpoint", ReadOnly: true,
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, _ map[string]any) (any, error) {
				if !c.InOrg() {
					return nil, denied(c, "only members of an organisation read how its audit trail is sealed")
				}
				return d.auditCheckpoint(c)
			},
		},
		{
			// diagnostics(): what the instance runs on; administrators also
			// get their organisation's last 20 e-mails (never bodies or
			// links, which hold tokens).
			Name: "diagnostics", ReadOnly: true,
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, _ map[string]any) (any, error) {
				if c.Anon() {
					return nil, denied(c, "sign in to read the diagnostics")
				}
				return d.diagnostics(ctx, tx, c)
			},
		},
		{
			// pilot_status(): the pilot checklist of the caller's
			// organisation, ticked from its data.
			Name: "pilot_status", ReadOnly: true,
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, _ map[string]any) (any, error) {
				if !c.InOrg() {
					return nil, denied(c, "only members of an organisation read its pilot checklist")
				}
				return d.pilotStatus(ctx, tx, c)
			},
		},
	}
}

// memberSwitch is deactivate_member(user_id) (deactivate true) or
// reactivate_member(user_id): for the owners and admins of the member's
// organisation, never on oneself, and never by an admin on an owner.
// Deactivation ends every session of the member; the member cannot sign
// in or refresh a session until reactivated. Returns the members row.
func (d *Registry) memberSwitch(name string, deactivate bool) *FunctionSpec {
	verb, action := "reactivate", fairbalance.ActionMemberReactivated
	if deactivate {
		verb, action = "deactivate", fairbalance.ActionMemberDeactivated
	}
	return &FunctionSpec{
		Name: name, Args: []string{"user_id"},
		Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
			if !c.IsAdmin() {
				return nil, denied(c, "only administrators "+verb+" members")
			}
			id, err := uuidArg(name, args, "user_id")
			if err != nil {
				return nil, err
			}
			if id == c.UserID {
				return nil, raise("You cannot " + verb + " yourself")
			}
			p, err := tx.ProfileByID(ctx, id)
			if errors.Is(err, fairbalance.ErrNotFound) || err == nil && p.OrgID != c.OrgID {
				return nil, raise("Member not found")
			}
			if err != nil {
				return nil, err
			}
			if roleRank[p.Role] > roleRank[c.Member] {
				e := denied(c, "permission denied for function "+name)
				e.Details = "Only an owner may " + verb + " an owner."
				return nil, e
			}
			switch {
			case deactivate && p.DeactivatedAt != nil:
				return nil, raise("This member is already deactivated")
			case !deactivate && p.DeactivatedAt == nil:
				return nil, raise("This member is not deactivated")
			}
			before, err := memberRow(ctx, tx, id)
			if err != nil {
				return nil, err
			}
			now := d.Now()
			p.UpdatedAt = now
			p.DeactivatedAt = nil
			if deactivate {
				p.DeactivatedAt = &now
			}
			if err := tx.UpdateProfile(ctx, p); err != nil {
				return nil, err
			}
			meta := map[string]any{"via": "data_api"}
			if deactivate {
				// Every session ends (their refresh tokens go with them).
				if err := tx.DeleteSessions(ctx, id, "", false); err != nil {
					return nil, err
				}
				meta["sessions_revoked"] = true
			}
			after, err := memberRow(ctx, tx, id)
			if err != nil {
				return nil, err
			}
			err = appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: action, ObjectType: "member", ObjectID: id, Before: before, After: after, Meta: mustRaw(meta)})
			return after, err
		},
	}
}
