package fairbalance

// The codes of the errors with which a credential is refused when the
// caller behind it is worked out (service.Identity.Caller and
// Authenticate). They are GoTrue's error codes where GoTrue has one. Every
// surface renders a refusal in its own shape keyed on the Code alone, never
// on the message.
const (
	// CodeBadJWT: not a token of this instance (form, algorithm, key,
	// signature), or one whose claims are wrong (sub, aud, iss, session_id).
	CodeBadJWT = "bad_jwt"
	// CodeTokenExpired: a token of this instance past its exp. (GoTrue says
	// bad_jwt; the auth surface renders it so.)
	CodeTokenExpired = "token_expired"
	// CodeRoleNotAllowed: a token of this instance whose role is none of
	// anon, authenticated, service_role and supabase_admin.
	CodeRoleNotAllowed = "role_not_allowed"
	// CodeSessionNotFound: the token's session was signed out, revoked
	// (by its member, an administrator, a deactivation) or its refresh
	// tokens were revoked because an old one was presented again.
	CodeSessionNotFound = "session_not_found"
	// CodeSessionExpired: the token's session is past its absolute lifetime.
	CodeSessionExpired = "session_expired"
	// CodeUserNotFound: the token's account does not exist or was deleted.
	CodeUserNotFound = "user_not_found"
	// CodeUserBanned: the token's account is banned.
	CodeUserBanned = "user_banned"
	// CodeNotMember: the token's account has no member profile.
	CodeNotMember = "not_member"
	// CodeMemberDeactivated: the token's member was deactivated.
	CodeMemberDeactivated = "member_deactivated"
	// CodeInsufficientAAL: the token's account has a verified second factor
	// but the token or its session is below aal2 (signed in with the
	// password only, the challenge not yet answered). Only the data,
	// storage and function surfaces refuse it; the identity endpoints that
	// answer the challenge accept the session.
	CodeInsufficientAAL = "insufficient_aal"
)

// Caller is who makes a request, as every surface (data API, storage,
// functions, signed uploads) learns it from the request's credentials. The
// service layer decides every permission from a Caller alone.
type Caller struct {
	// Role is "anon", "authenticated" or "service_role".
	Role string
	// UserID, OrgID and Member (the member role) describe a signed-in
	// member; OrgID is "" until the member joins an organisation.
	UserID string
	OrgID  string
	Member string
	// Demo callers (members of the demo organisation) only read.
	Demo bool
	// SessionID is the session_id claim of the caller's access token
	// ("" for keys and tokens without one).
	SessionID string
}

// Service reports whether the caller acts with full rights.
func (c Caller) Service() bool { return c.Role == "service_role" }

// Anon reports whether the caller is not signed in.
func (c Caller) Anon() bool { return c.Role == "anon" || c.Role == "" }

// InOrg reports whether the caller is a member of an organisation.
func (c Caller) InOrg() bool { return !c.Anon() && c.OrgID != "" }

// IsAdmin reports whether the caller administers its organisation.
func (c Caller) IsAdmin() bool {
	return c.InOrg() && (c.Member == RoleOwner || c.Member == RoleAdmin)
}

// WritesContent reports whether the caller may create and change the
// organisation's content (assets, versions, references, claims, modules):
// owners, admins and marketers, never a demo session.
func (c Caller) WritesContent() bool {
	if !c.InOrg() || c.Demo {
		return false
	}
	switch c.Member {
	case RoleOwner, RoleAdmin, RoleMarketer:
		return true
	}
	return false
}

// DecidesContentStatus reports whether the caller may decide the status
// of pre-approved content (claims and modules): set or change any status
// but draft — approve, expire, withdraw, retire. That is a decision, so it
// belongs to the organisation's reviewers (medical, legal, regulatory) and
// administrators, never to a marketer (who authors the drafts) and never
// to a demo session.
func (c Caller) DecidesContentStatus() bool {
	if !c.InOrg() || c.Demo {
		return false
	}
	switch c.Member {
	case RoleOwner, RoleAdmin, RoleReviewerMedical, RoleReviewerLegal, RoleReviewerRegulatory:
		return true
	}
	return false
}

// WritesProducts reports whether the caller may change the organisation's
// products: its administrators, never a demo session.
func (c Caller) WritesProducts() bool { return c.IsAdmin() && !c.Demo }

// Sees reports whether the caller may see what belongs to orgID.
func (c Caller) Sees(orgID string) bool {
	return c.Service() || (c.InOrg() && c.OrgID == orgID)
}

// WritesObjects reports whether the caller may change stored objects of orgID.
func (c Caller) WritesObjects(orgID string) bool {
	return c.Service() || (c.Sees(orgID) && !c.Demo && c.Member != RoleViewer)
}

// WritesProductFiles reports whether the caller may upload and remove the
// files of orgID in the product buckets (asset-files, reference-files):
// the content write rule, since those files are the content's. Reviewers
// and viewers only read them.
func (c Caller) WritesProductFiles(orgID string) bool {
	return c.Service() || (c.Sees(orgID) && c.WritesContent())
}

// ManagesBuckets reports whether the caller may create, update or delete
// buckets of orgID.
func (c Caller) ManagesBuckets(orgID string) bool {
	return c.Service() || (c.Sees(orgID) && !c.Demo && (c.Member == RoleOwner || c.Member == RoleAdmin))
}
