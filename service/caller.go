package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// Who is calling: one resolver for every surface (the data API, storage,
// functions, signed uploads), and the cache that spares a busy client a
// database read per request without letting a revoked session live on.

// DefaultCallerCacheTTL is how long a resolved caller is remembered unless
// IdentityConfig.CallerCacheTTL says otherwise.
const DefaultCallerCacheTTL = 5 * time.Second

// RevocationBound is the longest a signed-out or revoked session, a
// deactivated member or a banned account keeps working on any surface of an
// instance that did not make the change itself (another instance on the same
// PostgreSQL database): CallerCacheTTL is never set above it.
const RevocationBound = 10 * time.Second

// callerCacheSize bounds the remembered callers (one per live session).
const callerCacheSize = 10000

// Caller works out who makes a request from the bearer token it carries.
//
// The anon and service-role API keys (and supabase_admin tokens) give the
// anonymous and the service-role caller. A member's access token must be
// signed by this instance (signature, algorithm and key), unexpired, for
// the audience "authenticated", issued by this instance (Issuer), with a
// UUID sub and session_id; then the session must still exist (not signed
// out, not revoked by its member or an administrator, not ended by a
// deactivation, its refresh tokens not revoked for reuse) and be within its
// lifetime, the account must exist, not be deleted or banned, and have a
// member profile that is not deactivated; and if the account has a
// verified second factor, both the token (its aal claim) and the session
// must be at aal2: a password-only session has to answer the challenge
// first (Authenticate, which the identity endpoints use, accepts it so that
// it can). The caller then carries the profile's organisation and role, and
// Demo for the demo organisation.
//
// A refusal is an *fairbalance.Error with one of the root package's caller
// codes (fairbalance.CodeBadJWT, CodeTokenExpired, CodeRoleNotAllowed,
// CodeSessionNotFound, CodeSessionExpired, CodeUserNotFound, CodeUserBanned,
// CodeNotMember, CodeMemberDeactivated, CodeInsufficientAAL); any other
// error is an internal failure.
//
// The judgement of a member (session, account, profile, factors) is
// remembered for CallerCacheTTL (5 s by default, never above
// RevocationBound), per session and assurance level of the token. Every
// change made through this instance's store (Store) to a session, an
// account, a profile or a factor forgets what it concerns once its
// transaction ends, so here a sign-out, a revocation, a factor verified or
// removed takes effect on the next request; on another instance sharing the
// database it takes effect within the TTL.
func (s *Identity) Caller(ctx context.Context, token string) (fairbalance.Caller, error) {
	c, err := s.ParseToken(token)
	if err != nil {
		return fairbalance.Caller{}, err
	}
	switch c.Role {
	case "anon":
		return fairbalance.Caller{Role: "anon"}, nil
	case "service_role", "supabase_admin":
		return fairbalance.Caller{Role: "service_role"}, nil
	case "authenticated":
	default:
		return fairbalance.Caller{}, errf(fairbalance.KindForbidden, fairbalance.CodeRoleNotAllowed, fmt.Sprintf("JWT role %q is not allowed", c.Role))
	}
	if err := s.memberClaims(c); err != nil {
		return fairbalance.Caller{}, err
	}
	// A member's token without an aal claim is taken at the lowest level.
	aal := c.AAL
	if aal == "" {
		aal = aal1
	}
	now := s.Now()
	key := c.SessionID + " " + c.Subject + " " + aal
	if e, ok := s.callers.get(key, now); ok {
		return e.caller, e.err
	}
	gen := s.callers.generation()
	caller, err := lookupMember(ctx, s.store.View(), now, c.Subject, c.SessionID, aal)
	if fe := fairbalance.AsError(err); err != nil && (fe == nil || fe.Kind == fairbalance.KindInternal) {
		return fairbalance.Caller{}, internal(err)
	}
	// A member without an organisation is about to join or found one; the
	// very next request must see it, on whichever instance it lands.
	if err != nil || caller.OrgID != "" {
		s.callers.put(key, callerEntry{userID: c.Subject, sessionID: c.SessionID, caller: caller, err: err, at: now}, gen)
	}
	return caller, err
}

// memberClaims checks the claims of a member's access token beyond its
// signature and expiry.
func (s *Identity) memberClaims(c *auth.Claims) error {
	bad := func(msg string) error { return errf(fairbalance.KindForbidden, fairbalance.CodeBadJWT, msg) }
	switch {
	case !auth.IsUUID(c.Subject):
		return bad("invalid claim: sub claim must be a UUID")
	case !slices.Contains(c.Audience, "authenticated"):
		return bad(`invalid claim: aud claim must be "authenticated"`)
	case c.Issuer != s.Issuer():
		return bad("invalid claim: iss claim must be " + s.Issuer())
	case !auth.IsUUID(c.SessionID):
		return bad("invalid claim: session_id claim must be a UUID")
	}
	return nil
}

// The authenticator assurance levels of GoTrue: a session signed in with
// one factor (password, e-mailed link) is aal1; answering the challenge of
// a verified second factor raises it to aal2.
const (
	aal1 = "aal1"
	aal2 = "aal2"
)

// lookupMember reads and judges, uncached, the member userID signed in with
// the session sessionID: the account, the member profile, then the session
// ("" for a credential that names no session, which only the service layer
// makes) and its assurance level. tokenAAL is the aal claim of the access
// token presented, or "" for a credential of the service layer that carries
// none (a signed upload URL), for which the session's level alone counts.
// Identity.Caller remembers its answer; a signed upload URL, used once per
// file, asks it afresh.
func lookupMember(ctx context.Context, q fairbalance.Tx, now time.Time, userID, sessionID, tokenAAL string) (fairbalance.Caller, error) {
	u, err := q.UserByID(ctx, userID)
	if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return fairbalance.Caller{}, err
	}
	if err := accountRefusal(u, now); err != nil {
		return fairbalance.Caller{}, err
	}
	p, err := q.ProfileByID(ctx, userID)
	if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return fairbalance.Caller{}, err
	}
	if err := memberRefusal(p); err != nil {
		return fairbalance.Caller{}, err
	}
	if sessionID != "" {
		sess, err := q.SessionByID(ctx, sessionID)
		if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
			return fairbalance.Caller{}, err
		}
		if err := sessionRefusal(sess, userID, now); err != nil {
			return fairbalance.Caller{}, err
		}
		// The data surfaces, unlike the auth endpoints (which a session
		// must reach to raise its level), need aal2 of a member who has a
		// second factor.
		if err := assuranceRefusal(u, sess, tokenAAL); err != nil {
			return fairbalance.Caller{}, err
		}
	}
	return fairbalance.Caller{
		Role: "authenticated", UserID: userID, SessionID: sessionID,
		OrgID: p.OrgID, Member: p.Role, Demo: p.OrgID == fairbalance.DemoOrgID,
	}, nil
}

// accountRefusal refuses an account that does not exist (nil), was deleted
// or is banned.
func accountRefusal(u *fairbalance.User, now time.Time) error {
	switch {
	case u == nil || u.DeletedAt != nil:
		return errf(fairbalance.KindForbidden, fairbalance.CodeUserNotFound, "User from sub claim in JWT does not exist")
	case u.BannedUntil != nil && u.BannedUntil.After(now):
		return errf(fairbalance.KindForbidden, fairbalance.CodeUserBanned, "User is banned")
	}
	return nil
}

// memberRefusal refuses an account without a member profile (nil) or whose
// member was deactivated.
func memberRefusal(p *fairbalance.Profile) error {
	switch {
	case p == nil:
		return errf(fairbalance.KindForbidden, fairbalance.CodeNotMember, "No member profile for this account")
	case p.DeactivatedAt != nil:
		return errf(fairbalance.KindForbidden, fairbalance.CodeMemberDeactivated, "This member has been deactivated")
	}
	return nil
}

// sessionRefusal refuses a session that is gone (nil), belongs to another
// account, had its refresh tokens revoked, or is past its absolute
// lifetime. (Inactivity is judged when the session is refreshed: an access
// token is issued by a refresh and lives far shorter than the timeout.)
func sessionRefusal(sess *fairbalance.Session, userID string, now time.Time) error {
	switch {
	case sess == nil || sess.UserID != userID || sess.Revoked:
		return errf(fairbalance.KindForbidden, fairbalance.CodeSessionNotFound, "Session from session_id claim in JWT does not exist")
	case sess.NotAfter != nil && now.After(*sess.NotAfter):
		return errf(fairbalance.KindForbidden, fairbalance.CodeSessionExpired, "Session from session_id claim in JWT has expired")
	}
	return nil
}

// assuranceRefusal refuses the session sess of u below aal2 when u has a
// verified factor (unverified ones are enrolments in progress). Both levels
// count, as GoTrue's would: the token's (tokenAAL; "" when the credential
// carries none), since Supabase's data policies read the aal claim, so a
// password-only token stays refused after its session rose; and the
// session's, which falls back to aal1 when the factor it used is removed,
// so an aal2 token issued before then no longer counts.
func assuranceRefusal(u *fairbalance.User, sess *fairbalance.Session, tokenAAL string) error {
	if !hasVerifiedFactor(u) || sess.AAL == aal2 && (tokenAAL == "" || tokenAAL == aal2) {
		return nil
	}
	return errf(fairbalance.KindForbidden, fairbalance.CodeInsufficientAAL,
		"AAL2 session is required: this account has two-step verification on, and this session has not answered the authenticator challenge")
}

// callerCache remembers judged members, refusals included, by session and
// account, each for ttl from the moment its read began. It holds at most
// max entries: when full it drops the expired ones, and if that is not
// enough starts afresh (a miss only costs a read).
type callerCache struct {
	ttl time.Duration
	max int

	mu  sync.RWMutex
	gen uint64 // counts forgets, so that a read older than one is not stored
	m   map[string]callerEntry
}

type callerEntry struct {
	userID, sessionID string
	caller            fairbalance.Caller
	err               error
	at                time.Time
}

func newCallerCache(ttl time.Duration, max int) *callerCache {
	return &callerCache{ttl: ttl, max: max, m: make(map[string]callerEntry)}
}

func (cc *callerCache) fresh(e callerEntry, now time.Time) bool {
	// A clock that went back counts as expiry, not as a longer life.
	age := now.Sub(e.at)
	return age >= 0 && age < cc.ttl
}

func (cc *callerCache) get(key string, now time.Time) (callerEntry, bool) {
	if cc.ttl <= 0 {
		return callerEntry{}, false
	}
	cc.mu.RLock()
	e, ok := cc.m[key]
	cc.mu.RUnlock()
	if !ok || !cc.fresh(e, now) {
		return callerEntry{}, false
	}
	return e, true
}

// generation is taken before a read; put stores the read's answer only if
// nothing was forgotten since, since the read may predate that change.
func (cc *callerCache) generation() uint64 {
	cc.mu.RLock()
	defer cc.mu.RUnlock()
	return cc.gen
}

func (cc *callerCache) put(key string, e callerEntry, gen uint64) {
	if cc.ttl <= 0 {
		return
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.gen != gen {
		return
	}
	if len(cc.m) >= cc.max {
		for k, old := range cc.m {
			if !cc.fresh(old, e.at) {
				delete(cc.m, k)
			}
		}
		if len(cc.m) >= cc.max {
			cc.m = make(map[string]callerEntry)
		}
	}
	cc.m[key] = e
}

// forget drops the entries of the given sessions and accounts, or all.
func (cc *callerCache) forget(t *touched) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	cc.gen++
	if t.all {
		cc.m = make(map[string]callerEntry)
		return
	}
	for k, e := range cc.m {
		if slices.Contains(t.sessions, e.sessionID) || slices.Contains(t.users, e.userID) {
			delete(cc.m, k)
		}
	}
}

// touched collects what a transaction changed that a remembered caller
// depends on.
type touched struct {
	mu       sync.Mutex
	sessions []string
	users    []string
	all      bool
}

func (t *touched) session(id string) {
	t.mu.Lock()
	t.sessions = append(t.sessions, id)
	t.mu.Unlock()
}

func (t *touched) user(id string) {
	t.mu.Lock()
	t.users = append(t.users, id)
	t.mu.Unlock()
}

func (t *touched) everything() {
	t.mu.Lock()
	t.all = true
	t.mu.Unlock()
}

func (t *touched) any() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.all || len(t.sessions) > 0 || len(t.users) > 0
}

// watchedStore is the store as the services of an instance use it: every
// transaction that ends or changes a session, changes or deletes an
// account, changes a member profile or adds, changes or removes a second
// factor makes the callers cache forget what it concerns when it ends
// (committed or not: forgetting too much only costs a read).
type watchedStore struct {
	fairbalance.Store
	callers *callerCache
}

func (w watchedStore) Tx(ctx context.Context, fn func(tx fairbalance.Tx) error) error {
	t := &touched{}
	err := w.Store.Tx(ctx, func(tx fairbalance.Tx) error { return fn(watchedTx{Tx: tx, t: t}) })
	if t.any() {
		w.callers.forget(t)
	}
	return err
}

// watchedTx notes the writes a remembered caller depends on.
type watchedTx struct {
	fairbalance.Tx
	t *touched
}

func (w watchedTx) UpdateUser(ctx context.Context, u *fairbalance.User) error {
	w.t.user(u.ID)
	return w.Tx.UpdateUser(ctx, u)
}

func (w watchedTx) DeleteUser(ctx context.Context, id string) error {
	w.t.user(id)
	return w.Tx.DeleteUser(ctx, id)
}

func (w watchedTx) UpdateSession(ctx context.Context, s *fairbalance.Session) error {
	w.t.session(s.ID)
	return w.Tx.UpdateSession(ctx, s)
}

func (w watchedTx) DeleteSession(ctx context.Context, id string) error {
	w.t.session(id)
	return w.Tx.DeleteSession(ctx, id)
}

func (w watchedTx) DeleteSessions(ctx context.Context, userID, keepID string, belowAAL2 bool) error {
	w.t.user(userID)
	return w.Tx.DeleteSessions(ctx, userID, keepID, belowAAL2)
}

func (w watchedTx) DowngradeSessions(ctx context.Context, factorID string) error {
	w.t.everything()
	return w.Tx.DowngradeSessions(ctx, factorID)
}

// A factor verified (UpdateFactor) or removed changes whether the account
// needs aal2; the session raised by the verification is an UpdateSession.
func (w watchedTx) CreateFactor(ctx context.Context, f *fairbalance.Factor) error {
	w.t.user(f.UserID)
	return w.Tx.CreateFactor(ctx, f)
}

func (w watchedTx) UpdateFactor(ctx context.Context, f *fairbalance.Factor) error {
	w.t.user(f.UserID)
	return w.Tx.UpdateFactor(ctx, f)
}

// DeleteFactor names the factor alone; removals are rare.
func (w watchedTx) DeleteFactor(ctx context.Context, id string) error {
	w.t.everything()
	return w.Tx.DeleteFactor(ctx, id)
}

func (w watchedTx) DeleteUnverifiedFactors(ctx context.Context, userID, exceptID string, olderThan time.Time) error {
	w.t.user(userID)
	return w.Tx.DeleteUnverifiedFactors(ctx, userID, exceptID, olderThan)
}

func (w watchedTx) RevokeFamily(ctx context.Context, sessionID string) error {
	w.t.session(sessionID)
	return w.Tx.RevokeFamily(ctx, sessionID)
}

func (w watchedTx) CreateProfile(ctx context.Context, p *fairbalance.Profile) error {
	w.t.user(p.ID)
	return w.Tx.CreateProfile(ctx, p)
}

func (w watchedTx) UpdateProfile(ctx context.Context, p *fairbalance.Profile) error {
	w.t.user(p.ID)
	return w.Tx.UpdateProfile(ctx, p)
}

func (w watchedTx) DeleteOrg(ctx context.Context, id string) error {
	w.t.everything()
	return w.Tx.DeleteOrg(ctx, id)
}

// Writes of the data API to profiles_v2 (a member's own name, a role, an
// organisation joined) name their rows by a condition, not by id.
func (w watchedTx) Insert(ctx context.Context, plan *fairbalance.WritePlan) (json.RawMessage, int64, error) {
	w.plan(plan)
	return w.Tx.Insert(ctx, plan)
}

func (w watchedTx) Update(ctx context.Context, plan *fairbalance.WritePlan) (json.RawMessage, int64, error) {
	w.plan(plan)
	return w.Tx.Update(ctx, plan)
}

func (w watchedTx) Delete(ctx context.Context, plan *fairbalance.WritePlan) (json.RawMessage, int64, error) {
	w.plan(plan)
	return w.Tx.Delete(ctx, plan)
}

func (w watchedTx) plan(p *fairbalance.WritePlan) {
	if p.Table == "profiles_v2" {
		w.t.everything()
	}
}
