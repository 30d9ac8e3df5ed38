package fairbalance

import "context"

// Audit actions written by the workspace functions of the data API.
const (
	ActionInviteCreated      = "invite_created"
	ActionInviteAccepted     = "invite_accepted"
	ActionInviteRevoked      = "invite_revoked"
	ActionInviteResent       = "invite_resent"
	ActionMemberDeactivated  = "member_deactivated"
	ActionMemberReactivated  = "member_reactivated"
	ActionSessionRevoked     = "session_revoked"
	ActionAuditChainVerified = "audit_chain_verified"
	ActionAuditChainBroken   = "audit_chain_verification_failed"
)

// PilotFacts are the counts of one organisation that the pilot checklist
// is ticked from.
type PilotFacts struct {
	// Members counts the organisation's active (not deactivated) members.
	Members int
	// Roles counts the active members per role.
	Roles map[string]int
	// Invited counts the distinct addresses invited (revoked invitations
	// excepted).
	Invited int
	// Admins counts active owners and admins; AdminsWithMFA those of them
	// with a verified second factor.
	Admins        int
	AdminsWithMFA int
	// Products counts the organisation's products, inactive ones included;
	// Assets its assets, archived ones included (each was created once).
	Products int
	Assets   int
}

// WorkspaceStore holds the queries of the workspace screens (users,
// account security, diagnostics, pilot) beyond the registry's tables.
// Lookups of a missing row return ErrNotFound.
type WorkspaceStore interface {
	// InviteByID reads an invitation (locked inside a transaction on
	// PostgreSQL, since revoking and resending read-modify-write it).
	InviteByID(ctx context.Context, id string) (*Invite, error)
	// ReissueInvite gives a pending invitation a new token hash and expiry.
	ReissueInvite(ctx context.Context, i *Invite) error
	// UserSessions lists the user's sessions whose refresh tokens are not
	// revoked, most recently refreshed first; RefreshedAt is the time of
	// the session's latest refresh token (its last refresh or sign-in).
	UserSessions(ctx context.Context, userID string) ([]Session, error)
	// OrgMail lists the newest messages of an organisation's outbox: its
	// own, and those of no organisation to its members and to its
	// pending invitees.
	OrgMail(ctx context.Context, orgID string, limit int) ([]*MailMessage, error)
	// PilotFacts counts what the pilot checklist needs of an organisation.
	PilotFacts(ctx context.Context, orgID string) (*PilotFacts, error)
}
