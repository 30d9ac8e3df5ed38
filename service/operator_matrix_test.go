package service_test

import (
	"fmt"
	"testing"

	"fairbalance"
	"fairbalance/service"
)

// The operator/admin split of the permission matrix (issue 13): every
// instance-wide action (the security manager's settings) and every
// safe-mode repair × the operator's credentials (recovery key, service
// role, accounts marked operator), the owners and admins of the operator's
// organisation and of another, every other member role, a demo session and
// nobody. Instance-wide changes and repairs are the operator's; an
// organisation's admin reads the settings only, without learning who
// changed them.

// matrixMember seeds a confirmed account with a profile of role in orgID
// and signs it in.
func (e *secEnv) matrixMember(email, orgID, role string) service.Actor {
	e.t.Helper()
	id := e.seed(email)
	now := e.id.Now()
	if err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
		return tx.CreateProfile(e.ctx, &fairbalance.Profile{ID: id, OrgID: orgID, Role: role, CreatedAt: now, UpdatedAt: now})
	}); err != nil {
		e.t.Fatal(err)
	}
	return service.Actor{Principal: e.principal(e.signIn(email)), Client: e.c}
}

func (e *secEnv) isOperator(userID string) bool {
	e.t.Helper()
	ok, err := e.db.View().IsOperator(e.ctx, userID)
	if err != nil {
		e.t.Fatal(err)
	}
	return ok
}

func TestOperatorPermissionMatrix(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, true, func(t *testing.T, e *secEnv) {
		now := e.id.Now()
		orgs := map[string]string{"A": "org-a", "B": "org-b"}
		if err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error {
			for _, id := range orgs {
				if err := tx.CreateOrg(e.ctx, &fairbalance.Org{ID: id, Name: id, CreatedAt: now, UpdatedAt: now}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}

		// What each caller is for the instance.
		const (
			operator = "operator"
			admin    = "org admin"
		)
		type row struct {
			a service.Actor
			// kind is operator, admin, or the error code every action gives.
			kind string
		}
		rows := map[string]row{
			"recovery key":          {e.withKey(), operator},
			"service role":          {service.Actor{ServiceRole: true, Client: e.c}, operator},
			"nobody":                {service.Actor{Client: e.c}, "no_authorization"},
			"wrong recovery key":    {service.Actor{RecoveryKey: "not-the-key", Client: e.c}, "invalid_recovery_key"},
			"operator (A's admin)":  {e.matrixMember("operator@example.com", orgs["A"], fairbalance.RoleAdmin), operator},
			"operator (A's viewer)": {e.matrixMember("operator-viewer@example.com", orgs["A"], fairbalance.RoleViewer), operator},
		}
		for _, op := range []string{"operator@example.com", "operator-viewer@example.com"} {
			if _, added, err := e.recovery.GrantOperator(e.ctx, e.c, op); err != nil || !added {
				t.Fatalf("grant %s: %v %v", op, added, err)
			}
		}
		for org, orgID := range orgs {
			for _, role := range fairbalance.Roles {
				name := fmt.Sprintf("%s's %s", org, role)
				kind := "not_admin"
				if role == fairbalance.RoleOwner || role == fairbalance.RoleAdmin {
					kind = admin
				}
				rows[name] = row{e.matrixMember(fmt.Sprintf("%s-%s@example.com", role, orgID), orgID, role), kind}
			}
		}
		b := rows["B's admin"].a
		rows["B's admin with a wrong key"] = row{service.Actor{Principal: b.Principal, RecoveryKey: "guess", Client: e.c}, "invalid_recovery_key"}
		demo, err := e.id.DemoSession(e.ctx, e.c, fairbalance.RoleAdmin)
		if err != nil {
			t.Fatal(err)
		}
		rows["demo admin"] = row{service.Actor{Principal: e.principal(demo), Client: e.c}, "demo_read_only"}
		operatorID := rows["operator (A's admin)"].a.Principal.User.ID

		violations := 0
		check := func(what string, ok bool) {
			t.Helper()
			if !ok {
				violations++
				t.Errorf("violation: %s", what)
			}
		}
		settings := func() fairbalance.WorkspaceSettings {
			w, err := e.db.View().WorkspaceSettings(e.ctx)
			if err != nil {
				t.Fatal(err)
			}
			return *w
		}

		// The instance-wide settings, one change each, flipped by every
		// caller that may.
		n := 0
		changes := map[string]func() service.SettingsPatch{
			"site access mode": func() service.SettingsPatch {
				m := fairbalance.SiteAccessPrivate
				if settings().SiteAccessMode == m {
					m = fairbalance.SiteAccessPublic
				}
				return service.SettingsPatch{SiteAccessMode: &m}
			},
			"sign-up": func() service.SettingsPatch {
				return service.SettingsPatch{DisableSignup: ptr(!settings().DisableSignup)}
			},
			"indexing": func() service.SettingsPatch {
				return service.SettingsPatch{BlockIndexing: ptr(!settings().BlockIndexing)}
			},
			"passcode gate": func() service.SettingsPatch {
				n++
				return service.SettingsPatch{PreviewPasscodeEnabled: ptr(!settings().PreviewPasscodeEnabled), PreviewPasscode: ptr(fmt.Sprintf("passcode-%d", n))}
			},
		}
		// refusal is the error code of an operator's action for a kind of caller.
		refusal := func(kind string) string {
			switch kind {
			case operator:
				return ""
			case admin:
				return "not_operator"
			}
			return kind
		}
		for name, r := range rows {
			// GET_SETTINGS.
			v, err := e.settings.View(e.ctx, r.a)
			switch r.kind {
			case operator:
				check(fmt.Sprintf("%s reads the settings editable: %+v %v", name, v, err), err == nil && v.Editable)
			case admin:
				check(fmt.Sprintf("%s reads the settings read-only, without updated_by: %+v %v", name, v, err), err == nil && !v.Editable && v.UpdatedBy == "")
			default:
				check(fmt.Sprintf("%s reads the settings: %v, want %s", name, err, r.kind), errCode(err) == r.kind)
			}
			// UPDATE_SETTINGS, each setting.
			for what, change := range changes {
				before := settings()
				w, err := e.settings.Update(e.ctx, r.a, change())
				after := settings()
				if r.kind == operator {
					check(fmt.Sprintf("%s changes %s: %v", name, what, err), err == nil && w != nil && after != before)
				} else {
					check(fmt.Sprintf("%s changes %s: %v, want %s", name, what, err, refusal(r.kind)), errCode(err) == refusal(r.kind) && after == before)
				}
				e.advance(1e9)
			}
			// SAFE_CONNECT_AND_MIGRATE.
			_, err = e.recovery.Migrate(e.ctx, r.a)
			check(fmt.Sprintf("%s migrates: %v, want %q", name, err, refusal(r.kind)), errCode(err) == refusal(r.kind))
			// SAFE_CREATE_ADMIN and FORCE_CREATE_ADMIN_DEV.
			for _, action := range []string{"SAFE_CREATE_ADMIN", "FORCE_CREATE_ADMIN_DEV"} {
				n++
				email := fmt.Sprintf("new-%d@example.com", n)
				var u *fairbalance.User
				if action == "SAFE_CREATE_ADMIN" {
					u, err = e.recovery.CreateAdmin(e.ctx, r.a, email, password)
				} else {
					var f *service.ForcedAdmin
					if f, err = e.recovery.ForceCreateAdminDev(e.ctx, r.a, email); f != nil {
						u = f.User
					}
				}
				_, lookup := e.db.View().UserByEmail(e.ctx, email)
				if r.kind == operator {
					check(fmt.Sprintf("%s runs %s: %v", name, action, err), err == nil && lookup == nil)
					// The recovery key restores the operator's access; the
					// service role and an operator's session make an
					// organisation admin.
					if err == nil {
						check(fmt.Sprintf("%s's %s account is operator: %v", name, action, e.isOperator(u.ID)), e.isOperator(u.ID) == (name == "recovery key"))
					}
				} else {
					check(fmt.Sprintf("%s runs %s: %v, want %s", name, action, err, refusal(r.kind)), errCode(err) == refusal(r.kind) && lookup != nil)
				}
			}
		}

		// The last change by an operator's session names it for the
		// operator, and for nobody else.
		if _, err := e.settings.Update(e.ctx, rows["operator (A's admin)"].a, changes["indexing"]()); err != nil {
			t.Fatal(err)
		}
		for name, r := range rows {
			v, err := e.settings.View(e.ctx, r.a)
			if err != nil {
				continue
			}
			if r.kind == operator {
				check(fmt.Sprintf("%s sees who changed the settings: %q", name, v.UpdatedBy), v.UpdatedBy == operatorID)
			} else {
				check(fmt.Sprintf("%s learns another account's id: %q", name, v.UpdatedBy), v.UpdatedBy == "")
			}
		}
		if violations > 0 {
			t.Fatalf("%d violations", violations)
		}
	})
}
