package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"fairbalance"
	"fairbalance/auth"
)

// FunctionSpec declares a function served at /rest/v1/rpc/{name}: a
// workflow step with validated JSON arguments, run in one transaction.
type FunctionSpec struct {
	Name string
	// ReadOnly functions may also be called with GET.
	ReadOnly bool
	// Args names the accepted arguments (others are refused).
	Args []string
	// Optional names the arguments that may be left out, and ArgTypes the
	// type of those that are not text; both only describe the function
	// (generated types, OpenAPI).
	Optional []string
	ArgTypes map[string]fairbalance.ColumnType
	// Mails tells that the function may put mail in the outbox: the
	// mailer is woken once its transaction has committed.
	Mails bool
	// Prepare, when set, runs after the arguments are checked and before
	// the transaction opens: slow work (reading and extracting an uploaded
	// file) that must not hold a transaction. It may leave results for
	// Call in args under names beginning with "_", which no client can
	// send (undeclared arguments are refused before).
	Prepare func(ctx context.Context, c fairbalance.Caller, args map[string]any) error
	Call    func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error)
}

// RegisterFunctions adds functions to the data API.
func (d *Data) RegisterFunctions(fns ...*FunctionSpec) {
	if d.funcs == nil {
		d.funcs = map[string]*FunctionSpec{}
	}
	for _, f := range fns {
		d.funcs[f.Name] = f
	}
}

// Functions lists the registered functions, sorted by name.
func (d *Data) Functions() []*FunctionSpec {
	var out []*FunctionSpec
	for _, f := range d.funcs {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Call runs a function. get tells a GET call (read-only functions only).
func (d *Data) Call(ctx context.Context, c fairbalance.Caller, name string, args map[string]any, get bool) (json.RawMessage, error) {
	f, ok := d.funcs[name]
	if !ok {
		keys := make([]string, 0, len(args))
		for k := range args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return nil, pgErr(fairbalance.KindNotFound, "PGRST202", fmt.Sprintf("Could not find the function public.%s(%s) in the schema cache", name, strings.Join(keys, ", ")), "", "")
	}
	if c.Demo && !f.ReadOnly {
		return nil, demoRefusal()
	}
	if get && !f.ReadOnly {
		return nil, pgErr(fairbalance.KindMethodNotAllowed, "25006", "cannot execute this function in a read-only transaction", "", "")
	}
	for k := range args {
		if !contains(f.Args, k) {
			return nil, pgErr(fairbalance.KindNotFound, "PGRST202", fmt.Sprintf("Could not find the function public.%s(%s) in the schema cache", name, k), "", "")
		}
	}
	if f.Prepare != nil {
		if args == nil {
			args = map[string]any{}
		}
		if err := f.Prepare(ctx, c, args); err != nil {
			return nil, d.storeError(c, name, err)
		}
	}
	var out any
	run := func(tx fairbalance.Tx) error {
		var err error
		out, err = f.Call(ctx, tx, c, args)
		return err
	}
	var err error
	if f.ReadOnly {
		err = run(d.store.View())
	} else {
		err = d.store.Tx(ctx, run)
	}
	if err != nil {
		return nil, d.storeError(c, name, err)
	}
	if f.Mails {
		if q := d.Config.MailQueued; q != nil {
			q()
		}
	}
	if out == nil {
		return nil, nil
	}
	b, err := json.Marshal(out)
	return b, internal(err)
}

func argString(args map[string]any, k string) string {
	s, _ := args[k].(string)
	return strings.TrimSpace(s)
}

// raise is a function's refusal, as PostgreSQL's RAISE EXCEPTION reaches
// clients through PostgREST (400, code P0001).
func raise(msg string) *fairbalance.Error {
	return pgErr(fairbalance.KindInvalid, "P0001", msg, "", "")
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

// RecordFunctions are the functions of the organisation records.
func (d *Data) RecordFunctions() []*FunctionSpec {
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
				now := d.Now()
				before := inviteRow(inv, now)
				p.OrgID, p.Role, p.UpdatedAt = inv.OrgID, inv.Role, now
				if err := tx.UpdateProfile(ctx, p); err != nil {
					return nil, err
				}
				inv.Status, inv.AcceptedAt, inv.AcceptedBy = fairbalance.InviteAccepted, &now, c.UserID
				if err := tx.UpdateInvite(ctx, inv); err != nil {
					return nil, err
				}
				// Recorded in the organisation joined, by the new member.
				joined := c
				joined.OrgID, joined.Member = inv.OrgID, inv.Role
				if err := appendAudit(ctx, tx, joined, &fairbalance.AuditEntry{Action: fairbalance.ActionInviteAccepted, ObjectType: "invite", ObjectID: inv.ID,
					Before: mustRaw(before), After: mustRaw(inviteRow(inv, now)), Meta: mustRaw(map[string]any{"via": "data_api", "user_id": c.UserID, "role": inv.Role})}); err != nil {
					return nil, err
				}
				return map[string]any{"success": true, "error": nil, "role": inv.Role}, nil
			},
		},
	}
}

// pendingInvite finds a pending invitation by token, refusing unknown,
// used, revoked and expired ones with the specification's messages.
func (d *Data) pendingInvite(ctx context.Context, tx fairbalance.Tx, token string) (*fairbalance.Invite, error) {
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
