package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// Two-step verification is enforced: once an account has a verified
// factor, a password-only (aal1) session of it is refused by the data API,
// storage and the functions — each in its own shape — while the identity
// endpoints it needs to answer the challenge keep working; the aal2 token
// the verification returns is accepted; removing the factors lifts it. An
// account without factors is unaffected.

// insufficientAAL is how the surfaces refuse a password-only session of an
// account with two-step verification. The auth endpoints accept it.
var insufficientAAL = refusal{
	restStatus: http.StatusForbidden, restCode: "42501", restMsg: "Two-step verification required",
	fnStatus: http.StatusForbidden, fnCode: fairbalance.CodeInsufficientAAL,
}

// answer answers a fresh challenge of factorID with the code of the
// harness clock's current 30-second step, moving the clock to the next
// step first so that no code is used twice.
func (h *harness) answer(tok, factorID, secret string) *session {
	h.t.Helper()
	h.clock.Advance(30 * time.Second)
	ch := h.challenge(tok, factorID)
	return h.decodeSession(h.verifyFactor(tok, factorID, ch, totpCode(h.t, secret, h.clock.Now())).OK(http.StatusOK))
}

// identityWorks checks that the auth endpoints a password-only session
// needs to raise its level accept tok: the user, a challenge, a refresh
// (which keeps the level); it returns the refreshed session.
func (h *harness) identityWorks(tok, refreshToken, factorID string) *session {
	h.t.Helper()
	u := h.do("GET", "/auth/v1/user", nil, bearer(tok)).OK(http.StatusOK).JSON()
	if factorsOf(h.t, u)[factorID] != "verified" {
		h.t.Fatalf("user %v: factor %s not verified", u, factorID)
	}
	h.challenge(tok, factorID)
	s := h.decodeSession(h.refresh(refreshToken).OK(http.StatusOK))
	if aal := claimsOf(h.t, s.AccessToken)["aal"]; aal != "aal1" {
		h.t.Fatalf("refreshed token at %v, want aal1 kept", aal)
	}
	return s
}

func TestTwoStepVerificationEnforced(t *testing.T) {
	t.Parallel()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			h := startStack(t, backend, storetest.Open(t, backend), newKeys(t)).in(t)
			owner := setUpOrg(t, h)
			const email = "two-step@a.example"
			uid, first := h.signedInMember(email, "org-a", fairbalance.RoleAdmin)
			invite := func(tok, to string) *response {
				return h.do("POST", "/rest/v1/rpc/create_invite", map[string]any{"email": to, "role": fairbalance.RoleViewer}, bearer(tok))
			}

			// Without factors a password-only session does everything, and
			// an enrolment in progress (unverified) changes nothing.
			h.works(first.AccessToken)
			f := h.enroll(first.AccessToken, "Phone")
			h.works(first.AccessToken)
			upload := h.signUpload(first.AccessToken, "before.pdf")

			// Verifying the factor raises this session to aal2 with a new
			// token; the password-only token of the same session, though
			// remembered by the resolver a moment ago, is refused from now.
			raised := h.answer(first.AccessToken, f.ID, f.TOTP.Secret)
			if c := claimsOf(t, raised.AccessToken); c["aal"] != "aal2" || c["session_id"] != claimsOf(t, first.AccessToken)["session_id"] {
				t.Fatalf("verified token %v", c)
			}
			h.works(raised.AccessToken)
			h.refused(first.AccessToken, insufficientAAL)
			r := h.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(first.AccessToken)).JSON()
			if !strings.HasPrefix(r["details"].(string), "insufficient_aal: ") || !strings.Contains(r["hint"].(string), "/verify") {
				t.Fatalf("rest refusal %v", r)
			}
			if m := h.do("GET", "/storage/v1/bucket", nil, bearer(first.AccessToken)).JSON(); m["message"] != "Two-step verification required" {
				t.Fatalf("storage refusal %v", m)
			}
			// An upload URL signed at aal1 before the factor was verified
			// belongs to a session now at aal2: it still uploads.
			h.putSigned(upload).OK(http.StatusOK)

			// A new sign-in with the password only is aal1: refused on every
			// data surface (an administrator cannot invite), on a signed
			// upload, and after a refresh, which keeps the level; the auth
			// endpoints serve it so that it can answer the challenge.
			pw := h.signIn(email, testPassword)
			if c := claimsOf(t, pw.AccessToken); c["aal"] != "aal1" {
				t.Fatalf("password sign-in at %v", c["aal"])
			}
			h.refused(pw.AccessToken, insufficientAAL)
			if r := invite(pw.AccessToken, "eve@a.example"); r.Status != http.StatusForbidden || r.JSON()["code"] != "42501" {
				t.Fatalf("invitation at aal1: %d %s", r.Status, r.Body)
			}
			pw = h.identityWorks(pw.AccessToken, pw.RefreshToken, f.ID)
			h.refused(pw.AccessToken, insufficientAAL)
			invite(raised.AccessToken, "ok@a.example").OK(http.StatusOK)

			// Answering the challenge raises it to aal2: accepted.
			pw2 := h.answer(pw.AccessToken, f.ID, f.TOTP.Secret)
			h.works(pw2.AccessToken)
			h.refused(pw.AccessToken, insufficientAAL)

			// A session raised with a second factor that is then removed
			// falls back to aal1 while the first stays verified: its aal2
			// token is refused at once, and so is an upload URL it signed.
			g := h.enroll(pw2.AccessToken, "Backup")
			viaG := h.answer(pw2.AccessToken, g.ID, g.TOTP.Secret)
			h.works(viaG.AccessToken)
			upload = h.signUpload(viaG.AccessToken, "after.pdf")
			h.admin("DELETE", "/auth/v1/admin/users/"+uid+"/factors/"+g.ID, nil).OK(http.StatusOK)
			h.refused(viaG.AccessToken, insufficientAAL)
			h.uploadRefused(upload)
			h.works(raised.AccessToken) // raised with the first factor

			// Removing the last verified factor (from an aal2 session) lifts
			// the requirement: password-only sessions work again, even the
			// tokens refused a moment ago.
			h.do("DELETE", "/auth/v1/factors/"+f.ID, nil, bearer(raised.AccessToken)).OK(http.StatusOK)
			h.works(pw.AccessToken)
			h.works(viaG.AccessToken)
			again := h.signIn(email, testPassword)
			h.works(again.AccessToken)
			invite(again.AccessToken, "later@a.example").OK(http.StatusOK)

			// Another member, who never had a factor, was never affected.
			h.works(owner)
		})
	}
}

// A second instance on the same database learns that a session's account
// now has a verified factor within the callers cache's TTL, like any other
// change; the instance that made it at once.
func TestTwoStepVerificationAcrossInstances(t *testing.T) {
	t.Parallel()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			dbA, dbB := storetest.OpenPair(t, backend)
			keys := newKeys(t)
			a := startStack(t, backend, dbA, keys).in(t)
			b := startStack(t, backend, dbB, keys).in(t)
			setUpOrg(t, a)
			_, s := a.signedInMember("x-two-step@a.example", "org-a", fairbalance.RoleMarketer)
			f := a.enroll(s.AccessToken, "Phone")
			// answer moves a's clock a step on; b's keeps pace.
			b.clock.Advance(30 * time.Second)
			b.works(s.AccessToken)
			raised := a.answer(s.AccessToken, f.ID, f.TOTP.Secret)
			a.refused(s.AccessToken, insufficientAAL)
			b.works(raised.AccessToken)
			// The second instance answers from its cache until the TTL has
			// passed, then refuses the password-only token too.
			b.do("GET", "/rest/v1/profiles_v2?select=id", nil, bearer(s.AccessToken)).OK(http.StatusOK)
			b.clock.Advance(service.DefaultCallerCacheTTL - time.Millisecond)
			b.do("GET", "/storage/v1/bucket", nil, bearer(s.AccessToken)).OK(http.StatusOK)
			b.clock.Advance(time.Millisecond)
			b.refused(s.AccessToken, insufficientAAL)
		})
	}
}
