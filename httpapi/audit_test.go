package httpapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"
)

// TestAuthAudit walks one account through every kind of auth event and
// checks each lands in the audit table with who, from where and when.
func TestAuthAudit(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		const email = "audit@example.com"
		start := len(h.events())
		h.do("POST", "/auth/v1/signup", map[string]any{"email": email, "password": testPassword}).OK(http.StatusOK)
		uid := h.userByEmail(email).ID
		h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "signup", "email": email, "token": mailCode(t, h.lastMail(email))}))
		h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": email, "password": "Wrong-Passw0rd"}).Err(http.StatusBadRequest, "invalid_credentials")
		s := h.signIn(email, testPassword)
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Changed-Passw0rd"}, bearer(s.AccessToken)).OK(http.StatusOK)
		f := h.enroll(s.AccessToken, "")
		aal2 := h.decodeSession(h.verifyFactor(s.AccessToken, f.ID, h.challenge(s.AccessToken, f.ID), totpCode(t, f.TOTP.Secret, h.clock.Now())))
		h.do("DELETE", "/auth/v1/factors/"+f.ID, nil, bearer(aal2.AccessToken)).OK(http.StatusOK)
		h.do("POST", "/auth/v1/logout", nil, bearer(aal2.AccessToken)).OK(http.StatusNoContent)

		events := h.events()[start:]
		var actions []string
		for _, e := range events {
			actions = append(actions, e.Action)
			if e.IP != "127.0.0.1" {
				t.Fatalf("%s without the client address: %+v", e.Action, e)
			}
			if !json.Valid(e.Payload) {
				t.Fatalf("%s payload %q", e.Action, e.Payload)
			}
			if d := e.CreatedAt.Sub(h.clock.Now()); d < -time.Second || d > time.Second {
				t.Fatalf("%s at %s, clock %s", e.Action, e.CreatedAt, h.clock.Now())
			}
			switch e.Action {
			case "login_failed":
				if e.ActorEmail != email {
					t.Fatalf("login_failed %+v", e)
				}
			default:
				if e.ActorID != uid || e.ActorEmail != email {
					t.Fatalf("%s has actor %q %q", e.Action, e.ActorID, e.ActorEmail)
				}
			}
		}
		want := []string{
			"user_signedup", "user_confirmation_requested", // sign-up
			"verification_attempted", "login", // confirmation
			"login_failed", "login", // failed and good sign-in
			"user_updated_password",
			"factor_in_progress", "challenge_created", "factor_verified", "factor_deleted",
			"logout",
		}
		if !slices.Equal(actions, want) {
			t.Fatalf("audit\n got %v\nwant %v", actions, want)
		}
	})
}
