package httpapi_test

import (
	"net/http"
	"testing"
	"time"
)

// burst checks that 30 requests pass and the 31st is refused with 429
// over_request_rate_limit. The limits refill in real time, so when the
// requests took long, a few more may pass; rate is the refill per second.
func burst(t *testing.T, h *harness, rate float64, send func() *response) {
	t.Helper()
	start := time.Now()
	for i := 1; i <= 30; i++ {
		if r := send(); r.Status == http.StatusTooManyRequests {
			t.Fatalf("request %d of the burst refused: %s", i, r.Body)
		}
	}
	slack := int(time.Since(start).Seconds()*rate) + 1
	for i := 31; i <= 31+slack; i++ {
		r := send()
		if r.Status == http.StatusTooManyRequests {
			if i > 31 && time.Since(start) < time.Second {
				t.Fatalf("request %d, not 31, was the first refused", i)
			}
			r.Err(http.StatusTooManyRequests, "over_request_rate_limit")
			if r.Header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
			return
		}
	}
	t.Fatalf("no 429 after %d requests", 31+slack)
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("rl@example.com", true)
		token := func(opts ...reqOpt) func() *response {
			return func() *response {
				return h.do("POST", "/auth/v1/token?grant_type=none", map[string]any{}, opts...)
			}
		}
		t.Run("token bucket per peer address", func(t *testing.T) {
			h := h.in(t)
			burst(t, h, 0.5, token())
			// A forwarded-for header is not trusted unless configured.
			h.do("POST", "/auth/v1/token?grant_type=none", map[string]any{}, header("X-Forwarded-For", "198.51.100.9")).
				Err(http.StatusTooManyRequests, "over_request_rate_limit")
			h.do("POST", "/auth/v1/token?grant_type=none", map[string]any{}, legacy).
				LegacyErr(http.StatusTooManyRequests, "over_request_rate_limit")
			// Unlimited routes stay open; the other buckets (below) are separate.
			h.do("GET", "/auth/v1/settings", nil).OK(http.StatusOK)
		})
		t.Run("otp bucket", func(t *testing.T) {
			h := h.in(t)
			burst(t, h, 0.1, func() *response {
				return h.do("POST", "/auth/v1/recover", map[string]any{"email": "nobody@example.com"})
			})
		})
		t.Run("verify bucket, on the open link route too", func(t *testing.T) {
			h := h.in(t)
			burst(t, h, 0.1, func() *response {
				return h.do("GET", "/auth/v1/verify?type=signup&token=x", nil, key(""))
			})
		})
		t.Run("mfa bucket", func(t *testing.T) {
			h := h.in(t)
			burst(t, h, 0.25, func() *response {
				return h.do("POST", "/auth/v1/factors/00000000-0000-4000-8000-000000000000/challenge", nil, bearer(h.anon))
			})
		})
	}, withRateLimits)
}

func TestRateLimitsForwardedFor(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		burst(t, h, 0.5, func() *response {
			return h.do("POST", "/auth/v1/token?grant_type=none", map[string]any{}, header("X-Forwarded-For", "203.0.113.7, 10.0.0.1"))
		})
		// Another client behind the same proxy is not limited.
		h.do("POST", "/auth/v1/token?grant_type=none", map[string]any{}, header("X-Forwarded-For", "203.0.113.8")).Err(http.StatusBadRequest, "invalid_credentials")
		// Nor is the proxy itself.
		h.do("POST", "/auth/v1/token?grant_type=none", map[string]any{}).Err(http.StatusBadRequest, "invalid_credentials")
	}, withRateLimits, withForwardedFor)
}
