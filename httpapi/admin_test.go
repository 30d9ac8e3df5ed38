package httpapi_test

import (
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestAdminAuthorization(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("plain@example.com", true)
		s := h.signIn("plain@example.com", testPassword)
		minted := func(secret []byte, role string) string {
			tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"role": role, "iss": "supabase-demo"}).SignedString(secret)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
		before := h.snapshot()
		for _, c := range []struct {
			name   string
			opts   []reqOpt
			status int
			code   string
		}{
			{"anon key as apikey and bearer", []reqOpt{bearer(h.anon)}, 403, "not_admin"},
			{"anon apikey, no bearer", nil, 403, "not_admin"},
			{"user token", []reqOpt{bearer(s.AccessToken)}, 403, "not_admin"},
			{"service apikey, user bearer", []reqOpt{key(h.service), bearer(s.AccessToken)}, 403, "not_admin"},
			{"service apikey, anon bearer", []reqOpt{key(h.service), bearer(h.anon)}, 403, "not_admin"},
			{"non-bearer header", []reqOpt{key(h.service), header("Authorization", "Basic eDp5")}, 401, "no_authorization"},
			{"service role signed elsewhere", []reqOpt{key(h.service), bearer(minted([]byte(strings.Repeat("s", 48)), "service_role"))}, 403, "bad_jwt"},
			{"authenticated role", []reqOpt{key(h.service), bearer(minted(h.keys.Secret, "authenticated"))}, 403, "not_admin"},
		} {
			t.Run(c.name, func(t *testing.T) {
				h := h.in(t)
				h.do("GET", "/auth/v1/admin/users", nil, c.opts...).Err(c.status, c.code)
				h.do("POST", "/auth/v1/admin/users", map[string]any{"email": "x@example.com", "password": testPassword}, c.opts...).Err(c.status, c.code)
				h.do("POST", "/auth/v1/invite", map[string]any{"email": "x@example.com"}, c.opts...).Err(c.status, c.code)
				h.do("POST", "/auth/v1/admin/generate_link", map[string]any{"type": "magiclink", "email": "x@example.com"}, c.opts...).Err(c.status, c.code)
				h.do("DELETE", "/auth/v1/admin/users/"+claimsOf(t, s.AccessToken)["sub"].(string), map[string]any{"should_soft_delete": false}, c.opts...).Err(c.status, c.code)
			})
		}
		h.unchanged(before, "refused admin requests")
		// The service-role key alone (the gateway copies it to Authorization),
		// and tokens minted with the instance secret for an admin role, work.
		h.do("GET", "/auth/v1/admin/users", nil, key(h.service)).OK(http.StatusOK)
		h.do("GET", "/auth/v1/admin/users", nil, key(h.service), bearer(minted(h.keys.Secret, "supabase_admin"))).OK(http.StatusOK)
		h.do("GET", "/auth/v1/admin/users", nil, bearer(h.service)).OK(http.StatusOK)
	})
}

func TestAdminInvite(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("member@example.com", true)
		u := h.admin("POST", "/auth/v1/invite?redirect_to="+url.QueryEscape(allowedURL+"join"), map[string]any{"email": "Invitee@example.com", "data": map[string]any{"team": "QA"}}).OK(http.StatusOK).JSON()
		if u["email"] != "invitee@example.com" || u["invited_at"] == nil || u["confirmation_sent_at"] == nil || u["email_confirmed_at"] != nil {
			t.Fatalf("invited user %v", u)
		}
		if !reflect.DeepEqual(u["user_metadata"], map[string]any{"team": "QA"}) {
			t.Fatalf("user_metadata %v", u["user_metadata"])
		}
		m := h.lastMail("invitee@example.com")
		link := mailLink(t, m)
		if m.Kind != "invite" || link.Query().Get("type") != "invite" || link.Query().Get("redirect_to") != allowedURL+"join" {
			t.Fatalf("invite mail %s %s", m.Kind, link)
		}
		loc := h.follow(link)
		f := fragment(t, loc)
		if !strings.HasPrefix(loc.String(), allowedURL+"join#") || f.Get("type") != "invite" || f.Get("access_token") == "" {
			t.Fatalf("invite redirect %s", loc)
		}
		me := h.do("GET", "/auth/v1/user", nil, bearer(f.Get("access_token"))).OK(http.StatusOK).JSON()
		if me["id"] != u["id"] || me["email_confirmed_at"] == nil {
			t.Fatalf("invited user after accepting %v", me)
		}
		// The invitee sets a password with the session.
		h.do("PUT", "/auth/v1/user", map[string]any{"password": "Invited-Passw0rd"}, bearer(f.Get("access_token"))).OK(http.StatusOK)

		before := h.snapshot()
		h.admin("POST", "/auth/v1/invite", map[string]any{"email": "member@example.com"}).Err(http.StatusUnprocessableEntity, "email_exists")
		h.admin("POST", "/auth/v1/invite", map[string]any{"email": "invitee@example.com"}).Err(http.StatusUnprocessableEntity, "email_exists")
		h.admin("POST", "/auth/v1/invite", map[string]any{"email": "not an address"}).Err(http.StatusBadRequest, "validation_failed")
		h.admin("POST", "/auth/v1/invite", map[string]any{}).Err(http.StatusBadRequest, "validation_failed")
		h.unchanged(before, "refused invitations")
		if !strings.Contains(strings.Join(h.actions(), " "), "user_invited") {
			t.Fatalf("no user_invited audit: %v", h.actions())
		}
	})
}

func TestAdminGenerateLink(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.seedUser("known@example.com", true)
		h.seedUser("change@example.com", true)
		hashRE := regexp.MustCompile(`^[0-9a-f]{56}$`)
		gen := func(body map[string]any, verificationType string) map[string]any {
			t.Helper()
			r := h.admin("POST", "/auth/v1/admin/generate_link", body).OK(http.StatusOK)
			m := r.JSON()
			if m["verification_type"] != verificationType || !hashRE.MatchString(str(t, m, "hashed_token")) || !regexp.MustCompile(`^\d{6}$`).MatchString(str(t, m, "email_otp")) {
				t.Fatalf("generate_link %v: %s", body, r.Body)
			}
			link, err := url.Parse(str(t, m, "action_link"))
			if err != nil || link.Query().Get("token") != m["hashed_token"] || !strings.HasPrefix(m["action_link"].(string), siteURL+"/auth/v1/verify?") {
				t.Fatalf("action_link %v", m["action_link"])
			}
			// The user's fields are flattened into the answer.
			if !uuidRE.MatchString(str(t, m, "id")) || m["aud"] != "authenticated" || m["identities"] == nil {
				t.Fatalf("user fields: %s", r.Body)
			}
			return m
		}

		m := gen(map[string]any{"type": "signup", "email": "gl-signup@example.com", "password": testPassword, "data": map[string]any{"via": "admin"}}, "signup")
		if m["email_confirmed_at"] != nil || m["redirect_to"] != siteURL {
			t.Fatalf("signup link user %v", m)
		}
		link, _ := url.Parse(m["action_link"].(string))
		if f := fragment(t, h.follow(link)); f.Get("type") != "signup" || f.Get("access_token") == "" {
			t.Fatalf("signup link fragment %v", f)
		}

		m = gen(map[string]any{"type": "invite", "email": "gl-invite@example.com"}, "invite")
		if m["invited_at"] == nil {
			t.Fatalf("invite link user %v", m)
		}
		h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "invite", "token_hash": m["hashed_token"]}))

		m = gen(map[string]any{"type": "magiclink", "email": "known@example.com", "redirect_to": allowedURL}, "magiclink")
		if m["redirect_to"] != allowedURL {
			t.Fatalf("redirect_to %v", m["redirect_to"])
		}
		h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "magiclink", "email": "known@example.com", "token": m["email_otp"]}))

		// A magic link for an unknown address signs up.
		m = gen(map[string]any{"type": "magiclink", "email": "gl-new@example.com"}, "signup")
		if h.userByEmail("gl-new@example.com").EmailConfirmedAt != nil {
			t.Fatal("magic-link sign-up confirmed before the link")
		}
		h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "signup", "token_hash": m["hashed_token"]}))

		m = gen(map[string]any{"type": "recovery", "email": "known@example.com"}, "recovery")
		link, _ = url.Parse(m["action_link"].(string))
		if f := fragment(t, h.follow(link)); f.Get("type") != "recovery" {
			t.Fatalf("recovery fragment %v", f)
		}

		cur := gen(map[string]any{"type": "email_change_current", "email": "change@example.com", "new_email": "changed@example.com"}, "email_change_current")
		nw := gen(map[string]any{"type": "email_change_new", "email": "change@example.com", "new_email": "changed@example.com"}, "email_change_new")
		if nw["new_email"] != "changed@example.com" {
			t.Fatalf("new_email %v", nw["new_email"])
		}
		r := h.do("POST", "/auth/v1/verify", map[string]any{"type": "email_change", "token_hash": cur["hashed_token"]}).OK(http.StatusOK)
		if r.JSON()["code"] != "200" {
			t.Fatalf("first confirmation %s", r.Body)
		}
		s := h.decodeSession(h.do("POST", "/auth/v1/verify", map[string]any{"type": "email_change", "token_hash": nw["hashed_token"]}))
		if s.User["email"] != "changed@example.com" {
			t.Fatalf("email after change %v", s.User["email"])
		}

		before := h.snapshot()
		for _, c := range []struct {
			body   map[string]any
			status int
			code   string
		}{
			{map[string]any{"type": "recovery", "email": "nobody@example.com"}, 404, "user_not_found"},
			{map[string]any{"type": "email_change_new", "email": "nobody@example.com", "new_email": "x@example.com"}, 404, "user_not_found"},
			{map[string]any{"type": "signup", "email": "known@example.com", "password": testPassword}, 422, "email_exists"},
			{map[string]any{"type": "invite", "email": "known@example.com"}, 422, "email_exists"},
			{map[string]any{"type": "signup", "email": "weak@example.com", "password": "weak"}, 422, "weak_password"},
			{map[string]any{"type": "email_change_new", "email": "known@example.com", "new_email": "bad"}, 400, "validation_failed"},
			{map[string]any{"type": "magiclink", "email": "bad"}, 400, "validation_failed"},
			{map[string]any{"type": "sms", "email": "known@example.com"}, 400, "validation_failed"},
			{map[string]any{"email": "known@example.com"}, 400, "validation_failed"},
		} {
			msg := h.admin("POST", "/auth/v1/admin/generate_link", c.body).Err(c.status, c.code)
			if c.body["type"] == "sms" && msg != "Invalid email action link type requested: sms" {
				t.Fatalf("message %q", msg)
			}
		}
		h.unchanged(before, "refused generate_link")
		if n := len(h.mails("")); n != 0 {
			t.Fatalf("generate_link sent %d e-mails", n)
		}
	})
}

// authJSPages parses a Link header the way auth-js does: for each link, the
// first character after the first "=" is the page, the text after "rel=" the
// relation.
func authJSPages(t *testing.T, link string) map[string]int {
	t.Helper()
	out := map[string]int{}
	if link == "" {
		return out
	}
	for _, l := range strings.Split(link, ",") {
		urlPart, relPart, ok := strings.Cut(l, ";")
		if !ok {
			t.Fatalf("link %q", l)
		}
		_, after, _ := strings.Cut(urlPart, "=")
		page, err := strconv.Atoi(after[:1])
		if err != nil {
			t.Fatalf("link %q: page %v", l, err)
		}
		_, rel, _ := strings.Cut(relPart, "=")
		out[strings.Trim(rel, `"`)] = page
	}
	return out
}

func TestAdminListUsers(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		var ids []string
		for i := range 5 {
			ids = append(ids, h.seedUser("list"+strconv.Itoa(i)+"@example.com", true))
			h.clock.Advance(time.Second)
		}
		h.seedUser("zed_%@other.example", true)
		list := func(query string) ([]string, *response) {
			t.Helper()
			r := h.admin("GET", "/auth/v1/admin/users"+query, nil).OK(http.StatusOK)
			var body struct {
				Users []map[string]any `json:"users"`
				Aud   string           `json:"aud"`
			}
			r.Decode(&body)
			if body.Aud != "authenticated" || body.Users == nil {
				t.Fatalf("list body %s", r.Body)
			}
			var got []string
			for _, u := range body.Users {
				got = append(got, u["id"].(string))
			}
			return got, r
		}
		// auth-js always sends both parameters, possibly empty.
		all, r := list("?page=&per_page=")
		if len(all) != 6 || r.Header.Get("X-Total-Count") != "6" {
			t.Fatalf("all: %d users, total %q", len(all), r.Header.Get("X-Total-Count"))
		}
		if got := authJSPages(t, r.Header.Get("Link")); !reflect.DeepEqual(got, map[string]int{"last": 1}) {
			t.Fatalf("links %v (%q)", got, r.Header.Get("Link"))
		}
		for _, c := range []struct {
			page  int
			want  []string
			links map[string]int
		}{
			{1, ids[0:2], map[string]int{"next": 2, "last": 3}},
			{2, ids[2:4], map[string]int{"next": 3, "last": 3}},
			{3, []string{ids[4], all[5]}, map[string]int{"last": 3}},
			{4, nil, map[string]int{"last": 3}},
		} {
			got, r := list("?page=" + strconv.Itoa(c.page) + "&per_page=2")
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("page %d: %v, want %v", c.page, got, c.want)
			}
			if r.Header.Get("X-Total-Count") != "6" {
				t.Fatalf("page %d: X-Total-Count %q", c.page, r.Header.Get("X-Total-Count"))
			}
			link := r.Header.Get("Link")
			if got := authJSPages(t, link); !reflect.DeepEqual(got, c.links) {
				t.Fatalf("page %d: links %v, want %v (%q)", c.page, got, c.links, link)
			}
			// page is the first query parameter of every link.
			for _, l := range strings.Split(link, ",") {
				u := strings.TrimSpace(l)
				u = u[1:strings.Index(u, ">")]
				if _, q, _ := strings.Cut(u, "?"); !strings.HasPrefix(q, "page=") || !strings.Contains(q, "&per_page=2") {
					t.Fatalf("link URL %q", u)
				}
			}
		}
		got, _ := list("?page=1&per_page=2&sort=created_at%20desc")
		if !reflect.DeepEqual(got, []string{all[5], ids[4]}) {
			t.Fatalf("desc: %v", got)
		}
		// filter is a case-insensitive substring; LIKE wildcards are literal.
		got, r = list("?filter=LIST")
		if len(got) != 5 || r.Header.Get("X-Total-Count") != "5" {
			t.Fatalf("filter: %v %q", got, r.Header.Get("X-Total-Count"))
		}
		if got, _ = list("?filter=_%25"); len(got) != 1 {
			t.Fatalf("filter with wildcards: %v", got)
		}
		if got, _ = list("?filter=" + url.QueryEscape("'; DROP TABLE users;--")); len(got) != 0 {
			t.Fatalf("filter: %v", got)
		}
		if got, _ = list("?page=-1&per_page=abc"); len(got) != 6 {
			t.Fatalf("bad paging parameters: %v", got)
		}
		// Absurd pages are empty, not errors; unparsable ones are the defaults.
		for q, want := range map[string]int{"?page=9223372036854775807&per_page=1000": 0, "?page=99999999999999999999&per_page=1": 1, "?page=1&per_page=99999999999999999999": 6} {
			if got, r = list(q); len(got) != want || r.Header.Get("X-Total-Count") != "6" {
				t.Fatalf("%s: %d users, total %q", q, len(got), r.Header.Get("X-Total-Count"))
			}
		}
	})
}

func TestAdminUsers(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("adm@example.com", true)
		h.seedUser("occupied@example.com", true)

		t.Run("get", func(t *testing.T) {
			h := h.in(t)
			u := h.admin("GET", "/auth/v1/admin/users/"+uid, nil).OK(http.StatusOK).JSON()
			if u["id"] != uid || u["email"] != "adm@example.com" {
				t.Fatalf("user %v", u)
			}
			h.admin("GET", "/auth/v1/admin/users/not-a-uuid", nil).Err(http.StatusNotFound, "validation_failed")
			msg := h.admin("GET", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000", nil).Err(http.StatusNotFound, "user_not_found")
			if msg != "User not found" {
				t.Fatalf("message %q", msg)
			}
		})

		t.Run("create", func(t *testing.T) {
			h := h.in(t)
			u := h.admin("POST", "/auth/v1/admin/users", map[string]any{
				"email": "Created@example.com", "password": testPassword, "email_confirm": true,
				"user_metadata": map[string]any{"name": "C"}, "app_metadata": map[string]any{"plan": "pro"},
			}).OK(http.StatusOK).JSON()
			if u["email"] != "created@example.com" || u["email_confirmed_at"] == nil {
				t.Fatalf("created %v", u)
			}
			if am := u["app_metadata"].(map[string]any); am["provider"] != "email" || am["plan"] != "pro" {
				t.Fatalf("app_metadata %v", am)
			}
			h.signIn("created@example.com", testPassword)
			// An imported bcrypt hash and a chosen id.
			const id = "11111111-2222-4333-8444-555555555555"
			u = h.admin("POST", "/auth/v1/admin/users", map[string]any{"id": id, "email": "imported@example.com", "password_hash": bcryptHash("Imported-1"), "email_confirm": true}).OK(http.StatusOK).JSON()
			if u["id"] != id {
				t.Fatalf("id %v", u["id"])
			}
			if s := h.signIn("imported@example.com", "Imported-1"); s.User["id"] != id {
				t.Fatal("imported user")
			}
			// Without a password, a random one; not confirmed without email_confirm.
			u = h.admin("POST", "/auth/v1/admin/users", map[string]any{"email": "bare@example.com"}).OK(http.StatusOK).JSON()
			if u["email_confirmed_at"] != nil {
				t.Fatalf("confirmed without email_confirm: %v", u)
			}
			before := h.snapshot()
			for _, c := range []struct {
				body   map[string]any
				status int
				code   string
			}{
				{map[string]any{"email": "occupied@example.com", "password": testPassword}, 422, "email_exists"},
				{map[string]any{"email": "OCCUPIED@example.com"}, 422, "email_exists"},
				{map[string]any{"password": testPassword}, 400, "validation_failed"},
				{map[string]any{"email": "bad", "password": testPassword}, 400, "validation_failed"},
				{map[string]any{"email": "two@example.com", "password": testPassword, "password_hash": bcryptHash("x")}, 400, "validation_failed"},
				{map[string]any{"email": "md5@example.com", "password_hash": "5f4dcc3b5aa765d61d8327deb882cf99"}, 400, "validation_failed"},
				{map[string]any{"email": "weak@example.com", "password": "weak"}, 422, "weak_password"},
				{map[string]any{"email": "id@example.com", "id": "not-a-uuid"}, 400, "validation_failed"},
				{map[string]any{"email": "dup@example.com", "id": uid}, 422, "email_exists"},
				{map[string]any{"phone": "15551234567"}, 422, "phone_provider_disabled"},
				{map[string]any{"email": "ban@example.com", "ban_duration": "forever"}, 400, "validation_failed"},
			} {
				h.admin("POST", "/auth/v1/admin/users", c.body).Err(c.status, c.code)
			}
			h.unchanged(before, "refused creations")
		})

		t.Run("update", func(t *testing.T) {
			h := h.in(t)
			s := h.signIn("adm@example.com", testPassword)
			path := "/auth/v1/admin/users/" + uid
			u := h.admin("PUT", path, map[string]any{"user_metadata": map[string]any{"a": 1}, "app_metadata": map[string]any{"roles": []string{"reviewer"}}}).OK(http.StatusOK).JSON()
			if u["user_metadata"].(map[string]any)["a"] != float64(1) || u["app_metadata"].(map[string]any)["provider"] != "email" || u["app_metadata"].(map[string]any)["roles"] == nil {
				t.Fatalf("metadata update %v", u)
			}
			// Metadata changes do not end sessions.
			h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).OK(http.StatusOK)

			before := h.snapshot()
			for _, c := range []struct {
				path   string
				body   map[string]any
				status int
				code   string
			}{
				{path, map[string]any{"email": "occupied@example.com"}, 422, "email_exists"},
				{path, map[string]any{"email": "bad"}, 400, "validation_failed"},
				{path, map[string]any{"password": "weak"}, 422, "weak_password"},
				{path, map[string]any{"ban_duration": "soon"}, 400, "validation_failed"},
				{path, map[string]any{"ban_duration": "-1h"}, 400, "validation_failed"},
				{path, map[string]any{"user_metadata": "x"}, 400, "validation_failed"},
				{"/auth/v1/admin/users/not-a-uuid", map[string]any{}, 404, "validation_failed"},
				{"/auth/v1/admin/users/00000000-0000-4000-8000-000000000000", map[string]any{}, 404, "user_not_found"},
			} {
				h.admin("PUT", c.path, c.body).Err(c.status, c.code)
			}
			h.unchanged(before, "refused updates")

			// Ban: sessions end and sign-in fails until the ban is lifted.
			u = h.admin("PUT", path, map[string]any{"ban_duration": "24h"}).OK(http.StatusOK).JSON()
			if u["banned_until"] == nil {
				t.Fatalf("banned_until missing: %v", u)
			}
			h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).Err(http.StatusForbidden, "session_not_found")
			h.refresh(s.RefreshToken).Err(http.StatusBadRequest, "refresh_token_not_found")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "adm@example.com", "password": testPassword}).Err(http.StatusBadRequest, "user_banned")
			h.do("POST", "/auth/v1/recover", map[string]any{"email": "adm@example.com"}).OK(http.StatusOK)
			h.do("POST", "/auth/v1/verify", map[string]any{"type": "recovery", "email": "adm@example.com", "token": mailCode(t, h.lastMail("adm@example.com"))}).Err(http.StatusForbidden, "user_banned")
			u = h.admin("PUT", path, map[string]any{"ban_duration": "none"}).OK(http.StatusOK).JSON()
			if _, ok := u["banned_until"]; ok {
				t.Fatalf("still banned: %v", u)
			}
			h.signIn("adm@example.com", testPassword)
			// A ban ends by itself.
			h.admin("PUT", path, map[string]any{"ban_duration": "1h"}).OK(http.StatusOK)
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "adm@example.com", "password": testPassword}).Err(http.StatusBadRequest, "user_banned")
			h.clock.Advance(time.Hour + time.Second)
			h.signIn("adm@example.com", testPassword)

			// E-mail and password, applied at once.
			u = h.admin("PUT", path, map[string]any{"email": "adm2@example.com", "password": "Admin-Set-Passw0rd"}).OK(http.StatusOK).JSON()
			if u["email"] != "adm2@example.com" {
				t.Fatalf("email %v", u["email"])
			}
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "adm@example.com", "password": testPassword}).Err(http.StatusBadRequest, "invalid_credentials")
			h.signIn("adm2@example.com", "Admin-Set-Passw0rd")
			// Confirmation and role.
			pid := h.seedUser("pending2@example.com", false)
			u = h.admin("PUT", "/auth/v1/admin/users/"+pid, map[string]any{"email_confirm": true, "role": "reviewer"}).OK(http.StatusOK).JSON()
			if u["email_confirmed_at"] == nil || u["role"] != "reviewer" {
				t.Fatalf("confirm and role %v", u)
			}
			if c := claimsOf(t, h.signIn("pending2@example.com", testPassword).AccessToken); c["role"] != "reviewer" {
				t.Fatalf("role claim %v", c["role"])
			}
		})

		t.Run("delete", func(t *testing.T) {
			h := h.in(t)
			soft := h.seedUser("soft@example.com", true)
			hard := h.seedUser("hard@example.com", true)
			s := h.signIn("soft@example.com", testPassword)
			hs := h.signIn("hard@example.com", testPassword)
			before := h.snapshot()
			h.admin("DELETE", "/auth/v1/admin/users/not-a-uuid", map[string]any{"should_soft_delete": true}).Err(http.StatusNotFound, "validation_failed")
			h.admin("DELETE", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000", map[string]any{"should_soft_delete": true}).Err(http.StatusNotFound, "user_not_found")
			h.unchanged(before, "refused deletions")

			r := h.admin("DELETE", "/auth/v1/admin/users/"+soft, map[string]any{"should_soft_delete": true}).OK(http.StatusOK)
			if string(r.Body) != "{}\n" {
				t.Fatalf("body %q", r.Body)
			}
			u := h.admin("GET", "/auth/v1/admin/users/"+soft, nil).OK(http.StatusOK).JSON()
			if u["deleted_at"] == nil {
				t.Fatalf("soft-deleted user %v", u)
			}
			h.do("GET", "/auth/v1/user", nil, bearer(s.AccessToken)).Err(http.StatusForbidden, "session_not_found")
			sessionless, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": soft, "aud": "authenticated", "role": "authenticated"}).SignedString(h.keys.Secret)
			h.do("GET", "/auth/v1/user", nil, bearer(sessionless)).Err(http.StatusForbidden, "user_not_found")
			h.do("POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "soft@example.com", "password": testPassword}).Err(http.StatusBadRequest, "invalid_credentials")
			// No e-mailed code or link signs a deleted account in either.
			h.do("POST", "/auth/v1/recover", map[string]any{"email": "soft@example.com"}).OK(http.StatusOK)
			h.do("POST", "/auth/v1/otp", map[string]any{"email": "soft@example.com"})
			for _, m := range h.mails("soft@example.com") {
				r := h.do("POST", "/auth/v1/verify", map[string]any{"type": "email", "email": "soft@example.com", "token": mailCode(t, m)})
				if r.Status == http.StatusOK {
					t.Fatalf("a soft-deleted account signed in with an e-mailed code (%s): %s", m.Kind, r.Body)
				}
			}
			m := h.admin("POST", "/auth/v1/admin/generate_link", map[string]any{"type": "magiclink", "email": "soft@example.com"})
			if m.Status == http.StatusOK {
				if r := h.do("POST", "/auth/v1/verify", map[string]any{"type": "magiclink", "token_hash": m.JSON()["hashed_token"]}); r.Status == http.StatusOK {
					t.Fatalf("a soft-deleted account signed in with a generated link: %s", r.Body)
				}
			}

			h.admin("DELETE", "/auth/v1/admin/users/"+hard, map[string]any{"should_soft_delete": false}).OK(http.StatusOK)
			h.admin("GET", "/auth/v1/admin/users/"+hard, nil).Err(http.StatusNotFound, "user_not_found")
			h.do("GET", "/auth/v1/user", nil, bearer(hs.AccessToken)).Err(http.StatusForbidden, "session_not_found")
			h.refresh(hs.RefreshToken).Err(http.StatusBadRequest, "refresh_token_not_found")
			if _, err := h.db.View().UserByEmail(h.ctx, "hard@example.com"); err == nil {
				t.Fatal("hard-deleted user still stored")
			}
			// The address is free again.
			h.admin("POST", "/auth/v1/admin/users", map[string]any{"email": "hard@example.com"}).OK(http.StatusOK)
			var deleted int
			for _, e := range h.events() {
				if e.Action == "user_deleted" {
					deleted++
				}
			}
			if deleted != 2 {
				t.Fatalf("%d user_deleted entries", deleted)
			}
		})
	})
}

func TestAdminFactors(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, h *harness) {
		uid := h.seedUser("af@example.com", true)
		s := h.signIn("af@example.com", testPassword)
		f := h.enroll(s.AccessToken, "Key")
		s2 := h.decodeSession(h.verifyFactor(s.AccessToken, f.ID, h.challenge(s.AccessToken, f.ID), totpCode(t, f.TOTP.Secret, h.clock.Now())))
		f2 := h.enroll(s2.AccessToken, "Spare")

		var list []map[string]any
		h.admin("GET", "/auth/v1/admin/users/"+uid+"/factors", nil).OK(http.StatusOK).Decode(&list)
		if len(list) != 2 || list[0]["id"] != f.ID || list[0]["status"] != "verified" || list[0]["factor_type"] != "totp" || list[0]["friendly_name"] != "Key" || list[1]["status"] != "unverified" {
			t.Fatalf("factors %v", list)
		}
		if _, ok := list[0]["last_challenged_at"]; !ok {
			t.Fatalf("factor without last_challenged_at: %v", list[0])
		}
		for _, secretField := range []string{"secret", "totp"} {
			if _, ok := list[0][secretField]; ok {
				t.Fatalf("factor list leaks %s", secretField)
			}
		}
		var empty []any
		h.admin("GET", "/auth/v1/admin/users/"+h.seedUser("nof@example.com", true)+"/factors", nil).OK(http.StatusOK).Decode(&empty)
		if empty == nil || len(empty) != 0 {
			t.Fatalf("no factors: %v", empty)
		}

		before := h.snapshot()
		h.admin("GET", "/auth/v1/admin/users/nope/factors", nil).Err(http.StatusNotFound, "validation_failed")
		h.admin("GET", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000/factors", nil).Err(http.StatusNotFound, "user_not_found")
		h.admin("DELETE", "/auth/v1/admin/users/"+uid+"/factors/nope", nil).Err(http.StatusNotFound, "validation_failed")
		h.admin("DELETE", "/auth/v1/admin/users/"+uid+"/factors/00000000-0000-4000-8000-000000000000", nil).Err(http.StatusNotFound, "mfa_factor_not_found")
		h.admin("DELETE", "/auth/v1/admin/users/00000000-0000-4000-8000-000000000000/factors/"+f.ID, nil).Err(http.StatusNotFound, "user_not_found")
		h.do("DELETE", "/auth/v1/admin/users/"+uid+"/factors/"+f.ID, nil, bearer(s2.AccessToken)).Err(http.StatusForbidden, "not_admin")
		h.unchanged(before, "refused factor requests")

		r := h.admin("DELETE", "/auth/v1/admin/users/"+uid+"/factors/"+f.ID, nil).OK(http.StatusOK).JSON()
		if r["id"] != f.ID || r["status"] != "verified" {
			t.Fatalf("deleted factor %v", r)
		}
		// Sessions that used it are aal1 from their next token.
		if c := claimsOf(t, h.decodeSession(h.refresh(s2.RefreshToken)).AccessToken); c["aal"] != "aal1" {
			t.Fatalf("aal after admin removal %v", c["aal"])
		}
		h.admin("DELETE", "/auth/v1/admin/users/"+uid+"/factors/"+f2.ID, nil).OK(http.StatusOK)
		h.admin("GET", "/auth/v1/admin/users/"+uid+"/factors", nil).OK(http.StatusOK).Decode(&list)
		if len(list) != 0 {
			t.Fatalf("factors left %v", list)
		}
	})
}
