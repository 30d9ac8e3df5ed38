package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/blobstore/blobtest"
	"fairbalance/pgrest"
	"fairbalance/service"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/storetest"
)

// The permission matrix of the data API: every registered table and
// function × every member role × own organisation, another organisation
// and anonymous, against product.md section 2. A table or function added
// to the registry without an entry here fails the test.

type matrixEnv struct {
	ctx  context.Context
	db   *sqlstore.DB
	data *service.Registry
	// members[org][role] is a member of org ("own" or "other") with role.
	members map[string]map[string]fairbalance.Caller
	orgs    map[string]string
}

func newMatrix(t *testing.T, backend string) *matrixEnv {
	db := storetest.Open(t, backend)
	m := &matrixEnv{ctx: context.Background(), db: db, members: map[string]map[string]fairbalance.Caller{}, orgs: map[string]string{}}
	m.data = service.NewRegistry(db, service.NewStorage(db, blobtest.Open(t, "disk").Store, []byte("secret"), http.DetectContentType))
	now := time.Now().UTC()
	n := 0
	err := db.Tx(m.ctx, func(tx fairbalance.Tx) error {
		for _, org := range []string{"own", "other"} {
			id := fmt.Sprintf("org-%s", org)
			m.orgs[org] = id
			if err := tx.CreateOrg(m.ctx, &fairbalance.Org{ID: id, Name: org, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
			if err := tx.AppendAudit(m.ctx, &fairbalance.AuditEntry{OrgID: id, Action: "org.seeded"}); err != nil {
				return err
			}
			m.members[org] = map[string]fairbalance.Caller{}
			for _, role := range fairbalance.Roles {
				n++
				uid := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
				if err := tx.CreateUser(m.ctx, &fairbalance.User{ID: uid, Email: fmt.Sprintf("%s-%s@example.com", org, role), CreatedAt: now, UpdatedAt: now}); err != nil {
					return err
				}
				if err := tx.CreateProfile(m.ctx, &fairbalance.Profile{ID: uid, OrgID: id, Role: role, FullName: role, CreatedAt: now, UpdatedAt: now}); err != nil {
					return err
				}
				m.members[org][role] = fairbalance.Caller{Role: "authenticated", UserID: uid, OrgID: id, Member: role}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func req(t *testing.T, query string) *pgrest.Request {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	r, err := pgrest.ParseRequest(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func reqPrefer(t *testing.T, query, prefer string) *pgrest.Request {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	r, err := pgrest.ParseRequest(q, http.Header{"Prefer": {prefer}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func denied(err error) bool {
	var pe *fairbalance.Error
	return errors.As(err, &pe) && pe.Code == "42501"
}

// contentModel are the tables and functions of the content model, whose
// role tests are in content_test.go and search_test.go rather than in this
// matrix. Anything else the registry serves needs a matrix entry.
var contentModel = map[string]bool{
	"products": true, "assets": true, "asset_versions": true, "version_modules": true,
	"references": true, "claims": true, "claim_references": true, "modules": true,
	"rpc:prepare_upload": true, "rpc:create_asset": true, "rpc:add_asset_version": true, "rpc:archive_asset": true,
	"rpc:attach_reference_file": true, "rpc:content_counts": true, "rpc:search_content": true,
}

var admins = map[string]bool{fairbalance.RoleOwner: true, fairbalance.RoleAdmin: true}

func TestPermissionMatrix(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			anon := fairbalance.Caller{Role: "anon"}
			violations := 0
			check := func(what string, ok bool) {
				t.Helper()
				if !ok {
					violations++
					t.Errorf("violation: %s", what)
				}
			}
			tested := map[string]bool{}

			// Reads: each role sees its own organisation's rows, never the other's.
			reads := map[string]func(c fairbalance.Caller) string{
				"orgs":               func(c fairbalance.Caller) string { return "select=id&id=in.(org-own,org-other)" },
				"profiles_v2":        func(c fairbalance.Caller) string { return "select=id,org_id&org_id=in.(org-own,org-other)" },
				"workspace_settings": func(c fairbalance.Caller) string { return "select=*" },
				"audit_logs_v2":      func(c fairbalance.Caller) string { return "select=id,org_id,action" },
				"audit_logs":         func(c fairbalance.Caller) string { return "select=id,org_id,action" },
			}
			for table, q := range reads {
				tested[table] = true
				for _, role := range fairbalance.Roles {
					c := m.members["own"][role]
					res, err := m.data.Read(m.ctx, c, table, req(t, q(c)))
					if err != nil {
						check(fmt.Sprintf("%s cannot read %s: %v", role, table, err), false)
						continue
					}
					var rows []map[string]any
					_ = json.Unmarshal(res.Rows, &rows)
					for _, r := range rows {
						if org, ok := r["org_id"]; ok && org != m.orgs["own"] {
							check(fmt.Sprintf("%s sees %s of %v", role, table, org), false)
						}
						if table == "orgs" && r["id"] != m.orgs["own"] {
							check(fmt.Sprintf("%s sees org %v", role, r["id"]), false)
						}
					}
					check(fmt.Sprintf("%s sees no %s of its own organisation", role, table), len(rows) > 0)
				}
				_, err := m.data.Read(m.ctx, anon, table, req(t, q(anon)))
				check("anonymous reads "+table, denied(err))
			}

			// Every member writes to its organisation's audit trail (as itself,
			// in its organisation, whatever the body says); nobody edits it.
			forged := map[string]string{
				"audit_logs_v2": `{"action":"test.event","org_id":"org-other","actor_id":"someone-else"}`,
				"audit_logs":    `{"action":"test.event","org_id":"org-other","actor_user_id":"someone-else"}`,
			}
			for _, table := range []string{"audit_logs_v2", "audit_logs"} {
				for _, role := range fairbalance.Roles {
					c := m.members["own"][role]
					res, err := m.data.Insert(m.ctx, c, table, req(t, "select=*"), []byte(forged[table]))
					check(fmt.Sprintf("%s appends to %s: %v", role, table, err), err == nil && res.Affected == 1)
					_, err = m.data.Update(m.ctx, c, table, req(t, "action=eq.test.event"), []byte(`{"action":"rewritten"}`))
					check(fmt.Sprintf("%s rewrites %s", role, table), denied(err))
					_, err = m.data.Delete(m.ctx, c, table, req(t, "action=eq.test.event"))
					check(fmt.Sprintf("%s deletes from %s", role, table), denied(err))
				}
				_, err := m.data.Insert(m.ctx, anon, table, req(t, ""), []byte(`{"action":"x"}`))
				check("anonymous appends to "+table, denied(err))
			}
			for _, org := range []string{"own", "other"} {
				ents, err := m.db.View().ListAudit(m.ctx, fairbalance.AuditFilter{OrgID: m.orgs[org], Limit: 1000})
				if err != nil {
					t.Fatal(err)
				}
				want := 1 + 2*len(fairbalance.Roles)
				if org == "other" {
					want = 1
				}
				check(fmt.Sprintf("%d entries in %s's chain, want %d", len(ents), org, want), len(ents) == want)
				for _, e := range ents {
					check("entry with a forged actor", e.ActorID != "someone-else")
				}
				// Counting the trail: the chain length without a filter, an
				// exact count with one; both agree with the entries.
				c := m.members[org][fairbalance.RoleViewer]
				all, err := m.data.Read(m.ctx, c, "audit_logs_v2", reqPrefer(t, "select=id&limit=1", "count=exact"))
				check(fmt.Sprintf("count of %s's trail: %+v %v", org, all, err), err == nil && all.Total == int64(want))
				some, err := m.data.Read(m.ctx, c, "audit_logs_v2", reqPrefer(t, "select=id&limit=1&action=eq.test.event", "count=exact"))
				check(fmt.Sprintf("filtered count of %s's trail: %+v %v", org, some, err), err == nil && some.Total == int64(want-1))
				v, err := m.db.View().VerifyAudit(m.ctx, m.orgs[org])
				check(fmt.Sprintf("chain of %s verifies: %+v %v", org, v, err), err == nil && v.OK)
			}

			// Writes on orgs: admins rename their own organisation only; nobody
			// creates a second one or deletes one.
			for _, role := range fairbalance.Roles {
				c := m.members["own"][role]
				_, err := m.data.Update(m.ctx, c, "orgs", req(t, "id=eq.org-own"), []byte(`{"name":"Renamed"}`))
				check(fmt.Sprintf("%s renames its organisation: %v", role, err), (err == nil) == admins[role])
				res, err := m.data.Update(m.ctx, c, "orgs", req(t, "id=eq.org-other"), []byte(`{"name":"Hijacked"}`))
				check(fmt.Sprintf("%s renames another organisation", role), err != nil || res.Affected == 0)
				_, err = m.data.Insert(m.ctx, c, "orgs", req(t, ""), []byte(`{"name":"Second"}`))
				check(fmt.Sprintf("%s creates a second organisation", role), denied(err))
				_, err = m.data.Delete(m.ctx, c, "orgs", req(t, "id=eq.org-own"))
				check(fmt.Sprintf("%s deletes its organisation", role), denied(err))
			}

			// Writes on profiles: names by the member or an admin; roles only by
			// an admin, never one's own, never above one's own; no membership moves.
			for _, role := range fairbalance.Roles {
				c := m.members["own"][role]
				target := m.members["own"][fairbalance.RoleViewer]
				if role == fairbalance.RoleViewer {
					target = m.members["own"][fairbalance.RoleMarketer]
				}
				_, err := m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+c.UserID), []byte(`{"full_name":"Me"}`))
				check(fmt.Sprintf("%s renames itself: %v", role, err), err == nil)
				_, err = m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+target.UserID), []byte(`{"full_name":"Renamed"}`))
				check(fmt.Sprintf("%s renames a colleague: %v", role, err), (err == nil) == admins[role])
				_, err = m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+target.UserID), []byte(`{"role":"reviewer_legal"}`))
				check(fmt.Sprintf("%s sets a colleague's role: %v", role, err), (err == nil) == admins[role])
				_, err = m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+target.UserID), []byte(fmt.Sprintf(`{"role":%q}`, target.Member)))
				check(fmt.Sprintf("%s restores a colleague's role: %v", role, err), (err == nil) == admins[role] || err == nil)
				_, err = m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+c.UserID), []byte(`{"role":"owner"}`))
				check(fmt.Sprintf("%s raises its own role", role), role == fairbalance.RoleOwner || denied(err))
				_, err = m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+c.UserID), []byte(`{"org_id":"org-other"}`))
				check(fmt.Sprintf("%s moves itself to another organisation", role), denied(err))
				other := m.members["other"][fairbalance.RoleViewer]
				res, err := m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+other.UserID), []byte(`{"full_name":"Hijacked"}`))
				check(fmt.Sprintf("%s renames a member of another organisation", role), err != nil || res.Affected == 0)
				_, err = m.data.Delete(m.ctx, c, "profiles_v2", req(t, "id=eq."+target.UserID))
				check(fmt.Sprintf("%s deletes a profile", role), denied(err))
				_, err = m.data.Insert(m.ctx, c, "profiles_v2", req(t, ""), []byte(`{"full_name":"x"}`))
				check(fmt.Sprintf("%s inserts a profile", role), denied(err))
			}
			// An admin never grants a role above their own.
			_, err := m.data.Update(m.ctx, m.members["own"][fairbalance.RoleAdmin], "profiles_v2", req(t, "id=eq."+m.members["own"][fairbalance.RoleViewer].UserID), []byte(`{"role":"owner"}`))
			check("admin grants owner", denied(err))
			// The owner's name and picture are the owner's: nobody else
			// changes them, an admin included, alone or among other rows;
			// the owner renames an admin.
			owner := m.members["own"][fairbalance.RoleOwner]
			for _, role := range fairbalance.Roles {
				c := m.members["own"][role]
				for _, body := range []string{`{"full_name":"Renamed Owner"}`, `{"avatar_url":"https://cdn.example.com/x.png"}`} {
					_, err := m.data.Update(m.ctx, c, "profiles_v2", req(t, "id=eq."+owner.UserID), []byte(body))
					check(fmt.Sprintf("%s changes the owner's profile with %s: %v", role, body, err), (err == nil) == (role == fairbalance.RoleOwner))
				}
			}
			admin := m.members["own"][fairbalance.RoleAdmin]
			_, err = m.data.Update(m.ctx, admin, "profiles_v2", req(t, "org_id=eq.org-own"), []byte(`{"full_name":"Everyone"}`))
			check(fmt.Sprintf("admin renames the whole organisation, owner included: %v", err), denied(err))
			res, err := m.data.Read(m.ctx, owner, "profiles_v2", req(t, "select=full_name&full_name=eq.Everyone"))
			check(fmt.Sprintf("a refused rename changed names: %s %v", res.Rows, err), err == nil && string(res.Rows) == "[]")
			_, err = m.data.Update(m.ctx, owner, "profiles_v2", req(t, "id=eq."+admin.UserID), []byte(`{"full_name":"Ada Admin"}`))
			check(fmt.Sprintf("owner renames an admin: %v", err), err == nil)

			// Settings change only through the security manager.
			for _, role := range fairbalance.Roles {
				_, err := m.data.Update(m.ctx, m.members["own"][role], "workspace_settings", req(t, "id=eq.1"), []byte(`{"disable_signup":true}`))
				check(fmt.Sprintf("%s writes workspace_settings directly", role), denied(err))
			}

			// Functions.
			for _, fn := range []string{"create_invite", "get_invite", "accept_invite"} {
				tested["rpc:"+fn] = true
			}
			for _, role := range fairbalance.Roles {
				c := m.members["own"][role]
				_, err := m.data.Call(m.ctx, c, "create_invite", map[string]any{"email": role + "-new@example.com", "role": fairbalance.RoleViewer}, false)
				check(fmt.Sprintf("%s invites: %v", role, err), (err == nil) == admins[role])
			}
			_, err = m.data.Call(m.ctx, anon, "create_invite", map[string]any{"email": "x@example.com", "role": "viewer"}, false)
			check("anonymous invites", denied(err))
			_, err = m.data.Call(m.ctx, anon, "accept_invite", map[string]any{"token": "x"}, false)
			check("anonymous accepts an invitation", denied(err))

			checkWorkspaceMatrix(t, m, tested, check)
			checkReviewMatrix(t, m, tested, check)
			checkAnnotationMatrix(t, m, tested, check)
			checkComplianceMatrix(t, m, tested, check)

			for _, tbl := range m.data.Tables() {
				check("table without a matrix entry: "+tbl.Name, tested[tbl.Name] || contentModel[tbl.Name])
			}
			for _, f := range m.data.Functions() {
				check("function without a matrix entry: "+f.Name, tested["rpc:"+f.Name] || contentModel["rpc:"+f.Name])
			}
			if violations > 0 {
				t.Fatalf("%d violations", violations)
			}
		})
	}
}

// Every change through the data API writes exactly one audit entry in its
// transaction, with the rows before and after; a refused change writes none.
func TestDataChangesAreAudited(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			admin := m.members["own"][fairbalance.RoleAdmin]
			viewer := m.members["own"][fairbalance.RoleViewer]
			length := func() int64 {
				n, err := m.db.View().AuditLength(m.ctx, m.orgs["own"])
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			start := length()
			if _, err := m.data.Update(m.ctx, admin, "profiles_v2", req(t, "id=eq."+viewer.UserID), []byte(`{"full_name":"Vera Viewer"}`)); err != nil {
				t.Fatal(err)
			}
			if _, err := m.data.Update(m.ctx, viewer, "profiles_v2", req(t, "id=eq."+admin.UserID), []byte(`{"full_name":"x"}`)); err == nil {
				t.Fatal("viewer renamed the admin")
			}
			if got := length(); got != start+1 {
				t.Fatalf("%d entries written, want 1", got-start)
			}
			ents, err := m.db.View().ListAudit(m.ctx, fairbalance.AuditFilter{OrgID: m.orgs["own"], Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			e := ents[0]
			var before, after []map[string]any
			_ = json.Unmarshal(e.Before, &before)
			_ = json.Unmarshal(e.After, &after)
			if e.Action != "profiles_v2.update" || e.ActorID != admin.UserID || e.ObjectID != viewer.UserID ||
				len(before) != 1 || before[0]["full_name"] != fairbalance.RoleViewer || len(after) != 1 || after[0]["full_name"] != "Vera Viewer" {
				t.Fatalf("entry %+v before %v after %v", e, before, after)
			}
			if v, err := m.db.View().VerifyAudit(m.ctx, m.orgs["own"]); err != nil || !v.OK {
				t.Fatalf("chain: %+v %v", v, err)
			}
		})
	}
}
