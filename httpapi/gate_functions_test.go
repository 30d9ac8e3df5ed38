package httpapi_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
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
	h, settings := startHarness(t, backend, dev, opts...)
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

// in returns the harness reporting to t, for use inside a subtest.
func (h *secHarness) in(t testing.TB) *secHarness {
	return &secHarness{harness: h.harness.in(t), settings: h.settings}
}

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

// markOperator marks the account of a session instance operator, as
// `fairbalance operator grant` does.
func (h *secHarness) markOperator(s *session) {
	h.t.Helper()
	id := str(h.t, claimsOf(h.t, s.AccessToken), "sub")
	if err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
		_, err := tx.AddOperator(h.ctx, &fairbalance.Operator{UserID: id, GrantedBy: "cli", CreatedAt: h.clock.Now()})
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *secHarness) recoveryKey() reqOpt { return header("X-Recovery-Key", h.keys.RecoveryKey) }

func cookie(c *http.Cookie) reqOpt { return func(r *http.Request) { r.AddCookie(c) } }

func TestFunctionsRequestShapes(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		status := map[string]any{"action": "GET_DB_STATUS"}
		fnErr(h.fn("no-such-function", status), http.StatusNotFound, "function_not_found")
		fnErr(h.do("POST", "/functions/v1/", status), http.StatusNotFound, "function_not_found")
		r := h.do("GET", "/functions/v1/db-recovery", nil)
		fnErr(r, http.StatusMethodNotAllowed, "method_not_allowed")
		if r.Header.Get("Allow") != "POST, OPTIONS" {
			t.Fatalf("Allow %q", r.Header.Get("Allow"))
		}
		// Credentials: none, a foreign key, a bad token.
		fnErr(h.fn("db-recovery", status, key(""), header("Authorization", "")), http.StatusUnauthorized, "no_authorization")
		fnErr(h.fn("db-recovery", status, key("not-a-key")), http.StatusUnauthorized, "invalid_api_key")
		fnErr(h.fn("db-recovery", status, bearer("not.a.jwt")), http.StatusUnauthorized, "invalid_jwt")
		fnErr(h.fn("db-recovery", status, bearer(otherKeys(t).APIKey("anon"))), http.StatusUnauthorized, "invalid_jwt")
		// Actions and bodies.
		fnErr(h.fn("db-recovery", map[string]any{"action": "DROP_EVERYTHING"}), http.StatusBadRequest, "unknown_action")
		fnErr(h.fn("db-recovery", map[string]any{}), http.StatusBadRequest, "unknown_action")
		fnErr(h.fn("security-manager", map[string]any{"action": "NOPE"}, bearer(h.service)), http.StatusBadRequest, "unknown_action")
		fnErr(h.do("POST", "/functions/v1/db-recovery", raw(`{"action":`)), http.StatusBadRequest, "bad_json")
		fnErr(h.fn("db-recovery", map[string]any{"action": 7}), http.StatusBadRequest, "validation_failed")
		// Demo data: anyone checks; seeding and removal need the recovery key
		// (or an administrator, or the service role); removal is exact.
		m := fnOK(h.fn("demo-data-manager", map[string]any{"action": "CHECK_DEMO_DATA"}))
		if m["hasDemo"] != false {
			t.Fatalf("demo check %v", m)
		}
		fnErr(h.fn("demo-data-manager", map[string]any{"action": "SEED_DEMO_DATA"}), http.StatusUnauthorized, "no_authorization")
		m = fnOK(h.fn("demo-data-manager", map[string]any{"action": "SEED_DEMO_DATA"}, h.recoveryKey()))
		if d, _ := m["details"].(map[string]any); d["organizations"] != float64(1) || d["users"] != float64(len(fairbalance.Roles)) {
			t.Fatalf("demo seed %v", m)
		}
		if m = fnOK(h.fn("demo-data-manager", map[string]any{"action": "CHECK_DEMO_DATA"})); m["hasDemo"] != true {
			t.Fatalf("demo check after seeding %v", m)
		}
		m = fnOK(h.fn("demo-data-manager", map[string]any{"action": "REMOVE_DEMO_DATA"}, h.recoveryKey()))
		if m["message"] != "All demo data has been successfully removed" {
			t.Fatalf("demo removal %v", m)
		}
		if m = fnOK(h.fn("demo-data-manager", map[string]any{"action": "CHECK_DEMO_DATA"})); m["hasDemo"] != false {
			t.Fatalf("demo check after removal %v", m)
		}
		fnErr(h.fn("demo-data-manager", map[string]any{"action": "NOPE"}), http.StatusBadRequest, "unknown_action")
		// Preflight, as a browser sends it before functions-js's POST.
		origin := "http://localhost:3000"
		r = h.do("OPTIONS", "/functions/v1/db-recovery", nil, key(""), header("Origin", origin),
			header("Access-Control-Request-Method", "POST"), header("Access-Control-Request-Headers", "authorization, x-client-info, apikey, content-type, x-recovery-key"))
		if r.Status != http.StatusNoContent || r.Header.Get("Access-Control-Allow-Origin") != origin ||
			!strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "x-recovery-key") || !strings.Contains(r.Header.Get("Access-Control-Allow-Methods"), "POST") {
			t.Fatalf("preflight %d %v", r.Status, r.Header)
		}
		r = h.fn("db-recovery", status, header("Origin", origin))
		if r.Header.Get("Access-Control-Allow-Origin") != origin || !strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "x-relay-error") {
			t.Fatalf("CORS on the answer %v", r.Header)
		}
	})
}

func TestFunctionsDBRecovery(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		level, _ := h.db.MigrationLevel(h.ctx)
		m := fnOK(h.fn("db-recovery", map[string]any{"action": "GET_DB_STATUS"}))
		if m["backend"] != h.db.Backend() || m["healthy"] != true || m["has_users"] != false || m["migration_level"] != float64(level) {
			t.Fatalf("status %v", m)
		}
		if m := fnOK(h.fn("db-recovery", map[string]any{"action": "GET_USER_COUNT"})); m["count"] != float64(0) {
			t.Fatalf("count %v", m)
		}
		// Migration needs the key or an admin.
		migrate := map[string]any{"action": "SAFE_CONNECT_AND_MIGRATE"}
		fnErr(h.fn("db-recovery", migrate), http.StatusUnauthorized, "no_authorization")
		fnErr(h.fn("db-recovery", map[string]any{"action": "SAFE_CONNECT_AND_MIGRATE", "recovery_key": "guess"}), http.StatusForbidden, "invalid_recovery_key")
		fnErr(h.fn("db-recovery", migrate, header("X-Recovery-Key", "guess")), http.StatusForbidden, "invalid_recovery_key")
		m = fnOK(h.fn("db-recovery", migrate, h.recoveryKey()))
		if m["migration_level"] != float64(level) || m["migration_level_before"] != float64(level) {
			t.Fatalf("migrate %v", m)
		}
		fnOK(h.fn("db-recovery", map[string]any{"action": "SAFE_CONNECT_AND_MIGRATE", "recovery_key": h.keys.RecoveryKey}, key(""), header("Authorization", "")))

		// Initial setup: anyone, while there is no account.
		create := func(email string) map[string]any {
			return map[string]any{"action": "SAFE_CREATE_ADMIN", "admin_email": email, "admin_password": testPassword}
		}
		fnErr(h.fn("db-recovery", map[string]any{"action": "SAFE_CREATE_ADMIN", "admin_email": "first@example.com"}), http.StatusBadRequest, "validation_failed")
		wp := fnErr(h.fn("db-recovery", map[string]any{"action": "SAFE_CREATE_ADMIN", "admin_email": "first@example.com", "admin_password": "weak"}), http.StatusUnprocessableEntity, "weak_password")
		if wp["weak_password"] == nil {
			t.Fatalf("weak password body %v", wp)
		}
		m = fnOK(h.fn("db-recovery", create("first@example.com")))
		if u, _ := m["user"].(map[string]any); u["email"] != "first@example.com" || u["id"] == "" {
			t.Fatalf("created %v", m)
		}
		admin := h.signIn("first@example.com", testPassword)
		if m := fnOK(h.fn("db-recovery", map[string]any{"action": "GET_USER_COUNT"})); m["count"] != float64(1) {
			t.Fatalf("count %v", m)
		}
		// Now the setup needs credentials.
		fnErr(h.fn("db-recovery", create("second@example.com")), http.StatusUnauthorized, "no_authorization")
		viewer := h.member("viewer@example.com", fairbalance.RoleViewer)
		fnErr(h.fn("db-recovery", create("second@example.com"), bearer(viewer.AccessToken)), http.StatusForbidden, "not_admin")
		fnErr(h.fn("db-recovery", migrate, bearer(viewer.AccessToken)), http.StatusForbidden, "not_admin")
		// The bearer token decides, not the API key beside it.
		fnErr(h.fn("db-recovery", migrate, key(h.service), bearer(viewer.AccessToken)), http.StatusForbidden, "not_admin")
		// An account without a member profile is no admin either.
		h.seedUser("bare@example.com", true)
		bare := h.signIn("bare@example.com", testPassword)
		fnErr(h.fn("db-recovery", migrate, bearer(bare.AccessToken)), http.StatusForbidden, "not_member")
		// An organisation's admin who is not the operator runs no repair.
		orgAdmin := h.member("org-admin@example.com", fairbalance.RoleAdmin)
		refused := fnErr(h.fn("db-recovery", create("second@example.com"), bearer(orgAdmin.AccessToken)), http.StatusForbidden, "not_operator")
		if !strings.Contains(refused["message"].(string), "managed by the instance operator") {
			t.Fatalf("refusal %v", refused)
		}
		fnErr(h.fn("db-recovery", migrate, bearer(orgAdmin.AccessToken)), http.StatusForbidden, "not_operator")
		fnOK(h.fn("db-recovery", create("second@example.com"), h.recoveryKey()))
		// The initial setup's administrator is the operator.
		fnOK(h.fn("db-recovery", create("third@example.com"), bearer(admin.AccessToken)))
		fnOK(h.fn("db-recovery", migrate, bearer(admin.AccessToken)))
		fnOK(h.fn("db-recovery", migrate, bearer(h.service)))
		fnOK(h.do("POST", "/functions/v1/db-recovery", migrate, key(h.service)))
		fnErr(h.fn("db-recovery", create("third@example.com"), bearer(admin.AccessToken)), http.StatusUnprocessableEntity, "email_exists")

		// Development-only: not found here, whoever asks.
		force := map[string]any{"action": "FORCE_CREATE_ADMIN_DEV", "admin_email": "dev@example.com"}
		fnErr(h.fn("db-recovery", force, h.recoveryKey()), http.StatusNotFound, "unknown_action")
		fnErr(h.fn("db-recovery", force, bearer(admin.AccessToken)), http.StatusNotFound, "unknown_action")

		var n int
		for _, a := range h.actions() {
			switch a {
			case "safe_admin_created", "db_migrated":
				n++
			}
		}
		if n != 3+5 {
			t.Fatalf("%d repair audit entries: %q", n, h.actions())
		}
	})
}

func TestFunctionsForceCreateAdminDev(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, true, func(t *testing.T, h *secHarness) {
		force := map[string]any{"action": "FORCE_CREATE_ADMIN_DEV", "admin_email": "dev@example.com"}
		fnErr(h.fn("db-recovery", force), http.StatusUnauthorized, "no_authorization")
		fnErr(h.fn("db-recovery", map[string]any{"action": "FORCE_CREATE_ADMIN_DEV"}, h.recoveryKey()), http.StatusBadRequest, "validation_failed")
		m := fnOK(h.fn("db-recovery", force, h.recoveryKey()))
		if m["temporary_password"] != "ChangeMe-Now-1" || m["must_reset_password"] != true || m["created"] != true || m["email"] != "dev@example.com" {
			t.Fatalf("force %v", m)
		}
		s := h.signIn("dev@example.com", "ChangeMe-Now-1")
		if meta, _ := s.User["app_metadata"].(map[string]any); meta["must_reset_password"] != true {
			t.Fatalf("user %v", s.User)
		}
		// Again: the account is reset, not duplicated.
		m = fnOK(h.fn("db-recovery", force, bearer(s.AccessToken)))
		if m["created"] != false {
			t.Fatalf("reset %v", m)
		}
		if len(h.actions()) == 0 || !contains(h.actions(), "dev_admin_forced") {
			t.Fatalf("audit %q", h.actions())
		}
	})
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func TestFunctionsSecurityManager(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		get := map[string]any{"action": "GET_SETTINGS"}
		fnErr(h.fn("security-manager", get), http.StatusUnauthorized, "no_authorization")
		viewer := h.member("viewer@example.com", fairbalance.RoleViewer)
		fnErr(h.fn("security-manager", get, bearer(viewer.AccessToken)), http.StatusForbidden, "not_admin")
		// An organisation's admin reads the settings, read-only.
		orgAdmin := h.member("org-admin@example.com", fairbalance.RoleAdmin)
		m := fnOK(h.fn("security-manager", get, bearer(orgAdmin.AccessToken)))
		st, _ := m["settings"].(map[string]any)
		if m["editable"] != false || m["message"] != "Instance settings are managed by the instance operator" || st["updated_by"] != nil ||
			st["site_access_mode"] != "PUBLIC" || st["disable_signup"] != false {
			t.Fatalf("organisation admin's settings %v", m)
		}
		// The operator reads them editable.
		admin := h.member("admin@example.com", fairbalance.RoleAdmin)
		h.markOperator(admin)
		m = fnOK(h.fn("security-manager", get, bearer(admin.AccessToken)))
		st, _ = m["settings"].(map[string]any)
		if m["editable"] != true || st["preview_passcode_enabled"] != false || st["preview_passcode_set"] != false || st["site_access_mode"] != "PUBLIC" ||
			st["disable_signup"] != false || st["block_indexing"] != false {
			t.Fatalf("settings %v", m)
		}

		update := func(settings map[string]any) map[string]any {
			return map[string]any{"action": "UPDATE_SETTINGS", "settings": settings}
		}
		fnErr(h.fn("security-manager", update(map[string]any{"block_indexing": true})), http.StatusUnauthorized, "no_authorization")
		fnErr(h.fn("security-manager", update(map[string]any{"block_indexing": true}), bearer(viewer.AccessToken)), http.StatusForbidden, "not_admin")
		fnErr(h.fn("security-manager", update(map[string]any{"block_indexing": true}), bearer(orgAdmin.AccessToken)), http.StatusForbidden, "not_operator")
		fnErr(h.fn("security-manager", update(map[string]any{"block_indexing": true}), header("X-Recovery-Key", "guess")), http.StatusForbidden, "invalid_recovery_key")
		for name, body := range map[string]map[string]any{
			"no settings":       {"action": "UPDATE_SETTINGS"},
			"settings a string": {"action": "UPDATE_SETTINGS", "settings": "on"},
			"empty":             update(map[string]any{}),
			"misspelt":          update(map[string]any{"disable_signups": true}),
			"not a boolean":     update(map[string]any{"disable_signup": "yes"}),
			"bad mode":          update(map[string]any{"site_access_mode": "SECRET"}),
			"gate, no passcode": update(map[string]any{"preview_passcode_enabled": true}),
			"short passcode":    update(map[string]any{"preview_passcode": "abc"}),
		} {
			t.Run(name, func(t *testing.T) {
				fnErr(h.in(t).fn("security-manager", body, bearer(admin.AccessToken)), http.StatusBadRequest, "validation_failed")
			})
		}
		// The safe-mode screen's "force private mode".
		m = fnOK(h.fn("security-manager", update(map[string]any{"site_access_mode": "PRIVATE", "disable_signup": true, "block_indexing": true}), h.recoveryKey()))
		if st, _ := m["settings"].(map[string]any); st["site_access_mode"] != "PRIVATE" || st["disable_signup"] != true || st["block_indexing"] != true || st["updated_by"] != "recovery_key" {
			t.Fatalf("update %v", m)
		}
		// The operator sets a passcode; the answer never holds its hash, and
		// a read settings object can be sent back.
		r := h.fn("security-manager", update(map[string]any{"preview_passcode": "pilot-2026", "preview_passcode_enabled": true}), bearer(admin.AccessToken))
		m = fnOK(r)
		if strings.Contains(string(r.Body), "argon2") || strings.Contains(string(r.Body), "hash") {
			t.Fatalf("answer shows the hash: %s", r.Body)
		}
		st, _ = m["settings"].(map[string]any)
		if st["preview_passcode_enabled"] != true || st["preview_passcode_set"] != true || st["updated_by"] != str(t, claimsOf(t, admin.AccessToken), "sub") {
			t.Fatalf("update %v", m)
		}
		st["block_indexing"] = false
		fnOK(h.fn("security-manager", update(st), bearer(admin.AccessToken), h.gateCookie("pilot-2026")))
		r = h.fn("security-manager", get, bearer(admin.AccessToken), h.gateCookie("pilot-2026"))
		if strings.Contains(string(r.Body), "argon2") {
			t.Fatalf("GET_SETTINGS shows the hash: %s", r.Body)
		}
		if st, _ := fnOK(r)["settings"].(map[string]any); st["block_indexing"] != false || st["preview_passcode_enabled"] != true {
			t.Fatalf("settings %v", st)
		}
		var n int
		for _, a := range h.actions() {
			if a == "workspace_settings_updated" {
				n++
			}
		}
		if n != 3 {
			t.Fatalf("%d settings audit entries", n)
		}
	})
}

// gateCookie passes the gate with passcode and returns the cookie it set.
func (h *secHarness) gateCookie(passcode string) reqOpt {
	h.t.Helper()
	return cookie(h.passGate(passcode))
}

func (h *secHarness) passGate(passcode string, opts ...reqOpt) *http.Cookie {
	h.t.Helper()
	r := h.do("POST", "/api/gate", map[string]any{"passcode": passcode}, opts...).OK(http.StatusOK)
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "gate_verified" {
			return c
		}
	}
	h.t.Fatalf("no gate cookie: %v", r.Header)
	return nil
}

// enableGate turns the gate on with passcode, by the recovery key.
func (h *secHarness) enableGate(passcode string) {
	h.t.Helper()
	fnOK(h.fn("security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"preview_passcode": passcode, "preview_passcode_enabled": true}}, h.recoveryKey()))
}

func gateRequired(r *response) {
	r.t.Helper()
	if r.Status != http.StatusUnauthorized {
		r.t.Fatalf("status %d, want 401 gate_required: %s", r.Status, r.Body)
	}
	if m := r.JSON(); m["code"] != "gate_required" || m["message"] != "Passcode required" || len(m) != 2 {
		r.t.Fatalf("body %s", r.Body)
	}
}

func TestPasscodeGate(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		if m := h.do("GET", "/api/config", nil).OK(http.StatusOK).JSON(); m["gate"] != false {
			t.Fatalf("config %v", m)
		}
		// With the gate off there is nothing to pass, and no cookie.
		r := h.do("POST", "/api/gate", map[string]any{"passcode": "anything"}).OK(http.StatusOK)
		if m := r.JSON(); m["gate"] != false || r.Header.Get("Set-Cookie") != "" {
			t.Fatalf("gate off: %v %v", m, r.Header)
		}
		h.do("GET", "/auth/v1/settings", nil).OK(http.StatusOK)
		member := h.member("member@example.com", fairbalance.RoleViewer)

		h.enableGate("pilot-2026")
		if m := h.do("GET", "/api/config", nil).OK(http.StatusOK).JSON(); m["gate"] != true {
			t.Fatalf("config %v", m)
		}
		// Every API surface refuses requests without the cookie, even with
		// a valid session.
		for _, c := range []struct{ method, path string }{
			{"GET", "/auth/v1/settings"},
			{"GET", "/auth/v1/user"},
			{"POST", "/auth/v1/token?grant_type=password"},
			{"POST", "/auth/v1/signup"},
			{"POST", "/auth/v1/verify"},
			{"GET", "/rest/v1/profiles_v2?select=*"},
			{"POST", "/rest/v1/rpc/accept_invite"},
			{"GET", "/storage/v1/bucket"},
			{"GET", "/realtime/v1/websocket?apikey=x&vsn=2.0.0"},
			{"POST", "/functions/v1/demo-data-manager"},
			{"POST", "/functions/v1/db-recovery"},
			{"POST", "/functions/v1/security-manager"},
			{"POST", "/functions/v1/unknown"},
			{"GET", "/auth/v1/health/../settings"},
			{"GET", "/auth/v1"},
		} {
			gateRequired(h.do(c.method, c.path, map[string]any{"action": "GET_DB_STATUS"}, bearer(member.AccessToken)))
		}
		// Open routes answer without it.
		h.do("GET", "/api/health", nil).OK(http.StatusOK)
		h.do("GET", "/auth/v1/health", nil).OK(http.StatusOK)
		h.do("GET", "/auth/v1/.well-known/jwks.json", nil, key("")).OK(http.StatusOK)
		if r := h.do("GET", "/auth/v1/verify?type=signup&token=nope&redirect_to="+siteURL, nil, key("")); r.Status != http.StatusSeeOther {
			t.Fatalf("e-mail link: %d %s", r.Status, r.Body)
		}
		h.do("GET", "/", nil).OK(http.StatusOK)
		// So do the service role and the repair functions with the key
		// (header or body).
		h.admin("GET", "/auth/v1/admin/users", nil).OK(http.StatusOK)
		fnOK(h.fn("db-recovery", map[string]any{"action": "GET_DB_STATUS"}, h.recoveryKey()))
		fnOK(h.fn("db-recovery", map[string]any{"action": "GET_USER_COUNT", "recovery_key": h.keys.RecoveryKey}))
		fnOK(h.fn("security-manager", map[string]any{"action": "GET_SETTINGS"}, h.recoveryKey()))
		fnOK(h.fn("db-recovery", map[string]any{"action": "GET_DB_STATUS"}, bearer(h.service)))
		gateRequired(h.fn("db-recovery", map[string]any{"action": "GET_DB_STATUS"}, header("X-Recovery-Key", "guess")))
		gateRequired(h.fn("db-recovery", map[string]any{"action": "GET_DB_STATUS", "recovery_key": "guess"}))

		// The passcode.
		r = h.do("POST", "/api/gate", map[string]any{"passcode": ""})
		if r.Status != http.StatusBadRequest || r.JSON()["message"] != "Please enter the access passcode" {
			t.Fatalf("empty passcode: %d %s", r.Status, r.Body)
		}
		r = h.do("POST", "/api/gate", map[string]any{"passcode": "pilot-2025"})
		if m := r.JSON(); r.Status != http.StatusUnauthorized || m["code"] != "invalid_passcode" || m["message"] != "Invalid access passcode. Please try again." || r.Header.Get("Set-Cookie") != "" {
			t.Fatalf("wrong passcode: %d %s", r.Status, r.Body)
		}
		c := h.passGate("pilot-2026")
		if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.MaxAge != 12*3600 || !c.Secure {
			t.Fatalf("cookie %+v", c)
		}
		h.do("GET", "/auth/v1/user", nil, bearer(member.AccessToken), cookie(c)).OK(http.StatusOK)
		h.do("GET", "/auth/v1/settings", nil, cookie(c)).OK(http.StatusOK)
		fnOK(h.fn("db-recovery", map[string]any{"action": "GET_DB_STATUS"}, cookie(c)))
		// Signing out of the gate clears the cookie.
		r = h.do("DELETE", "/api/gate", nil, cookie(c))
		if r.Status != http.StatusNoContent || !strings.Contains(r.Header.Get("Set-Cookie"), "gate_verified=;") || !strings.Contains(r.Header.Get("Set-Cookie"), "Max-Age=0") {
			t.Fatalf("clear: %d %v", r.Status, r.Header)
		}

		// Forged and expired cookies.
		st, err := h.db.View().WorkspaceSettings(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		now := h.clock.Now()
		forge := func(secret []byte, exp time.Time, hash string) *http.Cookie {
			return &http.Cookie{Name: "gate_verified", Value: forgeGateToken(secret, exp, hash)}
		}
		// The forging helper makes what the server makes...
		h.do("GET", "/auth/v1/settings", nil, cookie(forge(h.keys.Secret, now.Add(time.Hour), st.PreviewPasscodeHash))).OK(http.StatusOK)
		// ...so each of these fails for the one reason it differs by.
		for name, fc := range map[string]*http.Cookie{
			"other instance":      forge(otherKeys(t).Secret, now.Add(time.Hour), st.PreviewPasscodeHash),
			"expired":             forge(h.keys.Secret, now.Add(-time.Second), st.PreviewPasscodeHash),
			"beyond the lifetime": forge(h.keys.Secret, now.Add(13*time.Hour), st.PreviewPasscodeHash),
			"other passcode":      forge(h.keys.Secret, now.Add(time.Hour), "$argon2id$other"),
			"tampered signature":  {Name: "gate_verified", Value: tamperSecondLast(c.Value)},
			"tampered expiry":     {Name: "gate_verified", Value: strings.Replace(c.Value, "v1.", "v1.9", 1)},
			"junk":                {Name: "gate_verified", Value: "1"},
			"other name":          {Name: "gate", Value: c.Value},
			"empty":               {Name: "gate_verified", Value: ""},
			"four parts, no v1":   {Name: "gate_verified", Value: "v2" + c.Value[2:]},
		} {
			t.Run(name, func(t *testing.T) {
				gateRequired(h.in(t).do("GET", "/auth/v1/settings", nil, cookie(fc)))
			})
		}
		// A valid cookie among bad ones passes.
		h.do("GET", "/auth/v1/settings", nil, cookie(&http.Cookie{Name: "gate_verified", Value: "junk"}), cookie(c)).OK(http.StatusOK)
		// The real cookie expires after 12 hours.
		h.clock.Advance(12*time.Hour - time.Second)
		h.do("GET", "/auth/v1/settings", nil, cookie(c)).OK(http.StatusOK)
		h.clock.Advance(time.Second)
		gateRequired(h.do("GET", "/auth/v1/settings", nil, cookie(c)))

		// A new passcode revokes the cookies of the old one.
		c = h.passGate("pilot-2026")
		fnOK(h.fn("security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"preview_passcode": "pilot-2027"}}, h.recoveryKey()))
		gateRequired(h.do("GET", "/auth/v1/settings", nil, cookie(c)))
		c = h.passGate("pilot-2027")
		h.do("GET", "/auth/v1/settings", nil, cookie(c)).OK(http.StatusOK)

		// The safe-mode screen disables the gate with the recovery key.
		fnOK(h.fn("security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"preview_passcode_enabled": false}}, h.recoveryKey()))
		h.do("GET", "/auth/v1/settings", nil).OK(http.StatusOK)
		if m := h.do("GET", "/api/config", nil).OK(http.StatusOK).JSON(); m["gate"] != false {
			t.Fatalf("config %v", m)
		}
	})
}

// forgeGateToken builds a gate cookie value the way the server does, from
// an instance secret, an expiry and the stored passcode hash.
func forgeGateToken(secret []byte, exp time.Time, hash string) string {
	k := hmac.New(sha256.New, secret)
	k.Write([]byte("fairbalance/gate_verified/v1"))
	fp := sha256.Sum256([]byte("fairbalance/passcode/" + hash))
	payload := "v1." + strconv.FormatInt(exp.Unix(), 10) + "." + base64.RawURLEncoding.EncodeToString(fp[:12])
	mac := hmac.New(sha256.New, k.Sum(nil))
	mac.Write([]byte(payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

func TestPasscodeGateRateLimit(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		h.enableGate("pilot-2026")
		from := func(ip string) reqOpt { return header("X-Forwarded-For", ip) }
		// Every attempt counts, empty ones too (which cost no hashing, so
		// the ten fit well within the 30 s in which one token comes back).
		if r := h.do("POST", "/api/gate", map[string]any{"passcode": "guess"}, from("198.51.100.7")); r.Status != http.StatusUnauthorized {
			t.Fatalf("wrong passcode: %d %s", r.Status, r.Body)
		}
		for i := range 9 {
			if r := h.do("POST", "/api/gate", map[string]any{"passcode": ""}, from("198.51.100.7")); r.Status != http.StatusBadRequest {
				t.Fatalf("attempt %d: %d %s", i+2, r.Status, r.Body)
			}
		}
		// The eleventh attempt is refused, even with the right passcode.
		r := h.do("POST", "/api/gate", map[string]any{"passcode": "pilot-2026"}, from("198.51.100.7"))
		if r.Status != http.StatusTooManyRequests || r.JSON()["code"] != "over_request_rate_limit" || r.Header.Get("Set-Cookie") != "" {
			t.Fatalf("over the limit: %d %s", r.Status, r.Body)
		}
		// Another address is not affected.
		h.passGate("pilot-2026", from("198.51.100.8"))
	}, withForwardedFor)
}

func TestRobotsAndIndexing(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		r := h.do("GET", "/robots.txt", nil).OK(http.StatusOK)
		if string(r.Body) != "User-agent: *\nDisallow:\n" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") || r.Header.Get("X-Robots-Tag") != "" {
			t.Fatalf("robots.txt while indexing is allowed: %q %v", r.Body, r.Header)
		}
		fnOK(h.fn("security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"block_indexing": true}}, h.recoveryKey()))
		r = h.do("GET", "/robots.txt", nil).OK(http.StatusOK)
		if string(r.Body) != "User-agent: *\nDisallow: /\n" {
			t.Fatalf("robots.txt while blocked: %q", r.Body)
		}
		for _, p := range []string{"/robots.txt", "/", "/login", "/api/health", "/api/config", "/auth/v1/health", "/auth/v1/settings", "/api/nope"} {
			if got := h.do("GET", p, nil).Header.Get("X-Robots-Tag"); got != "noindex, nofollow" {
				t.Fatalf("%s: X-Robots-Tag %q", p, got)
			}
		}
		fnOK(h.fn("security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"block_indexing": false}}, h.recoveryKey()))
		if r := h.do("GET", "/", nil); r.Header.Get("X-Robots-Tag") != "" {
			t.Fatalf("X-Robots-Tag after unblocking: %v", r.Header)
		}
	})
}

func TestSignupDisabledBySettings(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		fnOK(h.fn("security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"disable_signup": true}}, h.recoveryKey()))
		before := h.snapshot()
		msg := h.do("POST", "/auth/v1/signup", map[string]any{"email": "stranger@example.com", "password": testPassword}).Err(http.StatusUnprocessableEntity, "signup_disabled")
		if msg != "Signups not allowed for this instance" {
			t.Fatalf("message %q", msg)
		}
		h.do("POST", "/auth/v1/otp", map[string]any{"email": "stranger@example.com"}).Err(http.StatusUnprocessableEntity, "signup_disabled")
		h.unchanged(before, "refused sign-up")
		// An invited address may still sign up.
		now := h.clock.Now()
		org := &fairbalance.Org{ID: auth.NewUUID(), Name: "Acme", CreatedAt: now, UpdatedAt: now}
		if err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
			if err := tx.CreateOrg(h.ctx, org); err != nil {
				return err
			}
			return tx.CreateInvite(h.ctx, &fairbalance.Invite{ID: auth.NewUUID(), OrgID: org.ID, Email: "invited@example.com", Role: fairbalance.RoleMarketer,
				TokenHash: auth.NewUUID(), Status: fairbalance.InvitePending, ExpiresAt: now.Add(fairbalance.InviteValidity), CreatedAt: now})
		}); err != nil {
			t.Fatal(err)
		}
		u := h.do("POST", "/auth/v1/signup", map[string]any{"email": "Invited@example.com", "password": testPassword}).OK(http.StatusOK).JSON()
		if u["email"] != "invited@example.com" {
			t.Fatalf("invited sign-up %v", u)
		}
	})
}

// The public preview's demo admin is read-only everywhere: it may not
// reconfigure the instance, repair it or remove the demo data, whatever its
// profile role says.
func TestDemoSessionCannotRepairOrReconfigure(t *testing.T) {
	forEachSecBackend(t, true, func(t *testing.T, h *secHarness) {
		sess, err := h.id.DemoSession(h.ctx, service.Client{IP: "198.51.100.7"}, "admin")
		if err != nil {
			t.Fatal(err)
		}
		demo := bearer(sess.AccessToken)
		calls := []struct {
			fn   string
			body map[string]any
		}{
			{"security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"block_indexing": true}}},
			{"security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"site_access_mode": "PRIVATE", "disable_signup": true}}},
			{"db-recovery", map[string]any{"action": "SAFE_CONNECT_AND_MIGRATE"}},
			{"db-recovery", map[string]any{"action": "SAFE_CREATE_ADMIN", "admin_email": "evil@example.com", "admin_password": "Evil-Passw0rd"}},
			{"db-recovery", map[string]any{"action": "FORCE_CREATE_ADMIN_DEV", "admin_email": "evil2@example.com"}},
			{"demo-data-manager", map[string]any{"action": "REMOVE_DEMO_DATA"}},
		}
		for _, c := range calls {
			m := fnErr(h.fn(c.fn, c.body, demo), http.StatusForbidden, "demo_read_only")
			if m["message"] != service.DemoWriteRefused {
				t.Errorf("%s %v: %v", c.fn, c.body["action"], m)
			}
		}
		st, err := h.settings.Get(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.BlockIndexing || st.DisableSignup || st.SiteAccessMode == "PRIVATE" {
			t.Fatalf("a demo session changed the workspace settings: %+v", st)
		}
	})
}

// tamperSecondLast changes the second-to-last character of a token to a
// different one. (Overwriting the end with a fixed "AA" left the token valid
// when it already ended that way, about once in a thousand runs.)
func tamperSecondLast(v string) string {
	i := len(v) - 2
	repl := byte('A')
	if v[i] == 'A' {
		repl = 'B'
	}
	return v[:i] + string(repl) + v[i+1:]
}
