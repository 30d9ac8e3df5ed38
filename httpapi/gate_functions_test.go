package httpapi_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/httpapi"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The functions (db-recovery, security-manager, demo-data-manager), the
// passcode gate and the indexing switch, through the real HTTP handler on
// real stores, wired as the server wires them.

// secHarness is a harness whose server also has the settings and safe-mode
// services, and whose sign-up asks the settings.
type secHarness struct {
	*harness
	settings *service.Settings
}

// newSecHarness is newHarness plus the settings and safe-mode services
// (dev turns development mode on).
func newSecHarness(t testing.TB, backend string, dev bool, opts ...harnessOpt) *secHarness {
	t.Helper()
	db := storetest.Open(t, backend)
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var settings *service.Settings
	cfg := service.IdentityConfig{SiteURL: siteURL, RedirectAllowList: []string{allowedURL}, SecurePasswordChange: true, Version: "test",
		SignupDisabled: func(ctx context.Context) (bool, error) { return settings.SignupDisabled(ctx) }}
	hcfg := httpapi.Config{Version: "test"}
	for _, o := range opts {
		o(&cfg, &hcfg)
	}
	logs := &logCapture{}
	logger := slog.New(logs)
	id := service.NewIdentity(db, keys, auth.NewHasher(0), cfg, logger)
	clk := &clock{t: time.Now().UTC().Truncate(time.Second)}
	id.Now = clk.Now
	settings = service.NewSettings(id)
	recovery := service.NewRecovery(id, service.RecoveryConfig{Dev: dev, Migrate: db.Migrate})
	api := httpapi.New(hcfg, httpapi.Deps{Identity: id, Store: db, Log: logger, Settings: settings, Recovery: recovery})
	srv := httptest.NewServer(api.Handler())
	h := &harness{
		t: t, backend: backend, db: db, keys: keys, id: id, srv: srv, clock: clk,
		anon: keys.APIKey("anon"), service: keys.APIKey("service_role"), ctx: t.Context(),
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
	t.Cleanup(func() {
		srv.Close()
		logs.mu.Lock()
		defer logs.mu.Unlock()
		for _, r := range logs.records {
			t.Errorf("server logged an error: %s", r)
		}
	})
	return &secHarness{harness: h, settings: settings}
}

func forEachSecBackend(t *testing.T, dev bool, fn func(t *testing.T, h *secHarness), opts ...harnessOpt) {
	t.Helper()
	for _, b := range storetest.Backends() {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			fn(t, newSecHarness(t, b, dev, opts...))
		})
	}
}

func withForwardedFor(_ *service.IdentityConfig, h *httpapi.Config) { h.ForwardedForHeader = "X-Forwarded-For" }

// fn invokes a function as functions-js does: POST with a JSON body, the
// anon key as apikey and, unless opts say otherwise, as bearer.
func (h *secHarness) fn(name string, body map[string]any, opts ...reqOpt) *response {
	h.t.Helper()
	return h.do("POST", "/functions/v1/"+name, body, append([]reqOpt{bearer(h.anon)}, opts...)...)
}

// fnErr checks a function failure: status, JSON {success:false, code, message}.
func fnErr(r *response, status int, code string) map[string]any {
	r.t.Helper()
	if r.Status != status {
		r.t.Fatalf("status %d, want %d (%s): %s", r.Status, status, code, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		r.t.Fatalf("content type %q", ct)
	}
	m := r.JSON()
	if m["success"] != false || m["code"] != code {
		r.t.Fatalf("body %s, want code %s", r.Body, code)
	}
	if s, _ := m["message"].(string); s == "" {
		r.t.Fatalf("no message: %s", r.Body)
	}
	return m
}

// fnOK checks a function success and returns its body.
func fnOK(r *response) map[string]any {
	r.t.Helper()
	r.OK(http.StatusOK)
	m := r.JSON()
	if m["success"] != true {
		r.t.Fatalf("not a success: %s", r.Body)
	}
	return m
}

// member seeds a confirmed account with a member profile and signs it in.
func (h *secHarness) member(email, role string) *session {
	h.t.Helper()
	id := h.seedUser(email, true)
	now := h.clock.Now()
	if err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
		return tx.CreateProfile(h.ctx, &fairbalance.Profile{ID: id, Role: role, CreatedAt: now, UpdatedAt: now})
	}); err != nil {
		h.t.Fatal(err)
	}
	return h.signIn(email, testPassword)
}

func (h *secHarness) recoveryKey() reqOpt { return header("X-Recovery-Key", h.keys.RecoveryKey) }

func cookie(c *http.Cookie) reqOpt { return func(r *http.Request) { r.AddCookie(c) } }

