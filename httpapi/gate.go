package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/ratelimit"
)

// The private-preview passcode gate. While the workspace setting
// preview_passcode_enabled is on, the API surfaces refuse requests without
// a gate_verified cookie, which POST /api/gate sets for the right passcode.
//
// The cookie is "v1.<expiry>.<passcode fingerprint>.<HMAC>", signed with a
// key derived from the instance secret. The fingerprint (a hash of the
// stored passcode hash) binds it to the passcode: setting a new passcode
// revokes every cookie issued for the old one.

const (
	gateCookieName = "gate_verified"
	gateCookieTTL  = 12 * time.Hour
)

// ruleGate limits passcode attempts per address. It applies whether or not
// the identity rate limits are on: the passcode is the gate's only secret.
var ruleGate = ratelimit.Rule{Events: 10, Per: 5 * time.Minute, Burst: 10}

var gatePrefixes = []string{"/auth/v1", "/rest/v1", "/storage/v1", "/functions/v1", "/realtime/v1"}

// Routes that answer without the cookie (GET only): e-mail links open in a
// fresh browser, and key discovery and health checks are not data.
var gateOpenGET = map[string]bool{
	"/auth/v1/verify":                true,
	"/auth/v1/.well-known/jwks.json": true,
	"/auth/v1/health":                true,
}

func (a *API) initGate(d Deps) {
	a.settings, a.recovery = d.Settings, d.Recovery
	mac := hmac.New(sha256.New, d.Identity.Keys().Secret)
	mac.Write([]byte("fairbalance/gate_verified/v1"))
	a.gateKey = mac.Sum(nil)
	a.gateLimiter = ratelimit.New()
}

// repairFunction reports whether path is a function that checks the gate
// itself, because a call carrying the recovery key passes without cookie.
func repairFunction(p string) bool {
	return p == "/functions/v1/db-recovery" || p == "/functions/v1/security-manager"
}

// gatedPath reports whether the gate applies to the request. Paths are
// judged cleaned, and an exemption needs the exact, clean path.
func gatedPath(r *http.Request) bool {
	p := r.URL.Path
	clean := path.Clean("/" + p)
	in := false
	for _, prefix := range gatePrefixes {
		if clean == prefix || strings.HasPrefix(clean, prefix+"/") {
			in = true
			break
		}
	}
	if !in || clean != p {
		return in
	}
	if r.Method == http.MethodGet && gateOpenGET[p] {
		return false
	}
	return !repairFunction(p)
}

// serviceRole reports whether the request carries the service-role key
// (as apikey or bearer token).
func (a *API) serviceRole(r *http.Request) bool {
	eq := func(s string) bool { return s != "" && subtle.ConstantTimeCompare([]byte(s), []byte(a.adminKey)) == 1 }
	if eq(apiKey(r)) {
		return true
	}
	tok, ok := bearer(r)
	return ok && eq(tok)
}

// gate is the middleware of the passcode gate and of the indexing setting.
func (a *API) gate(next http.Handler) http.Handler {
	if a.settings == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st, err := a.settings.Get(r.Context())
		if err == nil && st.BlockIndexing {
			w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		}
		if !gatedPath(r) || a.serviceRole(r) {
			next.ServeHTTP(w, r)
			return
		}
		if err != nil {
			a.gateUnavailable(w, r, err)
			return
		}
		if st.PreviewPasscodeEnabled && !a.validGateCookie(r, st) {
			writeGateRequired(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// gatePassed reports whether the request may pass the gate: the gate is
// off or the request carries a valid cookie.
func (a *API) gatePassed(r *http.Request) (bool, error) {
	if a.settings == nil {
		return true, nil
	}
	st, err := a.settings.Get(r.Context())
	if err != nil {
		return false, err
	}
	return !st.PreviewPasscodeEnabled || a.validGateCookie(r, st), nil
}

func writeGateRequired(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusUnauthorized, map[string]any{"code": "gate_required", "message": "Passcode required"})
}

func (a *API) gateUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	a.log.Error("passcode gate: settings unavailable", "request_id", RequestID(r.Context()), "err", err)
	writeJSON(w, http.StatusServiceUnavailable, map[string]any{"code": "settings_unavailable", "message": "The workspace settings cannot be read; try again shortly"})
}

// gateOn reports whether the passcode gate is on (false when unknown).
func (a *API) gateOn(r *http.Request) bool {
	if a.settings == nil {
		return false
	}
	st, err := a.settings.Get(r.Context())
	return err == nil && st.PreviewPasscodeEnabled
}

func passcodeFingerprint(hash string) string {
	sum := sha256.Sum256([]byte("fairbalance/passcode/" + hash))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

func (a *API) gateSign(payload string) string {
	mac := hmac.New(sha256.New, a.gateKey)
	mac.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// gateToken is the cookie value valid until exp for the passcode whose
// stored hash is hash.
func (a *API) gateToken(exp time.Time, hash string) string {
	payload := "v1." + strconv.FormatInt(exp.Unix(), 10) + "." + passcodeFingerprint(hash)
	return payload + "." + a.gateSign(payload)
}

// validGateCookie reports whether one of the request's gate cookies is
// signed by this instance, unexpired, and issued for the current passcode.
func (a *API) validGateCookie(r *http.Request, st *fairbalance.WorkspaceSettings) bool {
	now := a.id.Now().Unix()
	fp := passcodeFingerprint(st.PreviewPasscodeHash)
	for _, c := range r.CookiesNamed(gateCookieName) {
		parts := strings.Split(c.Value, ".")
		if len(parts) != 4 || parts[0] != "v1" {
			continue
		}
		exp, err := strconv.ParseInt(parts[1], 10, 64)
		if err != nil || now >= exp || exp-now > int64(gateCookieTTL/time.Second) {
			continue
		}
		want := a.gateSign(parts[0] + "." + parts[1] + "." + parts[2])
		if hmac.Equal([]byte(parts[3]), []byte(want)) && subtle.ConstantTimeCompare([]byte(parts[2]), []byte(fp)) == 1 {
			return true
		}
	}
	return false
}

// secureCookie: a cookie set over TLS, or for a site served over https
// (behind a TLS-terminating proxy), is marked Secure.
func (a *API) secureCookie(r *http.Request) bool {
	return r.TLS != nil || strings.HasPrefix(a.id.Config().SiteURL, "https://")
}

// handleGate checks the passcode and sets the gate cookie: 200 with the
// cookie; 400 without a passcode; 401 for a wrong one; 429 past the limit.
// With the gate off it answers {"success":true,"gate":false} and sets nothing.
func (a *API) handleGate(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if !a.gateLimiter.Allow(ruleGate, "gate:"+a.clientIP(r)) {
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"code": "over_request_rate_limit", "message": "Too many attempts. Please wait a few minutes and try again."})
		return
	}
	var b struct {
		Passcode *string `json:"passcode"`
	}
	if err := decodeJSON(r, &b); err != nil {
		e := fairbalance.AsError(err)
		writeJSON(w, statusOf(e.Kind), map[string]any{"code": e.Code, "message": e.Message})
		return
	}
	if a.settings == nil {
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "gate": false})
		return
	}
	st, err := a.settings.Get(r.Context())
	if err != nil {
		a.gateUnavailable(w, r, err)
		return
	}
	if !st.PreviewPasscodeEnabled {
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "gate": false})
		return
	}
	if deref(b.Passcode) == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": "validation_failed", "message": "Please enter the access passcode"})
		return
	}
	ok, err := a.settings.CheckPasscode(r.Context(), *b.Passcode)
	if err != nil {
		a.gateUnavailable(w, r, err)
		return
	}
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"code": "invalid_passcode", "message": "Invalid access passcode. Please try again."})
		return
	}
	exp := a.id.Now().Add(gateCookieTTL)
	http.SetCookie(w, &http.Cookie{
		Name: gateCookieName, Value: a.gateToken(exp, st.PreviewPasscodeHash), Path: "/",
		Expires: exp, MaxAge: int(gateCookieTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: a.secureCookie(r),
	})
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "gate": true, "expires_at": exp.Unix()})
}

// handleGateClear removes the gate cookie (the sign-out screen clears it;
// an HttpOnly cookie cannot be cleared by the page itself).
func (a *API) handleGateClear(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: gateCookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: a.secureCookie(r),
	})
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// handleRobots answers robots.txt: everything disallowed while the
// block_indexing setting is on, everything allowed otherwise.
func (a *API) handleRobots(w http.ResponseWriter, r *http.Request) {
	body := "User-agent: *\nDisallow:\n"
	if a.settings != nil {
		if st, err := a.settings.Get(r.Context()); err == nil && st.BlockIndexing {
			body = "User-agent: *\nDisallow: /\n"
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write([]byte(body))
}
