package httpapi

import (
	"net/http"

	"fairbalance"
)

// The renderer of /rest/v1: every error of the data API, of the engine
// (package dataapi) as of the handlers, reaches the client through
// restError, in PostgREST's shape.

// restError renders err as PostgREST does: the status of its Kind
// (statusOf) and the body {code, message, details, hint, fields}, null for an
// empty details or hint. A HEAD request gets the code in Proxy-Status (it
// has no body); PGRST303 (an expired token) gets a WWW-Authenticate
// challenge. Anything that is not a client error is logged with the
// request id and answered 500 XX000 naming the request.
func restError(w http.ResponseWriter, r *http.Request, a *API, err error) {
	pe := fairbalance.AsError(err)
	if pe == nil || pe.Kind == fairbalance.KindInternal {
		cause := err
		if pe != nil && pe.Err != nil {
			cause = pe.Err
		}
		a.log.Error("rest: internal error", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", cause)
		pe = &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "XX000", Message: "Internal server error", Details: "request " + RequestID(r.Context())}
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Proxy-Status", "PostgREST; error="+pe.Code)
	}
	if pe.Code == codeJWTExpired {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="JWT expired"`)
	}
	writeJSON(w, statusOf(pe.Kind), restBody{pe.Code, pe.Message, nullable(pe.Details), nullable(pe.Hint), pe.Fields})
}

// codeJWTExpired is PostgREST's code for an expired bearer token.
const codeJWTExpired = "PGRST303"

// restBody is PostgREST's error body, with the message of every refused
// field of a form under "fields" (absent when the error names none;
// postgrest-js hands the parsed body to its caller, so forms read it).
type restBody struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Details *string           `json:"details"`
	Hint    *string           `json:"hint"`
	Fields  map[string]string `json:"fields,omitempty"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// restCallerError renders a refusal of the caller resolver as PostgREST
// does, keyed on its code; an internal failure passes unchanged.
func restCallerError(err error) error {
	e := fairbalance.AsError(err)
	if e == nil || e.Kind == fairbalance.KindInternal {
		return err
	}
	unauthorized := func(msg, details string) error {
		return &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "PGRST301", Message: msg, Details: details}
	}
	switch e.Code {
	case fairbalance.CodeTokenExpired:
		return &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: codeJWTExpired, Message: "JWT expired"}
	case fairbalance.CodeRoleNotAllowed:
		return unauthorized("JWT role is not allowed", e.Message)
	case fairbalance.CodeUserNotFound, fairbalance.CodeNotMember:
		return unauthorized("The account of this token no longer exists", "")
	case fairbalance.CodeSessionNotFound, fairbalance.CodeSessionExpired:
		return &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "PGRST301", Message: "The session of this token has ended", Hint: "Sign in again"}
	case fairbalance.CodeMemberDeactivated:
		return &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "42501", Message: "This account is deactivated"}
	case fairbalance.CodeUserBanned:
		return &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "42501", Message: "This account is banned"}
	case fairbalance.CodeInsufficientAAL:
		// Supabase refuses such a session by a policy on the aal claim,
		// which PostgREST reports as 42501 (insufficient privilege), 403
		// for a signed-in role; here the whole request is refused, saying
		// why and what to do.
		return &fairbalance.Error{Kind: fairbalance.KindForbidden, Code: "42501", Message: "Two-step verification required",
			Details: e.Code + ": " + e.Message,
			Hint:    "Answer the authenticator challenge (POST /auth/v1/factors/{id}/challenge, then /verify) and use the aal2 token it returns"}
	}
	return unauthorized("JWT could not be decoded", "invalid signature or claims")
}
