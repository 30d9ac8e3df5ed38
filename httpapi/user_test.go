package httpapi_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestUpdateUserMetadata(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("meta@example.com", true)
		s := h.signIn("meta@example.com", testPassword)
		put := func(body any) *response {
			return h.do("PUT", "/auth/v1/user", body, bearer(s.AccessToken))
		}
		u := put(map[string]any{"data": map[string]any{"name": "Meta", "team": "QA", "n": 1}}).OK(http.StatusOK).JSON()
		if !reflect.DeepEqual(u["user_metadata"], map[string]any{"name": "Meta", "team": "QA", "n": float64(1)}) {
			t.Fatalf("user_metadata %v", u["user_metadata"])
		}
		// A second update merges; null removes a key.
		u = put(map[string]any{"data": map[string]any{"team": nil, "lang": "de"}, "code_challenge": nil, "code_challenge_method": nil}).OK(http.StatusOK).JSON()
		if !reflect.DeepEqual(u["user_metadata"], map[string]any{"name": "Meta", "n": float64(1), "lang": "de"}) {
			t.Fatalf("merged user_metadata %v", u["user_metadata"])
		}
		if u["email"] != "meta@example.com" {
			t.Fatalf("email changed: %v", u["email"])
		}
		// An empty body changes nothing.
		put(nil).OK(http.StatusOK)
		got := h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).OK(http.StatusOK).JSON()
		if !reflect.DeepEqual(got["user_metadata"], u["user_metadata"]) {
			t.Fatalf("GET /user metadata %v", got["user_metadata"])
		}
		if !slices.Contains(h.actions(), "user_modified") {
			t.Fatalf("no user_modified audit: %v", h.actions())
		}

		before := h.snapshot()
		put(map[string]any{"app_metadata": map[string]any{"role": "admin"}}).Err(http.StatusForbidden, "not_admin")
		put(map[string]any{"data": []any{1, 2}}).Err(http.StatusBadRequest, "validation_failed")
		put(map[string]any{"data": "x"}).Err(http.StatusBadRequest, "validation_failed")
		put(map[string]any{"phone": "15551234567"}).Err(http.StatusUnprocessableEntity, "phone_provider_disabled")
		put(map[string]any{"email": "not-an-address"}).Err(http.StatusBadRequest, "validation_failed")
		put(map[string]any{"email": "m\u0435ta@example.com"}).Err(http.StatusBadRequest, "validation_failed")
		put(raw(`{"data": {`)).Err(http.StatusBadRequest, "bad_json")
		h.do("PUT", "/auth/v1/user", map[string]any{"data": map[string]any{"x": 1}}).Err(http.StatusForbidden, "bad_jwt")
		h.unchanged(before, "refused PUT /user")
	})
}

func TestUpdateUserPassword(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("pat@example.com", true)
		a := h.signIn("pat@example.com", testPassword)
		b := h.signIn("pat@example.com", testPassword)
		put := func(body any) *response {
			return h.do("PUT", "/auth/v1/user", body, bearer(a.AccessToken))
		}
		before := h.snapshot()
		for pw, reasons := range map[string][]string{"short1A": {"length"}, "nouppercase1": {"characters"}, "": {"length", "characters"}} {
			r := put(map[string]any{"password": pw})
			r.Err(http.StatusUnprocessableEntity, "weak_password")
			var body struct {
				WeakPassword struct{ Reasons []string } `json:"weak_password"`
			}
			r.Decode(&body)
			if !slices.Equal(body.WeakPassword.Reasons, reasons) {
				t.Fatalf("%q: reasons %v, want %v", pw, body.WeakPassword.Reasons, reasons)
			}
		}
		put(map[string]any{"password": "Aa1" + strings.Repeat("x", 70)}).Err(http.StatusUnprocessableEntity, "weak_password")
		msg := put(map[string]any{"password": testPassword}).Err(http.StatusUnprocessableEntity, "same_password")
		if msg != "New password should be different from the old password." {
			t.Fatalf("message %q", msg)
		}
		h.unchanged(before, "refused password changes")

		const newPassword = "New-Passw0rd-2"
		put(map[string]any{"password": newPassword}).OK(http.StatusOK)
		// The other session is signed out; this one stays.
		h.do("GET", "/auth/v1/user", nil, bearer(b.AccessToken)).Err(http.StatusForbidden, "session_not_found")
		h.refresh(b.RefreshToken).Err(http.StatusBadRequest, "refresh_token_not_found")
		h.do("GET", "/auth/v1/user", nil, bearer(a.AccessToken)).OK(http.StatusOK)
		h.decodeSession(h.refresh(a.RefreshToken))
		// Only the new password works.
		h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "pat@example.com", "password": testPassword}).Err(http.StatusBadRequest, "invalid_credentials")
		s := h.signIn("pat@example.com", newPassword)
		if s.User["id"] != uid {
			t.Fatal("signed in as someone else")
		}
		if !strings.HasPrefix(h.userByEmail("pat@example.com").PasswordHash, "$argon2id$") {
			t.Fatal("new password not stored as argon2id")
		}
		var changed int
		for _, e := range h.events() {
			if e.Action == "user_updated_password" && e.ActorID == uid {
				changed++
			}
		}
		if changed != 1 {
			t.Fatalf("%d user_updated_password entries", changed)
		}
	})
}

// oldSession signs in and keeps the session alive by refreshing until it is
// older than a day.
func oldSession(h *harness, email, password string) *session {
	h.t.Helper()
	s := h.signIn(email, password)
	for _, d := range []time.Duration{11 * time.Hour, 11 * time.Hour, 3 * time.Hour} {
		h.clock.Advance(d)
		s = h.decodeSession(h.refresh(s.RefreshToken))
	}
	return s
}

func TestSecurePasswordChange(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("rea@example.com", true)
		s := oldSession(h, "rea@example.com", testPassword)
		put := func(body any) *response {
			return h.do("PUT", "/auth/v1/user", body, bearer(s.AccessToken))
		}
		before := h.snapshot()
		msg := put(map[string]any{"password": "Fresh-Passw0rd"}).Err(http.StatusBadRequest, "reauthentication_needed")
		if msg != "Password update requires reauthentication" {
			t.Fatalf("message %q", msg)
		}
		h.unchanged(before, "refused password change")
		// Metadata needs no reauthentication.
		put(map[string]any{"data": map[string]any{"x": 1}}).OK(http.StatusOK)

		r := h.do("GET", "/auth/v1/reauthenticate", nil, bearer(s.AccessToken)).OK(http.StatusOK)
		if string(r.Body) != "{}\n" && string(r.Body) != "{}" {
			t.Fatalf("reauthenticate body %q", r.Body)
		}
		m := h.lastMail("rea@example.com")
		if m.Kind != "reauthentication" || linkRE.MatchString(m.Text) {
			t.Fatalf("reauthentication mail: %s %s", m.Kind, m.Text)
		}
		nonce := mailCode(t, m)
		if h.userByEmail("rea@example.com").ReauthenticationSentAt == nil {
			t.Fatal("reauthentication_sent_at not set")
		}
		h.do("GET", "/auth/v1/reauthenticate", nil, bearer(s.AccessToken)).Err(http.StatusTooManyRequests, "over_email_send_rate_limit")

		bad := "000000"
		if nonce == bad {
			bad = "111111"
		}
		before = h.snapshot()
		msg = put(map[string]any{"password": "Fresh-Passw0rd", "nonce": bad}).Err(http.StatusUnprocessableEntity, "reauthentication_not_valid")
		if msg != "Nonce has expired or is invalid" {
			t.Fatalf("message %q", msg)
		}
		h.unchanged(before, "bad nonce")
		put(map[string]any{"password": "Fresh-Passw0rd", "nonce": nonce}).OK(http.StatusOK)
		// The nonce is spent.
		put(map[string]any{"password": "Fresher-Passw0rd1", "nonce": nonce}).Err(http.StatusUnprocessableEntity, "reauthentication_not_valid")
		h.signIn("rea@example.com", "Fresh-Passw0rd")

		// A nonce expires with the e-mail OTP lifetime (24 h).
		h.clock.Advance(61 * time.Second)
		h.do("GET", "/auth/v1/reauthenticate", nil, bearer(s.AccessToken)).OK(http.StatusOK)
		nonce = mailCode(t, h.lastMail("rea@example.com"))
		h.clock.Advance(24*time.Hour + time.Second)
		put(map[string]any{"password": "Fresher-Passw0rd1", "nonce": nonce}).Err(http.StatusUnprocessableEntity, "reauthentication_not_valid")
	})
}

func TestReauthenticateRefusals(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("unconf@example.com", false)
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": uid, "aud": "authenticated", "role": "authenticated"}).SignedString(h.keys.Secret)
		if err != nil {
			t.Fatal(err)
		}
		before := h.snapshot()
		h.do("GET", "/auth/v1/reauthenticate", nil, bearer(tok)).Err(http.StatusUnprocessableEntity, "email_not_confirmed")
		h.do("GET", "/auth/v1/reauthenticate", nil).Err(http.StatusForbidden, "bad_jwt")
		// A token without a session cannot change the password without a nonce.
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Fresh-Passw0rd"}, bearer(tok)).Err(http.StatusBadRequest, "reauthentication_needed")
		h.unchanged(before, "refused reauthentication")
	})
}

func TestEmailChange(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("taken2@example.com", true)

		t.Run("current address first, by link; new address second, by hash", func(t *testing.T) {
			h := h.in(t)
			uid := h.seedUser("ed@example.com", true)
			s := h.signIn("ed@example.com", testPassword)
			u := h.do("PUT", "/auth/v1/user", map[string]any{"email": "Ed.New@example.com"}, bearer(s.AccessToken)).OK(http.StatusOK).JSON()
			if u["email"] != "ed@example.com" || u["new_email"] != "ed.new@example.com" || u["email_change_sent_at"] == nil {
				t.Fatalf("user after change request: %v", u)
			}
			oldMails, newMails := h.mails("ed@example.com"), h.mails("ed.new@example.com")
			if len(oldMails) != 1 || oldMails[0].Kind != "email_change_current" || len(newMails) != 1 || newMails[0].Kind != "email_change" {
				t.Fatalf("mails: %d to the current address, %d to the new one", len(oldMails), len(newMails))
			}
			oldLink, newLink := mailLink(t, oldMails[0]), mailLink(t, newMails[0])
			if oldLink.Query().Get("type") != "email_change" || newLink.Query().Get("type") != "email_change" {
				t.Fatalf("link types %s %s", oldLink, newLink)
			}
			// Asking again within a minute is refused.
			h.do("PUT", "/auth/v1/user", map[string]any{"email": "ed.other@example.com"}, bearer(s.AccessToken)).Err(http.StatusTooManyRequests, "over_email_send_rate_limit")

			loc := h.follow(oldLink)
			f := fragment(t, loc)
			if f.Get("message") != "Confirmation link accepted. Please proceed to confirm link sent to the other email" || f.Has("access_token") || !f.Has("sb") {
				t.Fatalf("first confirmation redirect %s", loc)
			}
			if got := h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).OK(http.StatusOK).JSON(); got["email"] != "ed@example.com" {
				t.Fatalf("address changed after one confirmation: %v", got["email"])
			}
			// The second confirmation changes the address and signs in.
			ns := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "email_change", "token_hash": newLink.Query().Get("token")}))
			if ns.User["email"] != "ed.new@example.com" || ns.User["id"] != uid {
				t.Fatalf("user after change: %v", ns.User)
			}
			if _, ok := ns.User["new_email"]; ok {
				t.Fatalf("new_email still set: %v", ns.User)
			}
			if ids := ns.User["identities"].([]any); ids[0].(map[string]any)["identity_data"].(map[string]any)["email"] != "ed.new@example.com" {
				t.Fatalf("identity not updated: %v", ids)
			}
			h.signIn("ed.new@example.com", testPassword)
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "ed@example.com", "password": testPassword}).Err(http.StatusBadRequest, "invalid_credentials")
			// The links are spent.
			if fragment(t, h.follow(oldLink)).Get("error_code") != "otp_expired" {
				t.Fatal("spent link accepted")
			}
		})

		t.Run("new address first, by code", func(t *testing.T) {
			h := h.in(t)
			h.seedUser("flo@example.com", true)
			s := h.signIn("flo@example.com", testPassword)
			h.do("PUT", "/auth/v1/user", map[string]any{"email": "flo.new@example.com"}, bearer(s.AccessToken)).OK(http.StatusOK)
			newCode := mailCode(t, h.lastMail("flo.new@example.com"))
			oldCode := mailCode(t, h.lastMail("flo@example.com"))
			r := h.do("POST", "/auth/v1/verify", map[string]any{"type": "email_change", "email": "flo.new@example.com", "token": newCode}).OK(http.StatusOK)
			var first map[string]any
			r.Decode(&first)
			if first["code"] != "200" || first["msg"] != "Confirmation link accepted. Please proceed to confirm link sent to the other email" || first["access_token"] != nil {
				t.Fatalf("first confirmation: %s", r.Body)
			}
			ns := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "email_change", "email": "flo@example.com", "token": oldCode}))
			if ns.User["email"] != "flo.new@example.com" {
				t.Fatalf("user after change: %v", ns.User)
			}
		})

		t.Run("taken address", func(t *testing.T) {
			h := h.in(t)
			h.seedUser("gil@example.com", true)
			s := h.signIn("gil@example.com", testPassword)
			before := h.snapshot()
			msg := h.do("PUT", "/auth/v1/user", map[string]any{"email": "Taken2@example.com", "data": map[string]any{"x": 1}}, bearer(s.AccessToken)).
				Err(http.StatusUnprocessableEntity, "email_exists")
			if msg != "A user with this email address has already been registered" {
				t.Fatalf("message %q", msg)
			}
			h.unchanged(before, "change to a taken address")
			// Same address: nothing to confirm.
			u := h.do("PUT", "/auth/v1/user", map[string]any{"email": "GIL@example.com"}, bearer(s.AccessToken)).OK(http.StatusOK).JSON()
			if _, ok := u["new_email"]; ok {
				t.Fatalf("change to the same address: %v", u)
			}
		})

		t.Run("address taken between request and confirmation", func(t *testing.T) {
			h := h.in(t)
			h.seedUser("hal@example.com", true)
			s := h.signIn("hal@example.com", testPassword)
			h.do("PUT", "/auth/v1/user", map[string]any{"email": "hal.new@example.com"}, bearer(s.AccessToken)).OK(http.StatusOK)
			h.follow(mailLink(t, h.lastMail("hal@example.com")))
			h.seedUser("hal.new@example.com", true)
			before := h.snapshot()
			h.do("POST", "/auth/v1/verify", map[string]any{"type": "email_change", "token_hash": mailLink(t, h.lastMail("hal.new@example.com")).Query().Get("token")}).
				Err(http.StatusUnprocessableEntity, "email_exists")
			h.unchanged(before, "confirmation to a taken address")
		})
	})
}

func TestLogout(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("lou@example.com", true)
		alive := func(s *session) bool {
			r := h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken))
			if r.Status == http.StatusOK {
				return true
			}
			r.Err(http.StatusForbidden, "session_not_found")
			return false
		}
		a := h.signIn("lou@example.com", testPassword)
		b := h.signIn("lou@example.com", testPassword)
		c := h.signIn("lou@example.com", testPassword)

		before := h.snapshot()
		for _, scope := range []string{"everything", "GLOBAL", "local,others"} {
			msg := h.do("POST", "/auth/v1/logout?scope="+scope, nil, bearer(a.AccessToken)).Err(http.StatusBadRequest, "validation_failed")
			if msg != `Unsupported logout scope "`+scope+`"` {
				t.Fatalf("message %q", msg)
			}
		}
		h.do("POST", "/auth/v1/logout", nil).Err(http.StatusForbidden, "bad_jwt")
		h.do("POST", "/auth/v1/logout", nil, header("Authorization", "Token x")).Err(http.StatusUnauthorized, "no_authorization")
		h.unchanged(before, "refused logouts")

		r := h.do("POST", "/auth/v1/logout?scope=others", nil, bearer(a.AccessToken)).OK(http.StatusNoContent)
		if len(r.Body) != 0 {
			t.Fatalf("204 with a body: %q", r.Body)
		}
		if !alive(a) || alive(b) || alive(c) {
			t.Fatal("scope=others")
		}
		d := h.signIn("lou@example.com", testPassword)
		h.do("POST", "/auth/v1/logout?scope=local", nil, bearer(a.AccessToken)).OK(http.StatusNoContent)
		if alive(a) || !alive(d) {
			t.Fatal("scope=local")
		}
		e := h.signIn("lou@example.com", testPassword)
		h.do("POST", "/auth/v1/logout?scope=global", nil, bearer(d.AccessToken)).OK(http.StatusNoContent)
		if alive(d) || alive(e) {
			t.Fatal("scope=global")
		}
		f, g := h.signIn("lou@example.com", testPassword), h.signIn("lou@example.com", testPassword)
		h.do("POST", "/auth/v1/logout", nil, bearer(f.AccessToken)).OK(http.StatusNoContent) // default: global
		if alive(f) || alive(g) {
			t.Fatal("default scope")
		}
		// A second logout with a dead session is session_not_found, as GoTrue.
		h.do("POST", "/auth/v1/logout", nil, bearer(f.AccessToken)).Err(http.StatusForbidden, "session_not_found")

		var scopes []string
		for _, ev := range h.events() {
			if ev.Action == "logout" {
				if ev.ActorID != uid {
					t.Fatalf("logout entry %+v", ev)
				}
				var p map[string]string
				_ = json.Unmarshal(ev.Payload, &p)
				scopes = append(scopes, p["scope"])
			}
		}
		if !slices.Equal(scopes, []string{"others", "local", "global", "global"}) {
			t.Fatalf("logout scopes audited %v", scopes)
		}
	})
}
