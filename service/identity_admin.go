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

// AdminUserInput is the body of POST /admin/users and PUT /admin/users/{id}.
type AdminUserInput struct {
	ID           string
	Email        *string
	Phone        *string
	Password     *string
	PasswordHash *string
	EmailConfirm *bool
	UserMetadata json.RawMessage
	AppMetadata  json.RawMessage
	Role         *string
	BanDuration  *string
}

// AdminListUsers lists users, oldest first unless desc, with the total.
func (s *Identity) AdminListUsers(ctx context.Context, page, perPage int, filter string, desc bool) ([]*fairbalance.User, int, error) {
	users, total, err := s.store.View().ListUsers(ctx, fairbalance.UserFilter{Search: filter, Desc: desc, Limit: perPage, Offset: (page - 1) * perPage})
	return users, total, internal(err)
}

// AdminGetUser returns one user; a malformed id or a missing user gives 404.
func (s *Identity) AdminGetUser(ctx context.Context, id string) (*fairbalance.User, error) {
	if !auth.IsUUID(id) {
		return nil, errf(fairbalance.KindNotFound, "validation_failed", "user_id must be an UUID")
	}
	u, err := s.store.View().UserByID(ctx, id)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return nil, errf(fairbalance.KindNotFound, "user_not_found", "User not found")
	}
	return u, internal(err)
}

func banUntil(now time.Time, d string) (*time.Time, error) {
	if d == "none" || d == "" {
		return nil, nil
	}
	dur, err := time.ParseDuration(d)
	if err != nil || dur < 0 {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "invalid format for ban duration: "+d)
	}
	t := now.Add(dur)
	return &t, nil
}

func (s *Identity) adminPassword(ctx context.Context, in AdminUserInput) (string, error) {
	switch {
	case in.Password != nil && in.PasswordHash != nil:
		return "", errf(fairbalance.KindInvalid, "validation_failed", "Only a password or a password hash should be provided")
	case in.PasswordHash != nil:
		h := *in.PasswordHash
		if !strings.HasPrefix(h, "$argon2id$") && !strings.HasPrefix(h, "$2a$") && !strings.HasPrefix(h, "$2b$") && !strings.HasPrefix(h, "$2y$") {
			return "", errf(fairbalance.KindInvalid, "validation_failed", "Invalid password hash format: only argon2id and bcrypt are supported")
		}
		return h, nil
	case in.Password != nil:
		if err := checkNewPassword(*in.Password); err != nil {
			return "", err
		}
		return s.hasher.Hash(ctx, *in.Password)
	}
	return "", nil
}

// AdminCreateUser creates a user directly (no e-mail is sent).
func (s *Identity) AdminCreateUser(ctx context.Context, c Client, in AdminUserInput) (*fairbalance.User, error) {
	if in.Phone != nil && *in.Phone != "" {
		return nil, errf(fairbalance.KindUnprocessable, "phone_provider_disabled", "Phone logins are disabled")
	}
	if in.Email == nil || *in.Email == "" {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Cannot create a user without either an email or phone")
	}
	email, err := normaliseEmail(*in.Email)
	if err != nil {
		return nil, err
	}
	if in.ID != "" && !auth.IsUUID(in.ID) {
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "id must be a UUID")
	}
	hash, err := s.adminPassword(ctx, in)
	if err != nil {
		return nil, internal(err)
	}
	// Without a password the account cannot sign in with one (an empty hash
	// never matches) until it sets one through an e-mailed link.
	var out *fairbalance.User
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		if _, err := tx.UserByEmail(ctx, email); err == nil {
			return errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
		} else if !errors.Is(err, fairbalance.ErrNotFound) {
			return err
		}
		u, id, err := s.newUser(email, hash, in.UserMetadata)
		if err != nil {
			return err
		}
		if in.ID != "" {
			u.ID, id.ProviderID, id.UserID = in.ID, in.ID, in.ID
			var d map[string]any
			_ = json.Unmarshal(id.IdentityData, &d)
			d["sub"] = in.ID
			id.IdentityData, _ = json.Marshal(d)
		}
		if err := s.applyAdmin(u, in); err != nil {
			return err
		}
		if err := s.createUser(ctx, tx, u, id); err != nil {
			if errors.Is(err, fairbalance.ErrConflict) {
				return errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
			}
			return err
		}
		if in.EmailConfirm != nil && *in.EmailConfirm {
			if err := s.confirmEmail(ctx, tx, u); err != nil {
				return err
			}
		}
		out = u
		return s.audit(ctx, tx, "user_signedup", u, c, map[string]any{"provider": "email", "by": "admin"})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// applyAdmin applies the metadata, role and ban of an admin change to u.
func (s *Identity) applyAdmin(u *fairbalance.User, in AdminUserInput) error {
	if len(in.UserMetadata) > 0 && string(in.UserMetadata) != "null" {
		m, err := mergeMetadata(u.UserMetadata, in.UserMetadata)
		if err != nil {
			return err
		}
		u.UserMetadata = m
	}
	if len(in.AppMetadata) > 0 && string(in.AppMetadata) != "null" {
		m, err := mergeMetadata(u.AppMetadata, in.AppMetadata)
		if err != nil {
			return err
		}
		u.AppMetadata = m
	}
	if in.Role != nil && *in.Role != "" {
		u.Role = *in.Role
	}
	if in.BanDuration != nil {
		t, err := banUntil(s.Now(), *in.BanDuration)
		if err != nil {
			return err
		}
		u.BannedUntil = t
	}
	return nil
}

// AdminUpdateUser changes a user as an administrator: e-mail (applied at
// once), password, confirmation, metadata, role, ban.
func (s *Identity) AdminUpdateUser(ctx context.Context, c Client, id string, in AdminUserInput) (*fairbalance.User, error) {
	if _, err := s.AdminGetUser(ctx, id); err != nil {
		return nil, err
	}
	var email string
	if in.Email != nil && *in.Email != "" {
		e, err := normaliseEmail(*in.Email)
		if err != nil {
			return nil, err
		}
		email = e
	}
	hash, err := s.adminPassword(ctx, in)
	if err != nil {
		return nil, internal(err)
	}
	var out *fairbalance.User
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByID(ctx, id)
		if err != nil {
			return err
		}
		now := s.Now()
		if email != "" && email != u.Email {
			if _, err := tx.UserByEmail(ctx, email); err == nil {
				return errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
			} else if !errors.Is(err, fairbalance.ErrNotFound) {
				return err
			}
			u.Email, u.EmailChange = email, ""
			for i := range u.Identities {
				idn := &u.Identities[i]
				var d map[string]any
				if json.Unmarshal(idn.IdentityData, &d) == nil && d != nil {
					d["email"] = email
					idn.IdentityData, _ = json.Marshal(d)
				}
				idn.Email, idn.UpdatedAt = email, now
				if err := tx.UpdateIdentity(ctx, idn); err != nil {
					return err
				}
			}
		}
		if hash != "" {
			u.PasswordHash = hash
		}
		if err := s.applyAdmin(u, in); err != nil {
			return err
		}
		u.UpdatedAt = now
		if err := tx.UpdateUser(ctx, u); err != nil {
			return err
		}
		if in.EmailConfirm != nil && *in.EmailConfirm {
			if err := s.confirmEmail(ctx, tx, u); err != nil {
				return err
			}
		}
		if u.BannedUntil != nil {
			if err := tx.DeleteSessions(ctx, u.ID, "", false); err != nil {
				return err
			}
		}
		out = u
		return s.audit(ctx, tx, "user_modified", u, c, map[string]any{"by": "admin"})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// AdminDeleteUser deletes a user, or with soft only marks it deleted: the
// identity can then never sign in again and is never reused.
func (s *Identity) AdminDeleteUser(ctx context.Context, c Client, id string, soft bool) error {
	if _, err := s.AdminGetUser(ctx, id); err != nil {
		return err
	}
	err := s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByID(ctx, id)
		if err != nil {
			return err
		}
		if err := s.audit(ctx, tx, "user_deleted", u, c, map[string]any{"soft": soft}); err != nil {
			return err
		}
		if !soft {
			return tx.DeleteUser(ctx, id)
		}
		now := s.Now()
		u.DeletedAt, u.UpdatedAt = &now, now
		u.PasswordHash = ""
		if err := tx.DeleteSessions(ctx, u.ID, "", false); err != nil {
			return err
		}
		return tx.UpdateUser(ctx, u)
	})
	return internal(err)
}

// AdminDeleteFactor removes a user's factor.
func (s *Identity) AdminDeleteFactor(ctx context.Context, c Client, userID, factorID string) (*fairbalance.Factor, error) {
	u, err := s.AdminGetUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	f, err := s.ownFactor(&Principal{User: u}, factorID)
	if err != nil {
		return nil, err
	}
	err = s.tx(ctx, func(tx fairbalance.Tx) error { return s.deleteFactor(ctx, tx, u, f, c) })
	if err != nil {
		return nil, internal(err)
	}
	return f, nil
}

// Invite creates (or re-invites) an unconfirmed user and e-mails an
// invitation link; a confirmed address gives email_exists.
func (s *Identity) Invite(ctx context.Context, c Client, email string, data json.RawMessage, redirectTo string) (*fairbalance.User, error) {
	addr, err := normaliseEmail(email)
	if err != nil {
		return nil, err
	}
	var out *fairbalance.User
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByEmail(ctx, addr)
		switch {
		case err == nil && u.EmailConfirmedAt != nil:
			return errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
		case err == nil:
			if m, err := mergeMetadata(u.UserMetadata, data); err == nil {
				u.UserMetadata = m
			}
		case errors.Is(err, fairbalance.ErrNotFound):
			nu, id, err := s.newUser(addr, "", data)
			if err != nil {
				return err
			}
			if err := s.createUser(ctx, tx, nu, id); err != nil {
				return err
			}
			u = nu
		default:
			return err
		}
		if err := s.sendConfirmation(ctx, tx, u, mailInvite, "invite", nil, redirectTo); err != nil {
			return err
		}
		out = u
		return s.audit(ctx, tx, "user_invited", u, c, nil)
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// GeneratedLink is the answer of POST /admin/generate_link.
type GeneratedLink struct {
	User             *fairbalance.User
	ActionLink       string
	EmailOTP         string
	HashedToken      string
	VerificationType string
	RedirectTo       string
}

// GenerateLinkInput is the body of POST /admin/generate_link.
type GenerateLinkInput struct {
	Type       string
	Email      string
	NewEmail   string
	Password   string
	Data       json.RawMessage
	RedirectTo string
}

// GenerateLink makes an e-mail action link without sending any e-mail.
func (s *Identity) GenerateLink(ctx context.Context, c Client, in GenerateLinkInput) (*GeneratedLink, error) {
	switch in.Type {
	case "signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new":
	default:
		return nil, errf(fairbalance.KindInvalid, "validation_failed", "Invalid email action link type requested: "+in.Type)
	}
	addr, err := normaliseEmail(in.Email)
	if err != nil {
		return nil, err
	}
	var newAddr string
	if strings.HasPrefix(in.Type, "email_change") {
		if newAddr, err = normaliseEmail(in.NewEmail); err != nil {
			return nil, err
		}
	}
	if in.Type == "signup" {
		if err := checkNewPassword(in.Password); err != nil {
			return nil, err
		}
	}
	var hash string
	if in.Password != "" {
		if hash, err = s.hasher.Hash(ctx, in.Password); err != nil {
			return nil, internal(err)
		}
	}
	out := &GeneratedLink{RedirectTo: s.redirect(in.RedirectTo)}
	err = s.tx(ctx, func(tx fairbalance.Tx) error {
		u, err := tx.UserByEmail(ctx, addr)
		if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
			return err
		}
		typ := in.Type
		if u == nil {
			switch typ {
			case "recovery", "email_change_current", "email_change_new":
				return errf(fairbalance.KindNotFound, "user_not_found", "User with this email not found")
			case "magiclink":
				typ = "signup"
			}
			nu, id, err := s.newUser(addr, hash, in.Data)
			if err != nil {
				return err
			}
			if err := s.createUser(ctx, tx, nu, id); err != nil {
				return err
			}
			u = nu
		} else if (typ == "signup" || typ == "invite") && u.EmailConfirmedAt != nil {
			return errf(fairbalance.KindUnprocessable, "email_exists", "A user with this email address has already been registered")
		}
		otp := auth.NewOTP()
		now := s.Now()
		tokenType, linkType, target := fairbalance.TokenConfirmation, typ, u.Email
		switch typ {
		case "magiclink", "recovery":
			tokenType = fairbalance.TokenRecovery
			u.RecoverySentAt = &now
		case "email_change_current":
			tokenType, linkType = fairbalance.TokenEmailChangeCurrent, "email_change"
		case "email_change_new":
			tokenType, linkType, target = fairbalance.TokenEmailChangeNew, "email_change", newAddr
		case "invite":
			u.InvitedAt = &now
			u.ConfirmationSentAt = &now
		default:
			u.ConfirmationSentAt = &now
		}
		if strings.HasPrefix(typ, "email_change") {
			u.EmailChange, u.EmailChangeSentAt = newAddr, &now
		}
		h := auth.TokenHash(target, otp)
		if err := tx.PutOneTimeToken(ctx, &fairbalance.OneTimeToken{ID: auth.NewUUID(), UserID: u.ID, TokenType: tokenType, TokenHash: h, RelatesTo: target, CreatedAt: now}); err != nil {
			return err
		}
		u.UpdatedAt = now
		if err := tx.UpdateUser(ctx, u); err != nil {
			return err
		}
		out.User, out.EmailOTP, out.HashedToken, out.VerificationType = u, otp, h, typ
		out.ActionLink = s.verifyLink(h, linkType, in.RedirectTo)
		return s.audit(ctx, tx, "admin_generate_link", u, c, map[string]any{"type": typ})
	})
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// CountUsers is the number of accounts.
func (s *Identity) CountUsers(ctx context.Context) (int, error) {
	n, err := s.store.View().CountUsers(ctx)
	return n, internal(err)
}
