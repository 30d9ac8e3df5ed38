package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestAPIKeyGate(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		keyed := []struct{ method, path string }{
			{"POST", "/auth/v1/signup"},
			{"POST", "/auth/v1/token?grant_type=password"},
			{"GET", "/auth/v1/user"},
			{"PUT", "/auth/v1/user"},
			{"GET", "/auth/v1/reauthenticate"},
			{"POST", "/auth/v1/logout"},
			{"POST", "/auth/v1/recover"},
			{"POST", "/auth/v1/otp"},
			{"POST", "/auth/v1/magiclink"},
			{"POST", "/auth/v1/resend"},
			{"POST", "/auth/v1/verify"},
			{"GET", "/auth/v1/settings"},
			{"POST", "/auth/v1/factors"},
			{"POST", "/auth/v1/factors/00000000-0000-4000-8000-000000000000/challenge"},
			{"POST", "/auth/v1/factors/00000000-0000-4000-8000-000000000000/verify"},
			{"DELETE", "/auth/v1/factors/00000000-0000-4000-8000-000000000000"},
			{"POST", "/auth/v1/invite"},
			{"POST", "/auth/v1/admin/generate_link"},
			{"GET", "/auth/v1/admin/users"},
			{"POST", "/auth/v1/admin/users"},
			{"GET", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000"},
			{"PUT", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000"},
			{"DELETE", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000"},
			{"GET", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000/factors"},
			{"DELETE", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000/factors/00000000-0000-4000-8000-000000000001"},
			{"GET", "/api/admin/mail"},
		}
		before := h.snapshot()
		for _, c := range keyed {
			t.Run(c.method+" "+c.path, func(t *testing.T) {
				h := h.in(t)
				r := h.do(c.method, c.path, map[string]any{}, key(""))
				if r.Status != http.StatusUnauthorized {
					t.Fatalf("no key: status %d: %s", r.Status, r.Body)
				}
				if m := r.JSON(); m["message"] != "No API key found in request" || len(m) != 1 {
					t.Fatalf("no key: body %s", r.Body)
				}
				r = h.do(c.method, c.path, map[string]any{}, key("not-a-key"))
				if r.Status != http.StatusUnauthorized {
					t.Fatalf("bad key: status %d: %s", r.Status, r.Body)
				}
				if m := r.JSON(); m["message"] == "" || m["message"] == nil {
					t.Fatalf("bad key: body %s", r.Body)
				}
				// A key signed by another instance is refused too.
				r = h.do(c.method, c.path, map[string]any{}, key(otherKeys(t).APIKey("anon")))
				if r.Status != http.StatusUnauthorized {
					t.Fatalf("foreign key: status %d: %s", r.Status, r.Body)
				}
			})
		}
		h.unchanged(before, "refused requests")

		t.Run("apikey in the query", func(t *testing.T) {
			h := h.in(t)
			h.do("GET", "/auth/v1/settings?apikey="+h.anon, nil, key("")).OK(http.StatusOK)
		})

		t.Run("open routes", func(t *testing.T) {
			h := h.in(t)
			r := h.do("GET", "/auth/v1/health", nil, key("")).OK(http.StatusOK)
			if m := r.JSON(); m["name"] != "GoTrue" || m["version"] != "test" || m["description"] == nil {
				t.Fatalf("health: %s", r.Body)
			}
			r = h.do("GET", "/auth/v1/.well-known/jwks.json", nil, key("")).OK(http.StatusOK)
			if got := r.Header.Get("Cache-Control"); got != "public, max-age=600" {
				t.Fatalf("jwks Cache-Control %q", got)
			}
			keys, _ := r.JSON()["keys"].([]any)
			if len(keys) != 1 {
				t.Fatalf("jwks: %s", r.Body)
			}
			k := keys[0].(map[string]any)
			for f, want := range map[string]string{"kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": h.keys.KID} {
				if k[f] != want {
					t.Fatalf("jwk %s = %v, want %q: %s", f, k[f], want, r.Body)
				}
			}
			if ops, _ := k["key_ops"].([]any); len(ops) != 1 || ops[0] != "verify" {
				t.Fatalf("jwk key_ops: %s", r.Body)
			}
			for _, private := range []string{"d", "k"} {
				if _, ok := k[private]; ok {
					t.Fatalf("jwks leaks %q: %s", private, r.Body)
				}
			}
			// GET /verify needs no key: without type and token it is a 400 JSON error.
			h.do("GET", "/auth/v1/verify", nil, key("")).Err(http.StatusBadRequest, "validation_failed")
			h.do("GET", "/auth/v1/verify?type=signup", nil, key("")).Err(http.StatusBadRequest, "validation_failed")
			h.do("GET", "/auth/v1/verify?token=abc", nil, key(""), legacy).LegacyErr(http.StatusBadRequest, "validation_failed")
			// So do the operational endpoints.
			r = h.do("GET", "/api/health", nil, key("")).OK(http.StatusOK)
			if m := r.JSON(); m["status"] != "ok" || m["database"] != h.backend {
				t.Fatalf("api health: %s", r.Body)
			}
			r = h.do("GET", "/api/config", nil, key("")).OK(http.StatusOK)
			if m := r.JSON(); m["anon_key"] != h.anon || m["site_url"] != siteURL {
				t.Fatalf("api config: %s", r.Body)
			}
			if strings.Contains(string(r.Body), h.service) {
				t.Fatal("api config leaks the service-role key")
			}
		})

		t.Run("settings", func(t *testing.T) {
			h := h.in(t)
			r := h.do("GET", "/auth/v1/settings", nil).OK(http.StatusOK)
			m := r.JSON()
			ext, _ := m["external"].(map[string]any)
			if ext["email"] != true || ext["phone"] != false || ext["github"] != false {
				t.Fatalf("settings external: %s", r.Body)
			}
			if m["disable_signup"] != false || m["mailer_autoconfirm"] != false || m["sms_provider"] != "" {
				t.Fatalf("settings: %s", r.Body)
			}
		})

		t.Run("unknown routes", func(t *testing.T) {
			h := h.in(t)
			h.do("GET", "/auth/v1/nope", nil).Err(http.StatusNotFound, "not_found")
			r := h.do("GET", "/api/nope", nil, key(""))
			if r.Status != http.StatusNotFound || r.JSON()["code"] != "not_found" {
				t.Fatalf("api 404: %d %s", r.Status, r.Body)
			}
			// Without a built web app the root explains how to build it.
			r = h.do("GET", "/", nil, key("")).OK(http.StatusOK)
			if !strings.Contains(string(r.Body), "not built") {
				t.Fatalf("root: %s", r.Body)
			}
		})

		t.Run("admin mail", func(t *testing.T) {
			h := h.in(t)
			h.do("GET", "/api/admin/mail", nil).Err(http.StatusForbidden, "not_admin")
			h.seedUser("mailbox@example.com", true)
			h.do("POST", "/auth/v1/recover", map[string]any{"email": "mailbox@example.com"}).OK(http.StatusOK)
			var list []map[string]any
			h.admin("GET", "/api/admin/mail?to=mailbox@example.com&limit=5", nil).OK(http.StatusOK).Decode(&list)
			if len(list) != 1 || list[0]["kind"] != "recovery" || list[0]["to"] != "mailbox@example.com" {
				t.Fatalf("mail list: %v", list)
			}
		})
	})
}

func TestCORSAndSecurityHeaders(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		const origin = "http://localhost:3000"
		reqHeaders := "apikey, authorization, x-client-info, content-type, x-supabase-api-version, accept-profile, prefer, x-upsert, x-region, traceparent"
		for _, path := range []string{"/auth/v1/token?grant_type=password", "/auth/v1/user", "/auth/v1/admin/users", "/api/health"} {
			t.Run("preflight "+path, func(t *testing.T) {
				h := h.in(t)
				// Browsers send preflights without the API key.
				r := h.do("OPTIONS", path, nil, key(""), legacy,
					header("Origin", origin), header("Access-Control-Request-Method", "POST"), header("Access-Control-Request-Headers", reqHeaders))
				if r.Status != http.StatusNoContent && r.Status != http.StatusOK {
					t.Fatalf("preflight status %d: %s", r.Status, r.Body)
				}
				if got := r.Header.Get("Access-Control-Allow-Origin"); got != origin {
					t.Fatalf("Allow-Origin %q", got)
				}
				if got := r.Header.Get("Access-Control-Allow-Headers"); got != reqHeaders {
					t.Fatalf("Allow-Headers %q, want the request's", got)
				}
				methods := r.Header.Get("Access-Control-Allow-Methods")
				for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
					if !strings.Contains(methods, m) {
						t.Fatalf("Allow-Methods %q lacks %s", methods, m)
					}
				}
				if got := r.Header.Get("Access-Control-Max-Age"); got != "86400" {
					t.Fatalf("Max-Age %q", got)
				}
			})
		}

		t.Run("exposed headers", func(t *testing.T) {
			h := h.in(t)
			for _, r := range []*response{
				h.do("GET", "/auth/v1/settings", nil, header("Origin", origin)),
				h.do("GET", "/auth/v1/user", nil, header("Origin", origin)), // an error response
				h.admin("GET", "/auth/v1/admin/users", nil, header("Origin", origin)),
			} {
				if got := r.Header.Get("Access-Control-Allow-Origin"); got != origin {
					t.Fatalf("Allow-Origin %q", got)
				}
				exposed := strings.ToLower(r.Header.Get("Access-Control-Expose-Headers"))
				for _, want := range []string{"content-range", "x-supabase-api-version", "x-total-count", "link", "x-relay-error"} {
					if !strings.Contains(exposed, want) {
						t.Fatalf("Expose-Headers %q lacks %s", exposed, want)
					}
				}
			}
		})

		t.Run("no CORS without Origin", func(t *testing.T) {
			h := h.in(t)
			r := h.do("GET", "/auth/v1/settings", nil)
			if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
				t.Fatalf("Allow-Origin %q without an Origin", got)
			}
		})

		t.Run("security headers", func(t *testing.T) {
			h := h.in(t)
			for _, r := range []*response{
				h.do("GET", "/auth/v1/settings", nil),
				h.do("GET", "/auth/v1/user", nil, key("")),
				h.do("GET", "/auth/v1/verify", nil, key("")),
				h.do("GET", "/", nil, key("")),
				h.do("GET", "/api/health", nil, key("")),
			} {
				for k, want := range map[string]string{
					"X-Content-Type-Options": "nosniff",
					"Referrer-Policy":        "strict-origin-when-cross-origin",
					"X-Frame-Options":        "DENY",
				} {
					if got := r.Header.Get(k); got != want {
						t.Fatalf("%s = %q, want %q", k, got, want)
					}
				}
				csp := r.Header.Get("Content-Security-Policy")
				for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
					if !strings.Contains(csp, want) {
						t.Fatalf("CSP %q lacks %q", csp, want)
					}
				}
				if r.Header.Get("X-Request-Id") == "" {
					t.Fatal("no X-Request-Id")
				}
			}
		})
	})
}

// TestErrorShapes sends requests that fail without side effects in both
// error shapes: with X-Supabase-Api-Version 2024-01-01 (or later) the body is
// {code, message} and the header is echoed; without it, or with an older
// version, {code: <status>, error_code, msg}.
func TestErrorShapes(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("shape@example.com", true)
		cases := []struct {
			name         string
			method, path string
			body         any
			opts         []reqOpt
			status       int
			code         string
		}{
			{"unsupported grant", "POST", "/auth/v1/token?grant_type=magic", map[string]any{}, nil, 400, "invalid_credentials"},
			{"bad json", "POST", "/auth/v1/signup", raw(`{"email":`), nil, 400, "bad_json"},
			{"weak password", "POST", "/auth/v1/signup", map[string]any{"email": "weak@example.com", "password": "abc"}, nil, 422, "weak_password"},
			{"short refresh token", "POST", "/auth/v1/token?grant_type=refresh_token", map[string]any{"refresh_token": "abc"}, nil, 400, "validation_failed"},
			{"non-bearer authorization", "GET", "/auth/v1/user", nil, []reqOpt{header("Authorization", "Basic Zm9vOmJhcg==")}, 401, "no_authorization"},
			{"anon key as user", "GET", "/auth/v1/user", nil, []reqOpt{bearer(h.anon)}, 403, "bad_jwt"},
			{"not admin", "GET", "/auth/v1/admin/users", nil, nil, 403, "not_admin"},
			{"admin non-uuid", "GET", "/auth/v1/admin/users/nope", nil, []reqOpt{key(h.service), bearer(h.service)}, 404, "validation_failed"},
			{"admin unknown user", "GET", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000", nil, []reqOpt{key(h.service), bearer(h.service)}, 404, "user_not_found"},
			{"invite confirmed", "POST", "/auth/v1/invite", map[string]any{"email": "shape@example.com"}, []reqOpt{key(h.service), bearer(h.service)}, 422, "email_exists"},
			{"otp disabled", "POST", "/auth/v1/otp", map[string]any{"email": "nobody@example.com", "create_user": false}, nil, 422, "otp_disabled"},
			{"verify without type", "POST", "/auth/v1/verify", map[string]any{"token": "123456", "email": "shape@example.com"}, nil, 400, "validation_failed"},
			{"pkce unknown code", "POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": "00000000-0000-4000-8000-000000000000", "code_verifier": strings.Repeat("a", 64)}, nil, 404, "flow_state_not_found"},
			{"too large", "POST", "/auth/v1/signup", raw(`{"data":"` + strings.Repeat("x", 1<<20) + `"}`), nil, 413, "request_entity_too_large"},
		}
		_ = uid
		before := h.snapshot()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := h.in(t)
				r := h.do(c.method, c.path, c.body, c.opts...)
				r.Err(c.status, c.code)
				newBody := r.JSON()
				r = h.do(c.method, c.path, c.body, append(c.opts, legacy)...)
				r.LegacyErr(c.status, c.code)
				oldBody := r.JSON()
				if newBody["message"] != oldBody["msg"] {
					t.Fatalf("messages differ: %q vs %q", newBody["message"], oldBody["msg"])
				}
				if r.Status >= 500 && oldBody["error_id"] == nil {
					t.Fatalf("5xx without error_id: %s", r.Body)
				}
				// An older API version gets the legacy shape too.
				h.do(c.method, c.path, c.body, append(c.opts, header("X-Supabase-Api-Version", "2023-05-01"))...).LegacyErr(c.status, c.code)
				if c.code == "weak_password" {
					for _, b := range []map[string]any{newBody, oldBody} {
						wp, _ := b["weak_password"].(map[string]any)
						reasons, _ := wp["reasons"].([]any)
						if len(reasons) == 0 {
							t.Fatalf("weak_password without reasons: %v", b)
						}
					}
				}
			})
		}
		h.unchanged(before, "refused requests", "auth_audit")
	})
}
