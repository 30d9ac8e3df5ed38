package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"fairbalance"
)

const userColumns = `id, aud, role, COALESCE(email, ''), phone, password_hash, email_confirmed_at, invited_at,
 confirmation_sent_at, recovery_sent_at, email_change, email_change_sent_at, email_change_confirm_status,
 reauthentication_sent_at, last_sign_in_at, app_metadata, user_metadata, banned_until, deleted_at,
 is_anonymous, created_at, updated_at`

type scanner interface{ Scan(dest ...any) error }

func scanUser(s scanner) (*fairbalance.User, error) {
	var u fairbalance.User
	var emailConf, invited, confSent, recSent, chgSent, reauthSent, lastSign, banned, deleted sql.NullTime
	var appMeta, userMeta []byte
	err := s.Scan(&u.ID, &u.Aud, &u.Role, &u.Email, &u.Phone, &u.PasswordHash, &emailConf, &invited,
		&confSent, &recSent, &u.EmailChange, &chgSent, &u.EmailChangeConfirmState,
		&reauthSent, &lastSign, &appMeta, &userMeta, &banned, &deleted,
		&u.IsAnonymous, &u.CreatedAt, &u.UpdatedAt)
	if err != nil {
		return nil, translate(err)
	}
	u.EmailConfirmedAt = timePtr(emailConf)
	u.InvitedAt = timePtr(invited)
	u.ConfirmationSentAt = timePtr(confSent)
	u.RecoverySentAt = timePtr(recSent)
	u.EmailChangeSentAt = timePtr(chgSent)
	u.ReauthenticationSentAt = timePtr(reauthSent)
	u.LastSignInAt = timePtr(lastSign)
	u.BannedUntil = timePtr(banned)
	u.DeletedAt = timePtr(deleted)
	u.AppMetadata = json.RawMessage(appMeta)
	u.UserMetadata = json.RawMessage(userMeta)
	u.CreatedAt = u.CreatedAt.UTC()
	u.UpdatedAt = u.UpdatedAt.UTC()
	return &u, nil
}

func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time.UTC()
	return &v
}

func nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC()
}

func jsonText(m json.RawMessage, empty string) string {
	if len(m) == 0 {
		return empty
	}
	return string(m)
}

func nullEmail(e string) any {
	if e == "" {
		return nil
	}
	return e
}

// loadUser reads the user with its identities and factors.
func (q *querier) loadUser(ctx context.Context, where string, arg any) (*fairbalance.User, error) {
	u, err := scanUser(q.row(ctx, `SELECT `+userColumns+` FROM users WHERE `+where, arg))
	if err != nil {
		return nil, err
	}
	if err := q.loadRelations(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}

func (q *querier) loadRelations(ctx context.Context, u *fairbalance.User) error {
	rows, err := q.query(ctx, `SELECT id, provider_id, user_id, provider, identity_data, email, last_sign_in_at, created_at, updated_at FROM identities WHERE user_id = ? ORDER BY created_at`, u.ID)
	if err != nil {
		return err
	}
	u.Identities = u.Identities[:0]
	for rows.Next() {
		var i fairbalance.Identity
		var data []byte
		var last sql.NullTime
		if err := rows.Scan(&i.ID, &i.ProviderID, &i.UserID, &i.Provider, &data, &i.Email, &last, &i.CreatedAt, &i.UpdatedAt); err != nil {
			rows.Close()
			return err
		}
		i.IdentityData = json.RawMessage(data)
		i.LastSignInAt = timePtr(last)
		i.CreatedAt, i.UpdatedAt = i.CreatedAt.UTC(), i.UpdatedAt.UTC()
		u.Identities = append(u.Identities, i)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	rows, err = q.query(ctx, `SELECT id, user_id, friendly_name, factor_type, status, secret, last_challenged_at, created_at, updated_at FROM mfa_factors WHERE user_id = ? ORDER BY created_at`, u.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	u.Factors = u.Factors[:0]
	for rows.Next() {
		f, err := scanFactor(rows)
		if err != nil {
			return err
		}
		u.Factors = append(u.Factors, *f)
	}
	return rows.Err()
}

func scanFactor(s scanner) (*fairbalance.Factor, error) {
	var f fairbalance.Factor
	var last sql.NullTime
	if err := s.Scan(&f.ID, &f.UserID, &f.FriendlyName, &f.FactorType, &f.Status, &f.Secret, &last, &f.CreatedAt, &f.UpdatedAt); err != nil {
		return nil, translate(err)
	}
	f.LastChallengedAt = timePtr(last)
	f.CreatedAt, f.UpdatedAt = f.CreatedAt.UTC(), f.UpdatedAt.UTC()
	return &f, nil
}

func (q *querier) UserByID(ctx context.Context, id string) (*fairbalance.User, error) {
	return q.loadUser(ctx, `id = ?`+q.forUpdate(), id)
}

func (q *querier) UserByEmail(ctx context.Context, email string) (*fairbalance.User, error) {
	return q.loadUser(ctx, `email = ?`+q.forUpdate(), strings.ToLower(email))
}

func (q *querier) CreateUser(ctx context.Context, u *fairbalance.User) error {
	_, err := q.exec(ctx, `INSERT INTO users (id, aud, role, email, phone, password_hash, email_confirmed_at, invited_at,
 confirmation_sent_at, recovery_sent_at, email_change, email_change_sent_at, email_change_confirm_status,
 reauthentication_sent_at, last_sign_in_at, app_metadata, user_metadata, banned_until, deleted_at,
 is_anonymous, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		u.ID, u.Aud, u.Role, nullEmail(u.Email), u.Phone, u.PasswordHash, nullTime(u.EmailConfirmedAt), nullTime(u.InvitedAt),
		nullTime(u.ConfirmationSentAt), nullTime(u.RecoverySentAt), u.EmailChange, nullTime(u.EmailChangeSentAt), u.EmailChangeConfirmState,
		nullTime(u.ReauthenticationSentAt), nullTime(u.LastSignInAt), jsonText(u.AppMetadata, "{}"), jsonText(u.UserMetadata, "{}"),
		nullTime(u.BannedUntil), nullTime(u.DeletedAt), u.IsAnonymous, u.CreatedAt.UTC(), u.UpdatedAt.UTC())
	return err
}

func (q *querier) UpdateUser(ctx context.Context, u *fairbalance.User) error {
	res, err := q.exec(ctx, `UPDATE users SET aud=?, role=?, email=?, phone=?, password_hash=?, email_confirmed_at=?, invited_at=?,
 confirmation_sent_at=?, recovery_sent_at=?, email_change=?, email_change_sent_at=?, email_change_confirm_status=?,
 reauthentication_sent_at=?, last_sign_in_at=?, app_metadata=?, user_metadata=?, banned_until=?, deleted_at=?,
 is_anonymous=?, updated_at=? WHERE id=?`,
		u.Aud, u.Role, nullEmail(u.Email), u.Phone, u.PasswordHash, nullTime(u.EmailConfirmedAt), nullTime(u.InvitedAt),
		nullTime(u.ConfirmationSentAt), nullTime(u.RecoverySentAt), u.EmailChange, nullTime(u.EmailChangeSentAt), u.EmailChangeConfirmState,
		nullTime(u.ReauthenticationSentAt), nullTime(u.LastSignInAt), jsonText(u.AppMetadata, "{}"), jsonText(u.UserMetadata, "{}"),
		nullTime(u.BannedUntil), nullTime(u.DeletedAt), u.IsAnonymous, u.UpdatedAt.UTC(), u.ID)
	return mustAffect(res, err)
}

func mustAffect(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fairbalance.ErrNotFound
	}
	return nil
}

func (q *querier) DeleteUser(ctx context.Context, id string) error {
	return mustAffect(q.exec(ctx, `DELETE FROM users WHERE id = ?`, id))
}

func (q *querier) ListUsers(ctx context.Context, f fairbalance.UserFilter) ([]*fairbalance.User, int, error) {
	where := ""
	var args []any
	if f.Search != "" {
		where = ` WHERE LOWER(COALESCE(email, '')) LIKE ? ESCAPE '\'`
		args = append(args, "%"+escapeLike(strings.ToLower(f.Search))+"%")
	}
	var total int
	if err := q.row(ctx, `SELECT COUNT(*) FROM users`+where, args...).Scan(&total); err != nil {
		return nil, 0, translate(err)
	}
	order := " ORDER BY created_at ASC, id ASC"
	if f.Desc {
		order = " ORDER BY created_at DESC, id DESC"
	}
	rows, err := q.query(ctx, `SELECT `+userColumns+` FROM users`+where+order+` LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	var users []*fairbalance.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		users = append(users, u)
	}
	if err := rows.Close(); err != nil {
		return nil, 0, err
	}
	for _, u := range users {
		if err := q.loadRelations(ctx, u); err != nil {
			return nil, 0, err
		}
	}
	return users, total, nil
}

func escapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

func (q *querier) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	return n, translate(err)
}

func (q *querier) CreateIdentity(ctx context.Context, i *fairbalance.Identity) error {
	_, err := q.exec(ctx, `INSERT INTO identities (id, provider_id, user_id, provider, identity_data, email, last_sign_in_at, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
		i.ID, i.ProviderID, i.UserID, i.Provider, jsonText(i.IdentityData, "{}"), i.Email, nullTime(i.LastSignInAt), i.CreatedAt.UTC(), i.UpdatedAt.UTC())
	return err
}

func (q *querier) UpdateIdentity(ctx context.Context, i *fairbalance.Identity) error {
	return mustAffect(q.exec(ctx, `UPDATE identities SET identity_data=?, email=?, last_sign_in_at=?, updated_at=? WHERE id=?`,
		jsonText(i.IdentityData, "{}"), i.Email, nullTime(i.LastSignInAt), i.UpdatedAt.UTC(), i.ID))
}

func (q *querier) CreateFactor(ctx context.Context, f *fairbalance.Factor) error {
	_, err := q.exec(ctx, `INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret, last_challenged_at, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
		f.ID, f.UserID, f.FriendlyName, f.FactorType, f.Status, f.Secret, nullTime(f.LastChallengedAt), f.CreatedAt.UTC(), f.UpdatedAt.UTC())
	return err
}

func (q *querier) UpdateFactor(ctx context.Context, f *fairbalance.Factor) error {
	return mustAffect(q.exec(ctx, `UPDATE mfa_factors SET friendly_name=?, status=?, last_challenged_at=?, updated_at=? WHERE id=?`,
		f.FriendlyName, f.Status, nullTime(f.LastChallengedAt), f.UpdatedAt.UTC(), f.ID))
}

func (q *querier) DeleteFactor(ctx context.Context, id string) error {
	return mustAffect(q.exec(ctx, `DELETE FROM mfa_factors WHERE id = ?`, id))
}

func (q *querier) DeleteUnverifiedFactors(ctx context.Context, userID, exceptID string, olderThan time.Time) error {
	_, err := q.exec(ctx, `DELETE FROM mfa_factors WHERE user_id = ? AND status = 'unverified' AND id <> ? AND created_at < ?`, userID, exceptID, olderThan.UTC())
	return err
}

func (q *querier) CreateChallenge(ctx context.Context, c *fairbalance.Challenge) error {
	_, err := q.exec(ctx, `INSERT INTO mfa_challenges (id, factor_id, ip_address, created_at, verified_at) VALUES (?,?,?,?,?)`,
		c.ID, c.FactorID, c.IPAddress, c.CreatedAt.UTC(), nullTime(c.VerifiedAt))
	return err
}

func (q *querier) ChallengeByID(ctx context.Context, id string) (*fairbalance.Challenge, error) {
	var c fairbalance.Challenge
	var v sql.NullTime
	err := q.row(ctx, `SELECT id, factor_id, ip_address, created_at, verified_at FROM mfa_challenges WHERE id = ?`+q.forUpdate(), id).
		Scan(&c.ID, &c.FactorID, &c.IPAddress, &c.CreatedAt, &v)
	if err != nil {
		return nil, translate(err)
	}
	c.VerifiedAt = timePtr(v)
	c.CreatedAt = c.CreatedAt.UTC()
	return &c, nil
}

func (q *querier) UpdateChallenge(ctx context.Context, c *fairbalance.Challenge) error {
	return mustAffect(q.exec(ctx, `UPDATE mfa_challenges SET verified_at = ? WHERE id = ?`, nullTime(c.VerifiedAt), c.ID))
}

func (q *querier) CreateSession(ctx context.Context, s *fairbalance.Session) error {
	amr, err := json.Marshal(s.AMR)
	if err != nil {
		return err
	}
	_, err = q.exec(ctx, `INSERT INTO sessions (id, user_id, aal, factor_id, amr, user_agent, ip, created_at, updated_at, refreshed_at, not_after) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
		s.ID, s.UserID, s.AAL, s.FactorID, string(amr), s.UserAgent, s.IP, s.CreatedAt.UTC(), s.UpdatedAt.UTC(), nullTime(s.RefreshedAt), nullTime(s.NotAfter))
	return err
}

func (q *querier) SessionByID(ctx context.Context, id string) (*fairbalance.Session, error) {
	var s fairbalance.Session
	var amr []byte
	var refreshed, notAfter sql.NullTime
	// A revoked family is revoked whole (RevokeFamily), and no token joins
	// it afterwards, so one revoked token tells.
	err := q.row(ctx, `SELECT id, user_id, aal, factor_id, amr, user_agent, ip, created_at, updated_at, refreshed_at, not_after,
 EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.session_id = sessions.id AND r.revoked = ?)
 FROM sessions WHERE id = ?`+q.forUpdate(), true, id).
		Scan(&s.ID, &s.UserID, &s.AAL, &s.FactorID, &amr, &s.UserAgent, &s.IP, &s.CreatedAt, &s.UpdatedAt, &refreshed, &notAfter, &s.Revoked)
	if err != nil {
		return nil, translate(err)
	}
	if err := json.Unmarshal(amr, &s.AMR); err != nil {
		return nil, fmt.Errorf("sqlstore: session %s amr: %w", id, err)
	}
	s.RefreshedAt, s.NotAfter = timePtr(refreshed), timePtr(notAfter)
	s.CreatedAt, s.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
	return &s, nil
}

func (q *querier) UpdateSession(ctx context.Context, s *fairbalance.Session) error {
	amr, err := json.Marshal(s.AMR)
	if err != nil {
		return err
	}
	return mustAffect(q.exec(ctx, `UPDATE sessions SET aal=?, factor_id=?, amr=?, user_agent=?, ip=?, updated_at=?, refreshed_at=?, not_after=? WHERE id=?`,
		s.AAL, s.FactorID, string(amr), s.UserAgent, s.IP, s.UpdatedAt.UTC(), nullTime(s.RefreshedAt), nullTime(s.NotAfter), s.ID))
}

func (q *querier) DeleteSession(ctx context.Context, id string) error {
	_, err := q.exec(ctx, `DELETE FROM sessions WHERE id = ?`, id)
	return err
}

func (q *querier) DeleteSessions(ctx context.Context, userID, keepID string, belowAAL2 bool) error {
	query := `DELETE FROM sessions WHERE user_id = ? AND id <> ?`
	if belowAAL2 {
		query += ` AND aal = 'aal1'`
	}
	_, err := q.exec(ctx, query, userID, keepID)
	return err
}

func (q *querier) DowngradeSessions(ctx context.Context, factorID string) error {
	_, err := q.exec(ctx, `UPDATE sessions SET aal = 'aal1', factor_id = '' WHERE factor_id = ?`, factorID)
	return err
}

const refreshColumns = `id, token_hash, user_id, session_id, parent, counter, revoked, created_at, updated_at`

func scanRefresh(s scanner) (*fairbalance.RefreshToken, error) {
	var t fairbalance.RefreshToken
	if err := s.Scan(&t.ID, &t.TokenHash, &t.UserID, &t.SessionID, &t.Parent, &t.Counter, &t.Revoked, &t.CreatedAt, &t.UpdatedAt); err != nil {
		return nil, translate(err)
	}
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	return &t, nil
}

func (q *querier) CreateRefreshToken(ctx context.Context, t *fairbalance.RefreshToken) error {
	if t.Parent == "" {
		return translate(q.row(ctx, `INSERT INTO refresh_tokens (token_hash, user_id, session_id, parent, counter, revoked, created_at, updated_at)
 VALUES (?,?,?,?,?,?,?,?) RETURNING id`,
			t.TokenHash, t.UserID, t.SessionID, t.Parent, t.Counter, t.Revoked, t.CreatedAt.UTC(), t.UpdatedAt.UTC()).Scan(&t.ID))
	}
	// A child joins only while its parent is unrevoked: revoking a family
	// revokes every token, so a rotation racing the revocation inserts nothing.
	return translate(q.row(ctx, `INSERT INTO refresh_tokens (token_hash, user_id, session_id, parent, counter, revoked, created_at, updated_at)
 SELECT ?,?,?,?,?,?,?,? WHERE EXISTS (SELECT 1 FROM refresh_tokens WHERE token_hash = ? AND session_id = ? AND revoked = ?) RETURNING id`,
		t.TokenHash, t.UserID, t.SessionID, t.Parent, t.Counter, t.Revoked, t.CreatedAt.UTC(), t.UpdatedAt.UTC(), t.Parent, t.SessionID, false).Scan(&t.ID))
}

func (q *querier) RefreshTokenByHash(ctx context.Context, hash string) (*fairbalance.RefreshToken, error) {
	// Not locked: a family's operations serialise on its session row.
	return scanRefresh(q.row(ctx, `SELECT `+refreshColumns+` FROM refresh_tokens WHERE token_hash = ?`, hash))
}

func (q *querier) ActiveRefreshToken(ctx context.Context, sessionID string) (*fairbalance.RefreshToken, error) {
	return scanRefresh(q.row(ctx, `SELECT `+refreshColumns+` FROM refresh_tokens WHERE session_id = ? AND revoked = ? ORDER BY counter DESC LIMIT 1`, sessionID, false))
}

func (q *querier) RevokeFamily(ctx context.Context, sessionID string) error {
	_, err := q.exec(ctx, `UPDATE refresh_tokens SET revoked = ?, updated_at = ? WHERE session_id = ? AND revoked = ?`, true, time.Now().UTC(), sessionID, false)
	return err
}

const ottColumns = `id, user_id, token_type, token_hash, relates_to, created_at`

func scanOTT(s scanner) (*fairbalance.OneTimeToken, error) {
	var t fairbalance.OneTimeToken
	if err := s.Scan(&t.ID, &t.UserID, &t.TokenType, &t.TokenHash, &t.RelatesTo, &t.CreatedAt); err != nil {
		return nil, translate(err)
	}
	t.CreatedAt = t.CreatedAt.UTC()
	return &t, nil
}

func (q *querier) PutOneTimeToken(ctx context.Context, t *fairbalance.OneTimeToken) error {
	if _, err := q.exec(ctx, `DELETE FROM one_time_tokens WHERE user_id = ? AND token_type = ?`, t.UserID, t.TokenType); err != nil {
		return err
	}
	_, err := q.exec(ctx, `INSERT INTO one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at) VALUES (?,?,?,?,?,?)`,
		t.ID, t.UserID, t.TokenType, t.TokenHash, t.RelatesTo, t.CreatedAt.UTC())
	return err
}

func (q *querier) OneTimeTokenByHash(ctx context.Context, types []string, hash string) (*fairbalance.OneTimeToken, error) {
	if len(types) == 0 {
		return nil, fairbalance.ErrNotFound
	}
	args := []any{hash, "pkce_" + hash}
	marks := make([]string, len(types))
	for i, t := range types {
		marks[i] = "?"
		args = append(args, t)
	}
	return scanOTT(q.row(ctx, `SELECT `+ottColumns+` FROM one_time_tokens WHERE token_hash IN (?, ?) AND token_type IN (`+strings.Join(marks, ",")+`) ORDER BY created_at DESC LIMIT 1`+q.forUpdate(), args...))
}

func (q *querier) OneTimeTokenForUser(ctx context.Context, userID, tokenType string) (*fairbalance.OneTimeToken, error) {
	return scanOTT(q.row(ctx, `SELECT `+ottColumns+` FROM one_time_tokens WHERE user_id = ? AND token_type = ?`, userID, tokenType))
}

func (q *querier) DeleteOneTimeToken(ctx context.Context, id string) error {
	_, err := q.exec(ctx, `DELETE FROM one_time_tokens WHERE id = ?`, id)
	return err
}

const flowColumns = `id, user_id, auth_code, code_challenge, code_challenge_method, authentication_method, auth_code_issued_at, created_at`

func scanFlow(s scanner) (*fairbalance.FlowState, error) {
	var f fairbalance.FlowState
	var issued sql.NullTime
	if err := s.Scan(&f.ID, &f.UserID, &f.AuthCode, &f.CodeChallenge, &f.CodeChallengeMethod, &f.AuthenticationMethod, &issued, &f.CreatedAt); err != nil {
		return nil, translate(err)
	}
	f.AuthCodeIssuedAt = timePtr(issued)
	f.CreatedAt = f.CreatedAt.UTC()
	return &f, nil
}

func (q *querier) CreateFlowState(ctx context.Context, f *fairbalance.FlowState) error {
	_, err := q.exec(ctx, `INSERT INTO flow_states (id, user_id, auth_code, code_challenge, code_challenge_method, authentication_method, auth_code_issued_at, created_at) VALUES (?,?,?,?,?,?,?,?)`,
		f.ID, f.UserID, f.AuthCode, f.CodeChallenge, f.CodeChallengeMethod, f.AuthenticationMethod, nullTime(f.AuthCodeIssuedAt), f.CreatedAt.UTC())
	return err
}

func (q *querier) FlowStateByAuthCode(ctx context.Context, code string) (*fairbalance.FlowState, error) {
	return scanFlow(q.row(ctx, `SELECT `+flowColumns+` FROM flow_states WHERE auth_code = ?`+q.forUpdate(), code))
}

func (q *querier) FlowStateForUser(ctx context.Context, userID string) (*fairbalance.FlowState, error) {
	return scanFlow(q.row(ctx, `SELECT `+flowColumns+` FROM flow_states WHERE user_id = ? ORDER BY created_at DESC LIMIT 1`, userID))
}

func (q *querier) UpdateFlowState(ctx context.Context, f *fairbalance.FlowState) error {
	return mustAffect(q.exec(ctx, `UPDATE flow_states SET user_id=?, auth_code_issued_at=? WHERE id=?`, f.UserID, nullTime(f.AuthCodeIssuedAt), f.ID))
}

func (q *querier) DeleteFlowState(ctx context.Context, id string) error {
	_, err := q.exec(ctx, `DELETE FROM flow_states WHERE id = ?`, id)
	return err
}

func (q *querier) EnqueueMail(ctx context.Context, m *fairbalance.MailMessage) error {
	if m.Status == "" {
		m.Status = "pending"
	}
	// Without an organisation given, the message belongs to the
	// organisation of the account with the recipient address, if any.
	err := translate(q.row(ctx, `INSERT INTO mail_outbox (recipient, subject, body_text, body_html, kind, status, attempts, last_error, created_at, next_attempt_at, org_id)
VALUES (?,?,?,?,?,?,?,?,?,?, COALESCE(NULLIF(?, ''), (SELECT p.org_id FROM users u JOIN profiles_v2 p ON p.id = u.id WHERE u.email = ? AND p.org_id IS NOT NULL), '')) RETURNING id, org_id`,
		m.To, m.Subject, m.Text, m.HTML, m.Kind, m.Status, m.Attempts, m.LastError, m.CreatedAt.UTC(), m.NextAttemptAt.UTC(), m.OrgID, strings.ToLower(m.To)).Scan(&m.ID, &m.OrgID))
	if err != nil || q.tx == nil || q.mailHook == nil {
		return err
	}
	return (*q.mailHook)(ctx, q.tx, m)
}

func (q *querier) RecordAuthEvent(ctx context.Context, e *fairbalance.AuthEvent) error {
	return translate(q.row(ctx, `INSERT INTO auth_audit (action, actor_id, actor_email, ip, payload, created_at) VALUES (?,?,?,?,?,?) RETURNING id`,
		e.Action, e.ActorID, e.ActorEmail, e.IP, jsonText(e.Payload, "{}"), e.CreatedAt.UTC()).Scan(&e.ID))
}

// mail outbox, as the mailer sees it

const mailColumns = `id, recipient, subject, body_text, body_html, kind, status, attempts, last_error, created_at, next_attempt_at, sent_at, org_id`

func scanMail(s scanner) (*fairbalance.MailMessage, error) {
	var m fairbalance.MailMessage
	var sent sql.NullTime
	if err := s.Scan(&m.ID, &m.To, &m.Subject, &m.Text, &m.HTML, &m.Kind, &m.Status, &m.Attempts, &m.LastError, &m.CreatedAt, &m.NextAttemptAt, &sent, &m.OrgID); err != nil {
		return nil, translate(err)
	}
	m.SentAt = timePtr(sent)
	m.CreatedAt, m.NextAttemptAt = m.CreatedAt.UTC(), m.NextAttemptAt.UTC()
	return &m, nil
}

func (q *querier) listMail(ctx context.Context, query string, args ...any) ([]*fairbalance.MailMessage, error) {
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*fairbalance.MailMessage
	for rows.Next() {
		m, err := scanMail(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// DueMail returns pending messages whose next attempt is due, oldest first.
func (db *DB) DueMail(ctx context.Context, now time.Time, limit int) ([]*fairbalance.MailMessage, error) {
	return db.read().listMail(ctx, `SELECT `+mailColumns+` FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT ?`, now.UTC(), limit)
}

// UpdateMail records the outcome of a delivery attempt.
func (db *DB) UpdateMail(ctx context.Context, m *fairbalance.MailMessage) error {
	return mustAffect(db.write().exec(ctx, `UPDATE mail_outbox SET status=?, attempts=?, last_error=?, next_attempt_at=?, sent_at=? WHERE id=?`,
		m.Status, m.Attempts, m.LastError, m.NextAttemptAt.UTC(), nullTime(m.SentAt), m.ID))
}

// RecentMail lists the newest messages, optionally to one address.
func (db *DB) RecentMail(ctx context.Context, to string, limit int) ([]*fairbalance.MailMessage, error) {
	if to != "" {
		return db.read().listMail(ctx, `SELECT `+mailColumns+` FROM mail_outbox WHERE recipient = ? ORDER BY id DESC LIMIT ?`, strings.ToLower(to), limit)
	}
	return db.read().listMail(ctx, `SELECT `+mailColumns+` FROM mail_outbox ORDER BY id DESC LIMIT ?`, limit)
}
