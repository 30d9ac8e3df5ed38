package service

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// UpdateUserInput is the body of PUT /user. Nil fields are unchanged.
type UpdateUserInput struct {
	Email       *string
	Password    *string
	Nonce       string
	Data        json.RawMessage
	AppMetadata json.RawMessage
	Phone       *string
	RedirectTo  string
}

// reauthWindow is how old a session may be and still change the password
// without a reauthentication nonce.
const reauthWindow = 24 * time.Hour

func hasVerifiedFactor(u *fairbalance.User) bool {
	for _, f := range u.Factors {
		if f.Status == "verified" {
			return true
		}
	}
	return false
}

func isRecoverySession(sess *fairbalance.Session) bool {
	if sess == nil || len(sess.AMR) == 0 {
		return false
	}
	m := sess.AMR[len(sess.AMR)-1].Method
	return m == "recovery" || m == "otp" || m == "magiclink"
}

// UpdateUser changes the principal's metadata, password or e-mail address.
// A password change signs out the user's other sessions; an e-mail change
// takes effect once both addresses confirm it.
func (s *Identity) UpdateUser(ctx context.Context, c Client, p *Principal, in UpdateUserInput) (*fairbalance.User, error) {
	if IsDemoUser(p.User) {
		return nil, errDemo
	}
	if len(in.AppMetadata) > 0 && string(in.AppMetadata) != "null" {
		return nil, errf(fairbalance.KindForbidden, "not_admin", "User not allowed")
	}
	if in.Phone != nil && *in.Phone != "" {
		return nil, errf(fairbalance.KindUnprocessable, "phone_provider_disabled", "Phone logins are disabled")
	}
	var newEmail string
	if in.Email != nil && *in.Email != "" {
		e, err := normaliseEmail(*in.Email)
		if err != nil {
			return nil, err
		}
		if e != p.User.Email {
			newEmail = e
		}
	}
	sensitive := newEmail != "" || in.Password != nil
	if sensitive && hasVerifiedFactor(p.User) && (p.Session == nil || p.Session.AAL != "aal2") {
		return nil, errf(fairbalance.KindUnauthorized, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled.")
	}
	var hash string
	if in.Password != nil {
		if err := checkNewPassword(*in.Password); err != nil {
			return nil, err
		}
		if same, _ := s.hasher.Verify(ctx, *in.Password, p.User.PasswordHash); same {
			return nil, errf(fairbalance.KindUnprocessable, "same_password", "New password should be different from the old password.")
		}
		needNonce := s.cfg.SecurePasswordChange && !isRecoverySession(p.Session) &&
			(p.Session == nil || s.Now().Sub(p.Session.CreatedAt) > reauthWindow)
		if needNonce && in.Nonce == "" {
			return nil, errf(fairbalance.KindInvalid, "reauthentication_needed", "Password update requires reauthentication")
		}
		h, err := s.hasher.Hash(ctx, *in.Password)
		if err != nil {
			return nil, internal(err)
		}
		hash = h
	}
	var out *fairbalance.User
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByID(ctx, p.User.ID)
		if err != nil {
			return err
		}
		now := s.Now()
		if len(in.Data) > 0 && string(in.Data) != "null" {
			meta, err := mergeMetadata(u.UserMetadata, in.Data)
			if err != nil {
				return err
			}
			u.UserMetadata = meta
		}
		if in.Password != nil {
			if in.Nonce != "" {
				ott, err := tx.OneTimeTokenByHash(ctx, []string{fairbalance.TokenReauthentication}, auth.TokenHash(u.Email, in.Nonce))
				if errors.Is(err, fairbalance.ErrNotFound) || err == nil && (ott.UserID != u.ID || now.After(ott.CreatedAt.Add(s.cfg.OTPExpiry))) {
					return errf(fairbalance.KindUnprocessable, "reauthentication_not_valid", "Nonce has expired or is invalid")
				}
				if err != nil {
					return err
				}
				if err := tx.DeleteOneTimeToken(ctx, ott.ID); err != nil {
					return err
				}
			}
			u.PasswordHash = hash
			u.AppMetadata = clearMustReset(u.AppMetadata)
			keep := ""
			if p.Session != nil {
				keep = p.Session.ID
			}
			if err := tx.DeleteSessions(ctx, u.ID, keep, false); err != nil {
				return err
			}
			if err := s.audit(ctx, tx, "user_updated_password", u, c, nil); err != nil {
				return err
			}
		}
		u.UpdatedAt = now
		if err := tx.UpdateUser(ctx, u); err != nil {
			return err
		}
		if newEmail != "" {
			if taken, err := tx.UserByEmail(ctx, newEmail); err == nil && taken.ID != u.ID {
				return errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
			} else if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
				return err
			}
			if err := s.tooSoon(u.EmailChangeSentAt); err != nil {
				return err
			}
			if err := s.sendEmailChange(ctx, tx, u, newEmail, in.RedirectTo); err != nil {
				return err
			}
		}
		if len(in.Data) > 0 || newEmail != "" {
			if err := s.audit(ctx, tx, "user_modified", u, c, nil); err != nil {
				return err
			}
		}
		out = u
		return nil
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// Reauthenticate e-mails a 6-digit nonce that authorises the next password
// change of this user.
func (s *Identity) Reauthenticate(ctx context.Context, c Client, p *Principal) error {
	if IsDemoUser(p.User) {
		return errDemo
	}
	if p.User.Email == "" {
		return errf(fairbalance.KindInvalid, "validation_failed", "Reauthentication requires the user to have an email or a phone number")
	}
	if p.User.EmailConfirmedAt == nil {
		return errf(fairbalance.KindUnprocessable, "email_not_confirmed", "Please verify your email first.")
	}
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByID(ctx, p.User.ID)
		if err != nil {
			return err
		}
		if err := s.tooSoon(u.ReauthenticationSentAt); err != nil {
			return err
		}
		now := s.Now()
		nonce := auth.NewOTP()
		if err := tx.PutOneTimeToken(ctx, &fairbalance.OneTimeToken{ID: auth.NewUUID(), UserID: u.ID, TokenType: fairbalance.TokenReauthentication, TokenHash: auth.TokenHash(u.Email, nonce), RelatesTo: u.Email, CreatedAt: now}); err != nil {
			return err
		}
		u.ReauthenticationSentAt, u.UpdatedAt = &now, now
		if err := tx.UpdateUser(ctx, u); err != nil {
			return err
		}
		if err := s.enqueue(ctx, tx, u.Email, mailReauth, "", nonce); err != nil {
			return err
		}
		return s.audit(ctx, tx, "user_reauthenticate_requested", u, c, nil)
	})
	return internal(err)
}
