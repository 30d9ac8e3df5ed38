package httpapi

import (
	"net/http"

	"fairbalance"
)

// The renderer of /functions/v1: every failure of a function reaches the
// client through fnFail as JSON {success: false, code, message} (and the
// message of each refused field under fields), with the
// status of its Kind (statusOf), so that functions-js reports a
// FunctionsHttpError whose context.json() is that body.

// fnFail renders err: an *Error by its kind (a refused password with its
// reasons under weak_password), anything else logged with the request id
// and answered 500 unexpected_failure naming the request.
func (a *API) fnFail(w http.ResponseWriter, r *http.Request, err error) {
	e := fairbalance.AsError(err)
	if e == nil || e.Kind == fairbalance.KindInternal {
		id := RequestID(r.Context())
		a.log.Error("function failed", "request_id", id, "path", r.URL.Path, "err", err)
		body := map[string]any{"success": false, "code": "unexpected_failure", "message": "Unexpected failure, please check server logs for more information", "error_id": id}
		if e != nil && e.Code != "unexpected_failure" {
			body["code"], body["message"] = e.Code, e.Message
		}
		writeJSON(w, http.StatusInternalServerError, body)
		return
	}
	body := map[string]any{"success": false, "code": e.Code, "message": e.Message}
	if len(e.Reasons) > 0 {
		body["weak_password"] = map[string]any{"reasons": e.Reasons}
	}
	if len(e.Fields) > 0 {
		body["fields"] = e.Fields
	}
	writeJSON(w, statusOf(e.Kind), body)
}

// fnCallerError renders a refused token as the functions do, keyed on the
// resolver's code: a member who is none (any more) is forbidden, and so is
// a password-only session of an account with two-step verification (403
// insufficient_aal, as GoTrue names it); anything else is an invalid JWT.
// An internal failure passes unchanged.
func fnCallerError(err error) error {
	e := fairbalance.AsError(err)
	if e == nil || e.Kind == fairbalance.KindInternal {
		return err
	}
	switch e.Code {
	case fairbalance.CodeNotMember, fairbalance.CodeMemberDeactivated, fairbalance.CodeInsufficientAAL:
		return e // as the functions' own membership check words it
	}
	return &fairbalance.Error{Kind: fairbalance.KindUnauthorized, Code: "invalid_jwt", Message: "Invalid JWT"}
}
