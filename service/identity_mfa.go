package service

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// challengeExpiry is how long an MFA challenge may be answered.
const challengeExpiry = 300 * time.Second

// Enrolment is the answer to a new TOTP factor.
type Enrolment struct {
	Factor *fairbalance.Factor
	TOTP   *auth.TOTPEnrolment
}

func nonAnonymous(p *Principal) error {
	if IsDemoUser(p.User) {
		return errDemo
	}
	if p.User.IsAnonymous {
		return errf(fairbalance.KindForbidden, "no_authorization", "Anonymous user not allowed to perform these actions")
	}
	return nil
}

// Enroll starts a TOTP factor for the principal. A user with a verified
// factor must be at aal2 to add another.
func (s *Identity) Enroll(ctx context.Context, c Client, p *Principal, factorType, friendlyName, issuer string) (*Enrolment, error) {
	if err := nonAnonymous(p); err != nil {
		return nil, err
	}
	switch factorType {
	case "totp":
	case "phone":
		return nil, errf(fairbalance.KindUnprocessable, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone")
	case "webauthn":
		return nil, errf(fairbalance.KindUnprocessable, "mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn")
	default:
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "factor_type needs to be totp")
	}
	if issuer == "" {
		if u, err := url.Parse(s.cfg.SiteURL); err == nil {
			issuer = u.Hostname()
		}
	}
	if hasVerifiedFactor(p.User) && (p.Session == nil || p.Session.AAL != "aal2") {
		return nil, errf(fairbalance.KindForbidden, "insufficient_aal", "AAL2 required to enroll a new factor")
	}
	friendlyName = strings.TrimSpace(friendlyName)
	if len(friendlyName) > 128 {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "friendly_name is too long")
	}
	account := p.User.Email
	enr, err := auth.NewTOTP(issuer, account)
	if err != nil {
		return nil, internal(err)
	}
	now := s.Now()
	f := &fairbalance.Factor{ID: auth.NewUUID(), UserID: p.User.ID, FriendlyName: friendlyName, FactorType: "totp", Status: "unverified", Secret: s.sealer.Seal(enr.Secret), CreatedAt: now, UpdatedAt: now}
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		if err := tx.DeleteUnverifiedFactors(ctx, p.User.ID, "", now.Add(-challengeExpiry)); err != nil {
			return err
		}
		u, err := tx.UserByID(ctx, p.User.ID)
		if err != nil {
			return err
		}
		if len(u.Factors) >= s.cfg.MaxFactors {
			return errf(fairbalance.KindUnprocessable, "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue")
		}
		for _, x := range u.Factors {
			if friendlyName != "" && x.FriendlyName == friendlyName {
				return errf(fairbalance.KindUnprocessable, "mfa_factor_name_conflict", "A factor with the friendly name \""+friendlyName+"\" for this user already exists")
			}
		}
		if err := tx.CreateFactor(ctx, f); err != nil {
			if errors.Is(err, fairbalance.ErrConflict) {
				return errf(fairbalance.KindUnprocessable, "mfa_factor_name_conflict", "A factor with the friendly name \""+friendlyName+"\" for this user already exists")
			}
			return err
		}
		return s.audit(ctx, tx, "factor_in_progress", u, c, map[string]any{"factor_id": f.ID, "factor_type": "totp"})
	})
	if err != nil {
		return nil, internal(err)
	}
	return &Enrolment{Factor: f, TOTP: enr}, nil
}

func (s *Identity) ownFactor(p *Principal, id string) (*fairbalance.Factor, error) {
	if !auth.IsUUID(id) {
		return nil, errf(fairbalance.KindNotFound, "validation_failed", "Factor ID must be a UUID")
	}
	for i := range p.User.Factors {
		if p.User.Factors[i].ID == id {
			return &p.User.Factors[i], nil
		}
	}
	return nil, errf(fairbalance.KindNotFound, "mfa_factor_not_found", "Factor not found")
}

// Challenge creates a challenge for one of the principal's factors.
func (s *Identity) Challenge(ctx context.Context, c Client, p *Principal, factorID string) (*fairbalance.Challenge, error) {
	if err := nonAnonymous(p); err != nil {
		return nil, err
	}
	f, err := s.ownFactor(p, factorID)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	ch := &fairbalance.Challenge{ID: auth.NewUUID(), FactorID: f.ID, IPAddress: c.IP, CreatedAt: now}
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		if err := tx.CreateChallenge(ctx, ch); err != nil {
			return err
		}
		f.LastChallengedAt, f.UpdatedAt = &now, now
		if err := tx.UpdateFactor(ctx, f); err != nil {
			return err
		}
		return s.audit(ctx, tx, "challenge_created", p.User, c, map[string]any{"factor_id": f.ID, "challenge_id": ch.ID})
	})
	if err != nil {
		return nil, internal(err)
	}
	return ch, nil
}

// ChallengeExpiry is when a challenge stops being answerable.
func ChallengeExpiry(ch *fairbalance.Challenge) time.Time { return ch.CreatedAt.Add(challengeExpiry) }

// VerifyFactor answers a challenge with a TOTP code. On success the factor
// is verified, the session rises to aal2 with a new refresh token, and the
// user's other aal1 sessions end.
func (s *Identity) VerifyFactor(ctx context.Context, c Client, p *Principal, factorID, challengeID, code string) (*Session, error) {
	if err := nonAnonymous(p); err != nil {
		return nil, err
	}
	f, err := s.ownFactor(p, factorID)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(code) == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Code needs to be non-empty")
	}
	if p.Session == nil {
		return nil, errf(fairbalance.KindForbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
	}
	secret, err := s.sealer.Open(f.Secret)
	if err != nil {
		return nil, internal(err)
	}
	var out *Session
	var failed error
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		failed = nil // a run again after a deadlock starts afresh
		ch, err := tx.ChallengeByID(ctx, challengeID)
		if errors.Is(err, fairbalance.ErrNotFound) || err == nil && ch.FactorID != f.ID {
			return errf(fairbalance.KindUnprocessable, "mfa_factor_not_found", "MFA factor with the provided challenge ID not found")
		}
		if err != nil {
			return err
		}
		now := s.Now()
		if now.After(ChallengeExpiry(ch)) {
			return errf(fairbalance.KindUnprocessable, "mfa_challenge_expired", "MFA challenge "+ch.ID+" has expired, verify against another challenge or create a new challenge.")
		}
		if ch.VerifiedAt != nil || ch.IPAddress != c.IP {
			return errf(fairbalance.KindUnprocessable, "mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.")
		}
		if !auth.ValidateTOTP(secret, strings.TrimSpace(code), now) {
			failed = errf(fairbalance.KindUnprocessable, "mfa_verification_failed", "Invalid TOTP code entered")
			return s.audit(ctx, tx, "verification_attempted", p.User, c, map[string]any{"factor_id": f.ID, "result": "rejected"})
		}
		ch.VerifiedAt = &now
		if err := tx.UpdateChallenge(ctx, ch); err != nil {
			return err
		}
		wasUnverified := f.Status != "verified"
		f.Status, f.UpdatedAt = "verified", now
		if err := tx.UpdateFactor(ctx, f); err != nil {
			return err
		}
		// As GoTrue: the user's other unverified factors are abandoned enrolments.
		if err := tx.DeleteUnverifiedFactors(ctx, p.User.ID, f.ID, now.Add(time.Second)); err != nil {
			return err
		}
		sess, err := tx.SessionByID(ctx, p.Session.ID)
		if err != nil {
			return err
		}
		sess.AAL, sess.FactorID, sess.UpdatedAt = "aal2", f.ID, now
		sess.AMR = append(sess.AMR, fairbalance.AMREntry{Method: "totp", Timestamp: now.Unix()})
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		active, err := tx.ActiveRefreshToken(ctx, sess.ID)
		if errors.Is(err, fairbalance.ErrNotFound) {
			return errf(fairbalance.KindForbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
		}
		if err != nil {
			return err
		}
		// Jump the counter by two and break the parent link: the aal1 token
		// is then neither active nor the active one's parent, so presenting
		// it again counts as reuse and cannot lead to an aal2 token.
		parent := &fairbalance.RefreshToken{Counter: active.Counter + 1}
		rt, err := s.newRefreshToken(ctx, tx, sess, parent)
		if err != nil {
			return err
		}
		if err := tx.DeleteSessions(ctx, p.User.ID, sess.ID, true); err != nil {
			return err
		}
		u, err := tx.UserByID(ctx, p.User.ID)
		if err != nil {
			return err
		}
		if out, err = s.finish(u, sess, rt); err != nil {
			return err
		}
		action := "verification_attempted"
		if wasUnverified {
			action = "factor_verified"
		}
		return s.audit(ctx, tx, action, u, c, map[string]any{"factor_id": f.ID, "result": "accepted"})
	})
	if err != nil {
		return nil, internal(err)
	}
	if failed != nil {
		return nil, failed
	}
	return out, nil
}

// Unenroll removes one of the principal's factors. Removing a verified
// factor needs aal2; sessions that used it fall back to aal1.
func (s *Identity) Unenroll(ctx context.Context, c Client, p *Principal, factorID string) (*fairbalance.Factor, error) {
	if err := nonAnonymous(p); err != nil {
		return nil, err
	}
	f, err := s.ownFactor(p, factorID)
	if err != nil {
		return nil, err
	}
	if f.Status == "verified" && (p.Session == nil || p.Session.AAL != "aal2") {
		return nil, errf(fairbalance.KindUnprocessable, "insufficient_aal", "AAL2 required to unenroll verified factor")
	}
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		return s.deleteFactor(ctx, tx, p.User, f, c)
	})
	if err != nil {
		return nil, internal(err)
	}
	return f, nil
}

func (s *Identity) deleteFactor(ctx context.Context, tx fairbalance.Tx, u *fairbalance.User, f *fairbalance.Factor, c Client) error {
	if err := tx.DeleteFactor(ctx, f.ID); err != nil {
		return err
	}
	if err := tx.DowngradeSessions(ctx, f.ID); err != nil {
		return err
	}
	return s.audit(ctx, tx, "factor_deleted", u, c, map[string]any{"factor_id": f.ID})
}
