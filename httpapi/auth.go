package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/ratelimit"
	"fairbalance/service"
)

// Rate-limit rules of the identity service (GoTrue's defaults), per address.
var (
	ruleToken  = ratelimit.Rule{Events: 150, Per: 5 * time.Minute, Burst: 30}
	ruleVerify = ratelimit.Rule{Events: 30, Per: 5 * time.Minute, Burst: 30}
	ruleOTP    = ratelimit.Rule{Events: 30, Per: 5 * time.Minute, Burst: 30}
	ruleMFA    = ratelimit.Rule{Events: 15, Per: time.Minute, Burst: 30}
)

var errRateLimited = &fairbalance.Error{Kind: fairbalance.KindRateLimited, Code: "over_request_rate_limit", Message: "Request rate limit reached"}

// authHandler is an auth endpoint that returns an error to render.
type authHandler func(w http.ResponseWriter, r *http.Request) error

// auth wraps an auth endpoint: the API key check (unless open), the rate
// limit bucket (if any), and GoTrue-shaped error rendering.
func (a *API) auth(open bool, bucket string, rule ratelimit.Rule, h authHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !open && !a.checkAPIKey(w, r) {
			return
		}
		if bucket != "" && !a.limiter.Allow(rule, bucket+":"+a.clientIP(r)) {
			a.authError(w, r, errRateLimited)
			return
		}
		if err := h(w, r); err != nil {
			a.authError(w, r, err)
		}
	})
}

// apiKey is the key a request carries in the apikey header or query.
func apiKey(r *http.Request) string {
	if k := r.Header.Get("apikey"); k != "" {
		return k
	}
	return r.URL.Query().Get("apikey")
}

// checkAPIKey refuses requests without one of the instance's API keys, as
// the Supabase gateway does.
func (a *API) checkAPIKey(w http.ResponseWriter, r *http.Request) bool {
	k := apiKey(r)
	switch {
	case k == "":
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "No API key found in request"})
		return false
	case k != a.anonKey && k != a.adminKey:
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "Invalid authentication credentials"})
		return false
	}
	return true
}

// bearer returns the bearer token, or the API key when the request has no
// Authorization header (the gateway copies it there).
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		if k := apiKey(r); k != "" {
			return k, true
		}
		return "", false
	}
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "bearer") || strings.TrimSpace(tok) == "" {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

var errNoAuthorization = &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "no_authorization", Message: "This endpoint requires a valid Bearer token"}

func (a *API) principal(r *http.Request) (*service.Principal, error) {
	tok, ok := bearer(r)
	if !ok {
		return nil, errNoAuthorization
	}
	return a.id.Authenticate(r.Context(), tok, r.Header.Get("X-JWT-AUD"))
}

// requireAdmin checks the bearer token carries an admin role.
func (a *API) requireAdmin(r *http.Request) error {
	tok, ok := bearer(r)
	if !ok {
		return errNoAuthorization
	}
	c, err := a.id.ParseToken(tok)
	if err != nil {
		return err
	}
	if !service.IsAdminRole(c.Role) {
		return &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "not_admin", Message: "User not allowed"}
	}
	return nil
}

// str reads a JSON string that may be null.
type str = *string

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (a *API) handleSignup(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Email               str             `json:"email"`
		Phone               str             `json:"phone"`
		Password            str             `json:"password"`
		Data                json.RawMessage `json:"data"`
		CodeChallenge       str             `json:"code_challenge"`
		CodeChallengeMethod str             `json:"code_challenge_method"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if deref(b.Phone) != "" {
		return &fairbalance.Error{Kind: fairbalance.KindUnprocessable, Code: "phone_provider_disabled", Message: "Phone signups are disabled"}
	}
	u, sess, err := a.id.SignUp(r.Context(), a.client(r), service.SignUpInput{
		Email: deref(b.Email), Password: deref(b.Password), Data: b.Data,
		CodeChallenge: deref(b.CodeChallenge), CodeChallengeMethod: deref(b.CodeChallengeMethod),
		RedirectTo: r.URL.Query().Get("redirect_to"),
	})
	if err != nil {
		return err
	}
	if sess != nil {
		writeJSON(w, http.StatusOK, sessionJSON(sess))
		return nil
	}
	writeJSON(w, http.StatusOK, userJSON(u))
	return nil
}

func (a *API) handleToken(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Email        str `json:"email"`
		Phone        str `json:"phone"`
		Password     str `json:"password"`
		RefreshToken str `json:"refresh_token"`
		AuthCode     str `json:"auth_code"`
		CodeVerifier str `json:"code_verifier"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	var sess *service.Session
	var err error
	switch gt := r.URL.Query().Get("grant_type"); gt {
	case "password":
		if deref(b.Email) != "" && deref(b.Phone) != "" {
			return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "validation_failed", Message: "Only an email address or phone number should be provided on login."}
		}
		if deref(b.Phone) != "" {
			return &fairbalance.Error{Kind: fairbalance.KindUnprocessable, Code: "phone_provider_disabled", Message: "Phone logins are disabled"}
		}
		sess, err = a.id.SignInPassword(r.Context(), a.client(r), deref(b.Email), deref(b.Password))
	case "refresh_token":
		sess, err = a.id.Refresh(r.Context(), a.client(r), deref(b.RefreshToken))
	case "pkce":
		sess, err = a.id.ExchangeCode(r.Context(), a.client(r), deref(b.AuthCode), deref(b.CodeVerifier))
	default:
		return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "invalid_credentials", Message: "unsupported_grant_type"}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sessionJSON(sess))
	return nil
}

func (a *API) handleGetUser(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, userJSON(p.User))
	return nil
}

func (a *API) handlePutUser(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	var b struct {
		Email       str             `json:"email"`
		Password    str             `json:"password"`
		Nonce       str             `json:"nonce"`
		Data        json.RawMessage `json:"data"`
		AppMetadata json.RawMessage `json:"app_metadata"`
		Phone       str             `json:"phone"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	u, err := a.id.UpdateUser(r.Context(), a.client(r), p, service.UpdateUserInput{
		Email: b.Email, Password: b.Password, Nonce: deref(b.Nonce), Data: b.Data, AppMetadata: b.AppMetadata, Phone: b.Phone,
		RedirectTo: r.URL.Query().Get("redirect_to"),
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, userJSON(u))
	return nil
}

func (a *API) handleReauthenticate(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	if err := a.id.Reauthenticate(r.Context(), a.client(r), p); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{})
	return nil
}

func (a *API) handleLogout(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	if err := a.id.Logout(r.Context(), a.client(r), p, r.URL.Query().Get("scope")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) handleRecover(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Email               str `json:"email"`
		CodeChallenge       str `json:"code_challenge"`
		CodeChallengeMethod str `json:"code_challenge_method"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if err := a.id.Recover(r.Context(), a.client(r), deref(b.Email), deref(b.CodeChallenge), deref(b.CodeChallengeMethod), r.URL.Query().Get("redirect_to")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{})
	return nil
}

func (a *API) handleOTP(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Email               str             `json:"email"`
		Phone               str             `json:"phone"`
		Data                json.RawMessage `json:"data"`
		CreateUser          *bool           `json:"create_user"`
		CodeChallenge       str             `json:"code_challenge"`
		CodeChallengeMethod str             `json:"code_challenge_method"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if deref(b.Phone) != "" {
		return &fairbalance.Error{Kind: fairbalance.KindUnprocessable, Code: "phone_provider_disabled", Message: "Phone logins are disabled"}
	}
	create := b.CreateUser == nil || *b.CreateUser
	if err := a.id.SendOTP(r.Context(), a.client(r), service.OTPInput{
		Email: deref(b.Email), Data: b.Data, CreateUser: create,
		CodeChallenge: deref(b.CodeChallenge), CodeChallengeMethod: deref(b.CodeChallengeMethod),
		RedirectTo: r.URL.Query().Get("redirect_to"),
	}); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{})
	return nil
}

func (a *API) handleResend(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Type                str `json:"type"`
		Email               str `json:"email"`
		CodeChallenge       str `json:"code_challenge"`
		CodeChallengeMethod str `json:"code_challenge_method"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if err := a.id.Resend(r.Context(), a.client(r), deref(b.Type), deref(b.Email), deref(b.CodeChallenge), deref(b.CodeChallengeMethod), r.URL.Query().Get("redirect_to")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{})
	return nil
}

func (a *API) handleVerifyPost(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Type       str `json:"type"`
		Email      str `json:"email"`
		Phone      str `json:"phone"`
		Token      str `json:"token"`
		TokenHash  str `json:"token_hash"`
		RedirectTo str `json:"redirect_to"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if deref(b.TokenHash) != "" && (deref(b.Email) != "" || deref(b.Phone) != "" || deref(b.RedirectTo) != "") {
		return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "validation_failed", Message: "Only the token_hash and type should be provided"}
	}
	res, err := a.id.Verify(r.Context(), a.client(r), service.VerifyInput{
		Type: deref(b.Type), Email: deref(b.Email), Token: deref(b.Token), TokenHash: deref(b.TokenHash),
		RedirectTo: deref(b.RedirectTo),
	})
	if err != nil {
		return err
	}
	if res.Session == nil {
		writeJSON(w, http.StatusOK, map[string]any{"msg": res.Message, "code": "200"})
		return nil
	}
	writeJSON(w, http.StatusOK, sessionJSON(res.Session))
	return nil
}

// handleVerifyGet is the e-mail link: it verifies and redirects (303) with
// the session in the fragment, a PKCE code in the query, or an error.
func (a *API) handleVerifyGet(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	typ, token := q.Get("type"), q.Get("token")
	if typ == "" || token == "" {
		return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "validation_failed", Message: "Verify requires a verification type and a token"}
	}
	res, err := a.id.Verify(r.Context(), a.client(r), service.VerifyInput{Type: typ, TokenHash: token, RedirectTo: q.Get("redirect_to"), Link: true})
	target := q.Get("redirect_to")
	if res != nil {
		target = res.RedirectTo
	}
	if err != nil {
		a.authRedirectError(w, r, a.id.RedirectTarget(q.Get("redirect_to")), err)
		return nil
	}
	switch {
	case res.AuthCode != "":
		u, perr := url.Parse(stripFragment(target))
		if perr != nil {
			return perr
		}
		qq := u.Query()
		qq.Set("code", res.AuthCode)
		u.RawQuery = qq.Encode()
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
	case res.Session == nil:
		v := url.Values{}
		v.Set("message", res.Message)
		http.Redirect(w, r, stripFragment(target)+"#"+v.Encode()+"&sb=", http.StatusSeeOther)
	default:
		http.Redirect(w, r, stripFragment(target)+"#"+sessionFragment(res.Session, typ), http.StatusSeeOther)
	}
	return nil
}

func stripFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

func (a *API) handleSettings(w http.ResponseWriter, r *http.Request) error {
	cfg := a.id.Config()
	disabled := cfg.DisableSignup
	if !disabled && cfg.SignupDisabled != nil {
		d, err := cfg.SignupDisabled(r.Context())
		if err != nil {
			return err
		}
		disabled = d
	}
	external := map[string]bool{}
	for _, p := range []string{"anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "snapchat", "figma", "fly", "github", "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion", "spotify", "slack", "slack_oidc", "workos", "twitch", "twitter", "phone", "zoom"} {
		external[p] = false
	}
	external["email"] = true
	writeJSON(w, http.StatusOK, map[string]any{
		"external": external, "disable_signup": disabled, "mailer_autoconfirm": cfg.Autoconfirm,
		"phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false,
		"saml_private_key_next_configured": false, "passkeys_enabled": false,
	})
	return nil
}

func (a *API) handleAuthHealth(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]any{"version": a.cfg.Version, "name": "GoTrue", "description": "GoTrue is a user registration and authentication API"})
	return nil
}

func (a *API) handleJWKS(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "public, max-age=600")
	writeJSON(w, http.StatusOK, map[string]any{"keys": a.id.Keys().JWKS()})
	return nil
}

// MFA

func (a *API) handleEnroll(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	var b struct {
		FactorType   str `json:"factor_type"`
		FriendlyName str `json:"friendly_name"`
		Issuer       str `json:"issuer"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	enr, err := a.id.Enroll(r.Context(), a.client(r), p, deref(b.FactorType), deref(b.FriendlyName), deref(b.Issuer))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": enr.Factor.ID, "type": "totp", "friendly_name": enr.Factor.FriendlyName,
		"totp": map[string]any{"qr_code": enr.TOTP.QRCode, "secret": enr.TOTP.Secret, "uri": enr.TOTP.URI},
	})
	return nil
}

func (a *API) handleChallenge(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	var b map[string]any
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	ch, err := a.id.Challenge(r.Context(), a.client(r), p, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": ch.ID, "type": "totp", "expires_at": service.ChallengeExpiry(ch).Unix()})
	return nil
}

func (a *API) handleVerifyFactor(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	var b struct {
		ChallengeID str `json:"challenge_id"`
		Code        str `json:"code"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	sess, err := a.id.VerifyFactor(r.Context(), a.client(r), p, r.PathValue("id"), deref(b.ChallengeID), deref(b.Code))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sessionJSON(sess))
	return nil
}

func (a *API) handleUnenroll(w http.ResponseWriter, r *http.Request) error {
	p, err := a.principal(r)
	if err != nil {
		return err
	}
	f, err := a.id.Unenroll(r.Context(), a.client(r), p, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": f.ID})
	return nil
}

// Admin

func (a *API) admin(h authHandler) authHandler {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := a.requireAdmin(r); err != nil {
			return err
		}
		return h(w, r)
	}
}

func (a *API) handleInvite(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Email str             `json:"email"`
		Data  json.RawMessage `json:"data"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	u, err := a.id.Invite(r.Context(), a.client(r), deref(b.Email), b.Data, r.URL.Query().Get("redirect_to"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, userJSON(u))
	return nil
}

func (a *API) handleGenerateLink(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Type       str             `json:"type"`
		Email      str             `json:"email"`
		NewEmail   str             `json:"new_email"`
		Password   str             `json:"password"`
		Data       json.RawMessage `json:"data"`
		RedirectTo str             `json:"redirect_to"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	rt := deref(b.RedirectTo)
	if rt == "" {
		rt = r.URL.Query().Get("redirect_to")
	}
	l, err := a.id.GenerateLink(r.Context(), a.client(r), service.GenerateLinkInput{
		Type: deref(b.Type), Email: deref(b.Email), NewEmail: deref(b.NewEmail), Password: deref(b.Password), Data: b.Data, RedirectTo: rt,
	})
	if err != nil {
		return err
	}
	m := userJSON(l.User)
	m["action_link"], m["email_otp"], m["hashed_token"], m["verification_type"], m["redirect_to"] = l.ActionLink, l.EmailOTP, l.HashedToken, l.VerificationType, l.RedirectTo
	writeJSON(w, http.StatusOK, m)
	return nil
}

func (a *API) handleListUsers(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, perPage := 1, 50
	if v, err := strconv.Atoi(q.Get("page")); err == nil && v > 0 {
		page = min(v, 1<<31) // keeps (page-1)*per_page from overflowing
	}
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		perPage = min(v, 1000)
	}
	desc := strings.HasSuffix(strings.ToLower(q.Get("sort")), "desc")
	users, total, err := a.id.AdminListUsers(r.Context(), page, perPage, q.Get("filter"), desc)
	if err != nil {
		return err
	}
	out := make([]map[string]any, 0, len(users))
	for _, u := range users {
		out = append(out, userJSON(u))
	}
	last := (total + perPage - 1) / perPage
	if last < 1 {
		last = 1
	}
	base := a.id.Issuer() + "/admin/users"
	var links []string
	if page < last {
		links = append(links, "<"+base+"?page="+strconv.Itoa(page+1)+"&per_page="+strconv.Itoa(perPage)+`>; rel="next"`)
	}
	links = append(links, "<"+base+"?page="+strconv.Itoa(last)+"&per_page="+strconv.Itoa(perPage)+`>; rel="last"`)
	w.Header().Set("Link", strings.Join(links, ", "))
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	writeJSON(w, http.StatusOK, map[string]any{"users": out, "aud": "authenticated"})
	return nil
}

type adminUserBody struct {
	ID           str             `json:"id"`
	Email        str             `json:"email"`
	Phone        str             `json:"phone"`
	Password     str             `json:"password"`
	PasswordHash str             `json:"password_hash"`
	EmailConfirm *bool           `json:"email_confirm"`
	UserMetadata json.RawMessage `json:"user_metadata"`
	AppMetadata  json.RawMessage `json:"app_metadata"`
	Role         str             `json:"role"`
	BanDuration  str             `json:"ban_duration"`
}

func (b adminUserBody) input() service.AdminUserInput {
	return service.AdminUserInput{ID: deref(b.ID), Email: b.Email, Phone: b.Phone, Password: b.Password, PasswordHash: b.PasswordHash,
		EmailConfirm: b.EmailConfirm, UserMetadata: b.UserMetadata, AppMetadata: b.AppMetadata, Role: b.Role, BanDuration: b.BanDuration}
}

func (a *API) handleCreateUser(w http.ResponseWriter, r *http.Request) error {
	var b adminUserBody
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	u, err := a.id.AdminCreateUser(r.Context(), a.client(r), b.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, userJSON(u))
	return nil
}

func (a *API) handleAdminGetUser(w http.ResponseWriter, r *http.Request) error {
	u, err := a.id.AdminGetUser(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, userJSON(u))
	return nil
}

func (a *API) handleAdminUpdateUser(w http.ResponseWriter, r *http.Request) error {
	var b adminUserBody
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	u, err := a.id.AdminUpdateUser(r.Context(), a.client(r), r.PathValue("id"), b.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, userJSON(u))
	return nil
}

func (a *API) handleAdminDeleteUser(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		ShouldSoftDelete bool `json:"should_soft_delete"`
	}
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if err := a.id.AdminDeleteUser(r.Context(), a.client(r), r.PathValue("id"), b.ShouldSoftDelete); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{})
	return nil
}

func (a *API) handleAdminListFactors(w http.ResponseWriter, r *http.Request) error {
	u, err := a.id.AdminGetUser(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	out := make([]map[string]any, 0, len(u.Factors))
	for i := range u.Factors {
		out = append(out, factorJSON(&u.Factors[i]))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) handleAdminDeleteFactor(w http.ResponseWriter, r *http.Request) error {
	f, err := a.id.AdminDeleteFactor(r.Context(), a.client(r), r.PathValue("id"), r.PathValue("fid"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, factorJSON(f))
	return nil
}
