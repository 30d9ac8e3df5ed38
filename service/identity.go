package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode"

	"fairbalance"
	"fairbalance/auth"
)

// IdentityConfig configures the identity service. Zero durations take the
// defaults named on each field.
type IdentityConfig struct {
	// SiteURL is where the app is served, e.g. https://review.example.com;
	// e-mail links are {SiteURL}/auth/v1/verify?…
	SiteURL string
	// RedirectAllowList holds further URL prefixes that redirect_to may name.
	RedirectAllowList []string
	// JWTExpiry is the access-token lifetime (3600 s).
	JWTExpiry time.Duration
	// Autoconfirm signs users in at sign-up without e-mail confirmation.
	Autoconfirm bool
	// DisableSignup refuses sign-ups (invitations excepted).
	DisableSignup bool
	// SignupDisabled, when set, reports whether the workspace settings
	// refuse sign-ups too (invitations excepted).
	SignupDisabled func(ctx context.Context) (bool, error)
	// SessionInactivity ends a session not refreshed for this long (12 h).
	SessionInactivity time.Duration
	// SessionLifetime ends a session this long after sign-in (7 days).
	SessionLifetime time.Duration
	// MailMinInterval is the shortest time between two e-mails of one kind
	// to one address (60 s).
	MailMinInterval time.Duration
	// OTPExpiry is how long e-mailed links and codes stay valid (24 h).
	OTPExpiry time.Duration
	// SecurePasswordChange requires a reauthentication nonce to change the
	// password of a session older than 24 hours (on by default in cmd).
	SecurePasswordChange bool
	// MaxFactors is the most MFA factors a user may have (10).
	MaxFactors int
	// Version is reported by the health endpoint.
	Version string
}

func (c *IdentityConfig) defaults() {
	if c.SiteURL == "" {
		c.SiteURL = "http://127.0.0.1:8080"
	}
	c.SiteURL = strings.TrimRight(c.SiteURL, "/")
	if c.JWTExpiry == 0 {
		c.JWTExpiry = time.Hour
	}
	if c.SessionInactivity == 0 {
		c.SessionInactivity = 12 * time.Hour
	}
	if c.SessionLifetime == 0 {
		c.SessionLifetime = 7 * 24 * time.Hour
	}
	if c.MailMinInterval == 0 {
		c.MailMinInterval = 60 * time.Second
	}
	if c.OTPExpiry == 0 {
		c.OTPExpiry = 24 * time.Hour
	}
	if c.MaxFactors == 0 {
		c.MaxFactors = 10
	}
}

// Identity is the identity service: accounts, sessions, tokens, e-mail
// verification, MFA and administration, GoTrue-compatible in behaviour.
type Identity struct {
	store  fairbalance.Store
	keys   *auth.Keys
	hasher *auth.Hasher
	sealer *auth.Sealer
	cfg    IdentityConfig
	log    *slog.Logger
	cache  *claimsCache

	// Now is the clock; tests move it.
	Now func() time.Time
	// MailQueued is called after a transaction that enqueued mail commits.
	MailQueued func()
	// DemoContent, when set, seeds and removes the demo organisation's
	// content with the demo data (SeedDemo, RemoveDemo).
	DemoContent *DemoContent
}

// NewIdentity returns the identity service.
func NewIdentity(store fairbalance.Store, keys *auth.Keys, hasher *auth.Hasher, cfg IdentityConfig, log *slog.Logger) *Identity {
	cfg.defaults()
	if log == nil {
		log = slog.Default()
	}
	return &Identity{
		store: store, keys: keys, hasher: hasher, sealer: auth.NewSealer(keys.Secret),
		cfg: cfg, log: log, cache: newClaimsCache(20000),
		Now: func() time.Time { return time.Now().UTC() }, MailQueued: func() {},
	}
}

// Config returns the effective configuration.
func (s *Identity) Config() IdentityConfig { return s.cfg }

// Keys returns the instance keys.
func (s *Identity) Keys() *auth.Keys { return s.keys }

// Issuer is the iss claim of access tokens.
func (s *Identity) Issuer() string { return s.cfg.SiteURL + "/auth/v1" }

// Client describes who makes a request, for sessions and the audit trail.
type Client struct {
	IP        string
	UserAgent string
}

// Session is a session as handed to a client.
type Session struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    int
	ExpiresAt    int64
	User         *fairbalance.User
	// WeakPassword is set for a password sign-in whose password no longer
	// meets the policy; PasswordGrant is true for password sign-ins.
	WeakPassword  *WeakPassword
	PasswordGrant bool
}

// WeakPassword explains why a password fails the policy.
type WeakPassword struct {
	Message string
	Reasons []string
}

func errf(kind fairbalance.Kind, code, msg string) *fairbalance.Error {
	return &fairbalance.Error{Kind: kind, Code: code, Message: msg}
}

func internal(err error) error {
	if err == nil {
		return nil
	}
	if fairbalance.AsError(err) != nil {
		return err
	}
	return &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "unexpected_failure", Message: "Unexpected failure, please check server logs for more information", Err: err}
}

// normaliseEmail validates and lowercases an e-mail address. Addresses with
// display names, quotes, or characters outside printable ASCII are refused:
// confusable Unicode could otherwise register "the same" address twice.
func normaliseEmail(e string) (string, error) {
	e = strings.TrimSpace(e)
	bad := errf(fairbalance.KindInvalid, "validation_failed", "Unable to validate email address: invalid format")
	if e == "" || len(e) > 255 {
		return "", bad
	}
	for _, r := range e {
		if r > unicode.MaxASCII || unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"(),:;<>[\]`, r) {
			return "", bad
		}
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || a.Name != "" {
		return "", bad
	}
	at := strings.LastIndexByte(e, '@')
	if at < 1 || !strings.Contains(e[at+1:], ".") || strings.HasSuffix(e, ".") {
		return "", bad
	}
	return strings.ToLower(e), nil
}

// redirect returns redirectTo when it is allowed (same origin as the site or
// under an allow-listed prefix), else the site URL.
func (s *Identity) redirect(redirectTo string) string {
	if redirectTo == "" {
		return s.cfg.SiteURL
	}
	u, err := url.Parse(redirectTo)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return s.cfg.SiteURL
	}
	site, _ := url.Parse(s.cfg.SiteURL)
	if site != nil && strings.EqualFold(u.Scheme, site.Scheme) && strings.EqualFold(u.Host, site.Host) {
		return redirectTo
	}
	// Compare parsed URLs, not strings: "http://app:3000" must not allow
	// "http://app:3000@evil.example" or "http://app:30001".
	for _, p := range s.cfg.RedirectAllowList {
		pu, err := url.Parse(p)
		if err != nil || pu.Host == "" || u.User != nil {
			continue
		}
		if strings.EqualFold(u.Scheme, pu.Scheme) && strings.EqualFold(u.Host, pu.Host) && strings.HasPrefix(u.Path, pu.Path) {
			return redirectTo
		}
	}
	return s.cfg.SiteURL
}

// ErrMemberDeactivated refuses every sign-in of a deactivated member, with
// GoTrue's code for a banned user (400 user_banned).
var ErrMemberDeactivated = errf(fairbalance.KindInvalid, "user_banned", "This account has been deactivated. Ask an administrator of your organisation to reactivate it.")

// newSession creates a session for u with one authentication method and
// its first refresh token, inside tx. The token is signed by finish.
func (s *Identity) newSession(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, method string, c Client) (*fairbalance.Session, *fairbalance.RefreshToken, error) {
	if u.DeletedAt != nil {
		// A soft-deleted account never signs in again, by any method.
		return nil, nil, errf(fairbalance.KindForbidden, "user_not_found", "User not found")
	}
	// Nor does a deactivated member until reactivated. (Deactivation also
	// deleted every session, so no refresh token of theirs works either.)
	if p, err := tx.ProfileByID(ctx, u.ID); err == nil && p.DeactivatedAt != nil {
		return nil, nil, ErrMemberDeactivated
	} else if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return nil, nil, err
	}
	now := s.Now()
	notAfter := now.Add(s.cfg.SessionLifetime)
	sess := &fairbalance.Session{
		ID: auth.NewUUID(), UserID: u.ID, AAL: "aal1",
		AMR:       []fairbalance.AMREntry{{Method: method, Timestamp: now.Unix()}},
		UserAgent: truncate(c.UserAgent, 512), IP: c.IP,
		CreatedAt: now, UpdatedAt: now, RefreshedAt: &now, NotAfter: &notAfter,
	}
	if err := tx.CreateSession(ctx, sess); err != nil {
		return nil, nil, err
	}
	rt, err := s.newRefreshToken(ctx, tx, sess, nil)
	if err != nil {
		return nil, nil, err
	}
	u.LastSignInAt = &now
	u.UpdatedAt = now
	if err := tx.UpdateUser(ctx, u); err != nil {
		return nil, nil, err
	}
	return sess, rt, nil
}

func (s *Identity) newRefreshToken(ctx context.Context, tx fairbalance.Tx, sess *fairbalance.Session, parent *fairbalance.RefreshToken) (*fairbalance.RefreshToken, error) {
	now := s.Now()
	rt := &fairbalance.RefreshToken{UserID: sess.UserID, SessionID: sess.ID, Counter: 1, CreatedAt: now, UpdatedAt: now}
	if parent != nil {
		rt.Parent = parent.TokenHash
		rt.Counter = parent.Counter + 1
	}
	rt.TokenHash = auth.HashRefreshToken(s.keys.RefreshToken(sess.ID, rt.Counter))
	err := tx.CreateRefreshToken(ctx, rt)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, errFamilyRevoked
	}
	return rt, err
}

// errFamilyRevoked: no new token may join a session whose tokens were revoked.
var errFamilyRevoked = errors.New("refresh token family revoked")

// finish signs the access token of sess for u.
func (s *Identity) finish(u *fairbalance.User, sess *fairbalance.Session, rt *fairbalance.RefreshToken) (*Session, error) {
	now := s.Now()
	exp := now.Add(s.cfg.JWTExpiry)
	amr := make([]auth.AMR, 0, len(sess.AMR))
	for i := len(sess.AMR) - 1; i >= 0; i-- { // most recent first
		amr = append(amr, auth.AMR{Method: sess.AMR[i].Method, Timestamp: sess.AMR[i].Timestamp})
	}
	role := u.Role
	if role == "" {
		role = "authenticated"
	}
	aud := u.Aud
	if aud == "" {
		aud = "authenticated"
	}
	tok, err := s.keys.Sign(&auth.Claims{
		Issuer: s.Issuer(), Subject: u.ID, Audience: auth.Audience{aud},
		ExpiresAt: exp.Unix(), IssuedAt: now.Unix(),
		Email: u.Email, Phone: u.Phone,
		AppMetadata: orEmptyObject(u.AppMetadata), UserMetadata: orEmptyObject(u.UserMetadata),
		Role: role, AAL: sess.AAL, AMR: amr, SessionID: sess.ID, IsAnonymous: u.IsAnonymous,
	})
	if err != nil {
		return nil, err
	}
	return &Session{
		AccessToken: tok, RefreshToken: s.keys.RefreshToken(sess.ID, rt.Counter),
		ExpiresIn: int(s.cfg.JWTExpiry / time.Second), ExpiresAt: exp.Unix(), User: u,
	}, nil
}

func orEmptyObject(m json.RawMessage) json.RawMessage {
	if len(m) == 0 || string(m) == "null" {
		return json.RawMessage(`{}`)
	}
	return m
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// audit records an auth event in tx.
func (s *Identity) audit(ctx context.Context, tx fairbalance.Tx, action string, u *fairbalance.User, c Client, payload map[string]any) error {
	e := &fairbalance.AuthEvent{Action: action, IP: c.IP, CreatedAt: s.Now()}
	if u != nil {
		e.ActorID, e.ActorEmail = u.ID, u.Email
	}
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return err
		}
		e.Payload = b
	}
	return tx.RecordAuthEvent(ctx, e)
}

// Principal is the caller of a user endpoint, established by Authenticate.
type Principal struct {
	Claims  *auth.Claims
	User    *fairbalance.User
	Session *fairbalance.Session
}

// IsAdminRole reports whether a token role may use the admin endpoints.
func IsAdminRole(role string) bool { return role == "service_role" || role == "supabase_admin" }

// ParseToken verifies a bearer token's signature and expiry, with a cache of
// already verified tokens. Errors: bad_jwt (403).
func (s *Identity) ParseToken(token string) (*auth.Claims, error) {
	now := s.Now()
	if c, ok := s.cache.get(token, now); ok {
		return c, nil
	}
	c, err := s.keys.Parse(token)
	if err != nil {
		msg := "invalid JWT: unable to parse or verify signature, " + err.Error()
		if errors.Is(err, auth.ErrTokenExpired) {
			msg = "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired"
		}
		// The cause stays reachable (errors.Is(err, auth.ErrTokenExpired))
		// for surfaces that answer an expired token apart.
		return nil, &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "bad_jwt", Message: msg, Err: err}
	}
	s.cache.put(token, c, now)
	return c, nil
}

// Authenticate establishes the user behind a bearer access token: a valid
// signature, a UUID subject, the expected audience (aud may be "" to accept
// the token's own), an existing session and user.
func (s *Identity) Authenticate(ctx context.Context, token, aud string) (*Principal, error) {
	c, err := s.ParseToken(token)
	if err != nil {
		return nil, err
	}
	if c.Subject == "" {
		return nil, errf(fairbalance.KindForbidden, "bad_jwt", "invalid claim: missing sub claim")
	}
	if !auth.IsUUID(c.Subject) {
		return nil, errf(fairbalance.KindInvalid, "bad_jwt", "invalid claim: sub claim must be a UUID")
	}
	if aud != "" && (len(c.Audience) == 0 || !contains(c.Audience, aud)) {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Token audience doesn't match request audience")
	}
	v := s.store.View()
	p := &Principal{Claims: c}
	if c.SessionID != "" {
		if !auth.IsUUID(c.SessionID) {
			return nil, errf(fairbalance.KindForbidden, "bad_jwt", "invalid claim: session_id claim must be a UUID")
		}
		sess, err := v.SessionByID(ctx, c.SessionID)
		if errors.Is(err, fairbalance.ErrNotFound) {
			return nil, errf(fairbalance.KindForbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
		}
		if err != nil {
			return nil, internal(err)
		}
		p.Session = sess
	}
	u, err := v.UserByID(ctx, c.Subject)
	if errors.Is(err, fairbalance.ErrNotFound) || err == nil && u.DeletedAt != nil {
		return nil, errf(fairbalance.KindForbidden, "user_not_found", "User from sub claim in JWT does not exist")
	}
	if err != nil {
		return nil, internal(err)
	}
	if p.Session != nil && p.Session.UserID != u.ID {
		return nil, errf(fairbalance.KindForbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
	}
	if s.banned(u) {
		return nil, errf(fairbalance.KindForbidden, "user_banned", "User is banned")
	}
	p.User = u
	return p, nil
}

func contains(l []string, v string) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

func (s *Identity) banned(u *fairbalance.User) bool {
	return u.BannedUntil != nil && u.BannedUntil.After(s.Now())
}

// checkNewPassword applies the policy to a password being set.
func checkNewPassword(pw string) error {
	if len(pw) > auth.MaxPasswordLength {
		return errf(fairbalance.KindUnprocessable, "weak_password", fmt.Sprintf("Password cannot be longer than %d characters", auth.MaxPasswordLength))
	}
	if reasons, msg := auth.CheckPassword(pw); len(reasons) > 0 {
		return &fairbalance.Error{Kind: fairbalance.KindUnprocessable, Code: "weak_password", Message: msg, Reasons: reasons}
	}
	return nil
}

// tooSoon reports the e-mail frequency limit for a message last sent at.
func (s *Identity) tooSoon(sent *time.Time) error {
	if sent == nil {
		return nil
	}
	wait := sent.Add(s.cfg.MailMinInterval).Sub(s.Now())
	if wait <= 0 {
		return nil
	}
	secs := int(wait.Seconds() + 0.999)
	return errf(fairbalance.KindRateLimited, "over_email_send_rate_limit", fmt.Sprintf("For security purposes, you can only request this after %d seconds.", secs))
}

// tx runs fn in a transaction and wakes the mailer afterwards.
func (s *Identity) tx(ctx context.Context, fn func(tx fairbalance.Tx) error) error {
	err := s.store.Tx(ctx, fn)
	if err == nil {
		s.MailQueued()
	}
	return err
}

// RedirectTarget is where a redirect to redirectTo actually goes: redirectTo
// when allowed, else the site URL.
func (s *Identity) RedirectTarget(redirectTo string) string { return s.redirect(redirectTo) }
