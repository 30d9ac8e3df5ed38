package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fairbalance/httpapi"
	"fairbalance/service"
)

func TestRecover(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("rec@example.com", true)
		other := h.signIn("rec@example.com", testPassword)

		// Unknown addresses get the same answer, and nothing happens.
		before := h.snapshot()
		r := h.do("POST", "/auth/v1/recover", map[string]any{"email": "nobody@example.com", "gotrue_meta_security": map[string]any{}}).OK(http.StatusOK)
		if string(r.Body) != "{}\n" {
			t.Fatalf("body %q", r.Body)
		}
		h.unchanged(before, "recovery of an unknown address")
		h.do("POST", "/auth/v1/recover", map[string]any{}).Err(http.StatusBadRequest, "validation_failed")
		h.do("POST", "/auth/v1/recover", map[string]any{"email": "not an address"}).Err(http.StatusBadRequest, "validation_failed")
		h.do("POST", "/auth/v1/recover", map[string]any{"email": "rec@example.com", "code_challenge": "x", "code_challenge_method": "s256"}).Err(http.StatusBadRequest, "validation_failed")
		h.unchanged(before, "refused recoveries")

		r = h.do("POST", "/auth/v1/recover", map[string]any{"email": "REC@example.com"}).OK(http.StatusOK)
		if string(r.Body) != "{}\n" {
			t.Fatalf("body %q", r.Body)
		}
		m := h.lastMail("rec@example.com")
		if m.Kind != "recovery" || mailLink(t, m).Query().Get("type") != "recovery" {
			t.Fatalf("recovery mail %s: %s", m.Kind, m.Text)
		}
		if h.userByEmail("rec@example.com").RecoverySentAt == nil {
			t.Fatal("recovery_sent_at not set")
		}
		before = h.snapshot()
		h.do("POST", "/auth/v1/recover", map[string]any{"email": "rec@example.com"}).Err(http.StatusTooManyRequests, "over_email_send_rate_limit")
		h.unchanged(before, "rate-limited recovery")

		// Wrong codes are refused without side effects.
		code := mailCode(t, m)
		bad := "999999"
		if code == bad {
			bad = "888888"
		}
		msg := h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "email": "rec@example.com", "token": bad}).Err(http.StatusForbidden, "otp_expired")
		if msg != "Token has expired or is invalid" {
			t.Fatalf("message %q", msg)
		}
		h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "email": "other@example.com", "token": code}).Err(http.StatusForbidden, "otp_expired")
		h.do("POST", "/auth/v1/verify", map[string]any{"type": "signup", "email": "rec@example.com", "token": code}).Err(http.StatusForbidden, "otp_expired")
		h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": strings.Repeat("0", 56)}).Err(http.StatusForbidden, "otp_expired")
		h.unchanged(before, "wrong codes")

		// The code signs in; the session may set a new password at once.
		s := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "email": "rec@example.com", "token": " " + code + " "}))
		if s.User["id"] != uid {
			t.Fatalf("recovery session for %v", s.User["id"])
		}
		h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "email": "rec@example.com", "token": code}).Err(http.StatusForbidden, "otp_expired")
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Recovered-Passw0rd"}, bearer(s.AccessToken)).OK(http.StatusOK)
		h.signIn("rec@example.com", "Recovered-Passw0rd")
		// The password change signed out the session from before.
		h.do("GET", "/auth/v1/user", nil, bearer(other.AccessToken)).Err(http.StatusForbidden, "session_not_found")
	})
}

func TestVerifyRefusals(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("ver@example.com", true)
		h.do("POST", "/auth/v1/recover", map[string]any{"email": "ver@example.com"}).OK(http.StatusOK)
		hash := mailLink(t, h.lastMail("ver@example.com")).Query().Get("token")
		before := h.snapshot()
		cases := []struct {
			name   string
			body   any
			status int
			code   string
		}{
			{"no type", map[string]any{"email": "ver@example.com", "token": "123456"}, 400, "validation_failed"},
			{"unknown type", map[string]any{"type": "bogus", "email": "ver@example.com", "token": "123456"}, 400, "validation_failed"},
			{"sms", map[string]any{"type": "sms", "phone": "15551234567", "token": "123456"}, 400, "validation_failed"},
			{"no token", map[string]any{"type": "recovery", "email": "ver@example.com"}, 400, "validation_failed"},
			{"hash and email", map[string]any{"type": "recovery", "token_hash": hash, "email": "ver@example.com"}, 400, "validation_failed"},
			{"hash and redirect", map[string]any{"type": "recovery", "token_hash": hash, "redirect_to": allowedURL}, 400, "validation_failed"},
			{"bad email", map[string]any{"type": "recovery", "email": "nope", "token": "123456"}, 422, "validation_failed"},
			{"wrong type for the hash", map[string]any{"type": "invite", "token_hash": hash}, 403, "otp_expired"},
			{"bad json", raw(`{"type":`), 400, "bad_json"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := h.in(t)
				h.do("POST", "/auth/v1/verify", c.body).Err(c.status, c.code)
			})
		}
		h.unchanged(before, "refused verifications")
		// The hash itself still works.
		s := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": hash}))
		if s.User["email"] != "ver@example.com" {
			t.Fatalf("user %v", s.User)
		}
	})
}

func TestRecoveryLink(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("link@example.com", true)
		h.do("POST", "/auth/v1/recover?redirect_to="+url.QueryEscape(allowedURL+"reset"), map[string]any{"email": "link@example.com"}).OK(http.StatusOK)
		link := mailLink(t, h.lastMail("link@example.com"))
		if link.Query().Get("redirect_to") != allowedURL+"reset" {
			t.Fatalf("link %s", link)
		}
		loc := h.follow(link)
		if got := loc.Scheme + "://" + loc.Host + loc.Path; got != allowedURL+"reset" {
			t.Fatalf("redirect to %s", loc)
		}
		// GoTrue's fragment: form-encoded, keys sorted, with the empty sb marker.
		var keys []string
		for _, kv := range strings.Split(loc.Fragment, "&") {
			k, _, _ := strings.Cut(kv, "=")
			keys = append(keys, k)
		}
		if want := []string{"access_token", "expires_at", "expires_in", "refresh_token", "sb", "token_type", "type"}; !slices.Equal(keys, want) {
			t.Fatalf("fragment keys %v, want %v", keys, want)
		}
		f := fragment(t, loc)
		if f.Get("token_type") != "bearer" || f.Get("type") != "recovery" || f.Get("expires_in") != "3600" || !refreshTokenRE.MatchString(f.Get("refresh_token")) {
			t.Fatalf("fragment %v", f)
		}
		if want := h.clock.Now().Add(time.Hour).Unix(); f.Get("expires_at") != strconv.FormatInt(want, 10) {
			t.Fatalf("expires_at %s, want %d", f.Get("expires_at"), want)
		}
		// auth-js then calls GET /user with the token.
		u := h.do("GET", "/auth/v1/user", nil, bearer(f.Get("access_token"))).OK(http.StatusOK).JSON()
		if u["email"] != "link@example.com" {
			t.Fatalf("user %v", u)
		}
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Linked-Passw0rd"}, bearer(f.Get("access_token"))).OK(http.StatusOK)

		t.Run("expired", func(t *testing.T) {
			h := h.in(t)
			h.clock.Advance(61 * time.Second)
			h.do("POST", "/auth/v1/recover", map[string]any{"email": "link@example.com"}).OK(http.StatusOK)
			link := mailLink(t, h.lastMail("link@example.com"))
			h.clock.Advance(24*time.Hour + time.Second)
			before := h.snapshot()
			loc := h.follow(link)
			if loc.Scheme+"://"+loc.Host != siteURL || !strings.HasPrefix(loc.Fragment, "error=access_denied&error_code=otp_expired&error_description=") || !strings.HasSuffix(loc.Fragment, "&sb=") {
				t.Fatalf("expired link redirect %s", loc)
			}
			if d := fragment(t, loc).Get("error_description"); d != "Email link is invalid or has expired" {
				t.Fatalf("error_description %q", d)
			}
			h.unchanged(before, "expired link")
		})

		t.Run("unknown token", func(t *testing.T) {
			h := h.in(t)
			loc := h.follow(&url.URL{RawQuery: "token=" + strings.Repeat("a", 56) + "&type=recovery&redirect_to=" + url.QueryEscape(allowedURL)})
			if !strings.HasPrefix(loc.String(), allowedURL+"#error=access_denied&error_code=otp_expired") {
				t.Fatalf("redirect %s", loc)
			}
			loc = h.follow(&url.URL{RawQuery: "token=abc&type=bogus"})
			if f := fragment(t, loc); f.Get("error") != "invalid_request" || f.Get("error_code") != "validation_failed" {
				t.Fatalf("redirect %s", loc)
			}
		})
	})
}

func withAllowList(list ...string) harnessOpt {
	return func(c *service.IdentityConfig, _ *httpapi.Config) { c.RedirectAllowList = list }
}

// TestRedirects checks where e-mail links send the browser: the site, or an
// allow-listed URL, never anywhere else, however the URL is dressed up.
func TestRedirects(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("red@example.com", true)
		cases := []struct {
			redirectTo string
			want       string // the redirect target before the fragment
		}{
			{"", siteURL},
			{siteURL + "/app/welcome", siteURL + "/app/welcome"},
			{"HTTPS://REVIEW.EXAMPLE.COM/x", "HTTPS://REVIEW.EXAMPLE.COM/x"},
			{"http://localhost:3000", "http://localhost:3000"},
			{"http://localhost:3000/cb", "http://localhost:3000/cb"},
			{"http://localhost:3000/cb?x=1", "http://localhost:3000/cb?x=1"},
			{"https://evil.example.com/", siteURL},
			{"https://review.example.com.evil.example.com/", siteURL},
			{"http://localhost:3000.evil.example.com/", siteURL},
			{"http://localhost:3000@evil.example.com/", siteURL},
			{"http://localhost:30001/", siteURL},
			{"https://localhost:3000/", siteURL},
			{"//evil.example.com/", siteURL},
			{"javascript:alert(1)", siteURL},
			{"http://[::1", siteURL},
		}
		for _, c := range cases {
			t.Run(c.redirectTo, func(t *testing.T) {
				h := h.in(t)
				// A link whose redirect_to was edited after it was sent.
				loc := h.do("GET", "/auth/v1/verify?token="+strings.Repeat("b", 56)+"&type=magiclink&redirect_to="+url.QueryEscape(c.redirectTo), nil, key(""))
				if loc.Status != http.StatusSeeOther {
					t.Fatalf("status %d", loc.Status)
				}
				target, _, _ := strings.Cut(loc.Header.Get("Location"), "#")
				if target != c.want {
					t.Fatalf("redirect_to %q went to %q, want %q", c.redirectTo, target, c.want)
				}
				// The link in the e-mail names the same target.
				h.clock.Advance(61 * time.Second)
				h.do("POST", "/auth/v1/otp?redirect_to="+url.QueryEscape(c.redirectTo), map[string]any{"email": "red@example.com"}).OK(http.StatusOK)
				if got := mailLink(t, h.lastMail("red@example.com")).Query().Get("redirect_to"); got != c.want {
					t.Fatalf("mailed redirect_to %q, want %q", got, c.want)
				}
			})
		}
	}, withAllowList("http://localhost:3000"))
}

func TestMagicLinkAndOTP(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("mag@example.com", true)

		t.Run("existing user", func(t *testing.T) {
			h := h.in(t)
			r := h.do("POST", "/auth/v1/otp", map[string]any{"email": "mag@example.com", "create_user": true, "data": map[string]any{}, "code_challenge": nil, "code_challenge_method": nil}).OK(http.StatusOK)
			if string(r.Body) != "{}\n" {
				t.Fatalf("body %q", r.Body)
			}
			m := h.lastMail("mag@example.com")
			if m.Kind != "magiclink" || mailLink(t, m).Query().Get("type") != "magiclink" {
				t.Fatalf("mail %s %s", m.Kind, m.Text)
			}
			h.do("POST", "/auth/v1/otp", map[string]any{"email": "mag@example.com"}).Err(http.StatusTooManyRequests, "over_email_send_rate_limit")
			// The code works with type email too.
			s := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "email", "email": "mag@example.com", "token": mailCode(t, m)}))
			if s.User["id"] != uid {
				t.Fatalf("user %v", s.User)
			}
			// The magiclink alias route, and the link.
			h.clock.Advance(61 * time.Second)
			h.do("POST", "/auth/v1/magiclink", map[string]any{"email": "mag@example.com"}).OK(http.StatusOK)
			f := fragment(t, h.follow(mailLink(t, h.lastMail("mag@example.com"))))
			if f.Get("type") != "magiclink" || f.Get("access_token") == "" {
				t.Fatalf("fragment %v", f)
			}
		})

		t.Run("unknown user without create_user", func(t *testing.T) {
			h := h.in(t)
			before := h.snapshot()
			msg := h.do("POST", "/auth/v1/otp", map[string]any{"email": "new@example.com", "create_user": false}).Err(http.StatusUnprocessableEntity, "otp_disabled")
			if msg != "Signups not allowed for otp" {
				t.Fatalf("message %q", msg)
			}
			h.do("POST", "/auth/v1/otp", map[string]any{}).Err(http.StatusBadRequest, "validation_failed")
			h.do("POST", "/auth/v1/otp", map[string]any{"email": "x@@example.com"}).Err(http.StatusBadRequest, "validation_failed")
			h.do("POST", "/auth/v1/otp", map[string]any{"phone": "15551234567"}).Err(http.StatusUnprocessableEntity, "phone_provider_disabled")
			h.unchanged(before, "refused OTP requests")
		})

		t.Run("unknown user is created and confirmed by the code", func(t *testing.T) {
			h := h.in(t)
			h.do("POST", "/auth/v1/otp", map[string]any{"email": "fresh@example.com", "data": map[string]any{"name": "Fresh"}}).OK(http.StatusOK)
			u := h.userByEmail("fresh@example.com")
			var md map[string]any
			if err := json.Unmarshal(u.UserMetadata, &md); err != nil || u.EmailConfirmedAt != nil || md["name"] != "Fresh" {
				t.Fatalf("created user %+v", u)
			}
			m := h.lastMail("fresh@example.com")
			if m.Kind != "confirmation" || mailLink(t, m).Query().Get("type") != "signup" {
				t.Fatalf("mail %s", m.Kind)
			}
			s := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "email", "email": "fresh@example.com", "token": mailCode(t, m)}))
			if s.User["email_confirmed_at"] == nil {
				t.Fatalf("not confirmed: %v", s.User)
			}
		})
	})
}

func TestResend(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("res@example.com", false)
		h.seedUser("done@example.com", true)
		before := h.snapshot()
		for _, c := range []struct {
			body   map[string]any
			status int
			code   string
		}{
			{map[string]any{"type": "bogus", "email": "res@example.com"}, 400, "validation_failed"},
			{map[string]any{"email": "res@example.com"}, 400, "validation_failed"},
			{map[string]any{"type": "signup", "email": "bad"}, 400, "validation_failed"},
			{map[string]any{"type": "sms", "phone": "15551234567"}, 422, "sms_send_failed"},
		} {
			msg := h.do("POST", "/auth/v1/resend", c.body).Err(c.status, c.code)
			if c.body["type"] == "bogus" && msg != "Missing one of these types: signup, email_change, sms, phone_change" {
				t.Fatalf("message %q", msg)
			}
		}
		// Nothing to resend: the same answer, and nothing happens.
		for _, body := range []map[string]any{
			{"type": "signup", "email": "nobody@example.com"},
			{"type": "signup", "email": "done@example.com"},
			{"type": "email_change", "email": "done@example.com"},
		} {
			if r := h.do("POST", "/auth/v1/resend", body).OK(http.StatusOK); string(r.Body) != "{}\n" {
				t.Fatalf("body %q", r.Body)
			}
		}
		h.unchanged(before, "refused or empty resends")

		h.do("POST", "/auth/v1/resend", map[string]any{"type": "signup", "email": "res@example.com"}).OK(http.StatusOK)
		m := h.lastMail("res@example.com")
		if m.Kind != "confirmation" {
			t.Fatalf("mail %s", m.Kind)
		}
		h.do("POST", "/auth/v1/resend", map[string]any{"type": "signup", "email": "res@example.com"}).Err(http.StatusTooManyRequests, "over_email_send_rate_limit")
		f := fragment(t, h.follow(mailLink(t, m)))
		if f.Get("type") != "signup" || f.Get("access_token") == "" {
			t.Fatalf("fragment %v", f)
		}

		// A pending e-mail change is sent again to both addresses.
		s := h.signIn("done@example.com", testPassword)
		h.do("PUT", "/auth/v1/user", map[string]any{"email": "done.new@example.com"}, bearer(s.AccessToken)).OK(http.StatusOK)
		h.do("POST", "/auth/v1/resend", map[string]any{"type": "email_change", "email": "done@example.com"}).Err(http.StatusTooManyRequests, "over_email_send_rate_limit")
		h.clock.Advance(61 * time.Second)
		h.do("POST", "/auth/v1/resend", map[string]any{"type": "email_change", "email": "done@example.com"}).OK(http.StatusOK)
		if n, o := len(h.mails("done.new@example.com")), len(h.mails("done@example.com")); n != 2 || o != 2 {
			t.Fatalf("%d mails to the new address, %d to the current", n, o)
		}
	})
}
