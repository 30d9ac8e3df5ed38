package fairbalance

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is the broad category of an Error. Each surface maps a Kind (and for
// a few codes the Code) to its transport status; for HTTP: invalid 400,
// unauthorized 401, forbidden 403, not_found 404, method_not_allowed 405,
// not_acceptable 406, conflict 409, too_large 413, range_not_satisfiable
// 416, unprocessable 422, rate_limited 429, internal 500, unavailable 503.
type Kind string

// The kinds of Error.
const (
	KindInvalid          Kind = "invalid"
	KindUnauthorized     Kind = "unauthorized"
	KindForbidden        Kind = "forbidden"
	KindNotFound         Kind = "not_found"
	KindMethodNotAllowed Kind = "method_not_allowed"
	// KindNotAcceptable is a request whose wanted representation cannot
	// be given, e.g. a single object asked for when the result has
	// several rows, or a schema that is not exposed.
	KindNotAcceptable Kind = "not_acceptable"
	KindConflict      Kind = "conflict"
	KindTooLarge      Kind = "too_large"
	// KindRangeNotSatisfiable is a page (limit, offset, Range) that the
	// result cannot satisfy.
	KindRangeNotSatisfiable Kind = "range_not_satisfiable"
	KindUnprocessable       Kind = "unprocessable"
	KindRateLimited         Kind = "rate_limited"
	KindInternal            Kind = "internal"
	// KindUnavailable is a refusal because a dependency (the database,
	// the settings) cannot be reached for now; trying again may succeed.
	KindUnavailable Kind = "unavailable"
)

// Error is an error that is safe to show to a client: a Kind, a stable Code
// (for the identity service GoTrue's error codes, e.g. "invalid_credentials";
// for the data API PostgREST's and PostgreSQL's, e.g. "PGRST116", "23505";
// for storage supabase/storage's, e.g. "NoSuchKey"), a human message and
// what a surface may show beside it. Nothing decides on the Message: every
// distinction a client or a surface makes is in the Kind and the Code.
// Internal details never go in an Error; they are logged where they happen.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	// Details and Hint complete the message (PostgREST's details and hint).
	Details string
	Hint    string
	// Constraint names the database constraint the refused row violated,
	// when there is one (e.g. "assets_status_check").
	Constraint string
	// Fields maps each refused form field to its message, for forms that
	// show every field's problem at once.
	Fields map[string]string
	// Reasons lists why a password was refused (weak_password only).
	Reasons []string
	// Err is the wrapped cause, for logs and errors.Is only; never rendered.
	Err error
}

// Error returns the code, the message and the details when there are some,
// then the cause.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.Details != "" {
		b.WriteString(": ")
		b.WriteString(e.Details)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of the given kind and code with a formatted message.
func Errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError returns the *Error in err's chain, or nil when err carries none
// (an internal failure, which callers must log and render generically).
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// ErrNotFound is returned by stores when a looked-up row does not exist.
// Services translate it into an *Error with a surface-specific code.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned by stores when a uniqueness constraint is violated.
var ErrConflict = errors.New("conflict")

// ErrConstraint is returned by stores when a check or not-null constraint
// refuses a row.
var ErrConstraint = errors.New("constraint violated")
