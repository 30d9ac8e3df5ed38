package pgrest

import (
	"fmt"

	"fairbalance"
)

// Error codes returned by this package, as PostgREST numbers them.
const (
	// CodeParse (invalid) is any syntax error in the query string.
	CodeParse = "PGRST100"
	// CodeRange (range_not_satisfiable) is an unsatisfiable range: a
	// negative limit or offset, or a Range header whose lower bound
	// exceeds its upper bound.
	CodeRange = "PGRST103"
	// CodeNotEmbedded (invalid) is a filter, order or paging parameter on a
	// relation that the select parameter does not embed.
	CodeNotEmbedded = "PGRST108"
	// CodeInvalidPreferences (invalid) is an unknown or malformed preference
	// sent together with Prefer: handling=strict.
	CodeInvalidPreferences = "PGRST122"
)

// Error is the error this package returns: a *fairbalance.Error of kind
// invalid, or range_not_satisfiable for PGRST103, with PostgREST's code,
// message, details and hint. The data API's renderer gives it PostgREST's
// body and status.
type Error = fairbalance.Error

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
		Kind:    fairbalance.KindInvalid,
		Code:    CodeParse,
		Message: fmt.Sprintf("%q (line 1, column %d)", "failed to parse "+what+" ("+echo(input)+")", pos+1),
		Details: details,
	}
}

func rangeError(details string) *Error {
	return &Error{
		Kind:    fairbalance.KindRangeNotSatisfiable,
		Code:    CodeRange,
		Message: "Requested range not satisfiable",
		Details: details,
	}
}

func notEmbeddedError(rel string) *Error {
	return &Error{
		Kind:    fairbalance.KindInvalid,
		Code:    CodeNotEmbedded,
		Message: fmt.Sprintf("'%s' is not an embedded resource in this request", rel),
		Hint:    fmt.Sprintf("Verify that '%s' is included in the 'select' query parameter.", rel),
	}
}
