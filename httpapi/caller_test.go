package httpapi_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/blobstore"
	"fairbalance/httpapi"
	"fairbalance/service"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/storetest"
)

// Who is calling, on every surface: a session signed out, revoked by its
// member or an administrator, or whose refresh tokens were revoked for
// reuse stops working on the data API, storage, signed uploads, the
// functions and the auth endpoints within the stated bound — at once on the
// instance that made the change, within the callers cache's TTL on another
// instance sharing the database.

// startStack serves the whole API on db, wired as serve wires it: the
// data API (the workspace functions among them) and storage built on the
// identity service's store. Instances of one deployment share keys.
func startStack(t *testing.T, backend string, db *sqlstore.DB, keys *auth.Keys) *harness {
	t.Helper()
	var settings *service.Settings
	cfg := service.IdentityConfig{SiteURL: siteURL, RedirectAllowList: []string{allowedURL}, Version: "test",
		SignupDisabled: func(ctx context.Context) (bool, error) { return settings.SignupDisabled(ctx) }}
	logs := &logCapture{}
	logger := slog.New(logs)
	id := service.NewIdentity(db, keys, auth.NewHasher(0), cfg, logger)
	clk := &clock{t: time.Now().UTC().Truncate(time.Second)}
	id.Now = clk.Now
	settings = service.NewSettings(id)
	recovery := service.NewRecovery(id, service.RecoveryConfig{Migrate: db.Migrate})
	blobs, err := blobstore.NewDisk(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	storage := service.NewStorage(id.Store(), blobs, keys.Secret, http.DetectContentType)
	data := service.NewRegistry(id.Store(), storage)
	api := httpapi.New(httpapi.Config{Version: "test"}, httpapi.Deps{Identity: id, Data: data.Engine, Store: db, Log: logger,
		Settings: settings, Recovery: recovery, Storage: storage})
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(func() {
		srv.Close()
		logs.mu.Lock()
		defer logs.mu.Unlock()
		for _, r := range logs.records {
			t.Errorf("server logged an error: %s", r)
		}
	})
	return &harness{
		t: t, backend: backend, db: db, keys: keys, id: id, srv: srv, clock: clk,
		anon: keys.APIKey("anon"), service: keys.APIKey("service_role"), ctx: context.Background(),
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
}

func newKeys(t *testing.T) *auth.Keys {
	t.Helper()
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// signedInMember seeds an account with a member profile of role in orgID
// (creating the organisation) and signs it in.
func (h *harness) signedInMember(email, orgID, role string) (string, *session) {
	h.t.Helper()
	uid := h.seedUser(email, true)
	now := h.clock.Now()
	err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
		if _, err := tx.OrgByID(h.ctx, orgID); err != nil {
			if err := tx.CreateOrg(h.ctx, &fairbalance.Org{ID: orgID, Name: orgID, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return tx.CreateProfile(h.ctx, &fairbalance.Profile{ID: uid, OrgID: orgID, Role: role, CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return uid, h.signIn(email, testPassword)
}

// signUpload has the member behind tok sign an upload URL for docs/name.
func (h *harness) signUpload(tok, name string) string {
	h.t.Helper()
	var su map[string]string
	h.do("POST", "/storage/v1/object/upload/sign/docs/"+name, map[string]any{}, bearer(tok)).OK(http.StatusOK).Decode(&su)
	if su["url"] == "" {
		h.t.Fatalf("no signed upload URL: %v", su)
	}
	return su["url"]
}

func (h *harness) putSigned(signedURL string) *response {
	h.t.Helper()
	return h.do("PUT", "/storage/v1"+signedURL, testPDF, key(""), header("Content-Type", "application/pdf"))
}

// works checks that tok is accepted by the data API, storage, the
// functions and the auth endpoints.
func (h *harness) works(tok string) {
	h.t.Helper()
	h.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(tok)).OK(http.StatusOK)
	h.do("GET", "/storage/v1/bucket", nil, bearer(tok)).OK(http.StatusOK)
	fnOK(h.do("POST", "/functions/v1/demo-data-manager", map[string]any{"action": "CHECK_DEMO_DATA"}, bearer(tok)))
	h.do("GET", "/auth/v1/user", nil, bearer(tok)).OK(http.StatusOK)
}

// refusal is how every surface refuses a token, as each renders it.
type refusal struct {
	restStatus         int
	restCode, restMsg  string
	fnStatus           int
	fnCode             string
	authStatus         int
	authCode           string
	checkAuthEndpoints bool
}

// sessionEnded is the refusal of a token whose session is over.
var sessionEnded = refusal{
	restStatus: http.StatusUnauthorized, restCode: "PGRST301", restMsg: "The session of this token has ended",
	fnStatus: http.StatusUnauthorized, fnCode: "invalid_jwt",
	authStatus: http.StatusForbidden, authCode: "session_not_found", checkAuthEndpoints: true,
}

// refused checks that every surface refuses tok as want says.
func (h *harness) refused(tok string, want refusal) {
	h.t.Helper()
	r := h.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(tok))
	if r.Status != want.restStatus {
		h.t.Fatalf("rest: status %d, want %d: %s", r.Status, want.restStatus, r.Body)
	}
	if m := r.JSON(); m["code"] != want.restCode || m["message"] != want.restMsg {
		h.t.Fatalf("rest: %s, want code %s message %q", r.Body, want.restCode, want.restMsg)
	}
	r = h.do("GET", "/storage/v1/bucket", nil, bearer(tok))
	storageErr(h.t.(*testing.T), r, "403", "AccessDenied")
	if m := r.JSON(); m["message"] != want.restMsg {
		h.t.Fatalf("storage: %s, want message %q", r.Body, want.restMsg)
	}
	fnErr(h.do("POST", "/functions/v1/demo-data-manager", map[string]any{"action": "CHECK_DEMO_DATA"}, bearer(tok)), want.fnStatus, want.fnCode)
	if want.checkAuthEndpoints {
		h.do("GET", "/auth/v1/user", nil, bearer(tok)).Err(want.authStatus, want.authCode)
	}
}

// uploadRefused checks that a signed upload URL no longer uploads.
func (h *harness) uploadRefused(signedURL string) {
	h.t.Helper()
	r := h.putSigned(signedURL)
	storageErr(h.t.(*testing.T), r, "403", "AccessDenied")
}

// revocation is one way a session ends.
type revocation struct {
	name string
	// refusal is how the surfaces refuse the member's tokens afterwards.
	refusal refusal
	// revoke ends the member's first session through h, adding to
	// m.sessions any further token that must stop working with it.
	revoke func(t *testing.T, h *harness, m *revokedMember)
}

type revokedMember struct {
	uid, email string
	sessions   []*session
	adminToken string
}

func (m *revokedMember) tokens() []string {
	var out []string
	for _, s := range m.sessions {
		out = append(out, s.AccessToken)
	}
	return out
}

var revocations = []revocation{
	{
		name: "sign-out", refusal: sessionEnded,
		revoke: func(t *testing.T, h *harness, m *revokedMember) {
			h.do("POST", "/auth/v1/logout", nil, bearer(m.sessions[0].AccessToken)).OK(http.StatusNoContent)
		},
	},
	{
		// revoke_session: the member ends one session from another, as the
		// sessions page does.
		name: "revoke_session", refusal: sessionEnded,
		revoke: func(t *testing.T, h *harness, m *revokedMember) {
			other := h.signIn(m.email, testPassword)
			sid := claimsOf(t, m.sessions[0].AccessToken)["session_id"]
			r := h.do("POST", "/rest/v1/rpc/revoke_session", map[string]any{"session_id": sid}, bearer(other.AccessToken)).OK(http.StatusOK).JSON()
			if r["revoked"] != true {
				t.Fatalf("revoke_session: %v", r)
			}
			h.works(other.AccessToken) // the other session lives on
		},
	},
	{
		// An administrator deactivates the member: every session ends, and
		// the surfaces say why.
		name: "deactivate_member",
		refusal: refusal{
			restStatus: http.StatusForbidden, restCode: "42501", restMsg: "This account is deactivated",
			fnStatus: http.StatusForbidden, fnCode: "member_deactivated",
			authStatus: http.StatusForbidden, authCode: "session_not_found", checkAuthEndpoints: true,
		},
		revoke: func(t *testing.T, h *harness, m *revokedMember) {
			h.do("POST", "/rest/v1/rpc/deactivate_member", map[string]any{"user_id": m.uid}, bearer(m.adminToken)).OK(http.StatusOK)
		},
	},
	{
		// The auth admin API bans the account, which ends its sessions.
		name: "admin ban",
		refusal: refusal{
			restStatus: http.StatusForbidden, restCode: "42501", restMsg: "This account is banned",
			fnStatus: http.StatusUnauthorized, fnCode: "invalid_jwt",
			authStatus: http.StatusForbidden, authCode: "session_not_found", checkAuthEndpoints: true,
		},
		revoke: func(t *testing.T, h *harness, m *revokedMember) {
			h.admin("PUT", "/auth/v1/admin/users/"+m.uid, map[string]any{"ban_duration": "24h"}).OK(http.StatusOK)
		},
	},
	{
		// A refresh token used before is presented again: the whole token
		// family is revoked, and with it every access token of the session.
		name: "refresh-token reuse", refusal: sessionEnded,
		revoke: func(t *testing.T, h *harness, m *revokedMember) {
			first := m.sessions[0]
			second := h.decodeSession(h.refresh(first.RefreshToken))
			third := h.decodeSession(h.refresh(second.RefreshToken))
			m.sessions = append(m.sessions, second, third)
			h.works(third.AccessToken)
			h.refresh(first.RefreshToken).Err(http.StatusBadRequest, "refresh_token_already_used")
		},
	},
}

// setUpOrg gives h an organisation with an owner and a bucket, and returns
// the owner's token.
func setUpOrg(t *testing.T, h *harness) string {
	_, owner := h.signedInMember("owner@a.example", "org-a", fairbalance.RoleOwner)
	h.do("POST", "/storage/v1/bucket", map[string]any{"id": "docs", "name": "docs"}, bearer(owner.AccessToken)).OK(http.StatusOK)
	return owner.AccessToken
}

func TestRevocationOnEverySurface(t *testing.T) {
	t.Parallel()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			h := startStack(t, backend, storetest.Open(t, backend), newKeys(t))
			h = h.in(t)
			owner := setUpOrg(t, h)
			for i, rv := range revocations {
				t.Run(rv.name, func(t *testing.T) {
					h := h.in(t)
					email := strings.ReplaceAll(rv.name, " ", "-") + "@a.example"
					uid, s := h.signedInMember(email, "org-a", fairbalance.RoleMarketer)
					m := &revokedMember{uid: uid, email: email, sessions: []*session{s}, adminToken: owner}
					// Each surface has seen the token (the cache is warm) and
					// the member signed an upload URL.
					h.works(s.AccessToken)
					upload := h.signUpload(s.AccessToken, "f"+string(rune('a'+i))+".pdf")
					rv.revoke(t, h, m)
					// On this instance the next request is refused: no wait.
					for _, tok := range m.tokens() {
						h.refused(tok, rv.refusal)
					}
					h.uploadRefused(upload)
				})
			}
			// The owner, untouched, still works, and so does an upload URL of
			// a live session.
			h.works(owner)
			h.putSigned(h.signUpload(owner, "owner.pdf")).OK(http.StatusOK)

			// A role lowered through the data API holds on the next request,
			// though the member's standing was remembered.
			uid, s := h.signedInMember("demoted@a.example", "org-a", fairbalance.RoleMarketer)
			h.signUpload(s.AccessToken, "before.pdf")
			h.do("PATCH", "/rest/v1/profiles_v2?id=eq."+uid, map[string]any{"role": fairbalance.RoleViewer}, bearer(owner)).OK(http.StatusNoContent)
			storageErr(t, h.do("POST", "/storage/v1/object/upload/sign/docs/after.pdf", map[string]any{}, bearer(s.AccessToken)), "403", "AccessDenied")
		})
	}
}

// Two instances of the server on one database: a revocation made through
// the first is seen by the second within the callers cache's TTL, which is
// within the promised bound.
func TestRevocationAcrossInstances(t *testing.T) {
	t.Parallel()
	if service.DefaultCallerCacheTTL > service.RevocationBound || service.RevocationBound > 10*time.Second {
		t.Fatalf("cache TTL %v, bound %v: the promise is 10 s", service.DefaultCallerCacheTTL, service.RevocationBound)
	}
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			dbA, dbB := storetest.OpenPair(t, backend)
			keys := newKeys(t)
			a := startStack(t, backend, dbA, keys).in(t)
			b := startStack(t, backend, dbB, keys).in(t)
			if ttl := b.id.Config().CallerCacheTTL; ttl != service.DefaultCallerCacheTTL {
				t.Fatalf("TTL %v", ttl)
			}
			owner := setUpOrg(t, a)
			for i, rv := range revocations {
				t.Run(rv.name, func(t *testing.T) {
					a, b := a.in(t), b.in(t)
					email := "x-" + strings.ReplaceAll(rv.name, " ", "-") + "@a.example"
					uid, s := a.signedInMember(email, "org-a", fairbalance.RoleMarketer)
					m := &revokedMember{uid: uid, email: email, sessions: []*session{s}, adminToken: owner}
					b.works(s.AccessToken)
					upload := b.signUpload(s.AccessToken, "x"+string(rune('a'+i))+".pdf")
					rv.revoke(t, a, m)
					a.refused(s.AccessToken, rv.refusal)
					// The second instance answers from its cache until the TTL
					// has passed (this is the bound, not a wish) ...
					b.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(s.AccessToken)).OK(http.StatusOK)
					b.clock.Advance(service.DefaultCallerCacheTTL - time.Millisecond)
					b.do("GET", "/storage/v1/bucket", nil, bearer(s.AccessToken)).OK(http.StatusOK)
					// ... a signed upload asks afresh ...
					b.uploadRefused(upload)
					// ... and once the TTL has passed, every surface refuses.
					b.clock.Advance(time.Millisecond)
					for _, tok := range m.tokens() {
						b.refused(tok, rv.refusal)
					}
				})
			}
		})
	}
}

// The data API, storage and the functions render the resolver's refusal
// of a bad or expired token in their own shapes, as before.
func TestCallerRefusalShapes(t *testing.T) {
	t.Parallel()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			h := startStack(t, backend, storetest.Open(t, backend), newKeys(t)).in(t)
			setUpOrg(t, h)
			h.seedUser("late@a.example", true)
			now := h.clock.Now()
			h.clock.Set(time.Now().Add(-2 * time.Hour))
			old := h.signIn("late@a.example", testPassword)
			h.clock.Set(now)

			r := h.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(old.AccessToken))
			if m := r.JSON(); r.Status != http.StatusUnauthorized || m["code"] != "PGRST303" || m["message"] != "JWT expired" ||
				r.Header.Get("WWW-Authenticate") != `Bearer error="invalid_token", error_description="JWT expired"` {
				t.Fatalf("expired on rest: %d %v %s", r.Status, r.Header, r.Body)
			}
			r = h.do("GET", "/storage/v1/bucket", nil, bearer(old.AccessToken))
			storageErr(t, r, "403", "AccessDenied")
			if r.JSON()["message"] != "JWT expired" {
				t.Fatalf("expired on storage: %s", r.Body)
			}
			fnErr(h.do("POST", "/functions/v1/demo-data-manager", map[string]any{"action": "CHECK_DEMO_DATA"}, bearer(old.AccessToken)), http.StatusUnauthorized, "invalid_jwt")
			if msg := h.do("GET", "/auth/v1/user", nil, bearer(old.AccessToken)).Err(http.StatusForbidden, "bad_jwt"); !strings.Contains(msg, "expired") {
				t.Fatalf("expired on auth: %q", msg)
			}

			for _, tok := range []string{"not.a.jwt", otherKeys(t).APIKey("anon")} {
				r := h.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(tok))
				if m := r.JSON(); r.Status != http.StatusUnauthorized || m["code"] != "PGRST301" || m["message"] != "JWT could not be decoded" {
					t.Fatalf("bad token on rest: %d %s", r.Status, r.Body)
				}
				storageErr(t, h.do("GET", "/storage/v1/bucket", nil, bearer(tok)), "403", "AccessDenied")
			}

			// A token of this instance for another issuer (a changed site
			// URL) or without a session is no member's.
			sess := h.signIn("late@a.example", testPassword)
			c := claimsOf(t, sess.AccessToken)
			for name, mutate := range map[string]func(*auth.Claims){
				"issuer":     func(c *auth.Claims) { c.Issuer = "https://elsewhere.example/auth/v1" },
				"session":    func(c *auth.Claims) { c.SessionID = "" },
				"audience":   func(c *auth.Claims) { c.Audience = auth.Audience{"other"} },
				"role":       func(c *auth.Claims) { c.Role = "postgres" },
				"no profile": func(*auth.Claims) {},
			} {
				cl := &auth.Claims{Issuer: c["iss"].(string), Subject: c["sub"].(string), Audience: auth.Audience{"authenticated"},
					ExpiresAt: time.Now().Add(time.Hour).Unix(), IssuedAt: time.Now().Unix(), Role: "authenticated", SessionID: c["session_id"].(string)}
				mutate(cl)
				tok, err := h.keys.Sign(cl)
				if err != nil {
					t.Fatal(err)
				}
				want := "JWT could not be decoded"
				switch name {
				case "role":
					want = "JWT role is not allowed"
				case "no profile":
					want = "The account of this token no longer exists"
				}
				r := h.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(tok))
				if m := r.JSON(); r.Status != http.StatusUnauthorized || m["code"] != "PGRST301" || m["message"] != want {
					t.Fatalf("%s: %d %s, want %q", name, r.Status, r.Body, want)
				}
			}
			// The anonymous and service-role keys resolve as ever.
			if r := h.do("GET", "/rest/v1/profiles_v2?select=id", nil); r.JSON()["message"] != "permission denied for table profiles_v2" {
				t.Fatalf("anon: %d %s", r.Status, r.Body)
			}
			h.do("GET", "/rest/v1/profiles_v2?select=id", nil, key(h.service), bearer(h.service)).OK(http.StatusOK)
			h.do("GET", "/storage/v1/bucket", nil, key(h.service), bearer(h.service)).OK(http.StatusOK)
		})
	}
}
