package service

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// SignUpInput is the body of POST /signup.
type SignUpInput struct {
	Email               string
	Password            string
	Data                json.RawMessage
	CodeChallenge       string
	CodeChallengeMethod string
	RedirectTo          string
	// InviteToken is the token of the invitation the account is made
	// for; "" takes it from Data's invite_token (how the supabase-js
	// client can pass it), which is never stored as metadata. A pending,
	// unexpired invitation for exactly Email confirms the address (the
	// inviting administrator vouched for it), signs the new account in
	// and joins it to the invitation's organisation, in one transaction.
	InviteToken string
}

// splitInviteToken takes invite_token out of sign-up data.
func splitInviteToken(data json.RawMessage) (string, json.RawMessage) {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil || m["invite_token"] == nil {
		return "", data
	}
	var tok string
	_ = json.Unmarshal(m["invite_token"], &tok)
	delete(m, "invite_token")
	out, err := json.Marshal(m)
	if err != nil {
		return tok, data
	}
	return tok, out
}

// pkce validates optional PKCE parameters; both or neither must be given.
func pkce(challenge, method string) (bool, error) {
	if challenge == "" && method == "" {
		return false, nil
	}
	if challenge == "" || method == "" {
		return false, errf(fairbalance.KindInvalid, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
	}
	if !auth.ValidCodeChallenge(challenge, method) {
		return false, errf(fairbalance.KindInvalid, "validation_failed", "code challenge does not match the required format or method")
	}
	return true, nil
}

func mergeMetadata(base, patch json.RawMessage) (json.RawMessage, error) {
	if len(patch) == 0 || string(patch) == "null" {
		return orEmptyObject(base), nil
	}
	var p map[string]any
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "data must be a JSON object")
	}
	m := map[string]any{}
	if len(base) > 0 {
		if err := json.Unmarshal(base, &m); err != nil || m == nil {
			m = map[string]any{}
		}
	}
	for k, v := range p {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

func (s *Identity) newUser(email, hash string, data json.RawMessage) (*fairbalance.User, *fairbalance.Identity, error) {
	now := s.Now()
	meta, err := mergeMetadata(nil, data)
	if err != nil {
		return nil, nil, err
	}
	u := &fairbalance.User{
		ID: auth.NewUUID(), Aud: "authenticated", Role: "authenticated", Email: email, PasswordHash: hash,
		AppMetadata: json.RawMessage(`{"provider":"email","providers":["email"]}`), UserMetadata: meta,
		CreatedAt: now, UpdatedAt: now,
	}
	idData := map[string]any{}
	_ = json.Unmarshal(meta, &idData)
	idData["sub"], idData["email"], idData["email_verified"], idData["phone_verified"] = u.ID, email, false, false
	b, _ := json.Marshal(idData)
	id := &fairbalance.Identity{ID: auth.NewUUID(), ProviderID: u.ID, UserID: u.ID, Provider: "email", IdentityData: b, Email: email, CreatedAt: now, UpdatedAt: now}
	return u, id, nil
}

// signUpUser creates an account by sign-up (method "password" or "otp")
// and records it. Losing a race for the address to a concurrent request
// answers as a request arriving just after it would: too soon.
func (s *Identity) signUpUser(ctx context.Context, tx fairbalance.Tx, c Client, email, hash string, data json.RawMessage, method string) (*fairbalance.User, error) {
	u, id, err := s.newUser(email, hash, data)
	if err != nil {
		return nil, err
	}
	if err := s.createUser(ctx, tx, u, id); err != nil {
		if errors.Is(err, fairbalance.ErrConflict) {
			now := s.Now()
			return nil, s.tooSoon(&now)
		}
		return nil, err
	}
	return u, s.audit(ctx, tx, "user_signedup", u, c, map[string]any{"provider": "email", "method": method})
}

// createUser inserts a new user and its e-mail identity; an address already
// taken gives ErrConflict.
func (s *Identity) createUser(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, id *fairbalance.Identity) error {
	if err := tx.CreateUser(ctx, u); err != nil {
		return err
	}
	if err := tx.CreateIdentity(ctx, id); err != nil {
		return err
	}
	u.Identities = []fairbalance.Identity{*id}
	// Every account has a member profile from the start; it joins an
	// organisation (and gets a real role) by onboarding or an invitation.
	return tx.CreateProfile(ctx, &fairbalance.Profile{
		ID: u.ID, Role: fairbalance.RoleViewer, FullName: fullName(u.UserMetadata),
		CreatedAt: u.CreatedAt, UpdatedAt: u.CreatedAt,
	})
}

// fullName reads a display name from sign-up data: full_name, else
// first_name and last_name, else name.
func fullName(meta json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(meta, &m) != nil {
		return ""
	}
	str := func(k string) string {
		v, _ := m[k].(string)
		return strings.TrimSpace(v)
	}
	if n := str("full_name"); n != "" {
		return truncate(n, 200)
	}
	if n := strings.TrimSpace(str("first_name") + " " + str("last_name")); n != "" {
		return truncate(n, 200)
	}
	return truncate(str("name"), 200)
}

// confirmEmail marks the address verified on the user and its identity.
func (s *Identity) confirmEmail(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User) error {
	if u.EmailConfirmedAt != nil {
		return nil
	}
	now := s.Now()
	u.EmailConfirmedAt = &now
	u.UpdatedAt = now
	for i := range u.Identities {
		id := &u.Identities[i]
		if id.Provider != "email" {
			continue
		}
		var d map[string]any
		if json.Unmarshal(id.IdentityData, &d) == nil && d != nil {
			d["email_verified"] = true
			id.IdentityData, _ = json.Marshal(d)
		}
		id.UpdatedAt = now
		if err := tx.UpdateIdentity(ctx, id); err != nil {
			return err
		}
	}
	return tx.UpdateUser(ctx, u)
}

// putEmailToken creates the one-time token of an e-mail to u's address
// (with its PKCE flow, if any) and returns the code and the stored hash,
// which is prefixed "pkce_" for a PKCE flow.
func (s *Identity) putEmailToken(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, tokenType string, flow *fairbalance.FlowState) (otp, stored string, err error) {
	otp = auth.NewOTP()
	stored = auth.TokenHash(u.Email, otp)
	if flow != nil {
		stored = "pkce_" + stored
		flow.UserID = u.ID
		if err := tx.CreateFlowState(ctx, flow); err != nil {
			return "", "", err
		}
	}
	err = tx.PutOneTimeToken(ctx, &fairbalance.OneTimeToken{ID: auth.NewUUID(), UserID: u.ID, TokenType: tokenType, TokenHash: stored, RelatesTo: u.Email, CreatedAt: s.Now()})
	return otp, stored, err
}

// sendConfirmation creates the confirmation token and e-mail (signup or
// invite) inside tx.
func (s *Identity) sendConfirmation(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, k mailKind, typ string, flow *fairbalance.FlowState, redirectTo string) error {
	otp, stored, err := s.putEmailToken(ctx, tx, u, fairbalance.TokenConfirmation, flow)
	if err != nil {
		return err
	}
	now := s.Now()
	if typ == "invite" {
		u.InvitedAt = &now
	}
	u.ConfirmationSentAt = &now
	u.UpdatedAt = now
	if err := tx.UpdateUser(ctx, u); err != nil {
		return err
	}
	return s.enqueue(ctx, tx, u.Email, k, s.verifyLink(stored, typ, redirectTo), otp)
}

func (s *Identity) newFlow(challenge, method, authMethod string) *fairbalance.FlowState {
	return &fairbalance.FlowState{ID: auth.NewUUID(), AuthCode: auth.NewUUID(), CodeChallenge: challenge, CodeChallengeMethod: method, AuthenticationMethod: authMethod, CreatedAt: s.Now()}
}

// SignUp registers a user by e-mail and password. With confirmation on
// (the default) it returns the user and no session, and e-mails a
// confirmation link; an address already confirmed yields an obfuscated user
// so that sign-up cannot be used to find accounts.
func (s *Identity) SignUp(ctx context.Context, c Client, in SignUpInput) (*fairbalance.User, *Session, error) {
	if in.Email == "" {
		return nil, nil, errf(fairbalance.KindUnprocessable, "anonymous_provider_disabled", "Anonymous sign-ins are disabled")
	}
	email, err := normaliseEmail(in.Email)
	if err != nil {
		return nil, nil, err
	}
	if err := s.signupOpen(ctx, s.store.View(), email); err != nil {
		return nil, nil, err
	}
	if in.Password == "" {
		return nil, nil, errf(fairbalance.KindInvalid, "validation_failed", "Signup requires a valid password")
	}
	if len(in.Password) > auth.MaxPasswordLength {
		return nil, nil, errf(fairbalance.KindInvalid, "validation_failed", "Password cannot be longer than 72 characters")
	}
	if err := checkNewPassword(in.Password); err != nil {
		return nil, nil, err
	}
	usePKCE, err := pkce(in.CodeChallenge, in.CodeChallengeMethod)
	if err != nil {
		return nil, nil, err
	}
	if tok, data := splitInviteToken(in.Data); tok != "" || len(data) != len(in.Data) {
		in.Data = data
		if in.InviteToken == "" {
			in.InviteToken = tok
		}
	}
	if _, err := mergeMetadata(nil, in.Data); err != nil {
		return nil, nil, err
	}
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return nil, nil, internal(err)
	}
	var user *fairbalance.User
	var sess *Session
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		existing, err := tx.UserByEmail(ctx, email)
		switch {
		case err == nil && existing.EmailConfirmedAt != nil:
			if s.cfg.Autoconfirm {
				return errf(fairbalance.KindUnprocessable, "user_already_exists", "User already registered")
			}
			now := s.Now()
			user = &fairbalance.User{ID: auth.NewUUID(), Aud: "authenticated", Email: email, ConfirmationSentAt: &now,
				AppMetadata: json.RawMessage(`{"provider":"email","providers":["email"]}`), UserMetadata: orEmptyObject(in.Data),
				CreatedAt: now, UpdatedAt: now, Identities: []fairbalance.Identity{}}
			return s.audit(ctx, tx, "user_repeated_signup", existing, c, nil)
		case err == nil:
			// Unconfirmed: send the confirmation again, subject to the frequency limit.
			if err := s.tooSoon(existing.ConfirmationSentAt); err != nil {
				return err
			}
			// The caller has not proved they own the address: keep the
			// account's password and metadata (else whoever signs up second
			// takes over the account once the owner confirms).
			user = existing
		case errors.Is(err, fairbalance.ErrNotFound):
			inv, err := usableInvite(ctx, tx, in.InviteToken, email, s.Now())
			if err != nil {
				return err
			}
			if user, err = s.signUpUser(ctx, tx, c, email, hash, in.Data, "password"); err != nil {
				return err
			}
			if inv != nil {
				sess, err = s.signUpInvited(ctx, tx, c, user, inv)
				return err
			}
		default:
			return err
		}
		if s.cfg.Autoconfirm {
			if err := s.confirmEmail(ctx, tx, user); err != nil {
				return err
			}
			ds, rt, err := s.newSession(ctx, tx, user, "password", c)
			if err != nil {
				return err
			}
			sess, err = s.finish(user, ds, rt)
			if err != nil {
				return err
			}
			return s.audit(ctx, tx, "login", user, c, map[string]any{"provider": "email", "method": "signup"})
		}
		var flow *fairbalance.FlowState
		if usePKCE {
			flow = s.newFlow(in.CodeChallenge, in.CodeChallengeMethod, "email/signup")
		}
		if err := s.sendConfirmation(ctx, tx, user, mailConfirmation, "signup", flow, in.RedirectTo); err != nil {
			return err
		}
		return s.audit(ctx, tx, "user_confirmation_requested", user, c, nil)
	})
	if err != nil {
		return nil, nil, internal(err)
	}
	return user, sess, nil
}

// signUpInvited finishes the sign-up of the new account u through the
// usable invitation inv: the address is confirmed (the invitation was
// sent to it), the invitation accepted and a session started.
func (s *Identity) signUpInvited(ctx context.Context, tx fairbalance.Tx, c Client, u *fairbalance.User, inv *fairbalance.Invite) (*Session, error) {
	if err := s.confirmEmail(ctx, tx, u); err != nil {
		return nil, err
	}
	p, err := tx.ProfileByID(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	member := fairbalance.Caller{Role: "authenticated", UserID: u.ID}
	if err := acceptInvite(ctx, tx, member, inv, p, s.Now(), "signup"); err != nil {
		return nil, err
	}
	ds, rt, err := s.newSession(ctx, tx, u, "password", c)
	if err != nil {
		return nil, err
	}
	sess, err := s.finish(u, ds, rt)
	if err != nil {
		return nil, err
	}
	return sess, s.audit(ctx, tx, "login", u, c, map[string]any{"provider": "email", "method": "signup", "invite_id": inv.ID})
}

var errInvalidCredentials = errf(fairbalance.KindInvalid, "invalid_credentials", "Invalid login credentials")

// SignInPassword signs in with e-mail and password. An unknown address and
// a wrong password give the same error after the same work.
func (s *Identity) SignInPassword(ctx context.Context, c Client, email, password string) (*Session, error) {
	if email == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "missing email or phone")
	}
	addr, err := normaliseEmail(email)
	if err != nil || len(password) > auth.MaxPasswordLength || password == "" {
		// Same cost as a real check; the answer does not depend on the account.
		_, _ = s.hasher.Verify(ctx, password[:min(len(password), auth.MaxPasswordLength)], "")
		s.recordFailure(ctx, c, email, "invalid_input")
		return nil, errInvalidCredentials
	}
	u, err := s.store.View().UserByEmail(ctx, addr)
	if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return nil, internal(err)
	}
	hash := ""
	if u != nil && u.DeletedAt == nil {
		hash = u.PasswordHash
	}
	ok, err := s.hasher.Verify(ctx, password, hash)
	if err != nil && !errors.Is(err, auth.ErrUnknownHash) {
		return nil, internal(err)
	}
	if !ok || u == nil || u.DeletedAt != nil {
		s.recordFailure(ctx, c, addr, "invalid_credentials")
		return nil, errInvalidCredentials
	}
	if u.EmailConfirmedAt == nil {
		s.recordFailure(ctx, c, addr, "email_not_confirmed")
		return nil, errf(fairbalance.KindInvalid, "email_not_confirmed", "Email not confirmed")
	}
	if s.banned(u) {
		return nil, errf(fairbalance.KindInvalid, "user_banned", "User is banned")
	}
	var out *Session
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByID(ctx, u.ID)
		if err != nil {
			return err
		}
		ds, rt, err := s.newSession(ctx, tx, u, "password", c)
		if err != nil {
			return err
		}
		if out, err = s.finish(u, ds, rt); err != nil {
			return err
		}
		return s.audit(ctx, tx, "login", u, c, map[string]any{"provider": "email", "method": "password"})
	})
	if errors.Is(err, ErrMemberDeactivated) {
		s.recordFailure(ctx, c, addr, "member_deactivated")
	}
	if err != nil {
		return nil, internal(err)
	}
	out.PasswordGrant = true
	if reasons, msg := auth.CheckPassword(password); len(reasons) > 0 {
		out.WeakPassword = &WeakPassword{Message: msg, Reasons: reasons}
	}
	return out, nil
}

// recordFailure writes a failed sign-in to the auth audit in its own
// transaction; a failure to record is logged, not returned.
func (s *Identity) recordFailure(ctx context.Context, c Client, email, reason string) {
	err := s.store.Tx(ctx, func(tx fairbalance.Tx) error {
		// The address is as typed when it is invalid: keep what a text
		// column can hold (no NUL, whole UTF-8 characters).
		actor := strings.ToValidUTF8(strings.ReplaceAll(truncate(email, 255), "\x00", ""), "")
		return tx.RecordAuthEvent(ctx, &fairbalance.AuthEvent{Action: "login_failed", ActorEmail: actor, IP: c.IP, Payload: mustJSON(map[string]any{"reason": reason}), CreatedAt: s.Now()})
	})
	if err != nil {
		s.log.Error("record failed sign-in", "err", err)
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// checkSessionValid applies the inactivity timeout (since tok, the
// session's latest token, was issued) and the absolute lifetime.
func (s *Identity) checkSessionValid(sess *fairbalance.Session, tok *fairbalance.RefreshToken) error {
	now := s.Now()
	if sess.NotAfter != nil && now.After(*sess.NotAfter) || now.After(sess.CreatedAt.Add(s.cfg.SessionLifetime)) {
		return errf(fairbalance.KindInvalid, "session_expired", "Invalid Refresh Token: Session Expired")
	}
	last := tok.CreatedAt
	if sess.RefreshedAt != nil && sess.RefreshedAt.After(last) {
		last = *sess.RefreshedAt
	}
	if now.After(last.Add(s.cfg.SessionInactivity)) {
		return errf(fairbalance.KindInvalid, "session_expired", "Invalid Refresh Token: Session Expired (Inactivity)")
	}
	return nil
}

// Refresh exchanges a refresh token for a new session token pair. The token
// just before the active one may be presented again and yields the active
// one (a client that lost a response, or two tabs refreshing at once);
// presenting any other used token revokes the whole family and fails with
// refresh_token_already_used.
//
// Everything happens in one write transaction: on SQLite the writer's page
// cache is warm with the rows just written, which makes this much cheaper
// than reading through the reader pool; on PostgreSQL the token row is
// locked, and the uniqueness of (session, counter) settles any race left.
func (s *Identity) Refresh(ctx context.Context, c Client, token string) (*Session, error) {
	if len(token) < 12 || !auth.ValidRefreshTokenFormat(token) {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Refresh token is not valid")
	}
	hash := auth.HashRefreshToken(token)
	noSession := errf(fairbalance.KindInvalid, "session_not_found", "Invalid Refresh Token: No Valid Session Found")
	for attempt := 0; ; attempt++ {
		var (
			user     *fairbalance.User
			sess     *fairbalance.Session
			rt       *fairbalance.RefreshToken
			reuseErr error
		)
		err := s.store.Tx(ctx, func(tx fairbalance.Tx) error {
			tok, err := tx.RefreshTokenByHash(ctx, hash)
			if errors.Is(err, fairbalance.ErrNotFound) {
				return errf(fairbalance.KindInvalid, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
			}
			if err != nil {
				return err
			}
			if sess, err = tx.SessionByID(ctx, tok.SessionID); errors.Is(err, fairbalance.ErrNotFound) {
				return noSession
			} else if err != nil {
				return err
			}
			active, err := tx.ActiveRefreshToken(ctx, sess.ID)
			if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
				return err
			}
			switch {
			case active != nil && active.ID == tok.ID:
				if err := s.checkSessionValid(sess, tok); err != nil {
					return err
				}
				if rt, err = s.newRefreshToken(ctx, tx, sess, tok); err != nil {
					return err
				}
				// The session row changes only when the client moved: the
				// time of the last refresh is the newest token's creation.
				if c.IP != "" && c.IP != sess.IP {
					sess.IP, sess.UpdatedAt = c.IP, s.Now()
					if err := tx.UpdateSession(ctx, sess); err != nil {
						return err
					}
				}
			case active != nil && active.Parent == tok.TokenHash:
				if err := s.checkSessionValid(sess, active); err != nil {
					return err
				}
				rt = active
			default:
				// Reuse of an old token: someone else may hold the family.
				if err := tx.RevokeFamily(ctx, sess.ID); err != nil {
					return err
				}
				reuseErr = errf(fairbalance.KindInvalid, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
				return tx.RecordAuthEvent(ctx, &fairbalance.AuthEvent{Action: "token_revoked", ActorID: sess.UserID, IP: c.IP, Payload: mustJSON(map[string]any{"reason": "refresh_token_reuse", "session_id": sess.ID}), CreatedAt: s.Now()})
			}
			if user, err = tx.UserByID(ctx, sess.UserID); errors.Is(err, fairbalance.ErrNotFound) || err == nil && user.DeletedAt != nil {
				return noSession
			} else if err != nil {
				return err
			}
			if s.banned(user) {
				return errf(fairbalance.KindInvalid, "user_banned", "User is banned")
			}
			return nil
		})
		switch {
		case errors.Is(err, fairbalance.ErrConflict) && attempt < 3:
			continue // rotated concurrently (PostgreSQL); decide again
		case errors.Is(err, errFamilyRevoked):
			return nil, errf(fairbalance.KindInvalid, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
		case errors.Is(err, fairbalance.ErrNotFound):
			return nil, noSession
		case err != nil:
			return nil, internal(err)
		case reuseErr != nil:
			return nil, reuseErr // the revocation is committed
		}
		out, err := s.finish(user, sess, rt)
		return out, internal(err)
	}
}

// flowStateExpiry is how long a PKCE auth code may wait to be exchanged.
const flowStateExpiry = 300 * time.Second

// ExchangeCode completes a PKCE flow (POST /token?grant_type=pkce).
func (s *Identity) ExchangeCode(ctx context.Context, c Client, authCode, verifier string) (*Session, error) {
	if authCode == "" || verifier == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "invalid request: both auth code and code verifier should be non-empty")
	}
	var out *Session
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		flow, err := tx.FlowStateByAuthCode(ctx, authCode)
		if errors.Is(err, fairbalance.ErrNotFound) || err == nil && flow.UserID == "" {
			return errf(fairbalance.KindNotFound, "flow_state_not_found", "invalid flow state, no valid flow state found")
		}
		if err != nil {
			return err
		}
		issued := flow.CreatedAt
		if flow.AuthCodeIssuedAt != nil {
			issued = *flow.AuthCodeIssuedAt
		}
		if s.Now().After(issued.Add(flowStateExpiry)) {
			if err := tx.DeleteFlowState(ctx, flow.ID); err != nil {
				return err
			}
			return errf(fairbalance.KindUnprocessable, "flow_state_expired", "invalid flow state, flow state has expired")
		}
		if !auth.VerifyCodeVerifier(verifier, flow.CodeChallenge, flow.CodeChallengeMethod) {
			return errf(fairbalance.KindInvalid, "bad_code_verifier", "code challenge does not match previously saved code verifier")
		}
		if err := tx.DeleteFlowState(ctx, flow.ID); err != nil {
			return err
		}
		u, err := tx.UserByID(ctx, flow.UserID)
		if err != nil {
			return err
		}
		if s.banned(u) {
			return errf(fairbalance.KindInvalid, "user_banned", "User is banned")
		}
		ds, rt, err := s.newSession(ctx, tx, u, flow.AuthenticationMethod, c)
		if err != nil {
			return err
		}
		if out, err = s.finish(u, ds, rt); err != nil {
			return err
		}
		return s.audit(ctx, tx, "login", u, c, map[string]any{"provider": "email", "method": "pkce"})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// Logout ends sessions of the principal: scope "global" (or "") all of
// them, "local" this one, "others" all but this one.
func (s *Identity) Logout(ctx context.Context, c Client, p *Principal, scope string) error {
	switch scope {
	case "", "global", "local", "others":
	default:
		return errf(fairbalance.KindInvalid, "validation_failed", `Unsupported logout scope "`+scope+`"`)
	}
	sid := ""
	if p.Session != nil {
		sid = p.Session.ID
	}
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		var err error
		switch scope {
		case "local":
			if sid != "" {
				err = tx.DeleteSession(ctx, sid)
			}
		case "others":
			err = tx.DeleteSessions(ctx, p.User.ID, sid, false)
		default:
			err = tx.DeleteSessions(ctx, p.User.ID, "", false)
		}
		if err != nil {
			return err
		}
		if scope == "" {
			scope = "global"
		}
		return s.audit(ctx, tx, "logout", p.User, c, map[string]any{"scope": scope})
	})
	return internal(err)
}
