package service_test

import (
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"fairbalance"
	"fairbalance/service"
)

// The resolver of callers on real stores: what it answers, what it
// remembers, and for how long.
func TestCaller(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		ctx := e.ctx
		uid := e.seed("m@example.com")
		now := e.id.Now()
		profile := &fairbalance.Profile{ID: uid, Role: fairbalance.RoleViewer, CreatedAt: now, UpdatedAt: now}
		if err := e.db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.CreateProfile(ctx, profile) }); err != nil {
			t.Fatal(err)
		}
		s := e.signIn("m@example.com")
		sid := e.principal(s).Session.ID

		c, err := e.id.Caller(ctx, s.AccessToken)
		if err != nil || c != (fairbalance.Caller{Role: "authenticated", UserID: uid, SessionID: sid, Member: fairbalance.RoleViewer}) {
			t.Fatalf("caller %+v, %v", c, err)
		}
		// A member without an organisation is not remembered: joining one
		// shows on the next request, whichever instance made the change
		// (here: the bare store, as another instance would).
		join := func(org, role string) {
			t.Helper()
			err := e.db.Tx(ctx, func(tx fairbalance.Tx) error {
				if _, err := tx.OrgByID(ctx, org); err != nil {
					if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: org, Name: org, CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				}
				profile.OrgID, profile.Role = org, role
				return tx.UpdateProfile(ctx, profile)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		join("org-a", fairbalance.RoleAdmin)
		if c, err := e.id.Caller(ctx, s.AccessToken); err != nil || c.OrgID != "org-a" || c.Member != fairbalance.RoleAdmin || !c.IsAdmin() {
			t.Fatalf("after joining: %+v, %v", c, err)
		}
		// A member of one is remembered for the TTL: a change made elsewhere
		// shows once it has passed.
		join("org-a", fairbalance.RoleViewer)
		if c, _ := e.id.Caller(ctx, s.AccessToken); c.Member != fairbalance.RoleAdmin {
			t.Fatalf("not remembered: %+v", c)
		}
		e.advance(service.DefaultCallerCacheTTL)
		if c, _ := e.id.Caller(ctx, s.AccessToken); c.Member != fairbalance.RoleViewer {
			t.Fatalf("remembered beyond the TTL: %+v", c)
		}
		// Refusals are remembered too, and forgotten alike.
		if err := e.db.Tx(ctx, func(tx fairbalance.Tx) error {
			profile.DeactivatedAt = &now
			return tx.UpdateProfile(ctx, profile)
		}); err != nil {
			t.Fatal(err)
		}
		e.advance(service.DefaultCallerCacheTTL)
		if _, err := e.id.Caller(ctx, s.AccessToken); errCode(err) != fairbalance.CodeMemberDeactivated {
			t.Fatalf("deactivated: %v", err)
		}
		if err := e.db.Tx(ctx, func(tx fairbalance.Tx) error {
			profile.DeactivatedAt = nil
			return tx.UpdateProfile(ctx, profile)
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.id.Caller(ctx, s.AccessToken); errCode(err) != fairbalance.CodeMemberDeactivated {
			t.Fatalf("refusal not remembered: %v", err)
		}
		e.advance(service.DefaultCallerCacheTTL)
		if _, err := e.id.Caller(ctx, s.AccessToken); err != nil {
			t.Fatalf("reactivated: %v", err)
		}

		// Sign-out through the service: at once, and on the auth endpoints.
		if err := e.id.Logout(ctx, e.c, e.principal(s), "local"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.id.Caller(ctx, s.AccessToken); errCode(err) != fairbalance.CodeSessionNotFound {
			t.Fatalf("after sign-out: %v", err)
		}
		if _, err := e.id.Authenticate(ctx, s.AccessToken, ""); errCode(err) != fairbalance.CodeSessionNotFound {
			t.Fatalf("after sign-out, auth: %v", err)
		}

		// The API keys.
		for role, want := range map[string]string{"anon": "anon", "service_role": "service_role"} {
			if c, err := e.id.Caller(ctx, e.id.Keys().APIKey(role)); err != nil || c != (fairbalance.Caller{Role: want}) {
				t.Errorf("%s key: %+v, %v", role, c, err)
			}
		}
		if _, err := e.id.Caller(ctx, "not.a.jwt"); errCode(err) != fairbalance.CodeBadJWT {
			t.Errorf("garbage: %v", err)
		}
		// An expired token has its own code (the text is GoTrue's).
		e.advance(-2 * time.Hour)
		old := e.signIn("m@example.com")
		e.advance(2 * time.Hour)
		if _, err := e.id.Caller(ctx, old.AccessToken); errCode(err) != fairbalance.CodeTokenExpired {
			t.Errorf("expired: %v", err)
		}
		if _, err := e.id.Authenticate(ctx, old.AccessToken, ""); errCode(err) != fairbalance.CodeTokenExpired {
			t.Errorf("expired, auth: %v", err)
		}
	})
}

// A session past its absolute lifetime ends, on the auth endpoints too.
func TestCallerSessionLifetime(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		ctx := e.ctx
		uid := e.seed("life@example.com")
		now := e.id.Now()
		if err := e.db.Tx(ctx, func(tx fairbalance.Tx) error {
			if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: "org-l", Name: "l", CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
			return tx.CreateProfile(ctx, &fairbalance.Profile{ID: uid, OrgID: "org-l", Role: fairbalance.RoleViewer, CreatedAt: now, UpdatedAt: now})
		}); err != nil {
			t.Fatal(err)
		}
		s := e.signIn("life@example.com")
		sess := e.principal(s).Session
		past := now.Add(-time.Second)
		sess.NotAfter = &past
		if err := e.db.Tx(ctx, func(tx fairbalance.Tx) error { return tx.UpdateSession(ctx, sess) }); err != nil {
			t.Fatal(err)
		}
		if _, err := e.id.Caller(ctx, s.AccessToken); errCode(err) != fairbalance.CodeSessionExpired {
			t.Fatalf("caller: %v", err)
		}
		if _, err := e.id.Authenticate(ctx, s.AccessToken, ""); errCode(err) != fairbalance.CodeSessionExpired {
			t.Fatalf("authenticate: %v", err)
		}
	})
}

// Two-step verification: a member whose account has a verified factor is
// refused (CodeInsufficientAAL) by the resolver for a token or session
// below aal2, though the auth endpoints (Authenticate) still serve it; the
// change shows on the next request, remembered or not.
func TestCallerTwoStep(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		ctx := e.ctx
		uid := e.seed("m@example.com")
		now := e.id.Now()
		if err := e.db.Tx(ctx, func(tx fairbalance.Tx) error {
			if err := tx.CreateOrg(ctx, &fairbalance.Org{ID: "org-a", Name: "A", CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
			return tx.CreateProfile(ctx, &fairbalance.Profile{ID: uid, OrgID: "org-a", Role: fairbalance.RoleAdmin, CreatedAt: now, UpdatedAt: now})
		}); err != nil {
			t.Fatal(err)
		}
		s := e.signIn("m@example.com")
		accepted := func(what string, s *service.Session) {
			t.Helper()
			if c, err := e.id.Caller(ctx, s.AccessToken); err != nil || c.UserID != uid || !c.IsAdmin() {
				t.Fatalf("%s: %+v, %v", what, c, err)
			}
		}
		refused := func(what string, s *service.Session) {
			t.Helper()
			if _, err := e.id.Caller(ctx, s.AccessToken); errCode(err) != fairbalance.CodeInsufficientAAL {
				t.Fatalf("%s: %v, want insufficient_aal", what, err)
			}
			if _, err := e.id.Authenticate(ctx, s.AccessToken, ""); err != nil {
				t.Fatalf("%s: the auth endpoints refuse it: %v", what, err)
			}
		}
		accepted("no factor", s)
		enr, err := e.id.Enroll(ctx, e.c, e.principal(s), "totp", "Phone", "")
		if err != nil {
			t.Fatal(err)
		}
		accepted("unverified factor", s)
		verify := func(s *service.Session) *service.Session {
			t.Helper()
			e.advance(30 * time.Second) // a code of a new step
			p := e.principal(s)
			ch, err := e.id.Challenge(ctx, e.c, p, enr.Factor.ID)
			if err != nil {
				t.Fatal(err)
			}
			code, err := totp.GenerateCodeCustom(enr.TOTP.Secret, e.id.Now(), totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.id.VerifyFactor(ctx, e.c, p, enr.Factor.ID, ch.ID, code)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		raised := verify(s)
		accepted("aal2 after verification", raised)
		refused("the session's aal1 token after verification", s)

		pw := e.signIn("m@example.com")
		refused("password only", pw)
		refreshed, err := e.id.Refresh(ctx, e.c, pw.RefreshToken)
		if err != nil {
			t.Fatal(err)
		}
		refused("refreshed password-only session", refreshed)
		accepted("password, then the code", verify(pw))

		if _, err := e.id.Unenroll(ctx, e.c, e.principal(raised), enr.Factor.ID); err != nil {
			t.Fatal(err)
		}
		accepted("no factor any more", s)
		accepted("no factor any more, new sign-in", e.signIn("m@example.com"))
	})
}
