package httpapi_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"fairbalance/auth"
)

var refreshTokenRE = regexp.MustCompile(`^[a-z0-9]{12,64}$`)

func TestPasswordGrant(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("sam@example.com", true)
		h.seedUser("unconfirmed@example.com", false)

		t.Run("session", func(t *testing.T) {
			h := h.in(t)
			r := h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "Sam@Example.com", "password": testPassword, "gotrue_meta_security": map[string]any{}})
			s := h.decodeSession(r)
			var rawSession map[string]json.RawMessage
			r.Decode(&rawSession)
			if string(rawSession["weak_password"]) != "null" {
				t.Fatalf("weak_password %s, want null", rawSession["weak_password"])
			}
			now := h.clock.Now().Unix()
			if s.TokenType != "bearer" || s.ExpiresIn != 3600 || s.ExpiresAt != now+3600 || !refreshTokenRE.MatchString(s.RefreshToken) {
				t.Fatalf("session %+v (now %d)", s, now)
			}
			if s.User["id"] != uid || s.User["email"] != "sam@example.com" || s.User["last_sign_in_at"] == nil {
				t.Fatalf("user %v", s.User)
			}
			checkAccessToken(t, h, s.AccessToken, uid, "sam@example.com", "aal1", []string{"password"})
		})

		t.Run("weak password still signs in, with a warning", func(t *testing.T) {
			h := h.in(t)
			h.seedUserPassword("legacy@example.com", "weakpass")
			r := h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "legacy@example.com", "password": "weakpass"})
			var s struct {
				WeakPassword struct {
					Message string   `json:"message"`
					Reasons []string `json:"reasons"`
				} `json:"weak_password"`
			}
			h.decodeSession(r)
			r.Decode(&s)
			if s.WeakPassword.Message == "" || !slices.Equal(s.WeakPassword.Reasons, []string{"characters"}) {
				t.Fatalf("weak_password: %s", r.Body)
			}
		})

		t.Run("refusals", func(t *testing.T) {
			h := h.in(t)
			before := h.snapshot()
			wrong := h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "sam@example.com", "password": "Wrong-Passw0rd"})
			wrong.Err(http.StatusBadRequest, "invalid_credentials")
			unknown := h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "nobody@example.com", "password": "Wrong-Passw0rd"})
			unknown.Err(http.StatusBadRequest, "invalid_credentials")
			if !bytes.Equal(wrong.Body, unknown.Body) || wrong.Header.Get("x-sb-error-code") != unknown.Header.Get("x-sb-error-code") {
				t.Fatalf("wrong password and unknown e-mail differ:\n%s\n%s", wrong.Body, unknown.Body)
			}
			if msg := wrong.JSON()["message"]; msg != "Invalid login credentials" {
				t.Fatalf("message %v", msg)
			}
			lw := h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "sam@example.com", "password": "Wrong-Passw0rd"}, legacy)
			lu := h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "nobody@example.com", "password": "Wrong-Passw0rd"}, legacy)
			lw.LegacyErr(http.StatusBadRequest, "invalid_credentials")
			if !bytes.Equal(lw.Body, lu.Body) {
				t.Fatalf("legacy bodies differ:\n%s\n%s", lw.Body, lu.Body)
			}
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "not an address", "password": "x"}).Err(http.StatusBadRequest, "invalid_credentials")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "sam@example.com", "password": ""}).Err(http.StatusBadRequest, "invalid_credentials")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "sam@example.com", "password": strings.Repeat("A1a", 3000)}).Err(http.StatusBadRequest, "invalid_credentials")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "unconfirmed@example.com", "password": testPassword}).Err(http.StatusBadRequest, "email_not_confirmed")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"password": testPassword}).Err(http.StatusBadRequest, "validation_failed")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "sam@example.com", "phone": "15551234567", "password": testPassword}).Err(http.StatusBadRequest, "validation_failed")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"phone": "15551234567", "password": testPassword}).Err(http.StatusUnprocessableEntity, "phone_provider_disabled")
			h.do("POST", "/auth/v1/token?grant_type=password", raw(`{"email":`)).Err(http.StatusBadRequest, "bad_json")
			for _, gt := range []string{"", "client_credentials", "PASSWORD", "id_token"} {
				msg := h.do("POST", "/auth/v1/token?grant_type="+gt, map[string]any{"email": "sam@example.com", "password": testPassword}).Err(http.StatusBadRequest, "invalid_credentials")
				if msg != "unsupported_grant_type" {
					t.Fatalf("grant %q: message %q", gt, msg)
				}
			}
			// Failed sign-ins write nothing but their audit entries.
			h.unchanged(before, "failed sign-ins", "auth_audit")
			var failed int
			for _, e := range h.events() {
				if e.Action == "login_failed" {
					failed++
					if e.IP != "127.0.0.1" {
						t.Fatalf("login_failed without the address: %+v", e)
					}
				}
			}
			if failed < 8 {
				t.Fatalf("%d login_failed entries", failed)
			}
		})
	})
}

// checkAccessToken verifies tok against the published JWKS and checks its claims.
func checkAccessToken(t *testing.T, h *harness, tok, sub, email, aal string, methods []string) map[string]any {
	t.Helper()
	var jwks struct {
		Keys []struct {
			Kty, Crv, X, Y, Kid, Alg string
		} `json:"keys"`
	}
	h.do("GET", "/auth/v1/.well-known/jwks.json", nil, key("")).OK(http.StatusOK).Decode(&jwks)
	parts := strings.Split(tok, ".")
	var hdr map[string]any
	if err := json.Unmarshal(b64(t, parts[0]), &hdr); err != nil {
		t.Fatal(err)
	}
	if hdr["alg"] != "ES256" || hdr["typ"] != "JWT" || hdr["kid"] == nil {
		t.Fatalf("JWT header %v", hdr)
	}
	var pub *ecdsa.PublicKey
	for _, k := range jwks.Keys {
		if k.Kid == hdr["kid"] {
			raw := append([]byte{4}, append(b64(t, k.X), b64(t, k.Y)...)...)
			p, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
			if err != nil {
				t.Fatal(err)
			}
			pub = p
		}
	}
	if pub == nil {
		t.Fatalf("kid %v not in the JWKS", hdr["kid"])
	}
	if _, err := jwt.Parse(tok, func(*jwt.Token) (any, error) { return pub, nil }, jwt.WithValidMethods([]string{"ES256"})); err != nil {
		t.Fatalf("signature does not verify with the JWKS key: %v", err)
	}
	c := claimsOf(t, tok)
	if c["iss"] != siteURL+"/auth/v1" || c["sub"] != sub || c["aud"] != "authenticated" || c["email"] != email ||
		c["phone"] != "" || c["role"] != "authenticated" || c["aal"] != aal || c["is_anonymous"] != false {
		t.Fatalf("claims %v", c)
	}
	if c["exp"].(float64)-c["iat"].(float64) != 3600 {
		t.Fatalf("exp-iat = %v", c["exp"].(float64)-c["iat"].(float64))
	}
	if !uuidRE.MatchString(str(t, c, "session_id")) {
		t.Fatalf("session_id %v", c["session_id"])
	}
	if _, ok := c["app_metadata"].(map[string]any); !ok {
		t.Fatalf("app_metadata %v", c["app_metadata"])
	}
	if _, ok := c["user_metadata"].(map[string]any); !ok {
		t.Fatalf("user_metadata %v", c["user_metadata"])
	}
	amr, _ := c["amr"].([]any)
	var got []string
	for _, a := range amr {
		e := a.(map[string]any)
		if e["timestamp"] == nil {
			t.Fatalf("amr entry without timestamp: %v", e)
		}
		got = append(got, e["method"].(string))
	}
	if !slices.Equal(got, methods) {
		t.Fatalf("amr %v, want %v", got, methods)
	}
	return c
}

func TestRefreshRotation(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("rot@example.com", true)

		t.Run("rotation and reuse", func(t *testing.T) {
			h := h.in(t)
			s1 := h.signIn("rot@example.com", testPassword)
			sid := claimsOf(t, s1.AccessToken)["session_id"]
			next := func(tok string) *session {
				t.Helper()
				r := h.refresh(tok)
				s := h.decodeSession(r)
				if _, ok := r.JSON()["weak_password"]; ok {
					t.Fatalf("weak_password on a refresh: %s", r.Body)
				}
				if c := claimsOf(t, s.AccessToken); c["session_id"] != sid || c["sub"] != uid {
					t.Fatalf("refresh changed the session: %v", c)
				}
				return s
			}
			h.clock.Advance(time.Second)
			s2 := next(s1.RefreshToken)
			if s2.RefreshToken == s1.RefreshToken || s2.AccessToken == s1.AccessToken || !refreshTokenRE.MatchString(s2.RefreshToken) {
				t.Fatal("refresh did not rotate")
			}
			s3 := next(s2.RefreshToken)
			if s3.RefreshToken == s2.RefreshToken || s3.RefreshToken == s1.RefreshToken {
				t.Fatal("refresh did not rotate")
			}
			// The token just before the active one yields the active one again,
			// however often and however late.
			for i := 0; i < 3; i++ {
				h.clock.Advance(time.Hour)
				again := next(s2.RefreshToken)
				if again.RefreshToken != s3.RefreshToken {
					t.Fatalf("parent of the active token gave %q, want the active %q", again.RefreshToken, s3.RefreshToken)
				}
			}
			s4 := next(s3.RefreshToken)
			// Any older token revokes the whole family.
			before := len(h.events())
			h.refresh(s1.RefreshToken).Err(http.StatusBadRequest, "refresh_token_already_used")
			if ev := h.events(); len(ev) != before+1 || ev[len(ev)-1].Action != "token_revoked" || ev[len(ev)-1].ActorID != uid {
				t.Fatalf("reuse not audited: %+v", ev[len(ev)-1])
			}
			msg := h.refresh(s4.RefreshToken).Err(http.StatusBadRequest, "refresh_token_already_used")
			if msg != "Invalid Refresh Token: Already Used" {
				t.Fatalf("message %q", msg)
			}
			h.refresh(s3.RefreshToken).Err(http.StatusBadRequest, "refresh_token_already_used")
			h.refresh(s2.RefreshToken, legacy).LegacyErr(http.StatusBadRequest, "refresh_token_already_used")
			// Other sessions of the user are not affected.
			other := h.signIn("rot@example.com", testPassword)
			next2 := h.decodeSession(h.refresh(other.RefreshToken))
			h.decodeSession(h.refresh(next2.RefreshToken))
		})

		t.Run("bad tokens", func(t *testing.T) {
			h := h.in(t)
			before := h.snapshot()
			h.refresh(strings.Repeat("a", 32)).Err(http.StatusBadRequest, "refresh_token_not_found")
			h.refresh("abcdefghijkl").Err(http.StatusBadRequest, "refresh_token_not_found")
			for _, bad := range []string{"", "short", "abcdefghijk", "ABCDEFGHIJKLMNOP", "abc-def-ghi-jkl", "abcdefghijkl'--", strings.Repeat("a", 65), "abcdefghijkl\n"} {
				msg := h.refresh(bad).Err(http.StatusBadRequest, "validation_failed")
				if msg != "Refresh token is not valid" {
					t.Fatalf("%q: message %q", bad, msg)
				}
			}
			h.do("POST", "/auth/v1/token?grant_type=refresh_token", raw(`{"refresh_token": 12}`)).Err(http.StatusBadRequest, "bad_json")
			h.unchanged(before, "refused refreshes")
		})

		t.Run("after logout", func(t *testing.T) {
			h := h.in(t)
			s := h.signIn("rot@example.com", testPassword)
			h.do("POST", "/auth/v1/logout", nil, bearer(s.AccessToken)).OK(http.StatusNoContent)
			h.refresh(s.RefreshToken).Err(http.StatusBadRequest, "refresh_token_not_found")
		})

		t.Run("inactivity timeout", func(t *testing.T) {
			h := h.in(t)
			s := h.signIn("rot@example.com", testPassword)
			h.clock.Advance(12*time.Hour - time.Second)
			s = h.decodeSession(h.refresh(s.RefreshToken))
			h.clock.Advance(12*time.Hour + time.Second)
			before := h.snapshot()
			h.refresh(s.RefreshToken).Err(http.StatusBadRequest, "session_expired")
			h.unchanged(before, "expired refresh")
		})

		t.Run("absolute lifetime", func(t *testing.T) {
			h := h.in(t)
			s := h.signIn("rot@example.com", testPassword)
			var elapsed time.Duration
			for elapsed+11*time.Hour < 7*24*time.Hour {
				h.clock.Advance(11 * time.Hour)
				elapsed += 11 * time.Hour
				s = h.decodeSession(h.refresh(s.RefreshToken))
			}
			h.clock.Advance(7*24*time.Hour - elapsed + time.Second)
			h.refresh(s.RefreshToken).Err(http.StatusBadRequest, "session_expired")
		})
	})
}

func TestGetUser(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("gus@example.com", true)
		otherID := h.seedUser("other@example.com", true)
		s := h.signIn("gus@example.com", testPassword)

		r := h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).OK(http.StatusOK)
		u := r.JSON()
		if u["id"] != uid || u["email"] != "gus@example.com" || u["aud"] != "authenticated" || u["role"] != "authenticated" {
			t.Fatalf("user %s", r.Body)
		}
		if _, ok := u["factors"]; ok {
			t.Fatalf("factors present without any: %s", r.Body)
		}
		if ids, _ := u["identities"].([]any); len(ids) != 1 {
			t.Fatalf("identities: %s", r.Body)
		}
		h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken), header("X-JWT-AUD", "authenticated")).OK(http.StatusOK)
		h.do("GET", "/auth/v1/user", nil, header("Authorization", "bearer "+s.AccessToken)).OK(http.StatusOK)

		hs256 := func(claims jwt.MapClaims) string {
			tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(h.keys.Secret)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
		future := time.Now().Add(time.Hour).Unix()
		foreign := otherKeys(t)
		sameKid := *foreign
		sameKid.KID = h.keys.KID
		esClaims := &auth.Claims{Subject: uid, Audience: auth.Audience{"authenticated"}, ExpiresAt: future, IssuedAt: time.Now().Unix(), Role: "authenticated", SessionID: claimsOf(t, s.AccessToken)["session_id"].(string)}
		foreignTok, _ := foreign.Sign(esClaims)
		sameKidTok, _ := sameKid.Sign(esClaims)
		noneTok := strings.Join([]string{
			b64url(`{"alg":"none","typ":"JWT"}`), b64url(`{"sub":"` + uid + `","aud":"authenticated","role":"authenticated"}`), "",
		}, ".")
		otherSession := claimsOf(t, h.signIn("other@example.com", testPassword).AccessToken)["session_id"]

		cases := []struct {
			name   string
			opts   []reqOpt
			status int
			code   string
		}{
			{"non-bearer header", []reqOpt{header("Authorization", "Basic Z3VzOnB3")}, 401, "no_authorization"},
			{"empty bearer", []reqOpt{header("Authorization", "Bearer ")}, 401, "no_authorization"},
			{"no header: the API key stands in, and has no sub", nil, 403, "bad_jwt"},
			{"anon key as bearer", []reqOpt{bearer(h.anon)}, 403, "bad_jwt"},
			{"service key as bearer", []reqOpt{bearer(h.service)}, 403, "bad_jwt"},
			{"garbage", []reqOpt{bearer("not.a.jwt")}, 403, "bad_jwt"},
			{"signed by another instance", []reqOpt{bearer(foreignTok)}, 403, "bad_jwt"},
			{"another key under our kid", []reqOpt{bearer(sameKidTok)}, 403, "bad_jwt"},
			{"alg none", []reqOpt{bearer(noneTok)}, 403, "bad_jwt"},
			{"HS256 with another secret", []reqOpt{bearer(func() string {
				tok, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": uid, "aud": "authenticated", "exp": future}).SignedString([]byte(strings.Repeat("x", 48)))
				return tok
			}())}, 403, "bad_jwt"},
			{"tampered payload", []reqOpt{bearer(tamper(t, s.AccessToken, "sub", otherID))}, 403, "bad_jwt"},
			{"HS256 non-UUID sub", []reqOpt{bearer(hs256(jwt.MapClaims{"sub": "alice", "aud": "authenticated", "role": "authenticated", "exp": future}))}, 400, "bad_jwt"},
			{"HS256 unknown user", []reqOpt{bearer(hs256(jwt.MapClaims{"sub": "00000000-0000-4000-8000-000000000000", "aud": "authenticated", "role": "authenticated", "exp": future}))}, 403, "user_not_found"},
			{"session of another user", []reqOpt{bearer(hs256(jwt.MapClaims{"sub": uid, "session_id": otherSession, "aud": "authenticated", "role": "authenticated", "exp": future}))}, 403, "session_not_found"},
			{"unknown session", []reqOpt{bearer(hs256(jwt.MapClaims{"sub": uid, "session_id": "00000000-0000-4000-8000-000000000000", "aud": "authenticated", "exp": future}))}, 403, "session_not_found"},
			{"audience mismatch", []reqOpt{bearer(s.AccessToken), header("X-JWT-AUD", "other")}, 400, "validation_failed"},
		}
		before := h.snapshot()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := h.in(t)
				h.do("GET", "/auth/v1/user", nil, c.opts...).Err(c.status, c.code)
			})
		}
		h.unchanged(before, "refused GET /user")

		t.Run("HS256 token of a real user without a session", func(t *testing.T) {
			h := h.in(t)
			r := h.do("GET", "/auth/v1/user", nil, bearer(hs256(jwt.MapClaims{"sub": uid, "aud": "authenticated", "role": "authenticated"}))).OK(http.StatusOK)
			if r.JSON()["id"] != uid {
				t.Fatalf("user %s", r.Body)
			}
		})

		t.Run("expired", func(t *testing.T) {
			h := h.in(t)
			now := h.clock.Now()
			h.clock.Set(time.Now().Add(-2 * time.Hour))
			old := h.signIn("gus@example.com", testPassword)
			h.clock.Set(now)
			msg := h.do("GET", "/auth/v1/user", nil, bearer(old.AccessToken)).Err(http.StatusForbidden, "bad_jwt")
			if !strings.Contains(msg, "expired") {
				t.Fatalf("message %q", msg)
			}
		})

		t.Run("after logout", func(t *testing.T) {
			h := h.in(t)
			h.do("POST", "/auth/v1/logout", nil, bearer(s.AccessToken)).OK(http.StatusNoContent)
			msg := h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).Err(http.StatusForbidden, "session_not_found")
			if msg != "Session from session_id claim in JWT does not exist" {
				t.Fatalf("message %q", msg)
			}
			h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken), legacy).LegacyErr(http.StatusForbidden, "session_not_found")
		})
	})
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// tamper changes one claim of a signed token, keeping the signature.
func tamper(t *testing.T, tok, claim, value string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	var c map[string]any
	if err := json.Unmarshal(b64(t, parts[1]), &c); err != nil {
		t.Fatal(err)
	}
	c[claim] = value
	b, _ := json.Marshal(c)
	parts[1] = b64url(string(b))
	return strings.Join(parts, ".")
}
