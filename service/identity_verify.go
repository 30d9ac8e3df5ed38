package service

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"fairbalance"
	"fairbalance/auth"
)

// Recover e-mails a password-recovery link (valid 24 hours). It answers the
// same whether or not the address has an account.
func (s *Identity) Recover(ctx context.Context, c Client, email, challenge, method, redirectTo string) error {
	if email == "" {
		return errf(fairbalance.KindInvalid, "validation_failed", "Password recovery requires an email")
	}
	addr, err := normaliseEmail(email)
	if err != nil {
		return err
	}
	usePKCE, err := pkce(challenge, method)
	if err != nil {
		return err
	}
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByEmail(ctx, addr)
		if errors.Is(err, fairbalance.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.tooSoon(u.RecoverySentAt); err != nil {
			return err
		}
		var flow *fairbalance.FlowState
		if usePKCE {
			flow = s.newFlow(challenge, method, "recovery")
		}
		if err := s.sendRecovery(ctx, tx, u, mailRecovery, "recovery", flow, redirectTo); err != nil {
			return err
		}
		return s.audit(ctx, tx, "user_recovery_requested", u, c, nil)
	})
	return internal(err)
}

// sendRecovery creates a recovery token (also used by magic links) and its e-mail.
func (s *Identity) sendRecovery(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, k mailKind, typ string, flow *fairbalance.FlowState, redirectTo string) error {
	otp, stored, err := s.putEmailToken(ctx, tx, u, fairbalance.TokenRecovery, flow)
	if err != nil {
		return err
	}
	now := s.Now()
	u.RecoverySentAt, u.UpdatedAt = &now, now
	if err := tx.UpdateUser(ctx, u); err != nil {
		return err
	}
	return s.enqueue(ctx, tx, u.Email, k, s.verifyLink(stored, typ, redirectTo), otp)
}

// OTPInput is the body of POST /otp.
type OTPInput struct {
	Email               string
	Data                json.RawMessage
	CreateUser          bool
	CodeChallenge       string
	CodeChallengeMethod string
	RedirectTo          string
}

// SendOTP e-mails a magic link with a 6-digit code to an existing account,
// or, with CreateUser, creates the account and sends the sign-up
// confirmation.
func (s *Identity) SendOTP(ctx context.Context, c Client, in OTPInput) error {
	if in.Email == "" {
		return errf(fairbalance.KindInvalid, "validation_failed", "Only an email address or phone number should be provided")
	}
	addr, err := normaliseEmail(in.Email)
	if err != nil {
		return err
	}
	usePKCE, err := pkce(in.CodeChallenge, in.CodeChallengeMethod)
	if err != nil {
		return err
	}
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByEmail(ctx, addr)
		if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
			return err
		}
		if u == nil || u.EmailConfirmedAt == nil {
			if !in.CreateUser {
				return errf(fairbalance.KindUnprocessable, "otp_disabled", "Signups not allowed for otp")
			}
			if u == nil {
				if err := s.signupOpen(ctx, tx, addr); err != nil {
					return err
				}
				// No password: the account signs in by e-mailed codes until it sets one.
				if u, err = s.signUpUser(ctx, tx, c, addr, "", in.Data, "otp"); err != nil {
					return err
				}
			}
			if err := s.tooSoon(u.ConfirmationSentAt); err != nil {
				return err
			}
			var flow *fairbalance.FlowState
			if usePKCE {
				flow = s.newFlow(in.CodeChallenge, in.CodeChallengeMethod, "email/signup")
			}
			return s.sendConfirmation(ctx, tx, u, mailConfirmation, "signup", flow, in.RedirectTo)
		}
		if err := s.tooSoon(u.RecoverySentAt); err != nil {
			return err
		}
		var flow *fairbalance.FlowState
		if usePKCE {
			flow = s.newFlow(in.CodeChallenge, in.CodeChallengeMethod, "magiclink")
		}
		if err := s.sendRecovery(ctx, tx, u, mailMagicLink, "magiclink", flow, in.RedirectTo); err != nil {
			return err
		}
		return s.audit(ctx, tx, "user_recovery_requested", u, c, map[string]any{"method": "magiclink"})
	})
	return internal(err)
}

// Resend sends the sign-up confirmation or the e-mail-change confirmation
// again. It answers the same when there is nothing to resend.
func (s *Identity) Resend(ctx context.Context, c Client, typ, email, challenge, method, redirectTo string) error {
	switch typ {
	case "signup", "email_change":
	case "sms", "phone_change":
		return errf(fairbalance.KindUnprocessable, "sms_send_failed", "Phone sign-in is not available on this instance")
	default:
		return errf(fairbalance.KindInvalid, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change")
	}
	addr, err := normaliseEmail(email)
	if err != nil {
		return err
	}
	usePKCE, err := pkce(challenge, method)
	if err != nil {
		return err
	}
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByEmail(ctx, addr)
		if errors.Is(err, fairbalance.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		switch typ {
		case "signup":
			if u.EmailConfirmedAt != nil {
				return nil
			}
			if err := s.tooSoon(u.ConfirmationSentAt); err != nil {
				return err
			}
			var flow *fairbalance.FlowState
			if usePKCE {
				flow = s.newFlow(challenge, method, "email/signup")
			}
			return s.sendConfirmation(ctx, tx, u, mailConfirmation, "signup", flow, redirectTo)
		default:
			if u.EmailChange == "" {
				return nil
			}
			if err := s.tooSoon(u.EmailChangeSentAt); err != nil {
				return err
			}
			return s.sendEmailChange(ctx, tx, u, u.EmailChange, redirectTo)
		}
	})
	return internal(err)
}

// VerifyInput is the body of POST /verify or the query of GET /verify.
type VerifyInput struct {
	Type       string
	Email      string
	Token      string // the 6-digit code, with Email
	TokenHash  string // the hash from an e-mail link
	RedirectTo string
	// Link is true for GET /verify (the e-mail link), which may continue a
	// PKCE flow instead of returning a session.
	Link bool
}

// VerifyResult is the outcome of a verification: a session, or a PKCE auth
// code to redirect with, or a message (first half of an e-mail change).
type VerifyResult struct {
	Session    *Session
	AuthCode   string
	Message    string
	Type       string
	RedirectTo string
}

// verifyTypes maps a verification type to the token types it may match.
var verifyTypes = map[string][]string{
	"signup":       {fairbalance.TokenConfirmation},
	"invite":       {fairbalance.TokenConfirmation},
	"magiclink":    {fairbalance.TokenRecovery},
	"recovery":     {fairbalance.TokenRecovery},
	"email":        {fairbalance.TokenConfirmation, fairbalance.TokenRecovery},
	"email_change": {fairbalance.TokenEmailChangeNew, fairbalance.TokenEmailChangeCurrent},
}

// Verify checks an e-mailed code or link and completes what it confirms:
// sign-up or invitation (confirms the address), recovery or magic link, or
// one half of an e-mail change.
func (s *Identity) Verify(ctx context.Context, c Client, in VerifyInput) (*VerifyResult, error) {
	if in.Type == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Verify requires a verification type")
	}
	types, ok := verifyTypes[in.Type]
	if !ok {
		if in.Type == "sms" || in.Type == "phone_change" {
			return nil, errf(fairbalance.KindInvalid, "validation_failed", "Phone verification is not available on this instance")
		}
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Unsupported verification type")
	}
	if in.Token == "" && in.TokenHash == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Verify requires either a token or a token hash")
	}
	res := &VerifyResult{Type: in.Type, RedirectTo: s.redirect(in.RedirectTo)}
	expired := errf(fairbalance.KindForbidden, "otp_expired", "Token has expired or is invalid")
	hash := in.TokenHash
	if hash != "" {
		if in.Email != "" && !in.Link {
			return nil, errf(fairbalance.KindInvalid, "validation_failed", "Only the token_hash and type should be provided")
		}
		expired = errf(fairbalance.KindForbidden, "otp_expired", "Email link is invalid or has expired")
	} else {
		addr, err := normaliseEmail(in.Email)
		if err != nil {
			return nil, errf(fairbalance.KindUnprocessable, "validation_failed", "Invalid email format")
		}
		hash = auth.TokenHash(addr, strings.TrimSpace(in.Token))
	}
	hash = strings.TrimPrefix(hash, "pkce_")
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		ott, err := tx.OneTimeTokenByHash(ctx, types, hash)
		if errors.Is(err, fairbalance.ErrNotFound) {
			return expired
		}
		if err != nil {
			return err
		}
		if s.Now().After(ott.CreatedAt.Add(s.cfg.OTPExpiry)) {
			return expired
		}
		u, err := tx.UserByID(ctx, ott.UserID)
		if errors.Is(err, fairbalance.ErrNotFound) {
			return expired
		}
		if err != nil {
			return err
		}
		if s.banned(u) {
			return errf(fairbalance.KindForbidden, "user_banned", "User is banned")
		}
		if err := tx.DeleteOneTimeToken(ctx, ott.ID); err != nil {
			return err
		}
		method := "otp"
		switch in.Type {
		case "email_change":
			done, err := s.confirmEmailChange(ctx, tx, u, ott)
			if err != nil {
				return err
			}
			if !done {
				res.Message = "Confirmation link accepted. Please proceed to confirm link sent to the other email"
				return nil
			}
		default:
			if err := s.confirmEmail(ctx, tx, u); err != nil {
				return err
			}
		}
		if err := s.audit(ctx, tx, "verification_attempted", u, c, map[string]any{"type": in.Type, "result": "accepted"}); err != nil {
			return err
		}
		if in.Link && strings.HasPrefix(ott.TokenHash, "pkce_") {
			flow, err := tx.FlowStateForUser(ctx, u.ID)
			if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
				return err
			}
			if flow != nil {
				now := s.Now()
				flow.AuthCodeIssuedAt = &now
				if err := tx.UpdateFlowState(ctx, flow); err != nil {
					return err
				}
				res.AuthCode = flow.AuthCode
				return nil
			}
		}
		ds, rt, err := s.newSession(ctx, tx, u, method, c)
		if err != nil {
			return err
		}
		res.Session, err = s.finish(u, ds, rt)
		if err != nil {
			return err
		}
		return s.audit(ctx, tx, "login", u, c, map[string]any{"provider": "email", "method": method})
	})
	if err != nil {
		return nil, internal(err)
	}
	return res, nil
}

// confirmEmailChange applies one confirmation of a secure e-mail change and
// reports whether the change is now complete.
func (s *Identity) confirmEmailChange(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, ott *fairbalance.OneTimeToken) (bool, error) {
	if u.EmailChange == "" {
		return false, errf(fairbalance.KindForbidden, "otp_expired", "Email link is invalid or has expired")
	}
	// The other half may still be pending.
	other := fairbalance.TokenEmailChangeCurrent
	if ott.TokenType == fairbalance.TokenEmailChangeCurrent {
		other = fairbalance.TokenEmailChangeNew
	}
	if _, err := tx.OneTimeTokenForUser(ctx, u.ID, other); err == nil {
		u.EmailChangeConfirmState = 1
		u.UpdatedAt = s.Now()
		return false, tx.UpdateUser(ctx, u)
	} else if !errors.Is(err, fairbalance.ErrNotFound) {
		return false, err
	}
	if taken, err := tx.UserByEmail(ctx, u.EmailChange); err == nil && taken.ID != u.ID {
		return false, errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
	} else if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return false, err
	}
	now := s.Now()
	u.Email, u.EmailChange, u.EmailChangeConfirmState, u.EmailChangeSentAt = u.EmailChange, "", 0, nil
	u.EmailConfirmedAt, u.UpdatedAt = &now, now
	for i := range u.Identities {
		id := &u.Identities[i]
		if id.Provider != "email" {
			continue
		}
		var d map[string]any
		if json.Unmarshal(id.IdentityData, &d) == nil && d != nil {
			d["email"], d["email_verified"] = u.Email, true
			id.IdentityData, _ = json.Marshal(d)
		}
		id.Email, id.UpdatedAt = u.Email, now
		if err := tx.UpdateIdentity(ctx, id); err != nil {
			return false, err
		}
	}
	if err := tx.UpdateUser(ctx, u); err != nil {
		return false, err
	}
	return true, s.audit(ctx, tx, "user_modified", u, Client{}, map[string]any{"change": "email"})
}

// sendEmailChange e-mails both addresses of a secure e-mail change.
func (s *Identity) sendEmailChange(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, newEmail, redirectTo string) error {
	now := s.Now()
	otpNew := auth.NewOTP()
	hNew := auth.TokenHash(newEmail, otpNew)
	if err := tx.PutOneTimeToken(ctx, &fairbalance.OneTimeToken{ID: auth.NewUUID(), UserID: u.ID, TokenType: fairbalance.TokenEmailChangeNew, TokenHash: hNew, RelatesTo: newEmail, CreatedAt: now}); err != nil {
		return err
	}
	if err := s.enqueue(ctx, tx, newEmail, mailChangeNew, s.verifyLink(hNew, "email_change", redirectTo), otpNew); err != nil {
		return err
	}
	if u.Email != "" && u.EmailConfirmedAt != nil {
		otpCur := auth.NewOTP()
		hCur := auth.TokenHash(u.Email, otpCur)
		if err := tx.PutOneTimeToken(ctx, &fairbalance.OneTimeToken{ID: auth.NewUUID(), UserID: u.ID, TokenType: fairbalance.TokenEmailChangeCurrent, TokenHash: hCur, RelatesTo: u.Email, CreatedAt: now}); err != nil {
			return err
		}
		if err := s.enqueue(ctx, tx, u.Email, mailChangeOld, s.verifyLink(hCur, "email_change", redirectTo), otpCur); err != nil {
			return err
		}
	}
	u.EmailChange, u.EmailChangeSentAt, u.EmailChangeConfirmState, u.UpdatedAt = newEmail, &now, 0, now
	return tx.UpdateUser(ctx, u)
}
