package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"fairbalance/httpapi"
	"fairbalance/service"
)

// withSite serves the site at site, with allow as the redirect allow-list.
func withSite(site string, allow ...string) harnessOpt {
	return func(c *service.IdentityConfig, _ *httpapi.Config) {
		c.SiteURL, c.RedirectAllowList = site, allow
	}
}

// TestCORSOrigins: CORS answers the site URL's origin and the redirect
// allow-list's origins only. Any other origin is served as if it sent no
// Origin (no Access-Control-* header, the request itself unaffected), and
// its preflight is refused; every API answer to a request with an Origin
// varies on it.
func TestCORSOrigins(t *testing.T) {
	t.Parallel()
	const reqHeaders = "apikey, authorization, x-client-info, content-type"
	cases := []struct {
		name    string
		origin  string
		allowed bool
	}{
		{"site", "https://app.example.com", true},
		{"site with its default port", "https://app.example.com:443", true},
		{"site, other case", "HTTPS://App.Example.COM", true},
		{"allow-list prefix", "http://localhost:3000", true},
		{"allow-list entry with a path", "https://portal.example.net:8443", true},
		{"foreign", "https://evil.example", false},
		{"site over http", "http://app.example.com", false},
		{"site's subdomain", "https://x.app.example.com", false},
		{"site as a suffix", "https://app.example.com.evil.example", false},
		{"longer port", "http://localhost:30001", false},
		{"other port", "http://localhost:3001", false},
		{"wildcard entry", "https://a.wild.example", false},
		{"opaque origin", "null", false},
		{"with credentials", "http://user@localhost:3000", false},
		{"Vite dev server", "http://localhost:5173", false},
	}
	opt := withSite("https://app.example.com", "http://localhost:3000/", "https://portal.example.net:8443/portal/", "https://*.wild.example/")
	forEachBackend(t, func(t *testing.T, h *harness) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := h.in(t)
				pre := h.do("OPTIONS", "/auth/v1/token?grant_type=password", nil, key(""),
					header("Origin", c.origin), header("Access-Control-Request-Method", "POST"), header("Access-Control-Request-Headers", reqHeaders))
				if pre.Status != http.StatusNoContent {
					t.Fatalf("preflight status %d: %s", pre.Status, pre.Body)
				}
				if !strings.Contains(strings.Join(pre.Header.Values("Vary"), ","), "Origin") {
					t.Fatalf("preflight Vary %q lacks Origin", pre.Header.Values("Vary"))
				}
				got := h.do("GET", "/auth/v1/settings", nil, header("Origin", c.origin))
				if got.Status != http.StatusOK {
					t.Fatalf("GET with Origin %q: %d %s", c.origin, got.Status, got.Body)
				}
				if !strings.Contains(strings.Join(got.Header.Values("Vary"), ","), "Origin") {
					t.Fatalf("Vary %q lacks Origin", got.Header.Values("Vary"))
				}
				if c.allowed {
					if v := pre.Header.Get("Access-Control-Allow-Origin"); v != c.origin {
						t.Fatalf("preflight Allow-Origin %q, want %q", v, c.origin)
					}
					if pre.Header.Get("Access-Control-Allow-Headers") != reqHeaders || !strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "POST") ||
						pre.Header.Get("Access-Control-Allow-Credentials") != "true" {
						t.Fatalf("preflight headers %v", pre.Header)
					}
					if v := got.Header.Get("Access-Control-Allow-Origin"); v != c.origin {
						t.Fatalf("Allow-Origin %q, want %q", v, c.origin)
					}
					if !strings.Contains(got.Header.Get("Access-Control-Expose-Headers"), "X-Supabase-Api-Version") {
						t.Fatalf("Expose-Headers %q", got.Header.Get("Access-Control-Expose-Headers"))
					}
					return
				}
				for _, r := range []*response{pre, got} {
					for k := range r.Header {
						if strings.HasPrefix(k, "Access-Control-") {
							t.Fatalf("%s for origin %q: %v", k, c.origin, r.Header)
						}
					}
				}
			})
		}

		t.Run("no Origin", func(t *testing.T) {
			h := h.in(t)
			r := h.do("GET", "/auth/v1/settings", nil).OK(http.StatusOK)
			for k := range r.Header {
				if strings.HasPrefix(k, "Access-Control-") {
					t.Fatalf("%s without an Origin", k)
				}
			}
		})

		// The Vite dev server proxies /auth, /rest, ... to the server: for
		// the browser the app and the API are one origin, but the proxy
		// passes the browser's Origin (sent on every POST) on. Such a
		// request is served in full.
		t.Run("proxied same-origin POST", func(t *testing.T) {
			h := h.in(t)
			h.seedUser("dev@example.com", true)
			r := h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "dev@example.com", "password": testPassword},
				header("Origin", "http://localhost:5173"))
			if r.Status != http.StatusOK || r.JSON()["access_token"] == nil {
				t.Fatalf("sign-in through the dev proxy: %d %s", r.Status, r.Body)
			}
			if v := r.Header.Get("Access-Control-Allow-Origin"); v != "" {
				t.Fatalf("Allow-Origin %q for the dev server", v)
			}
		})
	}, opt)
}

// TestHSTS: Strict-Transport-Security is sent on every answer when the site
// URL is https, and never when it is http.
func TestHSTS(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		site string
		want string
	}{
		{"https://review.example.com", "max-age=31536000; includeSubDomains"},
		{"HTTPS://review.example.com", "max-age=31536000; includeSubDomains"},
		{"http://127.0.0.1:8080", ""},
	} {
		t.Run(c.site, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "sqlite", withSite(c.site))
			for _, r := range []*response{
				h.do("GET", "/auth/v1/settings", nil),
				h.do("GET", "/auth/v1/user", nil), // an error
				h.do("GET", "/api/health", nil, key("")),
				h.do("GET", "/", nil, key("")),
				h.do("OPTIONS", "/rest/v1/assets", nil, key(""), header("Origin", c.site), header("Access-Control-Request-Method", "GET")),
			} {
				if got := r.Header.Get("Strict-Transport-Security"); got != c.want {
					t.Fatalf("Strict-Transport-Security %q, want %q (status %d)", got, c.want, r.Status)
				}
			}
		})
	}
}
