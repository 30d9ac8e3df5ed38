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
-- pending invitation past its expiry reads as expired.
CREATE VIEW invites_view AS
SELECT i.id, i.org_id, i.email, i.role,
       CASE WHEN i.status = 'pending' AND i.expires_at <= now() THEN 'expired' ELSE i.status END AS status,
       i.expires_at, i.created_at, i.invited_by, i.accepted_at
FROM invites i;

-- One row per user, created by the first upsert; no row means the defaults.
CREATE TABLE notification_preferences (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  review_assigned BOOLEAN NOT NULL DEFAULT true,
  review_decision BOOLEAN NOT NULL DEFAULT true,
  comment_mention BOOLEAN NOT NULL DEFAULT true,
  due_reminders BOOLEAN NOT NULL DEFAULT true,
  asset_expiring BOOLEAN NOT NULL DEFAULT true,
  weekly_digest BOOLEAN NOT NULL DEFAULT false,
  updated_at TIMESTAMPTZ NOT NULL
);

-- The organisation an e-mail belongs to ('' for none), so an organisation's
-- administrators see only their own outbox.
ALTER TABLE mail_outbox ADD COLUMN org_id TEXT NOT NULL DEFAULT '';
CREATE INDEX mail_outbox_org_idx ON mail_outbox (org_id, id);
