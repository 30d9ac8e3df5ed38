package fairbalance

import (
	"errors"
	"fmt"
)

// Kind is the broad category of an Error. Each surface maps a Kind to its
// transport status (for HTTP: invalid 400, unauthorized 401, forbidden 403,
// not_found 404, conflict 409, too_large 413, unprocessable 422,
// rate_limited 429, internal 500).
type Kind string

// The kinds of Error.
const (
	KindInvalid       Kind = "invalid"
	KindUnauthorized  Kind = "unauthorized"
	KindForbidden     Kind = "forbidden"
	KindNotFound      Kind = "not_found"
	KindConflict      Kind = "conflict"
	KindTooLarge      Kind = "too_large"
	KindUnprocessable Kind = "unprocessable"
	KindRateLimited   Kind = "rate_limited"
	KindInternal      Kind = "internal"
)

// Error is an error that is safe to show to a client: a Kind, a stable Code
// (for the identity service these are GoTrue's error codes, e.g.
// "invalid_credentials"), a human message and, for forms, per-field messages.
// Internal details never go in an Error; they are logged where they happen.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	// Fields maps a form field name to its message.
	Fields map[string]string
	// Reasons lists why a password was refused (weak_password only).
	Reasons []string
	// Err is the wrapped cause, for logs only; never rendered.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
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
