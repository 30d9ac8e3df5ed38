package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"
)

// statusWriter records the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func newRequestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// base wraps every request: request id, panic recovery, access log, body
// limit, security headers (HSTS when the site is served over https) and
// CORS.
func (a *API) base(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := newRequestID()
		r = r.WithContext(context.WithValue(r.Context(), requestIDKey, id))
		sw := &statusWriter{ResponseWriter: w}
		h := sw.Header()
		h.Set("X-Request-Id", id)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		if a.hsts {
			h.Set("Strict-Transport-Security", hstsValue)
		}
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self' ws: wss:; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'")
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p) // a response cut short on purpose (see readCSV)
				}
				a.log.Error("panic", "request_id", id, "method", r.Method, "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
				if sw.status == 0 {
					writeJSON(sw, http.StatusInternalServerError, map[string]any{"code": "unexpected_failure", "message": "Unexpected failure, please check server logs for more information", "error_id": id})
				}
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			if a.cfg.AccessLog || status >= 500 {
				a.log.Info("request", "request_id", id, "method", r.Method, "path", r.URL.Path, "status", status, "bytes", sw.bytes, "duration_ms", float64(time.Since(start).Microseconds())/1000, "ip", a.clientIP(r))
			}
		}()
		// Uploads stream to the blob store, which enforces the bucket's
		// size limit; every other body has the general cap.
		if r.Body != nil && !isUpload(r) {
			limit := a.cfg.MaxBodyBytes
			if r.URL.Path == "/rest/v1/rpc/check_text" {
				// check_text refuses text over 1 MB itself, naming the
				// field; its JSON (escapes, other arguments) needs room.
				limit = max(limit, 8<<20)
			}
			r.Body = http.MaxBytesReader(sw, r.Body, limit)
		}
		if a.cors(sw, r) {
			return
		}
		next.ServeHTTP(sw, r)
	})
}

// exposedHeaders are the response headers supabase-js reads.
const exposedHeaders = "Content-Range, Content-Location, Location, Range-Unit, X-Supabase-Api-Version, X-Total-Count, Link, x-relay-error, X-Request-Id"

// cors sets CORS headers on API routes for the allowed origins (see
// allowedOrigins) and answers their preflights; it reports whether the
// request was fully answered. A request from any other origin is served as
// if it carried no Origin: without Access-Control-* headers, so a browser
// keeps another site's script from reading the answer, while same-origin
// use (a browser sends Origin on same-origin POSTs too, and the Vite dev
// server's proxy passes it on) works as before. A preflight from another
// origin gets 204 with no Allow-* headers, which the browser reads as a
// refusal.
func (a *API) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || !isAPIPath(r.URL.Path) {
		return false
	}
	h := w.Header()
	// The answer depends on Origin even when it carries no CORS header:
	// a shared cache must not serve one origin's answer to another.
	h.Add("Vary", "Origin")
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if !a.origins[normalOrigin(origin)] {
		if preflight {
			w.WriteHeader(http.StatusNoContent)
			return true
		}
		return false
	}
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Expose-Headers", exposedHeaders)
	if preflight {
		h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
		if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
			h.Set("Access-Control-Allow-Headers", req)
		}
		h.Set("Access-Control-Max-Age", "86400")
		h.Add("Vary", "Access-Control-Request-Headers")
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	return false
}

// allowedOrigins is the set of origins CORS answers: the site URL's and
// those of the redirect allow-list's entries (a prefix such as
// http://localhost:3000/app allows http://localhost:3000). Entries are URL
// prefixes, not patterns: one whose host holds a wildcard names no origin.
func allowedOrigins(site string, allowList []string) map[string]bool {
	out := map[string]bool{}
	for _, raw := range append([]string{site}, allowList...) {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || u.Host == "" || strings.ContainsAny(u.Host, "*?") {
			continue
		}
		if o := normalOrigin(u.Scheme + "://" + u.Host); o != "" {
			out[o] = true
		}
	}
	return out
}

// normalOrigin returns the origin scheme://host[:port] in the form browsers
// send it: lower case, without the scheme's default port; "" for anything
// that is not an http(s) origin (including "null").
func normalOrigin(origin string) string {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

// hstsValue is the Strict-Transport-Security header of a site served over
// https: a year, subdomains included.
const hstsValue = "max-age=31536000; includeSubDomains"

// isUpload reports whether r is an object upload (POST or PUT of
// /storage/v1/object/{bucket}/{path} or of a signed upload URL).
func isUpload(r *http.Request) bool {
	if r.Method != http.MethodPost && r.Method != http.MethodPut {
		return false
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/storage/v1/object/")
	if !ok {
		return false
	}
	first, tail, _ := strings.Cut(rest, "/")
	switch first {
	case "list", "move", "copy", "sign":
		return false
	case "upload":
		return r.Method == http.MethodPut && strings.HasPrefix(tail, "sign/")
	}
	return tail != ""
}

func isAPIPath(p string) bool {
	for _, prefix := range []string{"/auth/v1/", "/rest/v1/", "/storage/v1/", "/functions/v1/", "/realtime/v1/", "/api/"} {
		if strings.HasPrefix(p, prefix) || p+"/" == prefix {
			return true
		}
	}
	return false
}
