package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"fairbalance"
)

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (q *querier) CreateProfile(ctx context.Context, p *fairbalance.Profile) error {
	_, err := q.exec(ctx, `INSERT INTO profiles_v2 (id, org_id, role, full_name, avatar_url, created_at, updated_at, deactivated_at) VALUES (?,?,?,?,?,?,?,?)`,
		p.ID, nullString(p.OrgID), p.Role, p.FullName, p.AvatarURL, p.CreatedAt.UTC(), p.UpdatedAt.UTC(), nullTime(p.DeactivatedAt))
	return err
}

func (q *querier) ProfileByID(ctx context.Context, id string) (*fairbalance.Profile, error) {
	var p fairbalance.Profile
	var org sql.NullString
	var deact sql.NullTime
	err := q.row(ctx, `SELECT id, org_id, role, full_name, avatar_url, created_at, updated_at, deactivated_at FROM profiles_v2 WHERE id = ?`+q.forUpdate(), id).
		Scan(&p.ID, &org, &p.Role, &p.FullName, &p.AvatarURL, &p.CreatedAt, &p.UpdatedAt, &deact)
	if err != nil {
		return nil, translate(err)
	}
	p.OrgID = org.String
	p.DeactivatedAt = timePtr(deact)
	p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	return &p, nil
}

func (q *querier) CreateOrg(ctx context.Context, o *fairbalance.Org) error {
	_, err := q.exec(ctx, `INSERT INTO orgs (id, name, industry, created_by, created_at, updated_at) VALUES (?,?,?,?,?,?)`,
		o.ID, o.Name, o.Industry, o.CreatedBy, o.CreatedAt.UTC(), o.UpdatedAt.UTC())
	return err
}

func (q *querier) OrgByID(ctx context.Context, id string) (*fairbalance.Org, error) {
	var o fairbalance.Org
	err := q.row(ctx, `SELECT id, name, industry, created_by, created_at, updated_at FROM orgs WHERE id = ?`, id).
		Scan(&o.ID, &o.Name, &o.Industry, &o.CreatedBy, &o.CreatedAt, &o.UpdatedAt)
	if err != nil {
		return nil, translate(err)
	}
	o.CreatedAt, o.UpdatedAt = o.CreatedAt.UTC(), o.UpdatedAt.UTC()
	return &o, nil
}

func (q *querier) UpdateProfile(ctx context.Context, p *fairbalance.Profile) error {
	return mustAffect(q.exec(ctx, `UPDATE profiles_v2 SET org_id=?, role=?, full_name=?, avatar_url=?, updated_at=?, deactivated_at=? WHERE id=?`,
		nullString(p.OrgID), p.Role, p.FullName, p.AvatarURL, p.UpdatedAt.UTC(), nullTime(p.DeactivatedAt), p.ID))
}

func (q *querier) CountAdmins(ctx context.Context, orgID string) (int, error) {
	query := `SELECT COUNT(*) FROM profiles_v2 WHERE role IN ('owner','admin') AND deactivated_at IS NULL`
	var args []any
	if orgID != "" {
		query += ` AND org_id = ?`
		args = append(args, orgID)
	}
	var n int
	err := q.row(ctx, query, args...).Scan(&n)
	return n, translate(err)
}

const inviteColumns = `id, org_id, email, role, token_hash, status, invited_by, expires_at, created_at, accepted_at, accepted_by`

func (q *querier) CreateInvite(ctx context.Context, i *fairbalance.Invite) error {
	_, err := q.exec(ctx, `INSERT INTO invites (`+inviteColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
		i.ID, i.OrgID, i.Email, i.Role, i.TokenHash, i.Status, i.InvitedBy, i.ExpiresAt.UTC(), i.CreatedAt.UTC(), nullTime(i.AcceptedAt), i.AcceptedBy)
	return err
}

func (q *querier) InviteByTokenHash(ctx context.Context, hash string) (*fairbalance.Invite, error) {
	var i fairbalance.Invite
	var acc sql.NullTime
	err := q.row(ctx, `SELECT `+inviteColumns+` FROM invites WHERE token_hash = ?`+q.forUpdate(), hash).
		Scan(&i.ID, &i.OrgID, &i.Email, &i.Role, &i.TokenHash, &i.Status, &i.InvitedBy, &i.ExpiresAt, &i.CreatedAt, &acc, &i.AcceptedBy)
	if err != nil {
		return nil, translate(err)
	}
	i.AcceptedAt = timePtr(acc)
	i.ExpiresAt, i.CreatedAt = i.ExpiresAt.UTC(), i.CreatedAt.UTC()
	return &i, nil
}

func (q *querier) PendingInviteForEmail(ctx context.Context, email string) (*fairbalance.Invite, error) {
	var i fairbalance.Invite
	var acc sql.NullTime
	err := q.row(ctx, `SELECT `+inviteColumns+` FROM invites WHERE lower(email) = ? AND status = 'pending' ORDER BY expires_at DESC LIMIT 1`, strings.ToLower(email)).
		Scan(&i.ID, &i.OrgID, &i.Email, &i.Role, &i.TokenHash, &i.Status, &i.InvitedBy, &i.ExpiresAt, &i.CreatedAt, &acc, &i.AcceptedBy)
	if err != nil {
		return nil, translate(err)
	}
	i.AcceptedAt = timePtr(acc)
	i.ExpiresAt, i.CreatedAt = i.ExpiresAt.UTC(), i.CreatedAt.UTC()
	return &i, nil
}

func (q *querier) UpdateInvite(ctx context.Context, i *fairbalance.Invite) error {
	return mustAffect(q.exec(ctx, `UPDATE invites SET status=?, expires_at=?, accepted_at=?, accepted_by=? WHERE id=?`,
		i.Status, i.ExpiresAt.UTC(), nullTime(i.AcceptedAt), i.AcceptedBy, i.ID))
}

func (q *querier) WorkspaceSettings(ctx context.Context) (*fairbalance.WorkspaceSettings, error) {
	var w fairbalance.WorkspaceSettings
	err := q.row(ctx, `SELECT preview_passcode_enabled, preview_passcode_hash, site_access_mode, disable_signup, block_indexing, updated_by, updated_at FROM workspace_settings WHERE id = 1`+q.forUpdate()).
		Scan(&w.PreviewPasscodeEnabled, &w.PreviewPasscodeHash, &w.SiteAccessMode, &w.DisableSignup, &w.BlockIndexing, &w.UpdatedBy, &w.UpdatedAt)
	if err != nil {
		return nil, translate(err)
	}
	w.UpdatedAt = w.UpdatedAt.UTC()
	return &w, nil
}

func (q *querier) UpdateWorkspaceSettings(ctx context.Context, w *fairbalance.WorkspaceSettings) error {
	return mustAffect(q.exec(ctx, `UPDATE workspace_settings SET preview_passcode_enabled=?, preview_passcode_hash=?, site_access_mode=?, disable_signup=?, block_indexing=?, updated_by=?, updated_at=? WHERE id = 1`,
		w.PreviewPasscodeEnabled, w.PreviewPasscodeHash, w.SiteAccessMode, w.DisableSignup, w.BlockIndexing, w.UpdatedBy, w.UpdatedAt.UTC()))
}

func (q *querier) DeleteOrg(ctx context.Context, id string) error {
	if _, err := q.exec(ctx, `DELETE FROM invites WHERE org_id = ?`, id); err != nil {
		return err
	}
	return mustAffect(q.exec(ctx, `DELETE FROM orgs WHERE id = ?`, id))
}

func (q *querier) OrgMembers(ctx context.Context, orgID string) ([]fairbalance.Profile, error) {
	rows, err := q.query(ctx, `SELECT id, org_id, role, full_name, avatar_url, created_at, updated_at, deactivated_at FROM profiles_v2 WHERE org_id = ? ORDER BY created_at, id`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fairbalance.Profile
	for rows.Next() {
		var p fairbalance.Profile
		var org sql.NullString
		var deact sql.NullTime
		if err := rows.Scan(&p.ID, &org, &p.Role, &p.FullName, &p.AvatarURL, &p.CreatedAt, &p.UpdatedAt, &deact); err != nil {
			return nil, translate(err)
		}
		p.OrgID, p.DeactivatedAt = org.String, timePtr(deact)
		p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
		out = append(out, p)
	}
	return out, rows.Err()
}

func (q *querier) AuditLength(ctx context.Context, orgID string) (int64, error) {
	var n int64
	err := q.row(ctx, `SELECT seq FROM audit_chain_head WHERE org_id = ?`, orgID).Scan(&n)
	if errors.Is(translate(err), fairbalance.ErrNotFound) {
		return 0, nil
	}
	return n, translate(err)
}
