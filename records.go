package fairbalance

import (
	"context"
	"fmt"
	"time"
)

// Member roles, from most to least powerful. Every member belongs to
// exactly one organisation.
const (
	RoleOwner              = "owner"
	RoleAdmin              = "admin"
	RoleMarketer           = "marketer"
	RoleReviewerMedical    = "reviewer_medical"
	RoleReviewerLegal      = "reviewer_legal"
	RoleReviewerRegulatory = "reviewer_regulatory"
	RoleViewer             = "viewer"
)

// Roles lists every member role.
var Roles = []string{RoleOwner, RoleAdmin, RoleMarketer, RoleReviewerMedical, RoleReviewerLegal, RoleReviewerRegulatory, RoleViewer}

// ValidRole reports whether r is a member role.
func ValidRole(r string) bool {
	for _, x := range Roles {
		if x == r {
			return true
		}
	}
	return false
}

// Org is an organisation: the unit of isolation of all data.
type Org struct {
	ID        string
	Name      string
	Industry  string
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Profile is a member's profile (the spec's profiles_v2), created with the
// account. OrgID is "" until the member creates or joins an organisation.
type Profile struct {
	ID            string // the user's id
	OrgID         string
	Role          string
	FullName      string
	AvatarURL     string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	DeactivatedAt *time.Time
}

// Invite statuses.
const (
	InvitePending  = "pending"
	InviteAccepted = "accepted"
	InviteRevoked  = "revoked"
)

// InviteValidity is how long an invitation can be accepted.
const InviteValidity = 7 * 24 * time.Hour

// Invite is an invitation to join an organisation with a role. Only the
// SHA-256 of its token is stored; the token itself is shown once.
type Invite struct {
	ID         string
	OrgID      string
	Email      string
	Role       string
	TokenHash  string
	Status     string
	InvitedBy  string
	ExpiresAt  time.Time
	CreatedAt  time.Time
	AcceptedAt *time.Time
	AcceptedBy string
}

// Site access modes.
const (
	SiteAccessPublic  = "PUBLIC"
	SiteAccessPrivate = "PRIVATE"
)

// WorkspaceSettings are the instance-wide settings of the security manager.
type WorkspaceSettings struct {
	PreviewPasscodeEnabled bool
	PreviewPasscodeHash    string
	SiteAccessMode         string
	DisableSignup          bool
	BlockIndexing          bool
	UpdatedBy              string
	UpdatedAt              time.Time
}

// RecordStore holds organisations, member profiles, invitations and the
// workspace settings. Lookups of a missing row return ErrNotFound.
type RecordStore interface {
	CreateOrg(ctx context.Context, o *Org) error
	OrgByID(ctx context.Context, id string) (*Org, error)
	// DeleteOrg removes an organisation with its invitations; its members'
	// accounts must be gone first.
	DeleteOrg(ctx context.Context, id string) error
	// OrgMembers lists the profiles of an organisation.
	OrgMembers(ctx context.Context, orgID string) ([]Profile, error)

	// CreateProfile adds the member profile of a new account.
	CreateProfile(ctx context.Context, p *Profile) error
	// ProfileByID reads a member profile (locked inside a transaction on
	// PostgreSQL, since membership changes read-modify-write it).
	ProfileByID(ctx context.Context, id string) (*Profile, error)
	UpdateProfile(ctx context.Context, p *Profile) error
	// CountAdmins counts active owners and admins, in one organisation or,
	// with orgID "", in the whole instance.
	CountAdmins(ctx context.Context, orgID string) (int, error)

	CreateInvite(ctx context.Context, i *Invite) error
	InviteByTokenHash(ctx context.Context, hash string) (*Invite, error)
	// PendingInviteForEmail returns the pending invitation to an address
	// (given lowercase; compared case-insensitively) that expires last,
	// whether or not it has expired; ErrNotFound when there is none.
	PendingInviteForEmail(ctx context.Context, email string) (*Invite, error)
	UpdateInvite(ctx context.Context, i *Invite) error

	// AuditLength is the number of entries in an organisation's audit chain
	// (its head's sequence number, since chains have no gaps).
	AuditLength(ctx context.Context, orgID string) (int64, error)

	// WorkspaceSettings reads the instance's settings (the row always exists).
	WorkspaceSettings(ctx context.Context) (*WorkspaceSettings, error)
	UpdateWorkspaceSettings(ctx context.Context, w *WorkspaceSettings) error
}

// The demo organisation: recognisable by its ids (a run of zeros), its
// name, and its members' e-mail domain.
const (
	DemoOrgID       = "00000000-0000-4000-8000-00000000d3e0"
	DemoOrgName     = "Demo Pharma"
	DemoEmailDomain = "demo.example.com"
	// DemoWriteRefused is the specification's refusal of every write of a
	// demo caller.
	DemoWriteRefused = "Demo mode: writes disabled. This is a read-only preview."
)

// DemoUserID is the id of the demo member with the given role.
func DemoUserID(role string) string {
	for i, r := range Roles {
		if r == role {
			return fmt.Sprintf("00000000-0000-4000-8000-0000000d%04d", i+1)
		}
	}
	return ""
}
