package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
)

// The benchmarks run on SQLite with rate limits off, through the real HTTP
// stack, from RunParallel goroutines (they measure throughput, so ns/op is
// per request across all goroutines).

const benchParallelism = 4

// benchClient keeps enough idle connections for every goroutine.
func benchClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}}
}

// benchDo sends one request and reports (not fails) an unexpected status,
// as b.Fatal may not be called from RunParallel goroutines.
func benchDo(b *testing.B, c *http.Client, h *harness, method, path string, body any, token string, want int) []byte {
	var rd io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, h.srv.URL+path, rd)
	req.Header.Set("apikey", h.anon)
	req.Header.Set("X-Supabase-Api-Version", apiVersion)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.Do(req)
	if err != nil {
		b.Error(err)
		return nil
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		b.Errorf("%s %s: status %d: %s", method, path, res.StatusCode, out)
	}
	return out
}

// benchUser creates a confirmed account with an argon2id password hash, as
// a real sign-up leaves it.
func benchUser(b *testing.B, h *harness, email string) {
	b.Helper()
	h.admin("POST", "/auth/v1/admin/users", map[string]any{"email": email, "password": testPassword, "email_confirm": true}).OK(http.StatusOK)
}

func BenchmarkPasswordSignIn(b *testing.B) {
	h := newHarness(b, "sqlite")
	benchUser(b, h, "bench@example.com")
	c := benchClient()
	body := map[string]any{"email": "bench@example.com", "password": testPassword}
	b.SetParallelism(benchParallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			benchDo(b, c, h, "POST", "/auth/v1/token?grant_type=password", body, "", http.StatusOK)
		}
	})
}

func BenchmarkRefresh(b *testing.B) {
	h := newHarness(b, "sqlite")
	// One session per goroutine: each rotates its own chain.
	n := runtime.GOMAXPROCS(0) * benchParallelism
	tokens := make([]string, n)
	for i := range tokens {
		email := "refresh" + strconv.Itoa(i) + "@example.com"
		h.seedUser(email, true)
		tokens[i] = h.signIn(email, testPassword).RefreshToken
	}
	c := benchClient()
	var next atomic.Int32
	b.SetParallelism(benchParallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		tok := tokens[int(next.Add(1)-1)%n]
		for pb.Next() {
			out := benchDo(b, c, h, "POST", "/auth/v1/token?grant_type=refresh_token", map[string]any{"refresh_token": tok}, "", http.StatusOK)
			var s session
			if json.Unmarshal(out, &s) == nil && s.RefreshToken != "" {
				tok = s.RefreshToken
			}
		}
	})
}

func BenchmarkGetUser(b *testing.B) {
	h := newHarness(b, "sqlite")
	h.seedUser("getuser@example.com", true)
	tok := h.signIn("getuser@example.com", testPassword).AccessToken
	c := benchClient()
	b.SetParallelism(benchParallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			benchDo(b, c, h, "GET", "/auth/v1/user", nil, tok, http.StatusOK)
		}
	})
}
