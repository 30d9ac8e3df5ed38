package service_test

import (
	"encoding/json"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/service"
)

// Marking operators (`fairbalance operator grant|revoke`): known accounts
// only, never a demo account, and never the last operator away.
func TestOperatorGrantAndRevoke(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		first, err := e.recovery.CreateAdmin(e.ctx, service.Actor{Client: e.c}, "first@example.com", password)
		if err != nil {
			t.Fatal(err)
		}
		if !e.isOperator(first.ID) {
			t.Fatal("the initial setup's administrator is no operator")
		}
		e.advance(time.Second)
		second := e.member("second@example.com", fairbalance.RoleAdmin)

		if _, _, err := e.recovery.GrantOperator(e.ctx, e.c, "nobody@example.com"); errCode(err) != "user_not_found" {
			t.Fatalf("unknown account: %v", err)
		}
		if _, _, err := e.recovery.GrantOperator(e.ctx, e.c, "not an address"); errCode(err) != "validation_failed" {
			t.Fatalf("bad address: %v", err)
		}
		demo, err := e.id.DemoSession(e.ctx, e.c, fairbalance.RoleAdmin)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.recovery.GrantOperator(e.ctx, e.c, demo.User.Email); errCode(err) != "demo_account" || e.isOperator(demo.User.ID) {
			t.Fatalf("demo account: %v", err)
		}
		// The last operator stays; a non-operator cannot be revoked.
		if _, err := e.recovery.RevokeOperator(e.ctx, e.c, "first@example.com"); errCode(err) != "last_operator" || !e.isOperator(first.ID) {
			t.Fatalf("last operator: %v", err)
		}
		if _, err := e.recovery.RevokeOperator(e.ctx, e.c, "second@example.com"); errCode(err) != "not_operator" {
			t.Fatalf("revoke a non-operator: %v", err)
		}
		u, added, err := e.recovery.GrantOperator(e.ctx, e.c, "Second@Example.com")
		if err != nil || !added || u.ID != second.Principal.User.ID || !e.isOperator(u.ID) {
			t.Fatalf("grant: %+v %v %v", u, added, err)
		}
		if _, added, err := e.recovery.GrantOperator(e.ctx, e.c, "second@example.com"); err != nil || added {
			t.Fatalf("grant again: %v %v", added, err)
		}
		// The new operator's session has the operator's rights at once.
		if v, err := e.settings.View(e.ctx, second); err != nil || !v.Editable {
			t.Fatalf("second's view %+v %v", v, err)
		}
		ops, err := e.recovery.Operators(e.ctx)
		if err != nil || len(ops) != 2 || ops[0].UserID != first.ID || ops[0].GrantedBy != "initial_setup" || ops[1].Email != "second@example.com" || ops[1].GrantedBy != "cli" {
			t.Fatalf("operators %+v %v", ops, err)
		}
		if _, err := e.recovery.RevokeOperator(e.ctx, e.c, "first@example.com"); err != nil || e.isOperator(first.ID) {
			t.Fatalf("revoke: %v", err)
		}
		// Revoked, the first admin (an organisation admin still) reads only.
		firstActor := service.Actor{Principal: e.principal(e.signIn("first@example.com")), Client: e.c}
		if v, err := e.settings.View(e.ctx, firstActor); err != nil || v.Editable {
			t.Fatalf("revoked view %+v %v", v, err)
		}
		if _, err := e.settings.Update(e.ctx, firstActor, service.SettingsPatch{DisableSignup: ptr(true)}); errCode(err) != "not_operator" {
			t.Fatalf("revoked update: %v", err)
		}
		if _, err := e.recovery.RevokeOperator(e.ctx, e.c, "second@example.com"); errCode(err) != "last_operator" {
			t.Fatalf("last operator: %v", err)
		}
		granted, revoked := e.authEvents("operator_granted"), e.authEvents("operator_revoked")
		if len(granted) != 1 || payloadOf(t, granted[0])["user_id"] != second.Principal.User.ID || len(revoked) != 1 || payloadOf(t, revoked[0])["user_id"] != first.ID || revoked[0].IP != e.c.IP {
			t.Fatalf("audit: granted %+v, revoked %+v", granted, revoked)
		}

		// Two operators revoked at once: one of them stays.
		if _, _, err := e.recovery.GrantOperator(e.ctx, e.c, "first@example.com"); err != nil {
			t.Fatal(err)
		}
		emails := []string{"first@example.com", "second@example.com"}
		codes := race(2, func(i int) error {
			_, err := e.recovery.RevokeOperator(e.ctx, e.c, emails[i])
			return err
		})
		exactlyOne(t, codes, "last_operator")
		if n, _ := e.db.View().CountOperators(e.ctx); n != 1 {
			t.Fatalf("%d operators after a concurrent revocation", n)
		}
	})
}

// The first administrator of an instance set up through sign-up (the
// first-admin bootstrap of profiles_v2) is its operator; the creator of a
// later organisation who makes themselves its admin is not.
func TestFirstAdminBootstrapMarksOperator(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, e *secEnv) {
		data := service.NewRegistry(e.db, nil)
		// The demo organisation's admins do not count as the first.
		if _, err := e.id.SeedDemo(e.ctx, e.c); err != nil {
			t.Fatal(err)
		}
		signUp := func(email string) fairbalance.Caller {
			t.Helper()
			a := e.member(email, fairbalance.RoleViewer)
			return fairbalance.Caller{Role: "authenticated", UserID: a.Principal.User.ID, Member: fairbalance.RoleViewer}
		}
		// Onboarding: create an organisation, join it, become its admin.
		onboard := func(c fairbalance.Caller) {
			t.Helper()
			res, err := data.Insert(e.ctx, c, "orgs", reqPrefer(t, "select=id", "return=representation"), []byte(`{"name":"Org of `+c.UserID+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			var rows []struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(res.Rows, &rows); err != nil || len(rows) != 1 {
				t.Fatalf("created org %s %v", res.Rows, err)
			}
			if _, err := data.Update(e.ctx, c, "profiles_v2", req(t, "id=eq."+c.UserID), []byte(`{"org_id":"`+rows[0].ID+`"}`)); err != nil {
				t.Fatal(err)
			}
			c.OrgID = rows[0].ID
			if _, err := data.Update(e.ctx, c, "profiles_v2", req(t, "id=eq."+c.UserID), []byte(`{"role":"admin"}`)); err != nil {
				t.Fatal(err)
			}
		}
		first, later := signUp("first@example.com"), signUp("later@example.com")
		onboard(first)
		onboard(later)
		if !e.isOperator(first.UserID) || e.isOperator(later.UserID) {
			t.Fatalf("operators: first %v, later %v", e.isOperator(first.UserID), e.isOperator(later.UserID))
		}
		ev := e.authEvents("operator_granted")
		if len(ev) != 1 || ev[0].ActorID != first.UserID || payloadOf(t, ev[0])["via"] != "first_admin" {
			t.Fatalf("audit %+v", ev)
		}
	})
}
