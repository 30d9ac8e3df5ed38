package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/service"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// These tests run the security manager (workspace settings), the safe-mode
// repairs and the sign-up switch on real stores.

// secEnv is an env whose identity service asks the settings service about
// sign-up, as the server wires them, with the safe-mode service beside.
type secEnv struct {
	*env
	keys     *auth.Keys
	settings *service.Settings
	recovery *service.Recovery
	cacheMu  sync.Mutex
	cacheNow time.Time
}

func newSecEnv(t *testing.T, backend string, dev bool) *secEnv {
	t.Helper()
	db := storetest.Open(t, backend)
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var settings *service.Settings
	id := service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{
		SiteURL: "https://review.example.com", SecurePasswordChange: true,
		SignupDisabled: func(ctx context.Context) (bool, error) { return settings.SignupDisabled(ctx) },
	}, nil)
	settings = service.NewSettings(id)
	e := &secEnv{
		env:  &env{t: t, db: db, id: id, ctx: context.Background(), c: service.Client{IP: "192.0.2.1", UserAgent: "test"}, now: time.Now().UTC().Truncate(time.Second)},
		keys: keys, settings: settings, cacheNow: time.Now(),
	}
	id.Now = func() time.Time {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.now
	}
	settings.Now = func() time.Time {
		e.cacheMu.Lock()
		defer e.cacheMu.Unlock()
		return e.cacheNow
	}
	e.recovery = service.NewRecovery(id, service.RecoveryConfig{Dev: dev, Migrate: db.Migrate})
	return e
}

func (e *secEnv) advanceCache(d time.Duration) {
	e.cacheMu.Lock()
	e.cacheNow = e.cacheNow.Add(d)
	e.cacheMu.Unlock()
}

func forEachSecBackend(t *testing.T, dev bool, fn func(t *testing.T, e *secEnv)) {
	for _, b := range storetest.Backends() {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			fn(t, newSecEnv(t, b, dev))
		})
	}
}

func (e *secEnv) withKey() service.Actor {
	return service.Actor{RecoveryKey: e.keys.RecoveryKey, Client: e.c}
}

// member seeds a confirmed account with a member profile of role and
// returns it signed in as an actor.
func (e *secEnv) member(email, role string) service.Actor {
	e.t.Helper()
	id := e.seed(email)
	now := e.id.Now()
	if err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
		return tx.CreateProfile(e.ctx, &fairbalance.Profile{ID: id, Role: role, CreatedAt: now, UpdatedAt: now})
	}); err != nil {
		e.t.Fatal(err)
	}
	return service.Actor{Principal: e.principal(e.signIn(email)), Client: e.c}
}

func (e *secEnv) authEvents(action string) []fairbalance.AuthEvent {
	e.t.Helper()
	all, err := sqltest.AuthEvents(e.ctx, e.db)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []fairbalance.AuthEvent
	for _, ev := range all {
		if ev.Action == action {
			out = append(out, ev)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func payloadOf(t *testing.T, ev fairbalance.AuthEvent) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ev.Payload, &m); err != nil {
		t.Fatalf("payload %s: %v", ev.Payload, err)
	}
	return m
}

func TestSettingsUpdateIsAuthorisedAuditedAndCached(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		w, err := e.settings.Get(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if w.PreviewPasscodeEnabled || w.DisableSignup || w.BlockIndexing || w.SiteAccessMode != fairbalance.SiteAccessPublic {
			t.Fatalf("defaults %+v", w)
		}
		patch := service.SettingsPatch{BlockIndexing: ptr(true)}
		viewer := e.member("viewer@example.com", fairbalance.RoleViewer)
		for name, c := range map[string]struct {
			a    service.Actor
			code string
		}{
			"nobody":         {service.Actor{}, "no_authorization"},
			"wrong key":      {service.Actor{RecoveryKey: "not-the-key"}, "invalid_recovery_key"},
			"viewer":         {viewer, "not_admin"},
			"viewer+bad key": {service.Actor{Principal: viewer.Principal, RecoveryKey: "x"}, "invalid_recovery_key"},
		} {
			if _, err := e.settings.Update(e.ctx, c.a, patch); errCode(err) != c.code {
				t.Fatalf("%s: %v, want %s", name, err, c.code)
			}
			if _, err := e.settings.View(e.ctx, c.a); errCode(err) != c.code {
				t.Fatalf("view, %s: %v, want %s", name, err, c.code)
			}
		}
		if len(e.authEvents("workspace_settings_updated")) != 0 {
			t.Fatal("a refused update was audited")
		}

		// Validation.
		for name, c := range map[string]struct {
			p     service.SettingsPatch
			field string // the form field the refusal names ("" none)
		}{
			"empty":             {p: service.SettingsPatch{}},
			"gate without code": {p: service.SettingsPatch{PreviewPasscodeEnabled: ptr(true)}, field: "preview_passcode"},
			"short passcode":    {p: service.SettingsPatch{PreviewPasscode: ptr("12345")}, field: "preview_passcode"},
			"bad mode":          {p: service.SettingsPatch{SiteAccessMode: ptr("HIDDEN")}, field: "site_access_mode"},
			"enable and clear":  {p: service.SettingsPatch{PreviewPasscodeEnabled: ptr(true), PreviewPasscode: ptr("")}, field: "preview_passcode"},
		} {
			_, err := e.settings.Update(e.ctx, e.withKey(), c.p)
			if errCode(err) != "validation_failed" {
				t.Fatalf("%s: %v", name, err)
			}
			fe := fairbalance.AsError(err)
			if c.field == "" && len(fe.Fields) != 0 || c.field != "" && fe.Fields[c.field] != fe.Message {
				t.Fatalf("%s: fields %v for %q", name, fe.Fields, fe.Message)
			}
		}

		// The recovery key turns the gate on with a passcode.
		w, err = e.settings.Update(e.ctx, e.withKey(), service.SettingsPatch{PreviewPasscodeEnabled: ptr(true), PreviewPasscode: ptr("open-sesame"), SiteAccessMode: ptr("private")})
		if err != nil {
			t.Fatal(err)
		}
		if !w.PreviewPasscodeEnabled || !strings.HasPrefix(w.PreviewPasscodeHash, "$argon2id$") || w.SiteAccessMode != fairbalance.SiteAccessPrivate || w.UpdatedBy != "recovery_key" {
			t.Fatalf("after update %+v", w)
		}
		// This process sees it at once, whatever the cache held.
		if g, _ := e.settings.Get(e.ctx); !g.PreviewPasscodeEnabled {
			t.Fatal("update not visible at once")
		}
		for pc, want := range map[string]bool{"open-sesame": true, "open-sesame ": false, "": false, "wrong-code": false} {
			if ok, err := e.settings.CheckPasscode(e.ctx, pc); err != nil || ok != want {
				t.Fatalf("CheckPasscode(%q) = %v, %v", pc, ok, err)
			}
		}
		ev := e.authEvents("workspace_settings_updated")
		if len(ev) != 1 || ev[0].ActorID != "" || ev[0].IP != e.c.IP {
			t.Fatalf("audit %+v", ev)
		}
		var payload struct {
			Via             string         `json:"via"`
			Before          map[string]any `json:"before"`
			After           map[string]any `json:"after"`
			PasscodeChanged bool           `json:"passcode_changed"`
		}
		if err := json.Unmarshal(ev[0].Payload, &payload); err != nil {
			t.Fatal(err)
		}
		if payload.Via != "recovery_key" || payload.Before["preview_passcode_enabled"] != false || payload.After["preview_passcode_enabled"] != true ||
			payload.Before["site_access_mode"] != "PUBLIC" || payload.After["site_access_mode"] != "PRIVATE" || !payload.PasscodeChanged {
			t.Fatalf("audit payload %s", ev[0].Payload)
		}
		if strings.Contains(string(ev[0].Payload), "argon2") {
			t.Fatalf("the audit holds the passcode hash: %s", ev[0].Payload)
		}

		// An admin member who is not an operator reads the settings only.
		admin := e.member("admin@example.com", fairbalance.RoleAdmin)
		if _, err := e.settings.Update(e.ctx, admin, service.SettingsPatch{DisableSignup: ptr(true)}); errCode(err) != "not_operator" {
			t.Fatalf("admin, not operator: %v", err)
		}
		if v, err := e.settings.View(e.ctx, admin); err != nil || v.Editable || v.UpdatedBy != "" || !v.PreviewPasscodeEnabled {
			t.Fatalf("admin view %+v %v", v, err)
		}
		if ev := e.authEvents("workspace_settings_updated"); len(ev) != 1 {
			t.Fatalf("a refused update was audited: %+v", ev)
		}
		// Marked operator, the admin changes them; it is named.
		if _, added, err := e.recovery.GrantOperator(e.ctx, e.c, "admin@example.com"); err != nil || !added {
			t.Fatalf("grant: %v %v", added, err)
		}
		w, err = e.settings.Update(e.ctx, admin, service.SettingsPatch{DisableSignup: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		if w.UpdatedBy != admin.Principal.User.ID || !w.DisableSignup || !w.PreviewPasscodeEnabled {
			t.Fatalf("admin update %+v", w)
		}
		if ev := e.authEvents("workspace_settings_updated"); len(ev) != 2 || ev[1].ActorID != admin.Principal.User.ID || payloadOf(t, ev[1])["via"] != "operator" {
			t.Fatalf("audit %+v", ev)
		}
		if v, err := e.settings.View(e.ctx, admin); err != nil || !v.DisableSignup || !v.Editable || v.UpdatedBy != admin.Principal.User.ID {
			t.Fatalf("view %+v %v", v, err)
		}

		// A change made by another process (straight in the database) is
		// seen once the cache expires, not before.
		if err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
			w, err := tx.WorkspaceSettings(e.ctx)
			if err != nil {
				return err
			}
			w.PreviewPasscodeEnabled = false
			return tx.UpdateWorkspaceSettings(e.ctx, w)
		}); err != nil {
			t.Fatal(err)
		}
		if g, _ := e.settings.Get(e.ctx); !g.PreviewPasscodeEnabled {
			t.Fatal("the cache was bypassed")
		}
		e.advanceCache(service.SettingsCacheTTL)
		if g, _ := e.settings.Get(e.ctx); g.PreviewPasscodeEnabled {
			t.Fatal("the cache outlived its TTL")
		}

		// A deactivated admin is refused.
		now := e.id.Now()
		if err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
			p, err := tx.ProfileByID(e.ctx, admin.Principal.User.ID)
			if err != nil {
				return err
			}
			p.DeactivatedAt = &now
			return tx.UpdateProfile(e.ctx, p)
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.settings.Update(e.ctx, admin, patch); errCode(err) != "member_deactivated" {
			t.Fatalf("deactivated admin: %v", err)
		}
	})
}

func TestPasscodeChangeAndClear(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		if _, err := e.settings.Update(e.ctx, e.withKey(), service.SettingsPatch{PreviewPasscode: ptr("first-code")}); err != nil {
			t.Fatal(err)
		}
		// A passcode is set but the gate is off: nothing opens it.
		if ok, _ := e.settings.CheckPasscode(e.ctx, "first-code"); ok {
			t.Fatal("passcode accepted with the gate off")
		}
		if _, err := e.settings.Update(e.ctx, e.withKey(), service.SettingsPatch{PreviewPasscodeEnabled: ptr(true)}); err != nil {
			t.Fatal(err)
		}
		if ok, _ := e.settings.CheckPasscode(e.ctx, "first-code"); !ok {
			t.Fatal("passcode refused")
		}
		if _, err := e.settings.Update(e.ctx, e.withKey(), service.SettingsPatch{PreviewPasscode: ptr("second-code")}); err != nil {
			t.Fatal(err)
		}
		if ok, _ := e.settings.CheckPasscode(e.ctx, "first-code"); ok {
			t.Fatal("old passcode still accepted")
		}
		if ok, _ := e.settings.CheckPasscode(e.ctx, "second-code"); !ok {
			t.Fatal("new passcode refused")
		}
		// Disabling and clearing together is allowed.
		w, err := e.settings.Update(e.ctx, e.withKey(), service.SettingsPatch{PreviewPasscodeEnabled: ptr(false), PreviewPasscode: ptr("")})
		if err != nil || w.PreviewPasscodeEnabled || w.PreviewPasscodeHash != "" {
			t.Fatalf("clear: %+v %v", w, err)
		}
	})
}

// invite stores an invitation to email in a new organisation.
func (e *secEnv) invite(email, status string, expires time.Time) {
	e.t.Helper()
	now := e.id.Now()
	org := &fairbalance.Org{ID: auth.NewUUID(), Name: "Acme " + email, CreatedAt: now, UpdatedAt: now}
	if err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
		if err := tx.CreateOrg(e.ctx, org); err != nil {
			return err
		}
		return tx.CreateInvite(e.ctx, &fairbalance.Invite{ID: auth.NewUUID(), OrgID: org.ID, Email: email, Role: fairbalance.RoleMarketer,
			TokenHash: auth.NewUUID(), Status: status, ExpiresAt: expires, CreatedAt: now})
	}); err != nil {
		e.t.Fatal(err)
	}
}

func TestSignupDisabledExceptPendingInvitation(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		signUp := func(email string) error {
			_, _, err := e.id.SignUp(e.ctx, e.c, service.SignUpInput{Email: email, Password: password})
			return err
		}
		otp := func(email string) error {
			return e.id.SendOTP(e.ctx, e.c, service.OTPInput{Email: email, CreateUser: true})
		}
		if err := signUp("open@example.com"); err != nil {
			t.Fatalf("sign-up while open: %v", err)
		}
		if _, err := e.settings.Update(e.ctx, e.withKey(), service.SettingsPatch{DisableSignup: ptr(true)}); err != nil {
			t.Fatal(err)
		}
		now := e.id.Now()
		e.invite("Invited@Example.com", fairbalance.InvitePending, now.Add(fairbalance.InviteValidity))
		e.invite("otp-invited@example.com", fairbalance.InvitePending, now.Add(time.Hour))
		e.invite("expired@example.com", fairbalance.InvitePending, now.Add(-time.Second))
		e.invite("revoked@example.com", fairbalance.InviteRevoked, now.Add(time.Hour))
		e.invite("accepted@example.com", fairbalance.InviteAccepted, now.Add(time.Hour))
		e.invite("late@example.com", fairbalance.InvitePending, now.Add(time.Hour))
		for _, addr := range []string{"stranger@example.com", "expired@example.com", "revoked@example.com", "accepted@example.com"} {
			if err := signUp(addr); errCode(err) != "signup_disabled" {
				t.Fatalf("sign-up of %s: %v", addr, err)
			}
			if err := otp(addr); errCode(err) != "signup_disabled" {
				t.Fatalf("OTP sign-up of %s: %v", addr, err)
			}
		}
		if n, _ := e.db.View().CountUsers(e.ctx); n != 1 {
			t.Fatalf("%d users after refused sign-ups", n)
		}
		// The invited addresses (compared case-insensitively) may sign up.
		if err := signUp("invited@example.com"); err != nil {
			t.Fatalf("invited sign-up: %v", err)
		}
		if err := otp("otp-invited@example.com"); err != nil {
			t.Fatalf("invited OTP sign-up: %v", err)
		}
		// Once the invitation expires, so does the exception.
		e.advance(2 * time.Hour)
		if err := signUp("late@example.com"); errCode(err) != "signup_disabled" {
			t.Fatalf("after expiry: %v", err)
		}
		// Re-enabled: anyone again (the cache of this process is refreshed).
		if _, err := e.settings.Update(e.ctx, e.withKey(), service.SettingsPatch{DisableSignup: ptr(false)}); err != nil {
			t.Fatal(err)
		}
		if err := signUp("stranger@example.com"); err != nil {
			t.Fatalf("sign-up after re-enabling: %v", err)
		}
	})
}

func TestRecoveryStatusAndInitialSetup(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		st := e.recovery.Status(e.ctx)
		level, _ := e.db.MigrationLevel(e.ctx)
		if !st.Healthy || st.HasUsers || st.Backend != e.db.Backend() || st.MigrationLevel != level || level < 1 {
			t.Fatalf("status %+v (level %d)", st, level)
		}
		if n, err := e.recovery.UserCount(e.ctx); err != nil || n != 0 {
			t.Fatalf("count %d %v", n, err)
		}
		for name, c := range map[string]struct{ email, pw, code string }{
			"no email":      {"", password, "validation_failed"},
			"no password":   {"first@example.com", "", "validation_failed"},
			"bad email":     {"not-an-address", password, "validation_failed"},
			"weak password": {"first@example.com", "short", "weak_password"},
		} {
			if _, err := e.recovery.CreateAdmin(e.ctx, service.Actor{}, c.email, c.pw); errCode(err) != c.code {
				t.Fatalf("%s: %v", name, err)
			}
		}
		// A wrong key is refused even while the instance is empty.
		if _, err := e.recovery.CreateAdmin(e.ctx, service.Actor{RecoveryKey: "guess"}, "first@example.com", password); errCode(err) != "invalid_recovery_key" {
			t.Fatalf("wrong key: %v", err)
		}
		// Initial setup: no credentials, no users.
		u, err := e.recovery.CreateAdmin(e.ctx, service.Actor{Client: e.c}, "First@Example.com", password)
		if err != nil {
			t.Fatal(err)
		}
		if u.Email != "first@example.com" || u.EmailConfirmedAt == nil {
			t.Fatalf("admin %+v", u)
		}
		p, err := e.db.View().ProfileByID(e.ctx, u.ID)
		if err != nil || p.Role != fairbalance.RoleAdmin || p.OrgID != "" {
			t.Fatalf("profile %+v %v", p, err)
		}
		ev := e.authEvents("safe_admin_created")
		if len(ev) != 1 || payloadOf(t, ev[0])["via"] != "initial_setup" || payloadOf(t, ev[0])["operator"] != true {
			t.Fatalf("audit %+v", ev)
		}
		// The new admin signs in, and is the instance's operator.
		admin := service.Actor{Principal: e.principal(e.signIn("first@example.com")), Client: e.c}
		if v, err := e.settings.View(e.ctx, admin); err != nil || !v.Editable || !e.isOperator(u.ID) {
			t.Fatalf("admin view: %+v %v", v, err)
		}
		if st := e.recovery.Status(e.ctx); !st.HasUsers {
			t.Fatal("status: no users")
		}
		// Once there is a user, the setup needs credentials.
		if _, err := e.recovery.CreateAdmin(e.ctx, service.Actor{}, "second@example.com", password); errCode(err) != "no_authorization" {
			t.Fatalf("second setup: %v", err)
		}
		viewer := e.member("viewer@example.com", fairbalance.RoleViewer)
		if _, err := e.recovery.CreateAdmin(e.ctx, viewer, "second@example.com", password); errCode(err) != "not_admin" {
			t.Fatalf("viewer: %v", err)
		}
		// The recovery key's administrator is an operator (its holder
		// restores their access); an operator's is an organisation admin.
		if u, err := e.recovery.CreateAdmin(e.ctx, e.withKey(), "second@example.com", password); err != nil || !e.isOperator(u.ID) {
			t.Fatalf("with the key: %v", err)
		}
		if u, err := e.recovery.CreateAdmin(e.ctx, admin, "third@example.com", password); err != nil || e.isOperator(u.ID) {
			t.Fatalf("by an admin: %v", err)
		}
		third := service.Actor{Principal: e.principal(e.signIn("third@example.com")), Client: e.c}
		if _, err := e.recovery.CreateAdmin(e.ctx, third, "fourth@example.com", password); errCode(err) != "not_operator" {
			t.Fatalf("by an admin who is no operator: %v", err)
		}
		if _, err := e.recovery.CreateAdmin(e.ctx, admin, "third@example.com", password); errCode(err) != "email_exists" {
			t.Fatalf("existing address: %v", err)
		}
		if ev := e.authEvents("safe_admin_created"); len(ev) != 3 {
			t.Fatalf("%d audit entries", len(ev))
		}
	})
}

func TestConcurrentInitialSetup(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		codes := race(4, func(i int) error {
			_, err := e.recovery.CreateAdmin(e.ctx, service.Actor{}, "admin"+string(rune('a'+i))+"@example.com", password)
			return err
		})
		exactlyOne(t, codes, "no_authorization")
		if n, _ := e.db.View().CountUsers(e.ctx); n != 1 {
			t.Fatalf("%d users", n)
		}
	})
}

func TestRecoveryMigrate(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		if _, err := e.recovery.Migrate(e.ctx, service.Actor{}); errCode(err) != "no_authorization" {
			t.Fatalf("no credentials: %v", err)
		}
		if _, err := e.recovery.Migrate(e.ctx, service.Actor{RecoveryKey: "guess"}); errCode(err) != "invalid_recovery_key" {
			t.Fatalf("wrong key: %v", err)
		}
		viewer := e.member("viewer@example.com", fairbalance.RoleViewer)
		if _, err := e.recovery.Migrate(e.ctx, viewer); errCode(err) != "not_admin" {
			t.Fatalf("viewer: %v", err)
		}
		res, err := e.recovery.Migrate(e.ctx, e.withKey())
		if err != nil {
			t.Fatal(err)
		}
		level, _ := e.db.MigrationLevel(e.ctx)
		if res.Before != level || res.After != level || res.Backend != e.db.Backend() {
			t.Fatalf("migrate %+v, level %d", res, level)
		}
		if _, err := e.recovery.Migrate(e.ctx, service.Actor{ServiceRole: true}); err != nil {
			t.Fatalf("service role: %v", err)
		}
		ev := e.authEvents("db_migrated")
		if len(ev) != 2 || payloadOf(t, ev[0])["via"] != "recovery_key" || payloadOf(t, ev[1])["via"] != "service_role" {
			t.Fatalf("audit %+v", ev)
		}
	})
}

func TestForceCreateAdminDevOnly(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		if _, err := e.recovery.ForceCreateAdminDev(e.ctx, e.withKey(), "dev@example.com"); errCode(err) != "unknown_action" {
			t.Fatalf("outside development mode: %v", err)
		}
		if n, _ := e.db.View().CountUsers(e.ctx); n != 0 {
			t.Fatal("an account was made")
		}
	})
}

func TestForceCreateAdminDev(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, true, func(t *testing.T, e *secEnv) {
		if _, err := e.recovery.ForceCreateAdminDev(e.ctx, e.withKey(), ""); errCode(err) != "validation_failed" {
			t.Fatalf("no e-mail: %v", err)
		}
		if _, err := e.recovery.ForceCreateAdminDev(e.ctx, service.Actor{}, "dev@example.com"); errCode(err) != "no_authorization" {
			t.Fatalf("no credentials: %v", err)
		}
		res, err := e.recovery.ForceCreateAdminDev(e.ctx, e.withKey(), "dev@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if !res.Created || res.TemporaryPassword != service.DevTemporaryPassword {
			t.Fatalf("force %+v", res)
		}
		s, err := e.id.SignInPassword(e.ctx, e.c, "dev@example.com", service.DevTemporaryPassword)
		if err != nil {
			t.Fatalf("sign-in with the temporary password: %v", err)
		}
		var meta map[string]any
		_ = json.Unmarshal(s.User.AppMetadata, &meta)
		if meta["must_reset_password"] != true {
			t.Fatalf("app metadata %s", s.User.AppMetadata)
		}
		if p, _ := e.db.View().ProfileByID(e.ctx, s.User.ID); p == nil || p.Role != fairbalance.RoleAdmin {
			t.Fatalf("profile %+v", p)
		}
		if !e.isOperator(s.User.ID) {
			t.Fatal("the recovery key's forced administrator is no operator")
		}
		// Choosing a password clears the flag.
		newPw := "Brand-New-Pass-2"
		u, err := e.id.UpdateUser(e.ctx, e.c, e.principal(s), service.UpdateUserInput{Password: &newPw})
		if err != nil {
			t.Fatal(err)
		}
		meta = nil
		_ = json.Unmarshal(u.AppMetadata, &meta)
		if _, ok := meta["must_reset_password"]; ok || meta["provider"] != "email" {
			t.Fatalf("after the change: %s", u.AppMetadata)
		}

		// An existing member is reset: new password, admin, signed out.
		viewer := e.member("viewer@example.com", fairbalance.RoleViewer)
		res, err = e.recovery.ForceCreateAdminDev(e.ctx, e.withKey(), "viewer@example.com")
		if err != nil || res.Created || res.User.ID != viewer.Principal.User.ID {
			t.Fatalf("reset %+v %v", res, err)
		}
		if _, err := e.id.Authenticate(e.ctx, mustToken(t, e, viewer), ""); errCode(err) != "session_not_found" {
			t.Fatalf("old session after reset: %v", err)
		}
		if _, err := e.id.SignInPassword(e.ctx, e.c, "viewer@example.com", service.DevTemporaryPassword); err != nil {
			t.Fatalf("sign-in after reset: %v", err)
		}
		if p, _ := e.db.View().ProfileByID(e.ctx, viewer.Principal.User.ID); p.Role != fairbalance.RoleAdmin {
			t.Fatalf("role after reset %q", p.Role)
		}
		if ev := e.authEvents("dev_admin_forced"); len(ev) != 2 {
			t.Fatalf("%d audit entries", len(ev))
		}
	})
}

// mustToken re-signs the session of an actor (its access token is not kept).
func mustToken(t *testing.T, e *secEnv, a service.Actor) string {
	t.Helper()
	c := *a.Principal.Claims
	tok, err := e.keys.Sign(&c)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
