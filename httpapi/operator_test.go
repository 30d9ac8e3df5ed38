package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"fairbalance"
)

// Two organisations on one instance (issue 13): the instance's first
// administrator (Initial Setup) is its operator and belongs to
// organisation A; organisation B's owner and admin read the instance-wide
// settings only, change none of them, run no repair, and no answer they get
// holds a user id of organisation A.
func TestOtherOrganisationsAdminCannotChangeInstanceSettings(t *testing.T) {
	t.Parallel()
	forEachSecBackend(t, false, func(t *testing.T, h *secHarness) {
		fnOK(h.fn("db-recovery", map[string]any{"action": "SAFE_CREATE_ADMIN", "admin_email": "operator@a.example.com", "admin_password": testPassword}))
		operator := h.signIn("operator@a.example.com", testPassword)
		operatorID := str(t, claimsOf(t, operator.AccessToken), "sub")

		now := h.clock.Now()
		memberOf := func(email, orgID, role string) (string, *session) {
			t.Helper()
			id := h.seedUser(email, true)
			if err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
				return tx.CreateProfile(h.ctx, &fairbalance.Profile{ID: id, OrgID: orgID, Role: role, CreatedAt: now, UpdatedAt: now})
			}); err != nil {
				t.Fatal(err)
			}
			return id, h.signIn(email, testPassword)
		}
		if err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
			for _, o := range []*fairbalance.Org{{ID: "org-a", Name: "A", CreatedBy: operatorID}, {ID: "org-b", Name: "B"}} {
				o.CreatedAt, o.UpdatedAt = now, now
				if err := tx.CreateOrg(h.ctx, o); err != nil {
					return err
				}
			}
			p, err := tx.ProfileByID(h.ctx, operatorID)
			if err != nil {
				return err
			}
			p.OrgID = "org-a"
			return tx.UpdateProfile(h.ctx, p)
		}); err != nil {
			t.Fatal(err)
		}
		aAdminID, _ := memberOf("admin@a.example.com", "org-a", fairbalance.RoleAdmin)
		aViewerID, _ := memberOf("viewer@a.example.com", "org-a", fairbalance.RoleViewer)
		_, bOwner := memberOf("owner@b.example.com", "org-b", fairbalance.RoleOwner)
		_, bAdmin := memberOf("admin@b.example.com", "org-b", fairbalance.RoleAdmin)
		aIDs := []string{operatorID, aAdminID, aViewerID}

		// The operator changes the instance's settings: the answer names them.
		m := fnOK(h.fn("security-manager", map[string]any{"action": "UPDATE_SETTINGS", "settings": map[string]any{"disable_signup": true}}, bearer(operator.AccessToken)))
		if st, _ := m["settings"].(map[string]any); st["updated_by"] != operatorID || m["editable"] != true {
			t.Fatalf("operator's update %v", m)
		}
		before := h.fn("security-manager", map[string]any{"action": "GET_SETTINGS"}, bearer(operator.AccessToken))
		fnOK(before)

		leaks := func(what string, r *response) {
			t.Helper()
			for _, id := range aIDs {
				if strings.Contains(string(r.Body), id) {
					t.Fatalf("%s holds a user id of organisation A (%s): %s", what, id, r.Body)
				}
			}
		}
		for name, s := range map[string]*session{"B's owner": bOwner, "B's admin": bAdmin} {
			r := h.fn("security-manager", map[string]any{"action": "GET_SETTINGS"}, bearer(s.AccessToken))
			m := fnOK(r)
			st, _ := m["settings"].(map[string]any)
			if m["editable"] != false || st["disable_signup"] != true || st["updated_by"] != nil {
				t.Fatalf("%s's GET_SETTINGS %v", name, m)
			}
			leaks(name+"'s GET_SETTINGS", r)

			// Every instance-wide setting and repair is refused, in the
			// functions' shape, and changes nothing.
			for what, body := range map[string]map[string]any{
				"sign-up":       {"action": "UPDATE_SETTINGS", "settings": map[string]any{"disable_signup": false}},
				"site access":   {"action": "UPDATE_SETTINGS", "settings": map[string]any{"site_access_mode": "PRIVATE"}},
				"passcode gate": {"action": "UPDATE_SETTINGS", "settings": map[string]any{"preview_passcode": "open-sesame", "preview_passcode_enabled": true}},
				"indexing":      {"action": "UPDATE_SETTINGS", "settings": map[string]any{"block_indexing": true}},
			} {
				r := h.fn("security-manager", body, bearer(s.AccessToken))
				e := fnErr(r, http.StatusForbidden, "not_operator")
				if !strings.Contains(e["message"].(string), "managed by the instance operator") {
					t.Fatalf("%s changes %s: %v", name, what, e)
				}
				leaks(name+"'s refusal", r)
			}
			for _, body := range []map[string]any{
				{"action": "SAFE_CONNECT_AND_MIGRATE"},
				{"action": "SAFE_CREATE_ADMIN", "admin_email": "intruder@b.example.com", "admin_password": testPassword},
			} {
				fnErr(h.fn("db-recovery", body, bearer(s.AccessToken)), http.StatusForbidden, "not_operator")
			}
		}
		after := h.fn("security-manager", map[string]any{"action": "GET_SETTINGS"}, bearer(operator.AccessToken))
		if string(after.Body) != string(before.Body) {
			t.Fatalf("the settings changed:\n%s\n%s", before.Body, after.Body)
		}
		if _, err := h.db.View().UserByEmail(h.ctx, "intruder@b.example.com"); err == nil {
			t.Fatal("B's admin created an administrator")
		}
	})
}
