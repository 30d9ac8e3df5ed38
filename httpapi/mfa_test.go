package httpapi_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"fairbalance/httpapi"
	"fairbalance/service"
)

type enrolment struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	FriendlyName string `json:"friendly_name"`
	TOTP         struct {
		QRCode string `json:"qr_code"`
		Secret string `json:"secret"`
		URI    string `json:"uri"`
	} `json:"totp"`
}

func (h *harness) enroll(tok, name string) *enrolment {
	h.t.Helper()
	var e enrolment
	h.do("POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": name}, bearer(tok)).OK(http.StatusOK).Decode(&e)
	return &e
}

func (h *harness) challenge(tok, factorID string, opts ...reqOpt) string {
	h.t.Helper()
	var c struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		ExpiresAt int64  `json:"expires_at"`
	}
	h.do("POST", "/auth/v1/factors/"+factorID+"/challenge", map[string]any{"factorId": factorID}, append(opts, bearer(tok))...).OK(http.StatusOK).Decode(&c)
	if !uuidRE.MatchString(c.ID) || c.Type != "totp" || c.ExpiresAt != h.clock.Now().Add(300*time.Second).Unix() {
		h.t.Fatalf("challenge %+v", c)
	}
	return c.ID
}

func (h *harness) verifyFactor(tok, factorID, challengeID, code string, opts ...reqOpt) *response {
	h.t.Helper()
	return h.do("POST", "/auth/v1/factors/"+factorID+"/verify", map[string]any{"challenge_id": challengeID, "code": code}, append(opts, bearer(tok))...)
}

func factorsOf(t testing.TB, u map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	list, _ := u["factors"].([]any)
	for _, f := range list {
		m := f.(map[string]any)
		out[m["id"].(string)] = m["status"].(string)
	}
	return out
}

func TestMFA(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("mfa@example.com", true)
		h.seedUser("eve@example.com", true)
		a := h.signIn("mfa@example.com", testPassword)
		b := h.signIn("mfa@example.com", testPassword)
		eve := h.signIn("eve@example.com", testPassword)

		// Enrolment.
		f1 := h.enroll(a.AccessToken, "Phone")
		if !uuidRE.MatchString(f1.ID) || f1.Type != "totp" || f1.FriendlyName != "Phone" || !strings.HasPrefix(f1.TOTP.QRCode, "<svg") || !strings.HasSuffix(f1.TOTP.QRCode, "</svg>") {
			t.Fatalf("enrolment %+v", f1)
		}
		uri, err := url.Parse(f1.TOTP.URI)
		if err != nil || uri.Scheme != "otpauth" || uri.Host != "totp" || !strings.HasPrefix(f1.TOTP.URI, "otpauth://totp/") {
			t.Fatalf("uri %q", f1.TOTP.URI)
		}
		if q := uri.Query(); q.Get("secret") != f1.TOTP.Secret || q.Get("issuer") != "review.example.com" || q.Get("digits") != "6" || q.Get("period") != "30" || q.Get("algorithm") != "SHA1" {
			t.Fatalf("uri %q", f1.TOTP.URI)
		}
		if !strings.Contains(uri.Path, "mfa@example.com") {
			t.Fatalf("uri account %q", uri.Path)
		}
		f2 := h.enroll(a.AccessToken, "Backup")
		if got := factorsOf(t, h.do("GET", "/auth/v1/user", nil, bearer(a.AccessToken)).OK(http.StatusOK).JSON()); got[f1.ID] != "unverified" || got[f2.ID] != "unverified" {
			t.Fatalf("factors %v", got)
		}

		t.Run("enrolment refusals", func(t *testing.T) {
			h := h.in(t)
			before := h.snapshot()
			for _, c := range []struct {
				body   map[string]any
				status int
				code   string
			}{
				{map[string]any{"factor_type": "totp", "friendly_name": "Phone"}, 422, "mfa_factor_name_conflict"},
				{map[string]any{"factor_type": "phone", "phone": "15551234567"}, 422, "mfa_phone_enroll_not_enabled"},
				{map[string]any{"factor_type": "webauthn"}, 422, "mfa_webauthn_enroll_not_enabled"},
				{map[string]any{"factor_type": "sms"}, 400, "validation_failed"},
				{map[string]any{}, 400, "validation_failed"},
				{map[string]any{"factor_type": "totp", "friendly_name": strings.Repeat("n", 129)}, 400, "validation_failed"},
			} {
				h.do("POST", "/auth/v1/factors", c.body, bearer(a.AccessToken)).Err(c.status, c.code)
			}
			h.do("POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}).Err(http.StatusForbidden, "bad_jwt")
			h.unchanged(before, "refused enrolments")
		})

		t.Run("challenge and verify refusals", func(t *testing.T) {
			h := h.in(t)
			c2 := h.challenge(a.AccessToken, f2.ID)
			c1 := h.challenge(a.AccessToken, f1.ID)
			good := totpCode(t, f1.TOTP.Secret, h.clock.Now())
			wrong := "000000"
			if good == wrong {
				wrong = "111111"
			}
			before := h.snapshot()
			h.do("POST", "/auth/v1/factors/not-a-uuid/challenge", nil, bearer(a.AccessToken)).Err(http.StatusNotFound, "validation_failed")
			h.do("POST", "/auth/v1/factors/00000000-0000-4000-8000-000000000000/challenge", nil, bearer(a.AccessToken)).Err(http.StatusNotFound, "mfa_factor_not_found")
			h.do("POST", "/auth/v1/factors/"+f1.ID+"/challenge", nil, bearer(eve.AccessToken)).Err(http.StatusNotFound, "mfa_factor_not_found")
			h.verifyFactor(a.AccessToken, "not-a-uuid", c1, good).Err(http.StatusNotFound, "validation_failed")
			h.verifyFactor(a.AccessToken, "00000000-0000-4000-8000-000000000000", c1, good).Err(http.StatusNotFound, "mfa_factor_not_found")
			h.verifyFactor(eve.AccessToken, f1.ID, c1, good).Err(http.StatusNotFound, "mfa_factor_not_found")
			// A challenge of another factor, or none at all.
			h.verifyFactor(a.AccessToken, f1.ID, c2, good).Err(http.StatusUnprocessableEntity, "mfa_factor_not_found")
			h.verifyFactor(a.AccessToken, f1.ID, "00000000-0000-4000-8000-000000000000", good).Err(http.StatusUnprocessableEntity, "mfa_factor_not_found")
			h.verifyFactor(a.AccessToken, f1.ID, c1, "").Err(http.StatusBadRequest, "validation_failed")
			h.unchanged(before, "refused verifications")
			msg := h.verifyFactor(a.AccessToken, f1.ID, c1, wrong).Err(http.StatusUnprocessableEntity, "mfa_verification_failed")
			if msg != "Invalid TOTP code entered" {
				t.Fatalf("message %q", msg)
			}
			// Only the audit entry was written.
			h.unchanged(before, "wrong code", "auth_audit")
			if ev := h.events(); ev[len(ev)-1].Action != "verification_attempted" || !strings.Contains(string(ev[len(ev)-1].Payload), "rejected") {
				t.Fatalf("wrong code audit %+v", ev[len(ev)-1])
			}
			// Challenges expire after 300 s.
			h.clock.Advance(301 * time.Second)
			h.verifyFactor(a.AccessToken, f1.ID, c1, totpCode(t, f1.TOTP.Secret, h.clock.Now())).Err(http.StatusUnprocessableEntity, "mfa_challenge_expired")
		})

		// Verification raises the session to aal2 with a new refresh token.
		c := h.challenge(a.AccessToken, f1.ID)
		r := h.verifyFactor(a.AccessToken, f1.ID, c, totpCode(t, f1.TOTP.Secret, h.clock.Now()))
		a2 := h.decodeSession(r)
		checkAccessToken(t, h, a2.AccessToken, uid, "mfa@example.com", "aal2", []string{"totp", "password"})
		if a2.RefreshToken == a.RefreshToken || claimsOf(t, a2.AccessToken)["session_id"] != claimsOf(t, a.AccessToken)["session_id"] {
			t.Fatal("verify did not replace the refresh token of the same session")
		}
		factors := factorsOf(t, a2.User)
		if factors[f1.ID] != "verified" {
			t.Fatalf("factors after verify %v", factors)
		}
		if _, ok := factors[f2.ID]; ok {
			t.Fatalf("other unverified factor kept after verify: %v", factors)
		}
		// The challenge is spent.
		h.verifyFactor(a2.AccessToken, f1.ID, c, totpCode(t, f1.TOTP.Secret, h.clock.Now())).Err(http.StatusUnprocessableEntity, "mfa_ip_address_mismatch")
		// Other aal1 sessions of the user ended; other users' did not.
		h.do("GET", "/auth/v1/user", nil, bearer(b.AccessToken)).Err(http.StatusForbidden, "session_not_found")
		h.refresh(b.RefreshToken).Err(http.StatusBadRequest, "refresh_token_not_found")
		h.do("GET", "/auth/v1/user", nil, bearer(eve.AccessToken)).OK(http.StatusOK)
		// Refreshing keeps aal2.
		a3 := h.decodeSession(h.refresh(a2.RefreshToken))
		if claimsOf(t, a3.AccessToken)["aal"] != "aal2" {
			t.Fatal("refresh lost aal2")
		}

		// A new password sign-in is aal1 and may not change what MFA protects.
		lo := h.signIn("mfa@example.com", testPassword)
		if claimsOf(t, lo.AccessToken)["aal"] != "aal1" {
			t.Fatal("password sign-in with MFA is not aal1")
		}
		before := h.snapshot()
		h.do("POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": "Third"}, bearer(lo.AccessToken)).Err(http.StatusForbidden, "insufficient_aal")
		h.do("DELETE", "/auth/v1/factors/"+f1.ID, nil, bearer(lo.AccessToken)).Err(http.StatusUnprocessableEntity, "insufficient_aal")
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Another-Passw0rd"}, bearer(lo.AccessToken)).Err(http.StatusUnauthorized, "insufficient_aal")
		h.do("PUT", "/auth/v1/user", map[string]any{"email": "mfa.new@example.com"}, bearer(lo.AccessToken)).Err(http.StatusUnauthorized, "insufficient_aal")
		h.unchanged(before, "refused aal1 changes")
		// Metadata is not protected.
		h.do("PUT", "/auth/v1/user", map[string]any{"data": map[string]any{"k": "v"}}, bearer(lo.AccessToken)).OK(http.StatusOK)

		// At aal2 a second factor may be enrolled, and the first removed.
		f3 := h.enroll(a3.AccessToken, "Third")
		r = h.do("DELETE", "/auth/v1/factors/"+f1.ID, nil, bearer(a3.AccessToken)).OK(http.StatusOK)
		if got := r.JSON(); got["id"] != f1.ID || len(got) != 1 {
			t.Fatalf("unenroll body %s", r.Body)
		}
		h.do("DELETE", "/auth/v1/factors/"+f1.ID, nil, bearer(a3.AccessToken)).Err(http.StatusNotFound, "mfa_factor_not_found")
		// The session that used it is aal1 again from its next token.
		a4 := h.decodeSession(h.refresh(a3.RefreshToken))
		if claimsOf(t, a4.AccessToken)["aal"] != "aal1" {
			t.Fatalf("session not downgraded: %v", claimsOf(t, a4.AccessToken)["aal"])
		}
		// An unverified factor may be removed at aal1.
		h.do("DELETE", "/auth/v1/factors/"+f3.ID, nil, bearer(lo.AccessToken)).OK(http.StatusOK)
		if _, ok := h.do("GET", "/auth/v1/user", nil, bearer(lo.AccessToken)).OK(http.StatusOK).JSON()["factors"]; ok {
			t.Fatal("factors left")
		}

		// The aal1 refresh token from before the verification cannot be used
		// any more (and presenting it revokes the session's tokens).
		h.refresh(a.RefreshToken).Err(http.StatusBadRequest, "refresh_token_already_used")

		var got []string
		for _, e := range h.events() {
			if strings.HasPrefix(e.Action, "factor_") || e.Action == "challenge_created" {
				got = append(got, e.Action)
			}
		}
		for _, want := range []string{"factor_in_progress", "challenge_created", "factor_verified", "factor_deleted"} {
			if !slices.Contains(got, want) {
				t.Fatalf("audit lacks %s: %v", want, got)
			}
		}
	})
}

func TestMFAStepUp(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("step@example.com", true)
		s := h.signIn("step@example.com", testPassword)
		f := h.enroll(s.AccessToken, "")
		if f.FriendlyName != "" {
			t.Fatalf("friendly name %q", f.FriendlyName)
		}
		h.decodeSession(h.verifyFactor(s.AccessToken, f.ID, h.challenge(s.AccessToken, f.ID), totpCode(t, f.TOTP.Secret, h.clock.Now())))
		// Later: sign in with the password (aal1), then step up with a code.
		h.clock.Advance(time.Hour)
		lo := h.signIn("step@example.com", testPassword)
		if u := lo.User; factorsOf(t, u)[f.ID] != "verified" {
			t.Fatalf("factors %v", u["factors"])
		}
		// A code from the previous or next 30 s step is accepted too.
		up := h.decodeSession(h.verifyFactor(lo.AccessToken, f.ID, h.challenge(lo.AccessToken, f.ID), totpCode(t, f.TOTP.Secret, h.clock.Now().Add(-30*time.Second))))
		checkAccessToken(t, h, up.AccessToken, uid, "step@example.com", "aal2", []string{"totp", "password"})
		// Too old a code is not.
		h.verifyFactor(up.AccessToken, f.ID, h.challenge(up.AccessToken, f.ID), totpCode(t, f.TOTP.Secret, h.clock.Now().Add(-90*time.Second))).
			Err(http.StatusUnprocessableEntity, "mfa_verification_failed")
	})
}

func TestMFATooManyFactors(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("many@example.com", true)
		s := h.signIn("many@example.com", testPassword)
		for i := range 10 {
			h.enroll(s.AccessToken, "f"+string(rune('a'+i)))
		}
		before := h.snapshot()
		h.do("POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": "one too many"}, bearer(s.AccessToken)).
			Err(http.StatusUnprocessableEntity, "too_many_enrolled_mfa_factors")
		h.unchanged(before, "refused eleventh factor")
		// Unverified factors older than five minutes are cleared by the next enrolment.
		h.clock.Advance(301 * time.Second)
		h.enroll(s.AccessToken, "fresh")
		if n := len(factorsOf(t, h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).OK(http.StatusOK).JSON())); n != 1 {
			t.Fatalf("%d factors after the purge", n)
		}
	})
}

func withForwardedFor(_ *service.IdentityConfig, c *httpapi.Config) {
	c.ForwardedForHeader = "X-Forwarded-For"
}

func TestMFAChallengeAddress(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("ip@example.com", true)
		s := h.signIn("ip@example.com", testPassword)
		f := h.enroll(s.AccessToken, "")
		c := h.challenge(s.AccessToken, f.ID, header("X-Forwarded-For", "203.0.113.1, 10.0.0.1"))
		code := totpCode(t, f.TOTP.Secret, h.clock.Now())
		before := h.snapshot()
		h.verifyFactor(s.AccessToken, f.ID, c, code, header("X-Forwarded-For", "203.0.113.2")).Err(http.StatusUnprocessableEntity, "mfa_ip_address_mismatch")
		h.unchanged(before, "verify from another address")
		h.decodeSession(h.verifyFactor(s.AccessToken, f.ID, c, code, header("X-Forwarded-For", "203.0.113.1")))
	}, withForwardedFor)
}

// TestMFAPasswordRecovery: the e-mailed recovery link is one factor, so the
// session it gives an account with a verified authenticator is aal1 and may
// not set a password until it has answered the authenticator challenge.
func TestMFAPasswordRecovery(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("reset2fa@example.com", true)
		s := h.signIn("reset2fa@example.com", testPassword)
		f := h.enroll(s.AccessToken, "Phone")
		h.decodeSession(h.verifyFactor(s.AccessToken, f.ID, h.challenge(s.AccessToken, f.ID), totpCode(t, f.TOTP.Secret, h.clock.Now())))

		h.clock.Advance(time.Hour)
		h.do("POST", "/auth/v1/recover", map[string]any{"email": "reset2fa@example.com"}).OK(http.StatusOK)
		code := mailCode(t, h.lastMail("reset2fa@example.com"))
		rec := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "email": "reset2fa@example.com", "token": code}))
		if claimsOf(t, rec.AccessToken)["aal"] != "aal1" {
			t.Fatalf("recovery session of a two-step account at %v, want aal1", claimsOf(t, rec.AccessToken)["aal"])
		}
		before := h.snapshot()
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Recovered-Passw0rd"}, bearer(rec.AccessToken)).Err(http.StatusUnauthorized, "insufficient_aal")
		h.unchanged(before, "password set from an aal1 recovery session")
		h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "reset2fa@example.com", "password": "Recovered-Passw0rd"}).Err(http.StatusBadRequest, "invalid_credentials")

		// With the authenticator's code the same session may.
		up := h.decodeSession(h.verifyFactor(rec.AccessToken, f.ID, h.challenge(rec.AccessToken, f.ID), totpCode(t, f.TOTP.Secret, h.clock.Now())))
		if claimsOf(t, up.AccessToken)["aal"] != "aal2" {
			t.Fatal("the code did not raise the recovery session to aal2")
		}
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Recovered-Passw0rd"}, bearer(up.AccessToken)).OK(http.StatusOK)
		h.signIn("reset2fa@example.com", "Recovered-Passw0rd")
	})
}
