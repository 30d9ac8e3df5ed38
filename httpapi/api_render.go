package httpapi

import (
	"net/http"

	"fairbalance"
)

// The renderer of the /api routes that serve documents (the exports):
// every error reaches the client through apiError as {code, message}, the
// shape of /api's not-found answer.

// apiError renders err as {code, message} with the status of its Kind
// (statusOf). Anything that is not a client error is logged with the
// request id and answered 500 unexpected_failure naming the request.
func (a *API) apiError(w http.ResponseWriter, r *http.Request, err error) {
	e := fairbalance.AsError(err)
	if e == nil || e.Kind == fairbalance.KindInternal {
		cause := err
		if e != nil && e.Err != nil {
			cause = e.Err
		}
		a.log.Error("api: internal error", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", cause)
		writeJSON(w, http.StatusInternalServerError, map[string]any{"code": "unexpected_failure",
			"message": "Unexpected failure, please check server logs for more information", "error_id": RequestID(r.Context())})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, statusOf(e.Kind), map[string]any{"code": e.Code, "message": e.Message})
}
