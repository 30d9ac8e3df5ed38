package service_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// Signing up through a valid invitation for that very address confirms it
// (the inviting administrator vouched for it), signs the account in and
// joins it to the organisation with the invited role, at once and without
// an e-mail; any other invitation changes nothing of the usual sign-up.
func TestSignUpThroughInvitation(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newMatrix(t, backend)
			keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			id := service.NewIdentity(m.db, keys, auth.NewHasher(0), service.IdentityConfig{SiteURL: "https://review.example.com"}, nil)
			now := time.Now().UTC()
			id.Now = func() time.Time { return now }
			client := service.Client{IP: "192.0.2.1", UserAgent: "test"}
			admin := m.members["own"][fairbalance.RoleAdmin]
			invite := func(email string) string {
				return call(t, m, admin, "create_invite", map[string]any{"email": email, "role": fairbalance.RoleMarketer})["token"].(string)
			}
			profile := func(uid string) *fairbalance.Profile {
				p, err := m.db.View().ProfileByID(m.ctx, uid)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			mails := func(to string) int {
				ms, err := m.db.RecentMail(m.ctx, to, 10)
				if err != nil {
					t.Fatal(err)
				}
				return len(ms)
			}
			pending := func(token string) bool {
				_, err := m.data.Call(m.ctx, fairbalance.Caller{Role: "anon"}, "get_invite", map[string]any{"token": token}, false)
				return err == nil
			}

			t.Run("valid", func(t *testing.T) {
				token := invite("mara@example.com")
				u, sess, err := id.SignUp(m.ctx, client, service.SignUpInput{Email: "Mara@Example.com", Password: password,
					Data: json.RawMessage(`{"full_name":"Mara Marketer","invite_token":"` + token + `"}`)})
				if err != nil {
					t.Fatal(err)
				}
				if sess == nil || sess.AccessToken == "" || sess.RefreshToken == "" || u.EmailConfirmedAt == nil {
					t.Fatalf("not signed in and confirmed: %+v %+v", u, sess)
				}
				if strings.Contains(string(u.UserMetadata), "invite_token") || strings.Contains(string(u.UserMetadata), token) {
					t.Fatalf("the token was kept as metadata: %s", u.UserMetadata)
				}
				p, err := id.Authenticate(m.ctx, sess.AccessToken, "")
				if err != nil || p.User.ID != u.ID {
					t.Fatalf("the session does not authenticate: %v", err)
				}
				if got := profile(u.ID); got.OrgID != m.orgs["own"] || got.Role != fairbalance.RoleMarketer || got.FullName != "Mara Marketer" {
					t.Fatalf("not joined: %+v", got)
				}
				if pending(token) {
					t.Fatal("the invitation is still pending")
				}
				if n := mails("mara@example.com"); n != 0 {
					t.Fatalf("%d e-mails sent to the invitee", n)
				}
				ents, err := m.db.View().ListAudit(m.ctx, fairbalance.AuditFilter{OrgID: m.orgs["own"], Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, e := range ents {
					found = found || e.Action == fairbalance.ActionInviteAccepted && e.ActorID == u.ID
				}
				if !found {
					t.Fatalf("acceptance not audited: %+v", ents)
				}
				// The same token does not serve a second time.
				_, sess, err = id.SignUp(m.ctx, client, service.SignUpInput{Email: "mara2@example.com", Password: password, InviteToken: token})
				if err != nil || sess != nil {
					t.Fatalf("a used invitation signed someone in: %v %+v", err, sess)
				}
			})

			unchanged := func(t *testing.T, email, token string) {
				t.Helper()
				u, sess, err := id.SignUp(m.ctx, client, service.SignUpInput{Email: email, Password: password, InviteToken: token})
				if err != nil {
					t.Fatal(err)
				}
				if sess != nil || u.EmailConfirmedAt != nil {
					t.Fatalf("signed in without confirming: %+v %+v", u, sess)
				}
				if got := profile(u.ID); got.OrgID != "" {
					t.Fatalf("joined %q", got.OrgID)
				}
				if n := mails(email); n != 1 {
					t.Fatalf("%d confirmation e-mails, want 1", n)
				}
			}
			t.Run("another address", func(t *testing.T) {
				token := invite("invited@example.com")
				unchanged(t, "someone-else@example.com", token)
				if !pending(token) {
					t.Fatal("the invitation was used")
				}
			})
			t.Run("expired", func(t *testing.T) {
				token := invite("late@example.com")
				now = now.Add(fairbalance.InviteValidity + time.Minute)
				unchanged(t, "late@example.com", token)
			})
			t.Run("unknown token", func(t *testing.T) {
				unchanged(t, "nobody@example.com", "not-a-token")
			})
		})
	}
}
