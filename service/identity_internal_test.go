package service

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

func code(err error) string {
	if e := fairbalance.AsError(err); e != nil {
		return e.Code
	}
	if err != nil {
		return "internal: " + err.Error()
	}
	return ""
}

func TestNormaliseEmail(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"a@example.com":               "a@example.com",
		"  Ada.Lovelace@Example.COM ": "ada.lovelace@example.com",
		"a+tag@sub.example.co.uk":     "a+tag@sub.example.co.uk",
		"o'brien@example.com":         "o'brien@example.com",
		"x_y-z@example-site.com":      "x_y-z@example-site.com",
	}
	for in, want := range ok {
		got, err := normaliseEmail(in)
		if err != nil || got != want {
			t.Errorf("normaliseEmail(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{
		"", " ", "plain", "@example.com", "a@", "a@localhost", "a@example.com.", "a@@example.com",
		"a b@example.com", "a\t@example.com", "a@example.com\r\nBcc: b@example.com",
		"\u0430lice@example.com", "alice@ex\u0430mple.com", "alice@例え.jp", "ａlice@example.com",
		"Alice <alice@example.com>", `"quoted"@example.com`, "a(comment)@example.com", "a;b@example.com",
		"a'; DROP TABLE users;--@x.com", "a,b@example.com", "[a]@example.com", "a\\b@example.com",
		strings.Repeat("a", 250) + "@example.com", "a\x00@example.com",
	}
	for _, in := range bad {
		if got, err := normaliseEmail(in); code(err) != "validation_failed" {
			t.Errorf("normaliseEmail(%q) = %q, %v; want validation_failed", in, got, err)
		}
	}
}

func TestRedirect(t *testing.T) {
	t.Parallel()
	cfg := IdentityConfig{SiteURL: "https://review.example.com/", RedirectAllowList: []string{"http://localhost:3000", "https://app.example.com/auth/", "not a url", ""}}
	cfg.defaults()
	s := &Identity{cfg: cfg}
	cases := map[string]string{
		"":                                      "https://review.example.com",
		"https://review.example.com/x?y=1#z":    "https://review.example.com/x?y=1#z",
		"http://localhost:3000":                 "http://localhost:3000",
		"http://localhost:3000/cb":              "http://localhost:3000/cb",
		"https://app.example.com/auth/callback": "https://app.example.com/auth/callback",
		"https://app.example.com/other":         "https://review.example.com",
		"https://app.example.com/auth":          "https://review.example.com",
		"http://localhost:3000@evil.example/":   "https://review.example.com",
		"http://user:pw@localhost:3000/":        "https://review.example.com",
		"http://localhost:30001/":               "https://review.example.com",
		"http://localhost:3000.evil.example/":   "https://review.example.com",
		"https://localhost:3000/":               "https://review.example.com",
		"http://review.example.com/":            "https://review.example.com",
		"https://review.example.com.evil/":      "https://review.example.com",
		"javascript:alert(1)":                   "https://review.example.com",
		"//evil.example/":                       "https://review.example.com",
		"/relative":                             "https://review.example.com",
		"http://[::1":                           "https://review.example.com",
	}
	for in, want := range cases {
		if got := s.redirect(in); got != want {
			t.Errorf("redirect(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMergeMetadata(t *testing.T) {
	t.Parallel()
	cases := []struct {
		base, patch, want string
		err               bool
	}{
		{"", "", "{}", false},
		{`{"a":1}`, "null", `{"a":1}`, false},
		{`{"a":1}`, `{"b":2}`, `{"a":1,"b":2}`, false},
		{`{"a":1,"b":2}`, `{"a":null}`, `{"b":2}`, false},
		{`{"a":{"x":1}}`, `{"a":{"y":2}}`, `{"a":{"y":2}}`, false},
		{`not json`, `{"b":2}`, `{"b":2}`, false},
		{`{}`, `[1]`, "", true},
		{`{}`, `"s"`, "", true},
		{`{}`, `3`, "", true},
	}
	for _, c := range cases {
		got, err := mergeMetadata(json.RawMessage(c.base), json.RawMessage(c.patch))
		if c.err {
			if code(err) != "validation_failed" {
				t.Errorf("merge(%s, %s): err %v", c.base, c.patch, err)
			}
			continue
		}
		var g, w any
		_ = json.Unmarshal(got, &g)
		_ = json.Unmarshal([]byte(c.want), &w)
		if err != nil || !reflect.DeepEqual(g, w) {
			t.Errorf("merge(%s, %s) = %s, %v; want %s", c.base, c.patch, got, err, c.want)
		}
	}
}

func TestPKCEParameters(t *testing.T) {
	t.Parallel()
	ch := strings.Repeat("A", 43)
	cases := []struct {
		challenge, method string
		use               bool
		err               string
	}{
		{"", "", false, ""},
		{ch, "s256", true, ""},
		{ch, "S256", true, ""},
		{ch, "plain", true, ""},
		{strings.Repeat("a", 128), "s256", true, ""},
		{strings.Repeat("a", 129), "s256", false, "validation_failed"},
		{strings.Repeat("a", 42), "s256", false, "validation_failed"},
		{ch + "!", "s256", false, "validation_failed"},
		{ch, "", false, "validation_failed"},
		{"", "s256", false, "validation_failed"},
		{ch, "sha512", false, "validation_failed"},
	}
	for _, c := range cases {
		use, err := pkce(c.challenge, c.method)
		if use != c.use || code(err) != c.err {
			t.Errorf("pkce(%q, %q) = %v, %v; want %v, %q", c.challenge, c.method, use, err, c.use, c.err)
		}
	}
}

func TestTooSoon(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s := &Identity{cfg: IdentityConfig{MailMinInterval: 60 * time.Second}, Now: func() time.Time { return now }}
	if err := s.tooSoon(nil); err != nil {
		t.Fatal(err)
	}
	for ago, want := range map[time.Duration]string{
		0:                       "after 60 seconds",
		time.Second:             "after 59 seconds",
		59*time.Second + 1:      "after 1 seconds",
		1500 * time.Millisecond: "after 59 seconds",
	} {
		sent := now.Add(-ago)
		err := s.tooSoon(&sent)
		e := fairbalance.AsError(err)
		if e == nil || e.Code != "over_email_send_rate_limit" || e.Kind != fairbalance.KindRateLimited || !strings.Contains(e.Message, want) {
			t.Errorf("sent %s ago: %v, want %q", ago, err, want)
		}
	}
	for _, ago := range []time.Duration{60 * time.Second, time.Hour} {
		sent := now.Add(-ago)
		if err := s.tooSoon(&sent); err != nil {
			t.Errorf("sent %s ago: %v", ago, err)
		}
	}
}

func TestCheckSessionValid(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	now := start
	cfg := IdentityConfig{}
	cfg.defaults()
	s := &Identity{cfg: cfg, Now: func() time.Time { return now }}
	ptr := func(t time.Time) *time.Time { return &t }
	week := 7 * 24 * time.Hour
	cases := []struct {
		name   string
		sess   fairbalance.Session
		issued time.Time // when the session's latest token was issued
		at     time.Time
		err    string
	}{
		{"fresh", fairbalance.Session{CreatedAt: start, RefreshedAt: ptr(start), NotAfter: ptr(start.Add(week))}, start, start.Add(time.Hour), ""},
		{"idle just under 12 h", fairbalance.Session{CreatedAt: start, RefreshedAt: ptr(start)}, start, start.Add(12 * time.Hour), ""},
		{"idle over 12 h", fairbalance.Session{CreatedAt: start, RefreshedAt: ptr(start)}, start, start.Add(12*time.Hour + time.Second), "session_expired"},
		{"idle, never refreshed", fairbalance.Session{CreatedAt: start}, start, start.Add(13 * time.Hour), "session_expired"},
		{"token issued recently", fairbalance.Session{CreatedAt: start, RefreshedAt: ptr(start)}, start.Add(11 * time.Hour), start.Add(22 * time.Hour), ""},
		{"refreshed recently but past not_after", fairbalance.Session{CreatedAt: start, RefreshedAt: ptr(start.Add(week)), NotAfter: ptr(start.Add(week))}, start.Add(week), start.Add(week + time.Second), "session_expired"},
		{"past lifetime without not_after", fairbalance.Session{CreatedAt: start, RefreshedAt: ptr(start.Add(week))}, start.Add(week), start.Add(week + time.Second), "session_expired"},
	}
	for _, c := range cases {
		now = c.at
		if got := code(s.checkSessionValid(&c.sess, &fairbalance.RefreshToken{CreatedAt: c.issued})); got != c.err {
			t.Errorf("%s: %q, want %q", c.name, got, c.err)
		}
	}
}

func TestIsRecoverySession(t *testing.T) {
	t.Parallel()
	for methods, want := range map[string]bool{
		"":                  false,
		"password":          false,
		"otp":               true,
		"recovery":          true,
		"magiclink":         true,
		"password,totp":     false,
		"recovery,totp":     false,
		"totp,otp":          true,
		"email/signup":      false,
		"password,recovery": true,
	} {
		var sess *fairbalance.Session
		if methods != "" {
			sess = &fairbalance.Session{}
			for _, m := range strings.Split(methods, ",") {
				sess.AMR = append(sess.AMR, fairbalance.AMREntry{Method: m})
			}
		}
		if got := isRecoverySession(sess); got != want {
			t.Errorf("isRecoverySession(%s) = %v, want %v", methods, got, want)
		}
	}
}

func TestBanUntil(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]*time.Time{"": nil, "none": nil, "0s": &now} {
		got, err := banUntil(now, in)
		if err != nil || (got == nil) != (want == nil) || got != nil && !got.Equal(*want) {
			t.Errorf("banUntil(%q) = %v, %v", in, got, err)
		}
	}
	got, err := banUntil(now, "876000h")
	if err != nil || !got.Equal(now.Add(876000*time.Hour)) {
		t.Errorf("banUntil(876000h) = %v, %v", got, err)
	}
	for _, in := range []string{"-1h", "1 day", "forever", "10"} {
		if _, err := banUntil(now, in); code(err) != "validation_failed" {
			t.Errorf("banUntil(%q): %v", in, err)
		}
	}
}

func TestClaimsCache(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	cc := newClaimsCache(2)
	long := &auth.Claims{Subject: "a", ExpiresAt: now.Add(time.Hour).Unix()}
	short := &auth.Claims{Subject: "b", ExpiresAt: now.Add(time.Minute).Unix()}
	cc.put("long", long, now)
	cc.put("short", short, now)
	if c, ok := cc.get("long", now.Add(4*time.Minute)); !ok || c != long {
		t.Fatal("long-lived token not cached")
	}
	if _, ok := cc.get("long", now.Add(5*time.Minute)); ok {
		t.Fatal("cached beyond five minutes")
	}
	if _, ok := cc.get("short", now.Add(time.Minute)); ok {
		t.Fatal("cached beyond the token's expiry")
	}
	if _, ok := cc.get("unknown", now); ok {
		t.Fatal("unknown token found")
	}
	// Full: starts afresh.
	cc.put("third", long, now)
	if _, ok := cc.get("short", now); ok {
		t.Fatal("cache did not reset when full")
	}
	if _, ok := cc.get("third", now); !ok {
		t.Fatal("newest entry lost")
	}
}

func TestErrorsAreSafe(t *testing.T) {
	t.Parallel()
	cause := errors.New("pq: connection refused to 10.0.0.5")
	err := internal(cause)
	e := fairbalance.AsError(err)
	if e == nil || e.Kind != fairbalance.KindInternal || strings.Contains(e.Message, "10.0.0.5") || !errors.Is(err, cause) {
		t.Fatalf("internal(%v) = %#v", cause, e)
	}
	known := errf(fairbalance.KindInvalid, "validation_failed", "x")
	if internal(known) != error(known) {
		t.Fatal("internal rewrapped a client error")
	}
	if internal(nil) != nil {
		t.Fatal("internal(nil) != nil")
	}
}

func TestFullName(t *testing.T) {
	for in, want := range map[string]string{
		`{"full_name":" Ada Lovelace "}`:                     "Ada Lovelace",
		`{"first_name":"Ada","last_name":"Lovelace"}`:        "Ada Lovelace",
		`{"first_name":"Ada"}`:                               "Ada",
		`{"name":"Ada"}`:                                     "Ada",
		`{"full_name":42}`:                                   "",
		`not json`:                                           "",
		`{"full_name":"A","first_name":"B","last_name":"C"}`: "A",
	} {
		if got := fullName(json.RawMessage(in)); got != want {
			t.Errorf("fullName(%s) = %q, want %q", in, got, want)
		}
	}
}
