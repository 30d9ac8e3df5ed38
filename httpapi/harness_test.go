package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"golang.org/x/crypto/bcrypt"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/blobstore/blobtest"
	"fairbalance/httpapi"
	"fairbalance/service"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/sqltest"
	"fairbalance/sqlstore/storetest"
)

// The harness wires the real identity service, on a real store, behind the
// real HTTP handler, and talks to it the way supabase-js does.

const (
	siteURL      = "https://review.example.com"
	allowedURL   = "http://localhost:3000/"
	testPassword = "Correct-Horse-1"
	apiVersion   = "2024-01-01"
)

// clock is the identity service's controllable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// logCapture keeps the server's log records; an error logged by the server
// (an internal failure or a panic) fails the test.
type logCapture struct {
	mu      sync.Mutex
	records []string
}

func (l *logCapture) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCapture) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logCapture) WithGroup(string) slog.Handler            { return l }
func (l *logCapture) Handle(_ context.Context, r slog.Record) error {
	if r.Level < slog.LevelError {
		return nil
	}
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.String())
		return true
	})
	l.mu.Lock()
	l.records = append(l.records, b.String())
	l.mu.Unlock()
	return nil
}

type harness struct {
	t       testing.TB
	backend string
	db      *sqlstore.DB
	keys    *auth.Keys
	id      *service.Identity
	srv     *httptest.Server
	// blobs is the storage's blob store.
	blobs blobtest.Harness
	// data is the registry behind /rest/v1, for arranging rows as members.
	data    *service.Registry
	client  *http.Client
	clock   *clock
	anon    string
	service string
	ctx     context.Context
}

type harnessOpt func(*service.IdentityConfig, *httpapi.Config)

func withAutoconfirm(c *service.IdentityConfig, _ *httpapi.Config)   { c.Autoconfirm = true }
func withDisableSignup(c *service.IdentityConfig, _ *httpapi.Config) { c.DisableSignup = true }
func withRateLimits(_ *service.IdentityConfig, h *httpapi.Config)    { h.RateLimits = true }

// newHarness starts a server on a fresh store of backend. Rate limits are
// off and secure password change is on unless opts say otherwise.
func newHarness(t testing.TB, backend string, opts ...harnessOpt) *harness {
	t.Helper()
	h, _ := startHarness(t, backend, false, opts...)
	return h
}

// startHarness wires the server as serve does, with the settings and
// safe-mode services (dev turns development mode on), and returns the
// settings service too.
func startHarness(t testing.TB, backend string, dev bool, opts ...harnessOpt) (*harness, *service.Settings) {
	t.Helper()
	db := storetest.Open(t, backend)
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var settings *service.Settings
	cfg := service.IdentityConfig{SiteURL: siteURL, RedirectAllowList: []string{allowedURL}, SecurePasswordChange: true, Version: "test",
		SignupDisabled: func(ctx context.Context) (bool, error) { return settings.SignupDisabled(ctx) }}
	hcfg := httpapi.Config{Version: "test"}
	for _, o := range opts {
		o(&cfg, &hcfg)
	}
	logs := &logCapture{}
	logger := slog.New(logs)
	id := service.NewIdentity(db, keys, auth.NewHasher(0), cfg, logger)
	clk := &clock{t: time.Now().UTC().Truncate(time.Second)}
	id.Now = clk.Now
	settings = service.NewSettings(id)
	recovery := service.NewRecovery(id, service.RecoveryConfig{Dev: dev, Migrate: db.Migrate})
	blobs := blobtest.Open(t, "disk")
	storage := service.NewStorage(db, blobs.Store, keys.Secret, http.DetectContentType)
	// The whole registry, with the content functions, which reach the
	// storage (prepare_upload), as serve builds it.
	data := service.NewRegistry(db, storage)
	data.Config.Signer, data.Config.SignatureKey = id, keys.AuditKey
	api := httpapi.New(hcfg, httpapi.Deps{Identity: id, Data: data.Engine, Store: db, Log: logger, Settings: settings, Recovery: recovery, Storage: storage,
		Records: data.Records})
	srv := httptest.NewServer(api.Handler())
	h := &harness{
		t: t, backend: backend, db: db, keys: keys, id: id, srv: srv, clock: clk, blobs: blobs, data: data,
		anon: keys.APIKey("anon"), service: keys.APIKey("service_role"), ctx: context.Background(),
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
	t.Cleanup(func() {
		srv.Close()
		logs.mu.Lock()
		defer logs.mu.Unlock()
		for _, r := range logs.records {
			t.Errorf("server logged an error: %s", r)
		}
	})
	return h, settings
}

// in returns the harness reporting to t, for use inside a subtest.
func (h *harness) in(t testing.TB) *harness {
	c := *h
	c.t = t
	return &c
}

// forEachBackend runs fn as a parallel subtest per backend, each with its
// own harness.
func forEachBackend(t *testing.T, fn func(t *testing.T, h *harness), opts ...harnessOpt) {
	t.Helper()
	for _, b := range storetest.Backends() {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			fn(t, newHarness(t, b, opts...))
		})
	}
}

// Requests

type reqOpt func(*http.Request)

// key sets the apikey header ("" removes it).
func key(k string) reqOpt {
	return func(r *http.Request) {
		if k == "" {
			r.Header.Del("apikey")
		} else {
			r.Header.Set("apikey", k)
		}
	}
}

// bearer sets Authorization: Bearer tok.
func bearer(tok string) reqOpt {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }
}

func header(k, v string) reqOpt { return func(r *http.Request) { r.Header.Set(k, v) } }

// legacy drops X-Supabase-Api-Version, so errors come in the legacy shape.
func legacy(r *http.Request) { r.Header.Del("X-Supabase-Api-Version") }

// raw is a request body sent as is.
type raw string

type response struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as an object.
func (r *response) JSON() map[string]any {
	r.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		r.t.Fatalf("body is not a JSON object (%d): %v: %s", r.Status, err, r.Body)
	}
	return m
}

// Decode decodes the body into v.
func (r *response) Decode(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("decode %T (%d): %v: %s", v, r.Status, err, r.Body)
	}
}

// OK fails unless the status is want.
func (r *response) OK(want int) *response {
	r.t.Helper()
	if r.Status != want {
		r.t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
	return r
}

// Err checks a GoTrue error in the 2024-01-01 shape: {code, message}, the
// version header echoed and x-sb-error-code set. It returns the message.
func (r *response) Err(status int, code string) string {
	r.t.Helper()
	if r.Status != status {
		r.t.Fatalf("status %d, want %d (%s): %s", r.Status, status, code, r.Body)
	}
	m := r.JSON()
	if m["code"] != code {
		r.t.Fatalf("code %v, want %q: %s", m["code"], code, r.Body)
	}
	msg, ok := m["message"].(string)
	if !ok || msg == "" {
		r.t.Fatalf("no message: %s", r.Body)
	}
	if _, ok := m["msg"]; ok {
		r.t.Fatalf("new-shape error has msg: %s", r.Body)
	}
	if got := r.Header.Get("X-Supabase-Api-Version"); got != apiVersion {
		r.t.Fatalf("X-Supabase-Api-Version %q, want %q", got, apiVersion)
	}
	if got := r.Header.Get("x-sb-error-code"); got != code {
		r.t.Fatalf("x-sb-error-code %q, want %q", got, code)
	}
	return msg
}

// LegacyErr checks a GoTrue error in the legacy shape:
// {code: <status>, error_code, msg} and no version header.
func (r *response) LegacyErr(status int, code string) string {
	r.t.Helper()
	if r.Status != status {
		r.t.Fatalf("status %d, want %d (%s): %s", r.Status, status, code, r.Body)
	}
	m := r.JSON()
	if c, ok := m["code"].(float64); !ok || int(c) != status {
		r.t.Fatalf("legacy code %v, want %d: %s", m["code"], status, r.Body)
	}
	if m["error_code"] != code {
		r.t.Fatalf("error_code %v, want %q: %s", m["error_code"], code, r.Body)
	}
	msg, ok := m["msg"].(string)
	if !ok || msg == "" {
		r.t.Fatalf("no msg: %s", r.Body)
	}
	if _, ok := m["message"]; ok {
		r.t.Fatalf("legacy error has message: %s", r.Body)
	}
	if got := r.Header.Get("X-Supabase-Api-Version"); got != "" {
		r.t.Fatalf("legacy error echoes X-Supabase-Api-Version %q", got)
	}
	if got := r.Header.Get("x-sb-error-code"); got != code {
		r.t.Fatalf("x-sb-error-code %q, want %q", got, code)
	}
	return msg
}

// do sends a request as auth-js does: apikey (anon), the API version header
// and a JSON body. path is relative to the server, e.g. "/auth/v1/user".
func (h *harness) do(method, path string, body any, opts ...reqOpt) *response {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case raw:
		rd = strings.NewReader(string(b))
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	target := path
	if !strings.HasPrefix(path, "http") {
		target = h.srv.URL + path
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("apikey", h.anon)
	req.Header.Set("X-Supabase-Api-Version", apiVersion)
	req.Header.Set("X-Client-Info", "supabase-js/2.112.2")
	if rd != nil {
		req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	}
	for _, o := range opts {
		o(req)
	}
	res, err := h.client.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return &response{t: h.t, Status: res.StatusCode, Header: res.Header, Body: b}
}

// admin sends a request with the service-role key as apikey and bearer.
func (h *harness) admin(method, path string, body any, opts ...reqOpt) *response {
	h.t.Helper()
	return h.do(method, path, body, append([]reqOpt{key(h.service), bearer(h.service)}, opts...)...)
}

// Sessions and users

// session is the session object of the wire.
type session struct {
	AccessToken  string          `json:"access_token"`
	TokenType    string          `json:"token_type"`
	ExpiresIn    int             `json:"expires_in"`
	ExpiresAt    int64           `json:"expires_at"`
	RefreshToken string          `json:"refresh_token"`
	User         map[string]any  `json:"user"`
	WeakPassword json.RawMessage `json:"weak_password"`
}

func (h *harness) decodeSession(r *response) *session {
	h.t.Helper()
	r.OK(http.StatusOK)
	var s session
	r.Decode(&s)
	if s.AccessToken == "" || s.RefreshToken == "" || s.ExpiresIn == 0 {
		h.t.Fatalf("not a session: %s", r.Body)
	}
	return &s
}

// signIn signs in with a password and returns the session.
func (h *harness) signIn(email, password string) *session {
	h.t.Helper()
	return h.decodeSession(h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": email, "password": password}))
}

func (h *harness) refresh(tok string, opts ...reqOpt) *response {
	h.t.Helper()
	return h.do("POST", "/auth/v1/token?grant_type=refresh_token", map[string]any{"refresh_token": tok}, opts...)
}

// otpSession signs a confirmed user in with an e-mailed magic-link code,
// which costs no password hash. It moves the clock past the e-mail
// frequency limit first.
func (h *harness) otpSession(email string) *session {
	h.t.Helper()
	h.clock.Advance(61 * time.Second)
	h.do("POST", "/auth/v1/otp", map[string]any{"email": email, "create_user": false}).OK(http.StatusOK)
	m := h.lastMail(email)
	if m.Kind != "magiclink" {
		h.t.Fatalf("mail kind %q, want magiclink", m.Kind)
	}
	return h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "magiclink", "email": email, "token": mailCode(h.t, m)}))
}

var seedHash = sync.OnceValue(func() string { return bcryptHash(testPassword) })

func bcryptHash(pw string) string {
	b, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// seedUser inserts an account straight into the store with testPassword
// (as a cheap bcrypt hash, the format of accounts imported from GoTrue) and
// returns its id. Confirmed accounts can sign in at once.
func (h *harness) seedUser(email string, confirmed bool) string {
	h.t.Helper()
	return h.seed(email, seedHash(), confirmed)
}

// seedUserPassword inserts a confirmed account with its own password.
func (h *harness) seedUserPassword(email, password string) string {
	h.t.Helper()
	return h.seed(email, bcryptHash(password), true)
}

func (h *harness) seed(email, hash string, confirmed bool) string {
	h.t.Helper()
	now := h.clock.Now()
	u := &fairbalance.User{
		ID: auth.NewUUID(), Aud: "authenticated", Role: "authenticated", Email: email, PasswordHash: hash,
		AppMetadata: json.RawMessage(`{"provider":"email","providers":["email"]}`), UserMetadata: json.RawMessage(`{}`),
		CreatedAt: now, UpdatedAt: now,
	}
	if confirmed {
		u.EmailConfirmedAt = &now
	}
	data, _ := json.Marshal(map[string]any{"sub": u.ID, "email": email, "email_verified": confirmed, "phone_verified": false})
	err := h.db.Tx(h.ctx, func(tx fairbalance.Tx) error {
		if err := tx.CreateUser(h.ctx, u); err != nil {
			return err
		}
		return tx.CreateIdentity(h.ctx, &fairbalance.Identity{ID: auth.NewUUID(), ProviderID: u.ID, UserID: u.ID, Provider: "email", IdentityData: data, Email: email, CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return u.ID
}

// userByEmail reads an account from the store.
func (h *harness) userByEmail(email string) *fairbalance.User {
	h.t.Helper()
	u, err := h.db.View().UserByEmail(h.ctx, email)
	if err != nil {
		h.t.Fatalf("user %s: %v", email, err)
	}
	return u
}

// Mail

// mails returns the messages to one address, newest first.
func (h *harness) mails(to string) []*fairbalance.MailMessage {
	h.t.Helper()
	m, err := h.db.RecentMail(h.ctx, to, 100)
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

func (h *harness) lastMail(to string) *fairbalance.MailMessage {
	h.t.Helper()
	m := h.mails(to)
	if len(m) == 0 {
		h.t.Fatalf("no mail to %s", to)
	}
	return m[0]
}

var (
	linkRE = regexp.MustCompile(`https?://[^\s"<>]+/auth/v1/verify\?[^\s"<>]+`)
	codeRE = regexp.MustCompile(`code: (\d{6})\b`)
)

// mailLink extracts the verification link of a message.
func mailLink(t testing.TB, m *fairbalance.MailMessage) *url.URL {
	t.Helper()
	s := linkRE.FindString(m.Text)
	if s == "" {
		t.Fatalf("no link in mail %q: %s", m.Subject, m.Text)
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// mailCode extracts the 6-digit code of a message.
func mailCode(t testing.TB, m *fairbalance.MailMessage) string {
	t.Helper()
	sm := codeRE.FindStringSubmatch(m.Text)
	if sm == nil {
		t.Fatalf("no code in mail %q: %s", m.Subject, m.Text)
	}
	return sm[1]
}

// follow requests an e-mail link (on the test server, whatever its host)
// without an API key, as a browser does, and returns the 303 target.
func (h *harness) follow(link *url.URL) *url.URL {
	h.t.Helper()
	r := h.do("GET", "/auth/v1/verify?"+link.RawQuery, nil, key(""), legacy)
	if r.Status != http.StatusSeeOther {
		h.t.Fatalf("link: status %d, want 303: %s", r.Status, r.Body)
	}
	loc, err := url.Parse(r.Header.Get("Location"))
	if err != nil {
		h.t.Fatal(err)
	}
	return loc
}

// Audit and snapshots

func (h *harness) events() []fairbalance.AuthEvent {
	h.t.Helper()
	ev, err := sqltest.AuthEvents(h.ctx, h.db)
	if err != nil {
		h.t.Fatal(err)
	}
	return ev
}

func (h *harness) actions() []string {
	var out []string
	for _, e := range h.events() {
		out = append(out, e.Action)
	}
	return out
}

func (h *harness) snapshot() map[string][]string {
	h.t.Helper()
	s, err := sqltest.Snapshot(h.ctx, h.db)
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// unchanged fails if any table but those in except differs from before.
func (h *harness) unchanged(before map[string][]string, what string, except ...string) {
	h.t.Helper()
	after := h.snapshot()
	for table, rows := range before {
		if slices.Contains(except, table) {
			continue
		}
		if !slices.Equal(rows, after[table]) {
			h.t.Fatalf("%s changed table %s:\nbefore %q\nafter  %q", what, table, rows, after[table])
		}
	}
}

// TOTP

func totpCode(t testing.TB, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// JWT

// claimsOf decodes (without verifying) the payload of a JWT.
func claimsOf(t testing.TB, tok string) map[string]any {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", tok)
	}
	var m map[string]any
	if err := json.Unmarshal(b64(t, parts[1]), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// str returns m[k] as a string, failing if it is not one.
func str(t testing.TB, m map[string]any, k string) string {
	t.Helper()
	s, ok := m[k].(string)
	if !ok {
		t.Fatalf("%s is %T (%v), want a string", k, m[k], m[k])
	}
	return s
}

func fragment(t testing.TB, u *url.URL) url.Values {
	t.Helper()
	v, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatalf("fragment %q: %v", u.Fragment, err)
	}
	return v
}

func b64(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("base64 %q: %v", s, err)
	}
	return b
}

// otherKeys are the keys of another instance.
func otherKeys(t testing.TB) *auth.Keys {
	t.Helper()
	k, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return k
}
