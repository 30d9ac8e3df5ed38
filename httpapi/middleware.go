package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
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
// limit, security headers and CORS.
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
			r.Body = http.MaxBytesReader(sw, r.Body, a.cfg.MaxBodyBytes)
		}
		if a.cors(sw, r) {
			return
		}
		next.ServeHTTP(sw, r)
	})
}

// exposedHeaders are the response headers supabase-js reads.
const exposedHeaders = "Content-Range, Content-Location, Location, Range-Unit, X-Supabase-Api-Version, X-Total-Count, Link, x-relay-error, X-Request-Id"

// cors sets CORS headers on API routes and answers preflights; it reports
// whether the request was fully answered.
func (a *API) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || !isAPIPath(r.URL.Path) {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", exposedHeaders)
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
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
