-- The workspace screens: the member directory, invitations as admins list
-- them, notification preferences, and the organisation of each e-mail.

-- members_view is the data API's "members": one row per member of an
-- organisation, with the account's address and last sign-in. Deleted
-- accounts are left out.
CREATE VIEW members_view AS
SELECT p.id, p.org_id, COALESCE(u.email, '') AS email, p.full_name, p.role, p.avatar_url,
       p.deactivated_at, u.last_sign_in_at, p.created_at,
       EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = p.id AND f.status = 'verified') AS mfa_enabled
FROM profiles_v2 p JOIN users u ON u.id = p.id
WHERE p.org_id IS NOT NULL AND u.deleted_at IS NULL;

-- invites_view is the data API's "invites": never the token's hash; a
-- pending invitation past its expiry reads as expired. Times are stored in
-- one fixed UTC text form, so they compare as text.
CREATE VIEW invites_view AS
SELECT i.id, i.org_id, i.email, i.role,
       CASE WHEN i.status = 'pending' AND i.expires_at <= strftime('%Y-%m-%d %H:%M:%f+00:00', 'now') THEN 'expired' ELSE i.status END AS status,
       i.expires_at, i.created_at, i.invited_by, i.accepted_at
FROM invites i;

-- One row per user, created by the first upsert; no row means the defaults.
CREATE TABLE notification_preferences (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  review_assigned INTEGER NOT NULL DEFAULT 1,
  review_decision INTEGER NOT NULL DEFAULT 1,
  comment_mention INTEGER NOT NULL DEFAULT 1,
  due_reminders INTEGER NOT NULL DEFAULT 1,
  asset_expiring INTEGER NOT NULL DEFAULT 1,
  weekly_digest INTEGER NOT NULL DEFAULT 0,
  updated_at TIMESTAMP NOT NULL
);

-- The organisation an e-mail belongs to ('' for none), so an organisation's
-- administrators see only their own outbox.
ALTER TABLE mail_outbox ADD COLUMN org_id TEXT NOT NULL DEFAULT '';
CREATE INDEX mail_outbox_org_idx ON mail_outbox (org_id, id);
