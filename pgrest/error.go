package pgrest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error codes returned by this package, as PostgREST numbers them.
const (
	// CodeParse (400) is any syntax error in the query string.
	CodeParse = "PGRST100"
	// CodeRange (416) is an unsatisfiable range: a negative limit or
	// offset, or a Range header whose lower bound exceeds its upper bound.
	CodeRange = "PGRST103"
	// CodeNotEmbedded (400) is a filter, order or paging parameter on a
	// relation that the select parameter does not embed.
	CodeNotEmbedded = "PGRST108"
	// CodeInvalidPreferences (400) is an unknown or malformed preference
	// sent together with Prefer: handling=strict.
	CodeInvalidPreferences = "PGRST122"
)

// Error is a client error in PostgREST's shape. Its JSON form is the body
// PostgREST sends: {"code", "message", "details", "hint"}, with null for an
// empty details or hint. Status is the HTTP status to answer with; it is
// not part of the body.
type Error struct {
	Status  int
	Code    string
	Message string
	Details string
	Hint    string
}

// Error returns the code and message, and the details when there are some.
func (e *Error) Error() string {
	if e.Details == "" {
		return e.Code + ": " + e.Message
	}
	return e.Code + ": " + e.Message + ": " + e.Details
}

// MarshalJSON renders the PostgREST error body.
func (e *Error) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Code    string  `json:"code"`
		Message string  `json:"message"`
		Details *string `json:"details"`
		Hint    *string `json:"hint"`
	}{e.Code, e.Message, nullable(e.Details), nullable(e.Hint)})
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// maxEcho bounds how much of a client's input an error message repeats.
const maxEcho = 120

// echo shortens s for inclusion in a message.
func echo(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	cut := maxEcho
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// parseError is a PGRST100 error about the parameter part what (for example
// "filter" or "select parameter") holding input, at the byte offset pos.
func parseError(what, input string, pos int, details string) *Error {
	return &Error{
		Status:  http.StatusBadRequest,
		Code:    CodeParse,
		Message: fmt.Sprintf("%q (line 1, column %d)", "failed to parse "+what+" ("+echo(input)+")", pos+1),
		Details: details,
	}
}

func rangeError(details string) *Error {
	return &Error{
		Status:  http.StatusRequestedRangeNotSatisfiable,
		Code:    CodeRange,
		Message: "Requested range not satisfiable",
		Details: details,
	}
}

func notEmbeddedError(rel string) *Error {
	return &Error{
		Status:  http.StatusBadRequest,
		Code:    CodeNotEmbedded,
		Message: fmt.Sprintf("'%s' is not an embedded resource in this request", rel),
		Hint:    fmt.Sprintf("Verify that '%s' is included in the 'select' query parameter.", rel),
	}
}
