package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strconv"

	"fairbalance"
	"fairbalance/service"
)

// The renderer of /storage/v1: every error of storage reaches the client
// through storageError, in the shape of supabase/storage that storage-js
// reads: {statusCode, code, error, message}. The HTTP status is 400 with
// the real status as a string in statusCode, as supabase/storage answers;
// 500 stays 500, and the codes that say otherwise in storageCodes force
// their status.

type storageErr struct {
	StatusCode string `json:"statusCode"`
	Code       string `json:"code"`
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// storageWire is how storage renders one code.
type storageWire struct {
	status int    // the statusCode of the body
	label  string // the legacy "error" label
	http   int    // the HTTP status; 0 is 400
	code   string // the code on the wire; "" is the Error's own
}

// codeNoRoute is a path that no storage route serves.
const codeNoRoute = "route_not_found"

// storageCodes gives each code its wire form. A code not listed takes the
// status of its Kind and itself as the label.
var storageCodes = map[string]storageWire{
	service.CodeNoSuchBucket:     {status: 404, label: "Bucket not found"},
	service.CodeNoSuchKey:        {status: 404, label: "not_found"},
	service.CodeDuplicate:        {status: 409, label: "Duplicate"},
	service.CodeAccessDenied:     {status: 403, label: "Unauthorized"},
	service.CodeServiceRoleOnly:  {status: 403, label: "Unauthorized", http: http.StatusForbidden, code: service.CodeAccessDenied},
	service.CodeInvalidMimeType:  {status: 415, label: "invalid_mime_type"},
	service.CodeEntityTooLarge:   {status: 413, label: "Payload too large"},
	service.CodeResourceNotEmpty: {status: 409, label: "Conflict"},
	service.CodeInvalidKey:       {status: 400, label: "Invalid Input"},
	service.CodeInvalidBucket:    {status: 400, label: "Invalid Input"},
	service.CodeInvalidRequest:   {status: 400, label: "Invalid Input"},
	service.CodeInvalidSignature: {status: 400, label: "InvalidSignature"},
	service.CodeExpiredToken:     {status: 400, label: "ExpiredToken"},
	service.CodeInvalidJWT:       {status: 400, label: "InvalidJWT"},
	codeNoRoute:                  {status: 404, label: "Not Found", http: http.StatusNotFound, code: "NotFound"},
}

// storageError renders err in storage's shape. A request body storage
// cannot read is InvalidRequest, one over the size limit EntityTooLarge.
// Anything that is not a client error is logged with the request id and
// answered 500 InternalError naming the request; a failure because the
// client went away is only logged, as nobody is listening.
func (a *API) storageError(w http.ResponseWriter, r *http.Request, err error) {
	if fairbalance.AsError(err) == nil && (errors.Is(err, io.ErrUnexpectedEOF) || r.Context().Err() != nil) {
		// The body broke off before its end (the client stopped sending or
		// went away mid-upload): nothing was stored. A client error, said
		// in case the client still listens.
		a.log.Info("storage: request body cut short", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", err)
		err = fairbalance.Errorf(fairbalance.KindInvalid, service.CodeInvalidRequest, "%s", bodyReadDetails(io.ErrUnexpectedEOF))
	}
	var body storageBodyError
	if errors.As(err, &body) {
		err = fairbalance.Errorf(fairbalance.KindInvalid, service.CodeInvalidRequest, "%s", string(body))
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = fairbalance.Errorf(fairbalance.KindTooLarge, service.CodeEntityTooLarge, "The object exceeded the maximum allowed size")
	}
	fe := fairbalance.AsError(err)
	if fe == nil || fe.Kind == fairbalance.KindInternal {
		a.log.Error("storage: internal error", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, storageErr{StatusCode: "500", Code: "InternalError", Error: "internal", Message: "Internal server error (request " + RequestID(r.Context()) + ")"})
		return
	}
	wire, ok := storageCodes[fe.Code]
	if !ok {
		wire = storageWire{status: statusOf(fe.Kind), label: fe.Code}
	}
	if wire.http == 0 {
		wire.http = http.StatusBadRequest
	}
	if wire.code == "" {
		wire.code = fe.Code
	}
	writeJSON(w, wire.http, storageErr{StatusCode: strconv.Itoa(wire.status), Code: wire.code, Error: wire.label, Message: fe.Message})
}

// storageCallerError renders a refusal of the caller (already in the data
// API's words, see restCallerError) as storage's AccessDenied with the same
// message; an internal failure passes unchanged.
func storageCallerError(err error) error {
	fe := fairbalance.AsError(err)
	if fe == nil || fe.Kind == fairbalance.KindInternal {
		return err
	}
	return fairbalance.Errorf(fairbalance.KindForbidden, service.CodeAccessDenied, "%s", fe.Message)
}
