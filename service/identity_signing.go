package service

import (
	"context"
	"errors"
	"strings"

	"fairbalance"
	"fairbalance/auth"
)

// SignerCheck is the outcome of checking a signer's credentials.
type SignerCheck string

// The outcomes of SignerCredentials.CheckSigner.
const (
	// SignerOK: the password, and the authenticator code when one is
	// needed, are right.
	SignerOK SignerCheck = "ok"
	// SignerBadPassword: the password is wrong (or the account is gone).
	SignerBadPassword SignerCheck = "password"
	// SignerCodeRequired: the password is right, the account has a
	// verified authenticator and no code was given.
	SignerCodeRequired SignerCheck = "code_required"
	// SignerBadCode: the password is right, the authenticator code wrong.
	SignerBadCode SignerCheck = "code"
)

// SignerCredentials verifies an electronic signature's components at the
// moment of signing (21 CFR 11.200): the signer's password and, when they
// have a verified authenticator, its current code, whatever the session.
type SignerCredentials interface {
	CheckSigner(ctx context.Context, userID, password, totpCode string) (SignerCheck, error)
}

var _ SignerCredentials = (*Identity)(nil)

// CheckSigner verifies userID's password with the instance's password
// hasher (the same work for an unknown account) and, when the account has
// a verified TOTP factor, code against each such factor at this moment.
func (s *Identity) CheckSigner(ctx context.Context, userID, password, code string) (SignerCheck, error) {
	u, err := s.store.View().UserByID(ctx, userID)
	if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return "", err
	}
	hash := ""
	if u != nil && u.DeletedAt == nil {
		hash = u.PasswordHash
	}
	if len(password) > auth.MaxPasswordLength {
		password, hash = password[:auth.MaxPasswordLength], ""
	}
	ok, err := s.hasher.Verify(ctx, password, hash)
	if err != nil && !errors.Is(err, auth.ErrUnknownHash) {
		return "", err
	}
	if !ok || hash == "" {
		return SignerBadPassword, nil
	}
	var secrets []string
	for _, f := range u.Factors {
		if f.Status == "verified" && f.FactorType == "totp" {
			secret, err := s.sealer.Open(f.Secret)
			if err != nil {
				return "", err
			}
			secrets = append(secrets, secret)
		}
	}
	if len(secrets) == 0 {
		return SignerOK, nil
	}
	code = strings.TrimSpace(code)
	if code == "" {
		return SignerCodeRequired, nil
	}
	now := s.Now()
	for _, secret := range secrets {
		if auth.ValidateTOTP(secret, code, now) {
			return SignerOK, nil
		}
	}
	return SignerBadCode, nil
}
