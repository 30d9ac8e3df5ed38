package fairbalance

import (
	"context"
	"encoding/json"
	"time"
)

// User is an account of the identity service. Timestamps that are nil are
// unset. Email is always lowercase; an empty Email means none.
type User struct {
	ID                      string
	Aud                     string
	Role                    string
	Email                   string
	Phone                   string
	PasswordHash            string
	EmailConfirmedAt        *time.Time
	InvitedAt               *time.Time
	ConfirmationSentAt      *time.Time
	RecoverySentAt          *time.Time
	EmailChange             string
	EmailChangeSentAt       *time.Time
	EmailChangeConfirmState int
	ReauthenticationSentAt  *time.Time
	LastSignInAt            *time.Time
	AppMetadata             json.RawMessage
	UserMetadata            json.RawMessage
	BannedUntil             *time.Time
	DeletedAt               *time.Time
	IsAnonymous             bool
	CreatedAt               time.Time
	UpdatedAt               time.Time

	Identities []Identity
	Factors    []Factor
}

// Identity links a user to a sign-in provider; Fairbalance has only "email".
type Identity struct {
	ID           string
	ProviderID   string
	UserID       string
	Provider     string
	IdentityData json.RawMessage
	Email        string
	LastSignInAt *time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Factor is a second authentication factor (TOTP only).
type Factor struct {
	ID               string
	UserID           string
	FriendlyName     string
	FactorType       string
	Status           string // "verified" or "unverified"
	Secret           string // sealed; see auth.Sealer
	LastChallengedAt *time.Time
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// Challenge is an MFA challenge issued for a factor.
type Challenge struct {
	ID         string
	FactorID   string
	IPAddress  string
	CreatedAt  time.Time
	VerifiedAt *time.Time
}

// AMREntry is one authentication method reference of a session.
type AMREntry struct {
	Method    string `json:"method"`
	Timestamp int64  `json:"timestamp"`
}

// Session is a signed-in session. Its refresh tokens form one family.
type Session struct {
	ID          string
	UserID      string
	AAL         string
	FactorID    string
	AMR         []AMREntry
	UserAgent   string
	IP          string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	RefreshedAt *time.Time
	NotAfter    *time.Time
	// Revoked is set (by reads) when the session's refresh tokens were
	// revoked because a used one was presented again: the session is over
	// although its row remains, to answer that token's reuse.
	Revoked bool
}

// RefreshToken is one token of a session's rotation chain. Only the SHA-256
// of the token is stored. Rotation only inserts: a token is used once a
// token with a higher counter exists; Revoked marks a revoked family.
type RefreshToken struct {
	ID        int64
	TokenHash string
	UserID    string
	SessionID string
	Parent    string // hash of the parent token, "" for the first
	Counter   int64  // position in the session's chain, from 1
	Revoked   bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// One-time token types.
const (
	TokenConfirmation       = "confirmation_token"
	TokenRecovery           = "recovery_token"
	TokenEmailChangeNew     = "email_change_token_new"
	TokenEmailChangeCurrent = "email_change_token_current"
	TokenReauthentication   = "reauthentication_token"
)

// OneTimeToken is a pending e-mail verification: TokenHash is the lowercase
// hex SHA-224 of (address + OTP), optionally prefixed "pkce_".
type OneTimeToken struct {
	ID        string
	UserID    string
	TokenType string
	TokenHash string
	RelatesTo string // the address the token was sent to
	CreatedAt time.Time
}

// FlowState is a PKCE flow: an auth code exchanged once for a session.
type FlowState struct {
	ID                   string
	UserID               string
	AuthCode             string
	CodeChallenge        string
	CodeChallengeMethod  string
	AuthenticationMethod string
	AuthCodeIssuedAt     *time.Time
	CreatedAt            time.Time
}

// MailMessage is an e-mail in the outbox.
type MailMessage struct {
	ID            int64
	To            string
	Subject       string
	Text          string
	HTML          string
	Kind          string
	Status        string // "pending", "sent", "logged", "failed"
	Attempts      int
	LastError     string
	CreatedAt     time.Time
	NextAttemptAt time.Time
	SentAt        *time.Time
	// OrgID is the organisation the message belongs to: given by the
	// sender, else (when "") the organisation of the account with the
	// recipient address at the time of sending, else none.
	OrgID string
}

// AuthEvent is an entry of the auth audit table.
type AuthEvent struct {
	ID         int64
	Action     string
	ActorID    string
	ActorEmail string
	IP         string
	Payload    json.RawMessage
	CreatedAt  time.Time
}

// UserFilter selects users for the admin listing.
type UserFilter struct {
	Search string // substring of e-mail, case-insensitive
	Desc   bool   // newest first
	Limit  int
	Offset int
}

// IdentityStore is what the identity service needs from storage. Every method
// runs inside the transaction of the IdentityStore it is called on. Lookups
// of a missing row return ErrNotFound; a uniqueness violation ErrConflict.
type IdentityStore interface {
	UserByID(ctx context.Context, id string) (*User, error)
	UserByEmail(ctx context.Context, email string) (*User, error)
	CreateUser(ctx context.Context, u *User) error
	UpdateUser(ctx context.Context, u *User) error
	DeleteUser(ctx context.Context, id string) error
	ListUsers(ctx context.Context, f UserFilter) ([]*User, int, error)
	CountUsers(ctx context.Context) (int, error)

	CreateIdentity(ctx context.Context, i *Identity) error
	UpdateIdentity(ctx context.Context, i *Identity) error

	CreateFactor(ctx context.Context, f *Factor) error
	UpdateFactor(ctx context.Context, f *Factor) error
	DeleteFactor(ctx context.Context, id string) error
	DeleteUnverifiedFactors(ctx context.Context, userID, exceptID string, olderThan time.Time) error
	CreateChallenge(ctx context.Context, c *Challenge) error
	ChallengeByID(ctx context.Context, id string) (*Challenge, error)
	UpdateChallenge(ctx context.Context, c *Challenge) error

	CreateSession(ctx context.Context, s *Session) error
	// SessionByID reads a session, with Revoked; inside a transaction on
	// PostgreSQL it locks the row, which serialises everything done to one
	// token family.
	SessionByID(ctx context.Context, id string) (*Session, error)
	UpdateSession(ctx context.Context, s *Session) error
	DeleteSession(ctx context.Context, id string) error
	// DeleteSessions deletes the user's sessions except keepID; with
	// belowAAL2 only those whose AAL is aal1.
	DeleteSessions(ctx context.Context, userID, keepID string, belowAAL2 bool) error
	// DowngradeSessions sets aal1 on the sessions that used factorID.
	DowngradeSessions(ctx context.Context, factorID string) error

	// CreateRefreshToken adds a token to its session's chain. It returns
	// ErrConflict when the session already has a token with that counter,
	// and ErrNotFound when the session is gone or the parent (if any) was
	// revoked.
	CreateRefreshToken(ctx context.Context, t *RefreshToken) error
	RefreshTokenByHash(ctx context.Context, hash string) (*RefreshToken, error)
	// ActiveRefreshToken is the unrevoked token of a session with the
	// highest counter; every older token of the session counts as used.
	ActiveRefreshToken(ctx context.Context, sessionID string) (*RefreshToken, error)
	// RevokeFamily revokes every token of the session.
	RevokeFamily(ctx context.Context, sessionID string) error

	// PutOneTimeToken replaces the user's token of the same type.
	PutOneTimeToken(ctx context.Context, t *OneTimeToken) error
	OneTimeTokenByHash(ctx context.Context, tokenType []string, hash string) (*OneTimeToken, error)
	OneTimeTokenForUser(ctx context.Context, userID, tokenType string) (*OneTimeToken, error)
	DeleteOneTimeToken(ctx context.Context, id string) error

	CreateFlowState(ctx context.Context, f *FlowState) error
	FlowStateByAuthCode(ctx context.Context, code string) (*FlowState, error)
	FlowStateForUser(ctx context.Context, userID string) (*FlowState, error)
	UpdateFlowState(ctx context.Context, f *FlowState) error
	DeleteFlowState(ctx context.Context, id string) error

	EnqueueMail(ctx context.Context, m *MailMessage) error
	RecordAuthEvent(ctx context.Context, e *AuthEvent) error
}

// MailStore is the outbox as the mailer sees it.
type MailStore interface {
	// DueMail returns up to limit pending messages whose next attempt is due.
	DueMail(ctx context.Context, now time.Time, limit int) ([]*MailMessage, error)
	UpdateMail(ctx context.Context, m *MailMessage) error
	// MailByID returns one message, or ErrNotFound.
	MailByID(ctx context.Context, id int64) (*MailMessage, error)
	// RecentMail lists the newest messages, optionally only those to one address.
	RecentMail(ctx context.Context, to string, limit int) ([]*MailMessage, error)
}

// Tx is every query of the storage port, as run inside one transaction (or,
// from Store.View, outside any).
type Tx interface {
	IdentityStore
	RecordStore
	OperatorStore
	WorkspaceStore
	DataStore
	AuditStore
	StorageStore
	SearchStore
	JobStore
}

// JobStore enqueues background work atomically with the change that
// needs it.
type JobStore interface {
	// EnqueueComplianceCheck asks for the compliance check of version
	// versionID to run after the transaction commits (a background job).
	// Without a job queue it does nothing: the periodic sweep of pending
	// checks runs it instead.
	EnqueueComplianceCheck(ctx context.Context, versionID string) error
}

// Store is the whole storage port: reads outside transactions, and write
// transactions in which a service makes a change together with its audit entry.
type Store interface {
	MailStore
	// View returns the queries for reads outside a transaction (on SQLite,
	// the read-only pool; its writes fail).
	View() Tx
	// Tx runs fn in one write transaction, committed when fn returns nil and
	// rolled back otherwise. fn's error is returned unchanged. On
	// PostgreSQL fn runs again from the start when the database aborts the
	// transaction for a deadlock or a serialisation failure, so fn must
	// carry no state from one run to the next except what it assigns
	// afresh.
	Tx(ctx context.Context, fn func(tx Tx) error) error
	// Backend is "sqlite" or "postgres".
	Backend() string
	// MigrationLevel is the number of the last applied migration.
	MigrationLevel(ctx context.Context) (int, error)
	Ping(ctx context.Context) error
	Close() error
}
