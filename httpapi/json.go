package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"fairbalance"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// statusOf maps an error kind to its HTTP status.
func statusOf(k fairbalance.Kind) int {
	switch k {
	case fairbalance.KindInvalid:
		return http.StatusBadRequest
	case fairbalance.KindUnauthorized:
		return http.StatusUnauthorized
	case fairbalance.KindForbidden:
		return http.StatusForbidden
	case fairbalance.KindNotFound:
		return http.StatusNotFound
	case fairbalance.KindMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case fairbalance.KindNotAcceptable:
		return http.StatusNotAcceptable
	case fairbalance.KindConflict:
		return http.StatusConflict
	case fairbalance.KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case fairbalance.KindRangeNotSatisfiable:
		return http.StatusRequestedRangeNotSatisfiable
	case fairbalance.KindUnprocessable:
		return http.StatusUnprocessableEntity
	case fairbalance.KindRateLimited:
		return http.StatusTooManyRequests
	case fairbalance.KindUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// decodeJSON reads a JSON body into v. An empty body is accepted as {}.
// Errors: bad_json (400), request_entity_too_large (413).
func decodeJSON(r *http.Request, v any) error {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &fairbalance.Error{Kind: fairbalance.KindTooLarge, Code: "request_entity_too_large", Message: "Request body too large"}
		}
		return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "bad_json", Message: "Could not read request body"}
	}
	if len(b) == 0 {
		return nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "bad_json", Message: "Could not parse request body as JSON: " + err.Error()}
	}
	return nil
}
