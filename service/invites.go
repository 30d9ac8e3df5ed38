package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

func argString(args map[string]any, k string) string {
	s, _ := args[k].(string)
	return strings.TrimSpace(s)
}

func hashToken(tok string) string {
	s := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(s[:])
}

// Messages of invitations, as the specification words them.
const (
	msgInvalidInvite = "Invalid invite token"
	msgExpiredInvite = "This invite has expired"
)

// recordFunctions are the functions of the organisation records.
func (d *Registry) recordFunctions() []*FunctionSpec {
	return []*FunctionSpec{
		{
			// create_invite(email, role): an admin invites someone to the
			// organisation; the token is returned once and only its hash kept.
			Name: "create_invite", Args: []string{"email", "role"},
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
				if !c.IsAdmin() {
					return nil, denied(c, "only administrators invite members")
				}
				email, err := normaliseEmail(argString(args, "email"))
				if err != nil {
					return nil, raise("Enter a valid e-mail address")
				}
				role := argString(args, "role")
				if !fairbalance.ValidRole(role) || role == fairbalance.RoleOwner || roleRank[role] > roleRank[c.Member] {
					return nil, raise("Choose a role at or below your own")
				}
				token := newInviteToken()
				now := d.Now()
				inv := &fairbalance.Invite{ID: auth.NewUUID(), OrgID: c.OrgID, Email: email, Role: role, TokenHash: hashToken(token),
					Status: fairbalance.InvitePending, InvitedBy: c.UserID, ExpiresAt: now.Add(fairbalance.InviteValidity), CreatedAt: now}
				if err := tx.CreateInvite(ctx, inv); err != nil {
					return nil, err
				}
				if err := appendAudit(ctx, tx, c, &fairbalance.AuditEntry{Action: fairbalance.ActionInviteCreated, ObjectType: "invite", ObjectID: inv.ID,
					After: mustRaw(inviteRow(inv, now)), Meta: mustRaw(map[string]any{"via": "data_api"})}); err != nil {
					return nil, err
				}
				return map[string]any{"id": inv.ID, "email": email, "role": role, "token": token, "expires_at": inv.ExpiresAt}, nil
			},
		},
		{
			// get_invite(token): what the sign-up screen shows; only the
			// e-mail and the role, and only for a pending, unexpired invitation.
			Name: "get_invite", ReadOnly: true, Args: []string{"token"},
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
				inv, err := d.pendingInvite(ctx, tx, argString(args, "token"))
				if err != nil {
					return nil, err
				}
				return map[string]any{"email": inv.Email, "role": inv.Role}, nil
			},
		},
		{
			// accept_invite(token): the signed-in invitee joins the
			// organisation with the invitation's role.
			Name: "accept_invite", Args: []string{"token"},
			Call: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
				fail := func(msg string) (any, error) { return map[string]any{"success": false, "error": msg}, nil }
				if c.Anon() {
					return nil, denied(c, "sign in to accept an invitation")
				}
				inv, err := d.pendingInvite(ctx, tx, argString(args, "token"))
				if fe := fairbalance.AsError(err); fe != nil && fe.Code == "P0001" {
					return fail(fe.Message)
				}
				if err != nil {
					return nil, err
				}
				u, err := tx.UserByID(ctx, c.UserID)
				if err != nil {
					return nil, err
				}
				if !strings.EqualFold(u.Email, inv.Email) {
					return fail("This invitation was sent to another e-mail address")
				}
				p, err := tx.ProfileByID(ctx, c.UserID)
				if err != nil {
					return nil, err
				}
				if p.OrgID != "" && p.OrgID != inv.OrgID {
					return fail("You already belong to another organization")
				}
				if err := acceptInvite(ctx, tx, c, inv, p, d.Now(), "data_api"); err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "error": nil, "role": inv.Role}, nil
			},
		},
	}
}

// pendingInvite finds a pending invitation by token, refusing unknown,
// used, revoked and expired ones with the specification's messages.
func (d *Registry) pendingInvite(ctx context.Context, tx fairbalance.Tx, token string) (*fairbalance.Invite, error) {
	if token == "" || len(token) > 200 {
		return nil, raise(msgInvalidInvite)
	}
	inv, err := tx.InviteByTokenHash(ctx, hashToken(token))
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, raise(msgInvalidInvite)
	}
	if err != nil {
		return nil, err
	}
	if inv.Status != fairbalance.InvitePending {
		return nil, raise(msgInvalidInvite)
	}
	if !d.Now().Before(inv.ExpiresAt) {
		return nil, raise(msgExpiredInvite)
	}
	return inv, nil
}

// acceptInvite makes the member c (profile p) join the organisation of the
// pending invitation inv with its role and marks it accepted, audited in
// the organisation joined by the new member (via: which path accepted it).
// The caller has checked that inv is pending, unexpired and for c's address.
func acceptInvite(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, inv *fairbalance.Invite, p *fairbalance.Profile, now time.Time, via string) error {
	before := inviteRow(inv, now)
	p.OrgID, p.Role, p.UpdatedAt = inv.OrgID, inv.Role, now
	if err := tx.UpdateProfile(ctx, p); err != nil {
		return err
	}
	inv.Status, inv.AcceptedAt, inv.AcceptedBy = fairbalance.InviteAccepted, &now, c.UserID
	if err := tx.UpdateInvite(ctx, inv); err != nil {
		return err
	}
	joined := c
	joined.OrgID, joined.Member = inv.OrgID, inv.Role
	return appendAudit(ctx, tx, joined, &fairbalance.AuditEntry{Action: fairbalance.ActionInviteAccepted, ObjectType: "invite", ObjectID: inv.ID,
		Before: mustRaw(before), After: mustRaw(inviteRow(inv, now)), Meta: mustRaw(map[string]any{"via": via, "user_id": c.UserID, "role": inv.Role})})
}

// usableInvite is the pending, unexpired invitation of token for exactly
// the address email, or nil (an unknown, used, revoked or expired token,
// or one sent to another address).
func usableInvite(ctx context.Context, tx fairbalance.Tx, token, email string, now time.Time) (*fairbalance.Invite, error) {
	if token == "" || len(token) > 200 {
		return nil, nil
	}
	inv, err := tx.InviteByTokenHash(ctx, hashToken(token))
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if inv.Status != fairbalance.InvitePending || !now.Before(inv.ExpiresAt) || !strings.EqualFold(inv.Email, email) {
		return nil, nil
	}
	return inv, nil
}
