package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"fairbalance"
	"fairbalance/service"
)

// Each surface's renderer, table-driven: an error in, the exact status,
// headers and body bytes out. The wire shapes are those the supabase-js
// clients read; the end-to-end tests and the conformance suite check the
// same bytes through the routes.

// renderCase is one error rendered by one surface.
type renderCase struct {
	name   string
	method string            // GET unless set
	header map[string]string // request headers
	err    error
	status int
	body   string            // exact, with the encoder's trailing newline
	want   map[string]string // response headers ("" asserts absence)
}

func runRender(t *testing.T, render func(a *API, w http.ResponseWriter, r *http.Request, err error), cases []renderCase) {
	t.Helper()
	a := &API{log: slog.New(slog.DiscardHandler)}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := c.method
			if method == "" {
				method = http.MethodGet
			}
			r := httptest.NewRequest(method, "/x", nil)
			r = r.WithContext(context.WithValue(r.Context(), requestIDKey, "req-7"))
			for k, v := range c.header {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			render(a, w, r, c.err)
			if w.Code != c.status || w.Body.String() != c.body {
				t.Fatalf("got %d %q\nwant %d %q", w.Code, w.Body.String(), c.status, c.body)
			}
			for k, v := range c.want {
				if got := w.Header().Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func fe(kind fairbalance.Kind, code, msg string) *fairbalance.Error {
	return &fairbalance.Error{Kind: kind, Code: code, Message: msg}
}

func TestRenderREST(t *testing.T) {
	pg := func(kind fairbalance.Kind, code string) *fairbalance.Error {
		return &fairbalance.Error{Kind: kind, Code: code, Message: "m"}
	}
	body := func(code string) string {
		return `{"code":"` + code + `","message":"m","details":null,"hint":null}` + "\n"
	}
	cases := []renderCase{
		{name: "parse error", err: pg(fairbalance.KindInvalid, "PGRST100"), status: 400, body: body("PGRST100"),
			want: map[string]string{"Content-Type": "application/json; charset=utf-8", "Proxy-Status": "", "WWW-Authenticate": ""}},
		{name: "details and hint", err: &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "PGRST100", Message: "m", Details: "d", Hint: "h"},
			status: 400, body: `{"code":"PGRST100","message":"m","details":"d","hint":"h"}` + "\n"},
		{name: "fields", err: &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "23514", Message: "The brand name is required.",
			Fields: map[string]string{"brand_name": "The brand name is required.", "launch_date": "The launch date must be a date written YYYY-MM-DD."}},
			status: 400, body: `{"code":"23514","message":"The brand name is required.","details":null,"hint":null,"fields":{"brand_name":"The brand name is required.","launch_date":"The launch date must be a date written YYYY-MM-DD."}}` + "\n"},
		{name: "anonymous refused", err: pg(fairbalance.KindUnauthorized, "42501"), status: 401, body: body("42501")},
		{name: "member refused", err: pg(fairbalance.KindForbidden, "42501"), status: 403, body: body("42501")},
		{name: "unknown table", err: pg(fairbalance.KindNotFound, "PGRST205"), status: 404, body: body("PGRST205")},
		{name: "method", err: pg(fairbalance.KindMethodNotAllowed, "25006"), status: 405, body: body("25006")},
		{name: "not one row", err: pg(fairbalance.KindNotAcceptable, "PGRST116"), status: 406, body: body("PGRST116")},
		{name: "duplicate", err: pg(fairbalance.KindConflict, "23505"), status: 409, body: body("23505")},
		{name: "body too large", err: pg(fairbalance.KindTooLarge, "PGRST413"), status: 413, body: body("PGRST413")},
		{name: "range", err: pg(fairbalance.KindRangeNotSatisfiable, "PGRST103"), status: 416, body: body("PGRST103")},
		{name: "unprocessable", err: pg(fairbalance.KindUnprocessable, "x"), status: 422, body: body("x")},
		{name: "rate limited", err: pg(fairbalance.KindRateLimited, "x"), status: 429, body: body("x")},
		{name: "unavailable", err: pg(fairbalance.KindUnavailable, "x"), status: 503, body: body("x")},
		{name: "wrapped", err: fmt.Errorf("reading: %w", pg(fairbalance.KindInvalid, "22P02")), status: 400, body: body("22P02")},
		{name: "expired token", err: &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "PGRST303", Message: "JWT expired"}, status: 401,
			body: `{"code":"PGRST303","message":"JWT expired","details":null,"hint":null}` + "\n",
			want: map[string]string{"WWW-Authenticate": `Bearer error="invalid_token", error_description="JWT expired"`}},
		{name: "head", method: http.MethodHead, err: pg(fairbalance.KindNotFound, "PGRST205"), status: 404, body: body("PGRST205"),
			want: map[string]string{"Proxy-Status": "PostgREST; error=PGRST205"}},
		{name: "internal", err: errors.New("disk on fire"), status: 500,
			body: `{"code":"XX000","message":"Internal server error","details":"request req-7","hint":null}` + "\n"},
		{name: "internal kind", err: &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "unexpected_failure", Message: "secret", Err: errors.New("x")}, status: 500,
			body: `{"code":"XX000","message":"Internal server error","details":"request req-7","hint":null}` + "\n"},
	}
	runRender(t, func(a *API, w http.ResponseWriter, r *http.Request, err error) { restError(w, r, a, err) }, cases)
}

func TestRenderStorage(t *testing.T) {
	body := func(statusCode, code, label, msg string) string {
		return `{"statusCode":"` + statusCode + `","code":"` + code + `","error":"` + label + `","message":"` + msg + `"}` + "\n"
	}
	cases := []renderCase{
		{name: "no bucket", err: fe(fairbalance.KindNotFound, service.CodeNoSuchBucket, "Bucket not found"), status: 400,
			body: body("404", "NoSuchBucket", "Bucket not found", "Bucket not found")},
		{name: "no key", err: fe(fairbalance.KindNotFound, service.CodeNoSuchKey, "Object not found"), status: 400, body: body("404", "NoSuchKey", "not_found", "Object not found")},
		{name: "duplicate", err: fe(fairbalance.KindConflict, service.CodeDuplicate, "d"), status: 400, body: body("409", "Duplicate", "Duplicate", "d")},
		{name: "denied", err: fe(fairbalance.KindForbidden, service.CodeAccessDenied, "new row violates row-level security policy"), status: 400,
			body: body("403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")},
		{name: "service role only", err: fe(fairbalance.KindForbidden, service.CodeServiceRoleOnly, "Only the service role may empty a bucket"), status: 403,
			body: body("403", "AccessDenied", "Unauthorized", "Only the service role may empty a bucket")},
		{name: "mime type", err: fe(fairbalance.KindUnprocessable, service.CodeInvalidMimeType, "mime type text/html is not supported"), status: 400,
			body: body("415", "InvalidMimeType", "invalid_mime_type", "mime type text/html is not supported")},
		{name: "too large", err: fe(fairbalance.KindTooLarge, service.CodeEntityTooLarge, "t"), status: 400, body: body("413", "EntityTooLarge", "Payload too large", "t")},
		{name: "not empty", err: fe(fairbalance.KindConflict, service.CodeResourceNotEmpty, "n"), status: 400, body: body("409", "ResourceNotEmpty", "Conflict", "n")},
		{name: "invalid key", err: fe(fairbalance.KindInvalid, service.CodeInvalidKey, "k"), status: 400, body: body("400", "InvalidKey", "Invalid Input", "k")},
		{name: "invalid bucket", err: fe(fairbalance.KindInvalid, service.CodeInvalidBucket, "b"), status: 400, body: body("400", "InvalidBucketName", "Invalid Input", "b")},
		{name: "invalid request", err: fe(fairbalance.KindInvalid, service.CodeInvalidRequest, "r"), status: 400, body: body("400", "InvalidRequest", "Invalid Input", "r")},
		{name: "signature", err: fe(fairbalance.KindInvalid, service.CodeInvalidSignature, "s"), status: 400, body: body("400", "InvalidSignature", "InvalidSignature", "s")},
		{name: "expired", err: fe(fairbalance.KindInvalid, service.CodeExpiredToken, "e"), status: 400, body: body("400", "ExpiredToken", "ExpiredToken", "e")},
		{name: "jwt", err: fe(fairbalance.KindInvalid, service.CodeInvalidJWT, "j"), status: 400, body: body("400", "InvalidJWT", "InvalidJWT", "j")},
		{name: "unlisted code", err: fe(fairbalance.KindNotFound, "NotFound", "Storage is not configured"), status: 400,
			body: body("404", "NotFound", "NotFound", "Storage is not configured")},
		{name: "no route", err: fe(fairbalance.KindNotFound, codeNoRoute, "Route GET:/storage/v1/nope not found"), status: 404,
			body: body("404", "NotFound", "Not Found", "Route GET:/storage/v1/nope not found")},
		{name: "bad body", err: badBody("file_size_limit must be a number or a size"), status: 400,
			body: body("400", "InvalidRequest", "Invalid Input", "file_size_limit must be a number or a size")},
		{name: "body over the limit", err: fmt.Errorf("read: %w", &http.MaxBytesError{Limit: 1}), status: 400,
			body: body("413", "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size")},
		{name: "internal", err: errors.New("disk on fire"), status: 500, body: body("500", "InternalError", "internal", "Internal server error (request req-7)")},
	}
	runRender(t, func(a *API, w http.ResponseWriter, r *http.Request, err error) { a.storageError(w, r, err) }, cases)

	// A body that broke off (the client stopped sending, or went away) is
	// told as InvalidRequest, in case the client still listens; a decision
	// of the service is still rendered as itself.
	a := &API{log: slog.New(slog.DiscardHandler)}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest(http.MethodPut, "/x", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	a.storageError(w, r, errors.New("unexpected EOF"))
	if w.Code != 400 || !strings.Contains(w.Body.String(), `"code":"InvalidRequest"`) {
		t.Fatalf("abandoned request answered %d %q", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	a.storageError(w, r, fe(fairbalance.KindNotFound, service.CodeNoSuchKey, "Object not found"))
	if w.Code != 400 || w.Body.Len() == 0 {
		t.Fatalf("a decision after the client left: %d %q", w.Code, w.Body)
	}
}

func TestRenderFunctions(t *testing.T) {
	cases := []renderCase{
		{name: "invalid", err: fe(fairbalance.KindInvalid, "validation_failed", "action must be a string"), status: 400,
			body: `{"code":"validation_failed","message":"action must be a string","success":false}` + "\n"},
		{name: "no credentials", err: fe(fairbalance.KindUnauthorized, "no_authorization", "n"), status: 401, body: `{"code":"no_authorization","message":"n","success":false}` + "\n"},
		{name: "not allowed", err: fe(fairbalance.KindForbidden, "not_admin", "f"), status: 403, body: `{"code":"not_admin","message":"f","success":false}` + "\n"},
		{name: "no function", err: fe(fairbalance.KindNotFound, "function_not_found", "Function not found"), status: 404,
			body: `{"code":"function_not_found","message":"Function not found","success":false}` + "\n"},
		{name: "method", err: fe(fairbalance.KindMethodNotAllowed, "method_not_allowed", "Functions are invoked with POST"), status: 405,
			body: `{"code":"method_not_allowed","message":"Functions are invoked with POST","success":false}` + "\n"},
		{name: "weak password", err: &fairbalance.Error{Kind: fairbalance.KindUnprocessable, Code: "weak_password", Message: "w", Reasons: []string{"length"}}, status: 422,
			body: `{"code":"weak_password","message":"w","success":false,"weak_password":{"reasons":["length"]}}` + "\n"},
		{name: "rate limited", err: fe(fairbalance.KindRateLimited, "over_request_rate_limit", "r"), status: 429, body: `{"code":"over_request_rate_limit","message":"r","success":false}` + "\n"},
		{name: "fields", err: &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "validation_failed", Message: "p", Fields: map[string]string{"preview_passcode": "p"}}, status: 400,
			body: `{"code":"validation_failed","fields":{"preview_passcode":"p"},"message":"p","success":false}` + "\n"},
		{name: "internal", err: errors.New("disk on fire"), status: 500,
			body: `{"code":"unexpected_failure","error_id":"req-7","message":"Unexpected failure, please check server logs for more information","success":false}` + "\n"},
		{name: "internal with a code", err: &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "seed_failed", Message: "s", Err: errors.New("x")}, status: 500,
			body: `{"code":"seed_failed","error_id":"req-7","message":"s","success":false}` + "\n"},
	}
	runRender(t, func(a *API, w http.ResponseWriter, r *http.Request, err error) { a.fnFail(w, r, err) }, cases)
}

func TestRenderAuth(t *testing.T) {
	v2024 := map[string]string{"X-Supabase-Api-Version": "2024-01-01"}
	cases := []renderCase{
		{name: "current shape", header: v2024, err: fe(fairbalance.KindInvalid, "invalid_credentials", "Invalid login credentials"), status: 400,
			body: `{"code":"invalid_credentials","message":"Invalid login credentials"}` + "\n",
			want: map[string]string{"X-Supabase-Api-Version": "2024-01-01", "x-sb-error-code": "invalid_credentials", "Retry-After": ""}},
		{name: "legacy shape", err: fe(fairbalance.KindInvalid, "invalid_credentials", "Invalid login credentials"), status: 400,
			body: `{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}` + "\n",
			want: map[string]string{"X-Supabase-Api-Version": "", "x-sb-error-code": "invalid_credentials"}},
		{name: "unauthorized", header: v2024, err: fe(fairbalance.KindUnauthorized, "no_authorization", "n"), status: 401, body: `{"code":"no_authorization","message":"n"}` + "\n"},
		{name: "forbidden", err: fe(fairbalance.KindForbidden, "bad_jwt", "b"), status: 403, body: `{"code":403,"error_code":"bad_jwt","msg":"b"}` + "\n"},
		{name: "not found", header: v2024, err: fe(fairbalance.KindNotFound, "user_not_found", "u"), status: 404, body: `{"code":"user_not_found","message":"u"}` + "\n"},
		{name: "conflict", header: v2024, err: fe(fairbalance.KindConflict, "email_exists", "e"), status: 409, body: `{"code":"email_exists","message":"e"}` + "\n"},
		{name: "weak password", header: v2024, err: &fairbalance.Error{Kind: fairbalance.KindUnprocessable, Code: "weak_password", Message: "w", Reasons: []string{"length", "characters"}}, status: 422,
			body: `{"code":"weak_password","message":"w","weak_password":{"reasons":["length","characters"]}}` + "\n"},
		{name: "weak password without reasons", header: v2024, err: fe(fairbalance.KindUnprocessable, "weak_password", "w"), status: 422,
			body: `{"code":"weak_password","message":"w","weak_password":{"reasons":[]}}` + "\n"},
		{name: "rate limited", header: v2024, err: fe(fairbalance.KindRateLimited, "over_request_rate_limit", "r"), status: 429,
			body: `{"code":"over_request_rate_limit","message":"r"}` + "\n", want: map[string]string{"Retry-After": "60"}},
		{name: "internal legacy", err: errors.New("disk on fire"), status: 500,
			body: `{"code":500,"error_code":"unexpected_failure","error_id":"req-7","msg":"Unexpected failure, please check server logs for more information"}` + "\n"},
		{name: "internal current", header: v2024, err: &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "x", Message: "secret"}, status: 500,
			body: `{"code":"unexpected_failure","message":"Unexpected failure, please check server logs for more information"}` + "\n"},
	}
	runRender(t, func(a *API, w http.ResponseWriter, r *http.Request, err error) { a.authError(w, r, err) }, cases)

	// E-mail links answer with a redirect that carries the error.
	a := &API{log: slog.New(slog.DiscardHandler)}
	for _, c := range []struct {
		err                 error
		oauth, code, detail string
	}{
		{fe(fairbalance.KindForbidden, "otp_expired", "Email link is invalid or has expired"), "access_denied", "otp_expired", "Email link is invalid or has expired"},
		{fe(fairbalance.KindUnauthorized, "bad_jwt", "b"), "unauthorized_client", "bad_jwt", "b"},
		{fe(fairbalance.KindInvalid, "validation_failed", "v"), "invalid_request", "validation_failed", "v"},
		{fe(fairbalance.KindUnavailable, "x", "u"), "temporarily_unavailable", "x", "u"},
		{errors.New("disk on fire"), "server_error", "unexpected_failure", "Unexpected failure"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/auth/v1/verify", nil)
		w := httptest.NewRecorder()
		a.authRedirectError(w, r, "https://app.example.com/welcome#old", c.err)
		want := "https://app.example.com/welcome#" + url.Values{"error": {c.oauth}, "error_code": {c.code}, "error_description": {c.detail}}.Encode() + "&sb="
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("%v: %d %q, want %q", c.err, w.Code, w.Header().Get("Location"), want)
		}
	}
}
