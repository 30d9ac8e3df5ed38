package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"golang.org/x/crypto/bcrypt"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/service"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// These tests call the identity service directly on real stores, mostly to
// race requests against each other: single-use things must be used once,
// whatever the interleaving (on PostgreSQL transactions truly overlap).

const password = "Correct-Horse-1"

type env struct {
	t   *testing.T
	db  *sqlstore.DB
	id  *service.Identity
	ctx context.Context
	c   service.Client
	now time.Time
	mu  sync.Mutex
}

func newEnv(t *testing.T, backend string) *env {
	t.Helper()
	db := storetest.Open(t, backend)
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := service.NewIdentity(db, keys, auth.NewHasher(0), service.IdentityConfig{SiteURL: "https://review.example.com", SecurePasswordChange: true}, nil)
	e := &env{t: t, db: db, id: id, ctx: context.Background(), c: service.Client{IP: "192.0.2.1", UserAgent: "test"}, now: time.Now().UTC().Truncate(time.Second)}
	id.Now = func() time.Time {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.now
	}
	return e
}

func (e *env) advance(d time.Duration) {
	e.mu.Lock()
	e.now = e.now.Add(d)
	e.mu.Unlock()
}

func forEachBackend(t *testing.T, fn func(t *testing.T, e *env)) {
	for _, b := range storetest.Backends() {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			fn(t, newEnv(t, b))
		})
	}
}

// seed stores a confirmed account whose password is a cheap bcrypt hash.
func (e *env) seed(email string) string {
	e.t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		e.t.Fatal(err)
	}
	now := e.id.Now()
	u := &fairbalance.User{ID: auth.NewUUID(), Aud: "authenticated", Role: "authenticated", Email: email, PasswordHash: string(h),
		EmailConfirmedAt: &now, AppMetadata: json.RawMessage(`{"provider":"email","providers":["email"]}`), CreatedAt: now, UpdatedAt: now}
	if err := e.db.Tx(e.ctx, func(tx fairbalance.Tx) error { return tx.CreateUser(e.ctx, u) }); err != nil {
		e.t.Fatal(err)
	}
	return u.ID
}

func (e *env) signIn(email string) *service.Session {
	e.t.Helper()
	s, err := e.id.SignInPassword(e.ctx, e.c, email, password)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) principal(s *service.Session) *service.Principal {
	e.t.Helper()
	p, err := e.id.Authenticate(e.ctx, s.AccessToken, "")
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

var codeRE = regexp.MustCompile(`code: (\d{6})`)

func (e *env) lastCode(to string) string {
	e.t.Helper()
	m, err := e.db.RecentMail(e.ctx, to, 1)
	if err != nil || len(m) == 0 {
		e.t.Fatalf("no mail to %s: %v", to, err)
	}
	sm := codeRE.FindStringSubmatch(m[0].Text)
	if sm == nil {
		e.t.Fatalf("no code in %q", m[0].Text)
	}
	return sm[1]
}

func errCode(err error) string {
	if err == nil {
		return ""
	}
	if e := fairbalance.AsError(err); e != nil && e.Kind != fairbalance.KindInternal {
		return e.Code
	}
	return "INTERNAL: " + err.Error()
}

// race runs fn n times at once and returns the error codes ("" for success).
func race(n int, fn func(i int) error) []string {
	out := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = errCode(fn(i))
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// exactlyOne checks one success and, for the rest, only the given codes.
func exactlyOne(t *testing.T, codes []string, allowed ...string) {
	t.Helper()
	ok := 0
	for _, c := range codes {
		switch {
		case c == "":
			ok++
		case !contains(allowed, c):
			t.Fatalf("unexpected outcome %q among %q", c, codes)
		}
	}
	if ok != 1 {
		t.Fatalf("%d successes, want exactly 1: %q", ok, codes)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func TestConcurrentRefresh(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		e.seed("tabs@example.com")
		s := e.signIn("tabs@example.com")
		// Several tabs refresh the same token at once: all get the same new
		// token, and the family is not revoked.
		got := make([]string, 8)
		codes := race(8, func(i int) error {
			n, err := e.id.Refresh(e.ctx, e.c, s.RefreshToken)
			if err == nil {
				got[i] = n.RefreshToken
			}
			return err
		})
		for i, c := range codes {
			if c != "" {
				t.Fatalf("refresh %d: %s", i, c)
			}
			if got[i] != got[0] || got[i] == s.RefreshToken {
				t.Fatalf("refreshes disagree: %q", got)
			}
		}
		n, err := e.id.Refresh(e.ctx, e.c, got[0])
		if err != nil {
			t.Fatalf("the shared new token: %v", err)
		}
		// Racing an old token against the active one: the family ends, and
		// never half-way (afterwards every token of it fails).
		codes = race(6, func(i int) error {
			tok := n.RefreshToken
			if i%2 == 0 {
				tok = s.RefreshToken // two generations back: reuse
			}
			_, err := e.id.Refresh(e.ctx, e.c, tok)
			return err
		})
		for _, c := range codes {
			if c != "" && c != "refresh_token_already_used" {
				t.Fatalf("outcomes %q", codes)
			}
		}
		for _, tok := range []string{s.RefreshToken, got[0], n.RefreshToken} {
			if _, err := e.id.Refresh(e.ctx, e.c, tok); errCode(err) != "refresh_token_already_used" {
				t.Fatalf("after reuse: %v", err)
			}
		}
	})
}

func TestConcurrentOneTimeCode(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		e.seed("once@example.com")
		if err := e.id.Recover(e.ctx, e.c, "once@example.com", "", "", ""); err != nil {
			t.Fatal(err)
		}
		code := e.lastCode("once@example.com")
		codes := race(8, func(int) error {
			_, err := e.id.Verify(e.ctx, e.c, service.VerifyInput{Type: "recovery", Email: "once@example.com", Token: code})
			return err
		})
		exactlyOne(t, codes, "otp_expired")
	})
}

func TestConcurrentPKCEExchange(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		e.seed("pkce@example.com")
		verifier := strings.Repeat("ab", 56)
		sum := sha256.Sum256([]byte(verifier))
		if err := e.id.Recover(e.ctx, e.c, "pkce@example.com", base64.RawURLEncoding.EncodeToString(sum[:]), "s256", ""); err != nil {
			t.Fatal(err)
		}
		m, _ := e.db.RecentMail(e.ctx, "pkce@example.com", 1)
		hash := regexp.MustCompile(`token=(pkce_[0-9a-f]+)`).FindStringSubmatch(m[0].Text)[1]
		res, err := e.id.Verify(e.ctx, e.c, service.VerifyInput{Type: "recovery", TokenHash: hash, Link: true})
		if err != nil || res.AuthCode == "" {
			t.Fatalf("verify link: %+v %v", res, err)
		}
		codes := race(8, func(int) error {
			_, err := e.id.ExchangeCode(e.ctx, e.c, res.AuthCode, verifier)
			return err
		})
		exactlyOne(t, codes, "flow_state_not_found")
	})
}

func TestConcurrentNonce(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		e.seed("nonce@example.com")
		s := e.signIn("nonce@example.com")
		e.advance(25 * time.Hour)
		p := e.principal(s)
		if err := e.id.Reauthenticate(e.ctx, e.c, p); err != nil {
			t.Fatal(err)
		}
		nonce := e.lastCode("nonce@example.com")
		pws := []string{"First-Passw0rd", "Second-Passw0rd", "Third-Passw0rd"}
		codes := race(len(pws), func(i int) error {
			_, err := e.id.UpdateUser(e.ctx, e.c, p, service.UpdateUserInput{Password: &pws[i], Nonce: nonce})
			return err
		})
		exactlyOne(t, codes, "reauthentication_not_valid")
	})
}

func TestConcurrentFactorVerify(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		e.seed("mfa@example.com")
		s := e.signIn("mfa@example.com")
		enr, err := e.id.Enroll(e.ctx, e.c, e.principal(s), "totp", "", "")
		if err != nil {
			t.Fatal(err)
		}
		p := e.principal(s)
		ch, err := e.id.Challenge(e.ctx, e.c, p, enr.Factor.ID)
		if err != nil {
			t.Fatal(err)
		}
		code, err := totp.GenerateCodeCustom(enr.TOTP.Secret, e.id.Now(), totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err != nil {
			t.Fatal(err)
		}
		codes := race(6, func(int) error {
			_, err := e.id.VerifyFactor(e.ctx, e.c, p, enr.Factor.ID, ch.ID, code)
			return err
		})
		exactlyOne(t, codes, "mfa_ip_address_mismatch", "session_not_found")
	})
}

func TestConcurrentSignUp(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		codes := race(4, func(int) error {
			_, _, err := e.id.SignUp(e.ctx, e.c, service.SignUpInput{Email: "double@example.com", Password: password})
			return err
		})
		exactlyOne(t, codes, "over_email_send_rate_limit")
		if _, n, err := e.db.View().ListUsers(e.ctx, fairbalance.UserFilter{Limit: 10}); err != nil || n != 1 {
			t.Fatalf("%d users, %v", n, err)
		}
	})
}

func TestConcurrentOTPSignUp(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		codes := race(4, func(int) error {
			return e.id.SendOTP(e.ctx, e.c, service.OTPInput{Email: "otp-double@example.com", CreateUser: true})
		})
		exactlyOne(t, codes, "over_email_send_rate_limit")
		if _, n, err := e.db.View().ListUsers(e.ctx, fairbalance.UserFilter{Limit: 10}); err != nil || n != 1 {
			t.Fatalf("%d users, %v", n, err)
		}
	})
}

func TestFailedSignInsAreAudited(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		e.seed("aud@example.com")
		for _, c := range []struct{ email, pw, reason string }{
			{"aud@example.com", "Wrong-Passw0rd", "invalid_credentials"},
			{"nobody@example.com", "Wrong-Passw0rd", "invalid_credentials"},
			{"not an address", "x", "invalid_input"},
		} {
			if _, err := e.id.SignInPassword(e.ctx, e.c, c.email, c.pw); errCode(err) != "invalid_credentials" {
				t.Fatalf("%s: %v", c.email, err)
			}
			ev, err := sqltest.AuthEvents(e.ctx, e.db)
			if err != nil {
				t.Fatal(err)
			}
			last := ev[len(ev)-1]
			var p map[string]string
			_ = json.Unmarshal(last.Payload, &p)
			if last.Action != "login_failed" || last.ActorEmail != c.email || last.IP != "192.0.2.1" || p["reason"] != c.reason {
				t.Fatalf("audit %+v %s", last, last.Payload)
			}
		}
	})
}

func TestAuthenticateAudience(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		uid := e.seed("aud2@example.com")
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": uid, "aud": []string{"a", "authenticated"}}).SignedString(e.id.Keys().Secret)
		if err != nil {
			t.Fatal(err)
		}
		for aud, want := range map[string]string{"": "", "authenticated": "", "a": "", "other": "validation_failed"} {
			if _, err := e.id.Authenticate(e.ctx, tok, aud); errCode(err) != want {
				t.Errorf("aud %q: %v, want %q", aud, err, want)
			}
		}
		noAud, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": uid}).SignedString(e.id.Keys().Secret)
		if _, err := e.id.Authenticate(e.ctx, noAud, "authenticated"); errCode(err) != "validation_failed" {
			t.Errorf("no aud: %v", err)
		}
	})
}

// Every new account gets a member profile in the same transaction, named
// from the sign-up data, outside any organisation and with the least role.
func TestSignUpCreatesProfile(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, e *env) {
		u, _, err := e.id.SignUp(e.ctx, e.c, service.SignUpInput{Email: "grace@example.com", Password: "Hopper-1906", Data: json.RawMessage(`{"first_name":"Grace","last_name":"Hopper"}`)})
		if err != nil {
			t.Fatal(err)
		}
		p, err := e.db.View().ProfileByID(e.ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if p.FullName != "Grace Hopper" || p.Role != fairbalance.RoleViewer || p.OrgID != "" {
			t.Fatalf("profile %+v", p)
		}
		// A refused sign-up leaves no profile behind.
		if _, _, err := e.id.SignUp(e.ctx, e.c, service.SignUpInput{Email: "weak@example.com", Password: "weak"}); err == nil {
			t.Fatal("weak password accepted")
		}
		if n, _ := e.db.View().CountUsers(e.ctx); n != 1 {
			t.Fatalf("%d users", n)
		}
	})
}
