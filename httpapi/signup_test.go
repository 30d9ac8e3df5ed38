package httpapi_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func TestSignupWithConfirmation(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		r := h.do("POST", "/auth/v1/signup", map[string]any{
			"email": "Ada@Example.com", "password": testPassword, "data": map[string]any{"name": "Ada"},
			"code_challenge": nil, "code_challenge_method": nil, "gotrue_meta_security": map[string]any{"captcha_token": nil},
		}).OK(http.StatusOK)
		u := r.JSON()
		if _, ok := u["access_token"]; ok {
			t.Fatalf("session returned with confirmation on: %s", r.Body)
		}
		if !uuidRE.MatchString(str(t, u, "id")) || u["email"] != "ada@example.com" || u["aud"] != "authenticated" || u["role"] != "authenticated" || u["phone"] != "" || u["is_anonymous"] != false {
			t.Fatalf("user: %s", r.Body)
		}
		for _, k := range []string{"confirmation_sent_at", "created_at", "updated_at"} {
			if _, err := time.Parse(time.RFC3339Nano, str(t, u, k)); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
		}
		for _, k := range []string{"email_confirmed_at", "confirmed_at", "last_sign_in_at", "factors", "new_email", "banned_until", "deleted_at"} {
			if _, ok := u[k]; ok {
				t.Fatalf("%s present on a new user: %s", k, r.Body)
			}
		}
		if md, _ := u["user_metadata"].(map[string]any); md["name"] != "Ada" {
			t.Fatalf("user_metadata: %s", r.Body)
		}
		if am, _ := u["app_metadata"].(map[string]any); am["provider"] != "email" {
			t.Fatalf("app_metadata: %s", r.Body)
		}
		ids, _ := u["identities"].([]any)
		if len(ids) != 1 {
			t.Fatalf("identities: %s", r.Body)
		}
		ident := ids[0].(map[string]any)
		if ident["provider"] != "email" || ident["id"] != u["id"] || ident["user_id"] != u["id"] || !uuidRE.MatchString(str(t, ident, "identity_id")) {
			t.Fatalf("identity: %v", ident)
		}
		if d, _ := ident["identity_data"].(map[string]any); d["sub"] != u["id"] || d["email"] != "ada@example.com" || d["email_verified"] != false || d["name"] != "Ada" {
			t.Fatalf("identity_data: %v", ident)
		}

		// The confirmation e-mail carries a link and a code.
		mails := h.mails("ada@example.com")
		if len(mails) != 1 || mails[0].Kind != "confirmation" {
			t.Fatalf("mails: %v", mails)
		}
		link := mailLink(t, mails[0])
		if q := link.Query(); q.Get("type") != "signup" || q.Get("redirect_to") != siteURL || !regexp.MustCompile(`^[0-9a-f]{56}$`).MatchString(q.Get("token")) {
			t.Fatalf("link %s", link)
		}
		if link.Scheme+"://"+link.Host != siteURL || link.Path != "/auth/v1/verify" {
			t.Fatalf("link %s is not on the site", link)
		}
		mailCode(t, mails[0])

		// Unconfirmed: no sign-in yet.
		h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "ada@example.com", "password": testPassword}).
			Err(http.StatusBadRequest, "email_not_confirmed")

		// The link confirms and signs in (implicit flow: session in the fragment).
		loc := h.follow(link)
		if loc.Scheme+"://"+loc.Host != siteURL || loc.RawQuery != "" {
			t.Fatalf("redirect %s", loc)
		}
		f := fragment(t, loc)
		if f.Get("type") != "signup" || f.Get("token_type") != "bearer" || f.Get("access_token") == "" || f.Get("refresh_token") == "" || f.Get("expires_in") != "3600" || !f.Has("sb") {
			t.Fatalf("fragment %q", loc.Fragment)
		}
		me := h.do("GET", "/auth/v1/user", nil, bearer(f.Get("access_token"))).OK(http.StatusOK).JSON()
		if me["id"] != u["id"] || me["email_confirmed_at"] == nil || me["confirmed_at"] == nil {
			t.Fatalf("confirmed user: %v", me)
		}
		// As GoTrue: an implicit-flow link signs in with amr "otp".
		if c := claimsOf(t, f.Get("access_token")); c["amr"].([]any)[0].(map[string]any)["method"] != "otp" {
			t.Fatalf("amr %v", c["amr"])
		}
		// The link is single use.
		loc = h.follow(link)
		if fragment(t, loc).Get("error_code") != "otp_expired" {
			t.Fatalf("reused link: %s", loc)
		}
		// The password now works.
		h.signIn("ada@example.com", testPassword)
		want := []string{"user_signedup", "user_confirmation_requested", "login_failed", "verification_attempted", "login", "login"}
		if got := h.actions(); !slices.Equal(got, want) {
			t.Fatalf("audit %v, want %v", got, want)
		}
	})
}

func TestSignupExistingAddress(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		t.Run("confirmed gives an obfuscated user", func(t *testing.T) {
			h := h.in(t)
			realID := h.seedUser("taken@example.com", true)
			before := h.snapshot()
			r := h.do("POST", "/auth/v1/signup", map[string]any{"email": "Taken@example.com", "password": testPassword}).OK(http.StatusOK)
			u := r.JSON()
			if u["id"] == realID || !uuidRE.MatchString(str(t, u, "id")) {
				t.Fatalf("obfuscated user has id %v (real %s)", u["id"], realID)
			}
			if ids, ok := u["identities"].([]any); !ok || len(ids) != 0 {
				t.Fatalf("identities: %s", r.Body)
			}
			if u["role"] != "" || u["email"] != "taken@example.com" || u["confirmation_sent_at"] == nil {
				t.Fatalf("obfuscated user: %s", r.Body)
			}
			if _, ok := u["email_confirmed_at"]; ok {
				t.Fatalf("obfuscated user is confirmed: %s", r.Body)
			}
			if _, ok := u["access_token"]; ok {
				t.Fatal("session for an existing address")
			}
			// Nothing written but the audit entry; no e-mail to the owner.
			h.unchanged(before, "sign-up of a confirmed address", "auth_audit")
			if ev := h.events(); ev[len(ev)-1].Action != "user_repeated_signup" || ev[len(ev)-1].ActorID != realID {
				t.Fatalf("audit: %+v", ev[len(ev)-1])
			}
		})

		t.Run("unconfirmed resends, at most once a minute, without taking over the account", func(t *testing.T) {
			h := h.in(t)
			first := h.do("POST", "/auth/v1/signup", map[string]any{"email": "pending@example.com", "password": testPassword}).OK(http.StatusOK).JSON()
			before := h.snapshot()
			msg := h.do("POST", "/auth/v1/signup", map[string]any{"email": "pending@example.com", "password": "Other-Passw0rd"}).
				Err(http.StatusTooManyRequests, "over_email_send_rate_limit")
			if !regexp.MustCompile(`^For security purposes, you can only request this after \d+ seconds\.$`).MatchString(msg) {
				t.Fatalf("message %q", msg)
			}
			h.unchanged(before, "rate-limited sign-up")
			oldLink := mailLink(t, h.lastMail("pending@example.com"))

			h.clock.Advance(61 * time.Second)
			again := h.do("POST", "/auth/v1/signup", map[string]any{"email": "pending@example.com", "password": "Other-Passw0rd", "data": map[string]any{"admin": true}}).OK(http.StatusOK).JSON()
			if again["id"] != first["id"] {
				t.Fatalf("second sign-up made another user: %v vs %v", again["id"], first["id"])
			}
			mails := h.mails("pending@example.com")
			if len(mails) != 2 || mails[0].Kind != "confirmation" {
				t.Fatalf("mails: %d", len(mails))
			}
			// Only the newest link works.
			if fragment(t, h.follow(oldLink)).Get("error_code") != "otp_expired" {
				t.Fatal("superseded link still works")
			}
			h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "signup", "email": "pending@example.com", "token": mailCode(t, mails[0])}))
			// Whoever signed up second did not set the password or the metadata.
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "pending@example.com", "password": "Other-Passw0rd"}).
				Err(http.StatusBadRequest, "invalid_credentials")
			s := h.signIn("pending@example.com", testPassword)
			if md, _ := s.User["user_metadata"].(map[string]any); md["admin"] != nil {
				t.Fatalf("metadata of the second sign-up applied: %v", md)
			}
		})
	})
}

func TestSignupRefusals(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("someone@example.com", true)
		cases := []struct {
			name    string
			body    any
			status  int
			code    string
			reasons []string
		}{
			{"too short", map[string]any{"email": "w1@example.com", "password": "Sh0rtpw"}, 422, "weak_password", []string{"length"}},
			{"no upper case", map[string]any{"email": "w2@example.com", "password": "lowercase1only"}, 422, "weak_password", []string{"characters"}},
			{"no lower case", map[string]any{"email": "w3@example.com", "password": "UPPERCASE1ONLY"}, 422, "weak_password", []string{"characters"}},
			{"no digit", map[string]any{"email": "w4@example.com", "password": "NoDigitsHere"}, 422, "weak_password", []string{"characters"}},
			{"short and simple", map[string]any{"email": "w5@example.com", "password": "abc"}, 422, "weak_password", []string{"length", "characters"}},
			{"empty password", map[string]any{"email": "w6@example.com", "password": ""}, 400, "validation_failed", nil},
			{"null password", map[string]any{"email": "w6@example.com", "password": nil}, 400, "validation_failed", nil},
			{"73 characters", map[string]any{"email": "w7@example.com", "password": "Aa1" + strings.Repeat("x", 70)}, 400, "validation_failed", nil},
			{"10000 characters", map[string]any{"email": "w8@example.com", "password": "Aa1" + strings.Repeat("x", 9997)}, 400, "validation_failed", nil},
			{"SQL in the address", map[string]any{"email": "a'; DROP TABLE users;--@x.com", "password": testPassword}, 400, "validation_failed", nil},
			{"Cyrillic a", map[string]any{"email": "\u0430lice@example.com", "password": testPassword}, 400, "validation_failed", nil},
			{"confusable of an existing address", map[string]any{"email": "s\u043emeone@example.com", "password": testPassword}, 400, "validation_failed", nil},
			{"display name", map[string]any{"email": "Eve <eve@example.com>", "password": testPassword}, 400, "validation_failed", nil},
			{"no at sign", map[string]any{"email": "eve.example.com", "password": testPassword}, 400, "validation_failed", nil},
			{"no domain dot", map[string]any{"email": "eve@localhost", "password": testPassword}, 400, "validation_failed", nil},
			{"inner space", map[string]any{"email": "e ve@example.com", "password": testPassword}, 400, "validation_failed", nil},
			{"newline", map[string]any{"email": "eve@example.com\nBcc: x@example.com", "password": testPassword}, 400, "validation_failed", nil},
			{"over 255 characters", map[string]any{"email": strings.Repeat("e", 250) + "@example.com", "password": testPassword}, 400, "validation_failed", nil},
			{"bad PKCE challenge", map[string]any{"email": "p1@example.com", "password": testPassword, "code_challenge": "short", "code_challenge_method": "s256"}, 400, "validation_failed", nil},
			{"PKCE method without challenge", map[string]any{"email": "p2@example.com", "password": testPassword, "code_challenge_method": "s256"}, 400, "validation_failed", nil},
			{"PKCE unknown method", map[string]any{"email": "p3@example.com", "password": testPassword, "code_challenge": strings.Repeat("a", 43), "code_challenge_method": "md5"}, 400, "validation_failed", nil},
			{"data not an object", map[string]any{"email": "d1@example.com", "password": testPassword, "data": []int{1}}, 400, "validation_failed", nil},
			{"no e-mail (anonymous)", map[string]any{"data": map[string]any{}}, 422, "anonymous_provider_disabled", nil},
			{"phone", map[string]any{"phone": "15551234567", "password": testPassword}, 422, "phone_provider_disabled", nil},
			{"malformed JSON", raw(`{"email": "x@example.com", "password": `), 400, "bad_json", nil},
			{"JSON array", raw(`[1,2]`), 400, "bad_json", nil},
			{"email not a string", raw(`{"email": 42, "password": "x"}`), 400, "bad_json", nil},
			{"body over 1 MiB", raw(`{"email":"big@example.com","password":"` + testPassword + `","data":{"x":"` + strings.Repeat("y", 1<<20+1) + `"}}`), 413, "request_entity_too_large", nil},
		}
		before := h.snapshot()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := h.in(t)
				r := h.do("POST", "/auth/v1/signup", c.body)
				r.Err(c.status, c.code)
				if c.code == "weak_password" {
					wp, _ := r.JSON()["weak_password"].(map[string]any)
					var got []string
					for _, x := range wp["reasons"].([]any) {
						got = append(got, x.(string))
					}
					if !slices.Equal(got, c.reasons) {
						t.Fatalf("reasons %v, want %v", got, c.reasons)
					}
				}
			})
		}
		h.unchanged(before, "refused sign-ups")
		if n := len(h.mails("")); n != 0 {
			t.Fatalf("%d e-mails sent by refused sign-ups", n)
		}
	})
}

func TestSignupAutoconfirm(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		s := h.decodeSession(h.do("POST", "/auth/v1/signup", map[string]any{"email": "auto@example.com", "password": testPassword}))
		if s.TokenType != "bearer" || s.ExpiresIn != 3600 || s.User["email_confirmed_at"] == nil {
			t.Fatalf("session: %+v", s)
		}
		if len(h.mails("auto@example.com")) != 0 {
			t.Fatal("confirmation mail sent with autoconfirm")
		}
		c := claimsOf(t, s.AccessToken)
		if c["aal"] != "aal1" || c["amr"].([]any)[0].(map[string]any)["method"] != "password" {
			t.Fatalf("claims %v", c)
		}
		h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).OK(http.StatusOK)
		before := h.snapshot()
		h.do("POST", "/auth/v1/signup", map[string]any{"email": "auto@example.com", "password": testPassword}).
			Err(http.StatusUnprocessableEntity, "user_already_exists")
		h.unchanged(before, "sign-up of an existing address")
		if r := h.do("GET", "/auth/v1/settings", nil).JSON(); r["mailer_autoconfirm"] != true {
			t.Fatalf("settings: %v", r)
		}
	}, withAutoconfirm)
}

func TestSignupDisabled(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		before := h.snapshot()
		h.do("POST", "/auth/v1/signup", map[string]any{"email": "closed@example.com", "password": testPassword}).
			Err(http.StatusUnprocessableEntity, "signup_disabled")
		h.do("POST", "/auth/v1/otp", map[string]any{"email": "closed@example.com"}).
			Err(http.StatusUnprocessableEntity, "signup_disabled")
		h.unchanged(before, "disabled sign-up")
		if r := h.do("GET", "/auth/v1/settings", nil).JSON(); r["disable_signup"] != true {
			t.Fatalf("settings: %v", r)
		}
		// Invitations still work.
		h.admin("POST", "/auth/v1/invite", map[string]any{"email": "invited@example.com"}).OK(http.StatusOK)
	}, withDisableSignup)
}

// pkcePair returns a verifier as auth-js makes it (112 hex characters) and
// its S256 challenge.
func pkcePair(seed byte) (verifier, challenge string) {
	b := make([]byte, 56)
	for i := range b {
		b[i] = seed + byte(i)
	}
	verifier = hex.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

func TestSignupPKCE(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		verifier, challenge := pkcePair(7)
		h.do("POST", "/auth/v1/signup?redirect_to="+allowedURL+"callback?next=%2Fhome", map[string]any{
			"email": "pkce@example.com", "password": testPassword, "code_challenge": challenge, "code_challenge_method": "s256",
		}).OK(http.StatusOK)
		link := mailLink(t, h.lastMail("pkce@example.com"))
		if !strings.HasPrefix(link.Query().Get("token"), "pkce_") {
			t.Fatalf("PKCE link token %q", link.Query().Get("token"))
		}
		if got := link.Query().Get("redirect_to"); got != allowedURL+"callback?next=/home" {
			t.Fatalf("redirect_to %q", got)
		}
		loc := h.follow(link)
		if loc.Fragment != "" || loc.Host != "localhost:3000" || loc.Path != "/callback" || loc.Query().Get("next") != "/home" {
			t.Fatalf("PKCE redirect %s", loc)
		}
		code := loc.Query().Get("code")
		if !uuidRE.MatchString(code) {
			t.Fatalf("auth code %q", code)
		}
		// Exchange: bad inputs first; none of them consumes the code.
		before := h.snapshot()
		h.do("POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": strings.Repeat("0", 112)}).
			Err(http.StatusBadRequest, "bad_code_verifier")
		h.do("POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": ""}).
			Err(http.StatusBadRequest, "validation_failed")
		h.do("POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": "", "code_verifier": verifier}).
			Err(http.StatusBadRequest, "validation_failed")
		h.unchanged(before, "refused code exchanges")
		s := h.decodeSession(h.do("POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": verifier}))
		if s.User["email"] != "pkce@example.com" || s.User["email_confirmed_at"] == nil {
			t.Fatalf("pkce session user: %v", s.User)
		}
		if c := claimsOf(t, s.AccessToken); c["amr"].([]any)[0].(map[string]any)["method"] != "email/signup" {
			t.Fatalf("amr %v", c["amr"])
		}
		// Single use.
		h.do("POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": verifier}).
			Err(http.StatusNotFound, "flow_state_not_found")
	})
}

func TestPKCEFlowExpiry(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("slow@example.com", true)
		verifier, challenge := pkcePair(9)
		h.do("POST", "/auth/v1/recover", map[string]any{"email": "slow@example.com", "code_challenge": challenge, "code_challenge_method": "S256"}).OK(http.StatusOK)
		loc := h.follow(mailLink(t, h.lastMail("slow@example.com")))
		code := loc.Query().Get("code")
		if code == "" {
			t.Fatalf("no code: %s", loc)
		}
		h.clock.Advance(301 * time.Second)
		h.do("POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": verifier}).
			Err(http.StatusUnprocessableEntity, "flow_state_expired")
	})
}
