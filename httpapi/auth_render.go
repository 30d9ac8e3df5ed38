package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"fairbalance"
	"fairbalance/service"
)

// apiVersion is the auth API version whose error shape we speak.
const apiVersion = "2024-01-01"

// The renderer of /auth/v1: every error of the identity service reaches
// the client through authError in GoTrue's JSON shape, or through
// authRedirectError for the e-mail links, which answer with a redirect.

// authError renders err in GoTrue's shape: {code, message} when the client
// sent X-Supabase-Api-Version 2024-01-01 or later (echoing the header),
// {code: status, error_code, msg} otherwise. Internal errors are logged with
// the request id and rendered generically.
func (a *API) authError(w http.ResponseWriter, r *http.Request, err error) {
	e := fairbalance.AsError(err)
	if e == nil || e.Kind == fairbalance.KindInternal {
		cause := err
		if e != nil && e.Err != nil {
			cause = e.Err
		}
		a.log.Error("auth: internal error", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", cause)
		e = &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "unexpected_failure", Message: "Unexpected failure, please check server logs for more information"}
	}
	e = authCallerError(e)
	status := statusOf(e.Kind)
	w.Header().Set("x-sb-error-code", e.Code)
	body := map[string]any{}
	if v := r.Header.Get("X-Supabase-Api-Version"); v >= apiVersion {
		w.Header().Set("X-Supabase-Api-Version", apiVersion)
		body["code"] = e.Code
		body["message"] = e.Message
	} else {
		body["code"] = status
		body["error_code"] = e.Code
		body["msg"] = e.Message
		if status >= 500 {
			body["error_id"] = RequestID(r.Context())
		}
	}
	if e.Code == "weak_password" {
		reasons := e.Reasons
		if reasons == nil {
			reasons = []string{}
		}
		body["weak_password"] = map[string]any{"reasons": reasons}
	}
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "60")
	}
	writeJSON(w, status, body)
}

// authCallerError renders the caller resolver's codes as GoTrue does: an
// expired token is one more bad_jwt (the message tells).
func authCallerError(e *fairbalance.Error) *fairbalance.Error {
	if e.Code == fairbalance.CodeTokenExpired {
		c := *e
		c.Code = fairbalance.CodeBadJWT
		return &c
	}
	return e
}

// authRedirectError renders err of an e-mail link (GET /auth/v1/verify)
// as GoTrue does: a 303 to target with the error in the fragment (error,
// error_code, error_description). Internal errors are logged with the
// request id and rendered generically.
func (a *API) authRedirectError(w http.ResponseWriter, r *http.Request, target string, err error) {
	e := fairbalance.AsError(err)
	if e == nil || e.Kind == fairbalance.KindInternal {
		a.log.Error("auth: verify link", "request_id", RequestID(r.Context()), "err", err)
		e = &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "unexpected_failure", Message: "Unexpected failure"}
	}
	v := url.Values{}
	v.Set("error", oauthError(statusOf(e.Kind)))
	v.Set("error_code", e.Code)
	v.Set("error_description", e.Message)
	http.Redirect(w, r, stripFragment(target)+"#"+v.Encode()+"&sb=", http.StatusSeeOther)
}

// oauthError maps a status to the OAuth error name put in redirect URLs.
func oauthError(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "unauthorized_client"
	case http.StatusForbidden:
		return "access_denied"
	case http.StatusServiceUnavailable:
		return "temporarily_unavailable"
	case http.StatusInternalServerError:
		return "server_error"
	}
	return "invalid_request"
}

func rfc3339(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func rawOr(m json.RawMessage, def string) json.RawMessage {
	if len(m) == 0 || string(m) == "null" {
		return json.RawMessage(def)
	}
	return m
}

// userJSON is the GoTrue user object: top-level, nil timestamps omitted.
func userJSON(u *fairbalance.User) map[string]any {
	m := map[string]any{
		"id": u.ID, "aud": u.Aud, "role": u.Role, "email": u.Email, "phone": u.Phone,
		"app_metadata": rawOr(u.AppMetadata, "{}"), "user_metadata": rawOr(u.UserMetadata, "{}"),
		"created_at": u.CreatedAt.UTC().Format(time.RFC3339Nano), "updated_at": u.UpdatedAt.UTC().Format(time.RFC3339Nano),
		"is_anonymous": u.IsAnonymous,
	}
	put := func(k string, t *time.Time) {
		if t != nil {
			m[k] = rfc3339(t)
		}
	}
	put("email_confirmed_at", u.EmailConfirmedAt)
	put("confirmed_at", u.EmailConfirmedAt)
	put("invited_at", u.InvitedAt)
	put("confirmation_sent_at", u.ConfirmationSentAt)
	put("recovery_sent_at", u.RecoverySentAt)
	put("email_change_sent_at", u.EmailChangeSentAt)
	put("reauthentication_sent_at", u.ReauthenticationSentAt)
	put("last_sign_in_at", u.LastSignInAt)
	put("banned_until", u.BannedUntil)
	put("deleted_at", u.DeletedAt)
	if u.EmailChange != "" {
		m["new_email"] = u.EmailChange
	}
	ids := make([]map[string]any, 0, len(u.Identities))
	for _, i := range u.Identities {
		im := map[string]any{
			"identity_id": i.ID, "id": i.ProviderID, "user_id": i.UserID, "identity_data": rawOr(i.IdentityData, "{}"),
			"provider": i.Provider, "created_at": i.CreatedAt.UTC().Format(time.RFC3339Nano), "updated_at": i.UpdatedAt.UTC().Format(time.RFC3339Nano),
		}
		if i.Email != "" {
			im["email"] = i.Email
		}
		if i.LastSignInAt != nil {
			im["last_sign_in_at"] = rfc3339(i.LastSignInAt)
		}
		ids = append(ids, im)
	}
	m["identities"] = ids
	if len(u.Factors) > 0 {
		fs := make([]map[string]any, 0, len(u.Factors))
		for i := range u.Factors {
			fs = append(fs, factorJSON(&u.Factors[i]))
		}
		m["factors"] = fs
	}
	return m
}

func factorJSON(f *fairbalance.Factor) map[string]any {
	m := map[string]any{
		"id": f.ID, "status": f.Status, "factor_type": f.FactorType, "phone": "",
		"created_at": f.CreatedAt.UTC().Format(time.RFC3339Nano), "updated_at": f.UpdatedAt.UTC().Format(time.RFC3339Nano),
		"last_challenged_at": rfc3339(f.LastChallengedAt),
	}
	if f.FriendlyName != "" {
		m["friendly_name"] = f.FriendlyName
	}
	return m
}

func sessionJSON(s *service.Session) map[string]any {
	m := map[string]any{
		"access_token": s.AccessToken, "token_type": "bearer", "expires_in": s.ExpiresIn, "expires_at": s.ExpiresAt,
		"refresh_token": s.RefreshToken, "user": userJSON(s.User),
	}
	if s.PasswordGrant {
		if s.WeakPassword != nil {
			m["weak_password"] = map[string]any{"message": s.WeakPassword.Message, "reasons": s.WeakPassword.Reasons}
		} else {
			m["weak_password"] = nil
		}
	}
	return m
}

// sessionFragment is the URL fragment of an implicit-flow redirect, keys
// sorted as GoTrue writes them.
func sessionFragment(s *service.Session, typ string) string {
	return "access_token=" + s.AccessToken +
		"&expires_at=" + strconv.FormatInt(s.ExpiresAt, 10) +
		"&expires_in=" + strconv.Itoa(s.ExpiresIn) +
		"&refresh_token=" + s.RefreshToken +
		"&sb=&token_type=bearer&type=" + typ
}
