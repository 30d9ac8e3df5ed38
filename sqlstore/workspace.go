package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"fairbalance"
)

var _ fairbalance.WorkspaceStore = (*querier)(nil)

// InviteByID implements fairbalance.WorkspaceStore.
func (q *querier) InviteByID(ctx context.Context, id string) (*fairbalance.Invite, error) {
	var i fairbalance.Invite
	var acc sql.NullTime
	err := q.row(ctx, `SELECT `+inviteColumns+` FROM invites WHERE id = ?`+q.forUpdate(), id).
		Scan(&i.ID, &i.OrgID, &i.Email, &i.Role, &i.TokenHash, &i.Status, &i.InvitedBy, &i.ExpiresAt, &i.CreatedAt, &acc, &i.AcceptedBy)
	if err != nil {
		return nil, translate(err)
	}
	i.AcceptedAt = timePtr(acc)
	i.ExpiresAt, i.CreatedAt = i.ExpiresAt.UTC(), i.CreatedAt.UTC()
	return &i, nil
}

// ReissueInvite implements fairbalance.WorkspaceStore.
func (q *querier) ReissueInvite(ctx context.Context, i *fairbalance.Invite) error {
	return mustAffect(q.exec(ctx, `UPDATE invites SET token_hash = ?, expires_at = ? WHERE id = ? AND status = 'pending'`, i.TokenHash, i.ExpiresAt.UTC(), i.ID))
}

// UserSessions implements fairbalance.WorkspaceStore. The latest token of
// a session is the one with the highest counter; a session whose tokens
// are all revoked is over and left out.
func (q *querier) UserSessions(ctx context.Context, userID string) ([]fairbalance.Session, error) {
	rows, err := q.query(ctx, `SELECT s.id, s.user_id, s.aal, s.factor_id, s.amr, s.user_agent, s.ip, s.created_at, s.updated_at, r.created_at, s.not_after
FROM sessions s
JOIN refresh_tokens r ON r.session_id = s.id AND r.counter = (SELECT MAX(x.counter) FROM refresh_tokens x WHERE x.session_id = s.id)
WHERE s.user_id = ? AND r.revoked = ?
ORDER BY r.created_at DESC, s.id`, userID, false)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fairbalance.Session
	for rows.Next() {
		var s fairbalance.Session
		var amr []byte
		var refreshed, notAfter sql.NullTime
		if err := rows.Scan(&s.ID, &s.UserID, &s.AAL, &s.FactorID, &amr, &s.UserAgent, &s.IP, &s.CreatedAt, &s.UpdatedAt, &refreshed, &notAfter); err != nil {
			return nil, translate(err)
		}
		if err := json.Unmarshal(amr, &s.AMR); err != nil {
			return nil, fmt.Errorf("sqlstore: session %s amr: %w", s.ID, err)
		}
		s.RefreshedAt, s.NotAfter = timePtr(refreshed), timePtr(notAfter)
		s.CreatedAt, s.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
		out = append(out, s)
	}
	return out, translate(rows.Err())
}

// OrgMail implements fairbalance.WorkspaceStore.
func (q *querier) OrgMail(ctx context.Context, orgID string, limit int) ([]*fairbalance.MailMessage, error) {
	if orgID == "" {
		return nil, nil
	}
	// Messages of the organisation, and those of no organisation (sent
	// before their recipient joined one: a sign-up's confirmation) to its
	// members and its pending invitees.
	return q.listMail(ctx, `SELECT `+mailColumns+` FROM mail_outbox WHERE org_id = ?
OR ((org_id IS NULL OR org_id = '') AND (
  lower(recipient) IN (SELECT lower(u.email) FROM users u JOIN profiles_v2 p ON p.id = u.id WHERE p.org_id = ?)
  OR lower(recipient) IN (SELECT lower(i.email) FROM invites i WHERE i.org_id = ? AND i.status = 'pending')))
ORDER BY id DESC LIMIT ?`, orgID, orgID, orgID, limit)
}

// PilotFacts implements fairbalance.WorkspaceStore.
func (q *querier) PilotFacts(ctx context.Context, orgID string) (*fairbalance.PilotFacts, error) {
	f := &fairbalance.PilotFacts{Roles: map[string]int{}}
	rows, err := q.query(ctx, `SELECT role, COUNT(*) FROM profiles_v2 WHERE org_id = ? AND deactivated_at IS NULL GROUP BY role`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var role string
		var n int
		if err := rows.Scan(&role, &n); err != nil {
			return nil, translate(err)
		}
		f.Roles[role] = n
		f.Members += n
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	err = q.row(ctx, `SELECT COUNT(DISTINCT lower(email)) FROM invites WHERE org_id = ? AND status <> 'revoked'`, orgID).Scan(&f.Invited)
	if err != nil {
		return nil, translate(err)
	}
	err = q.row(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM mfa_factors m WHERE m.user_id = p.id AND m.status = 'verified') THEN 1 ELSE 0 END), 0)
FROM profiles_v2 p WHERE p.org_id = ? AND p.role IN ('owner','admin') AND p.deactivated_at IS NULL`, orgID).Scan(&f.Admins, &f.AdminsWithMFA)
	if err != nil {
		return nil, translate(err)
	}
	err = q.row(ctx, `SELECT (SELECT COUNT(*) FROM products WHERE org_id = ?), (SELECT COUNT(*) FROM assets WHERE org_id = ?)`, orgID, orgID).Scan(&f.Products, &f.Assets)
	return f, translate(err)
}
