// Package auth holds the identity service's primitives: password hashing and
// policy, signing keys and JWTs, TOTP, one-time and refresh tokens, PKCE.
// It has no HTTP and no SQL; package service composes it with the store.
package auth
