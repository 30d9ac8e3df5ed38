package service_test

import (
	"testing"
	"time"

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
