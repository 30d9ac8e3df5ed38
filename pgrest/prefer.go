package pgrest

import (
	"strconv"
	"strings"

	"fairbalance"
)

// Return is the return preference of a write.
type Return string

// Count is the count preference of a read or write.
type Count string

// Resolution is the upsert preference of an insert.
type Resolution string

// Missing tells how an insert with a columns list fills absent keys.
type Missing string

// Handling tells whether unknown preferences are an error.
type Handling string

// Tx tells how the transaction ends.
type Tx string

// The recognised preference values.
const (
	ReturnMinimal        Return     = "minimal"
	ReturnRepresentation Return     = "representation"
	ReturnHeadersOnly    Return     = "headers-only"
	CountExact           Count      = "exact"
	CountPlanned         Count      = "planned"
	CountEstimated       Count      = "estimated"
	MergeDuplicates      Resolution = "merge-duplicates"
	IgnoreDuplicates     Resolution = "ignore-duplicates"
	MissingDefault       Missing    = "default"
	MissingNull          Missing    = "null"
	HandlingStrict       Handling   = "strict"
	HandlingLenient      Handling   = "lenient"
	TxCommit             Tx         = "commit"
	TxRollback           Tx         = "rollback"
)

// Prefer holds the preferences of the Prefer header. A field is "" (or
// nil) when the preference was not given. When a preference is given more
// than once, the first occurrence counts.
type Prefer struct {
	Return      Return
	Count       Count
	Resolution  Resolution
	Missing     Missing
	Handling    Handling
	Tx          Tx
	MaxAffected *int
	// Unknown lists, in order, the preferences that were not understood:
	// unknown names and known names with invalid values. They are ignored
	// unless Handling is strict.
	Unknown []string
}

// String renders the recognised preferences in canonical form
// ("return=representation, count=exact"), for example for a
// Preference-Applied header. Unknown preferences are left out.
func (p Prefer) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("return", string(p.Return))
	add("count", string(p.Count))
	add("resolution", string(p.Resolution))
	add("missing", string(p.Missing))
	add("handling", string(p.Handling))
	add("tx", string(p.Tx))
	if p.MaxAffected != nil {
		add("max-affected", strconv.Itoa(*p.MaxAffected))
	}
	return strings.Join(parts, ", ")
}

// ParsePrefer parses the values of the Prefer header (each a
// comma-separated list of name=value preferences, as in
// "count=exact, return=representation"). Unknown or invalid preferences
// are kept in Unknown and ignored, except that with handling=strict they
// are an *Error with code PGRST122.
func ParsePrefer(values ...string) (Prefer, error) {
	p, err := parsePrefer(values)
	if err != nil {
		return Prefer{}, err
	}
	return p, nil
}

func parsePrefer(values []string) (Prefer, *Error) {
	var p Prefer
	total := 0
	for _, v := range values {
		if total += len(v); total > MaxParamLength {
			return Prefer{}, parseError("Prefer header", v, 0, "the header is too long")
		}
		for _, tok := range strings.Split(v, ",") {
			tok = strings.TrimSpace(tok)
			if tok == "" {
				continue
			}
			if !p.set(tok) {
				p.Unknown = append(p.Unknown, tok)
			}
		}
	}
	if p.Handling == HandlingStrict && len(p.Unknown) > 0 {
		return Prefer{}, &Error{
			Kind:    fairbalance.KindInvalid,
			Code:    CodeInvalidPreferences,
			Message: "Invalid preferences given with handling=strict",
			Details: "Invalid preferences: " + echo(strings.Join(p.Unknown, ", ")),
		}
	}
	return p, nil
}

// set records one name=value preference and reports whether it was
// understood. A repeated preference is understood and ignored.
func (p *Prefer) set(tok string) bool {
	name, val, _ := strings.Cut(tok, "=")
	switch name {
	case "return":
		return setOnce(&p.Return, val, ReturnMinimal, ReturnRepresentation, ReturnHeadersOnly)
	case "count":
		return setOnce(&p.Count, val, CountExact, CountPlanned, CountEstimated)
	case "resolution":
		return setOnce(&p.Resolution, val, MergeDuplicates, IgnoreDuplicates)
	case "missing":
		return setOnce(&p.Missing, val, MissingDefault, MissingNull)
	case "handling":
		return setOnce(&p.Handling, val, HandlingStrict, HandlingLenient)
	case "tx":
		return setOnce(&p.Tx, val, TxCommit, TxRollback)
	case "max-affected":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || val[0] == '+' {
			return false
		}
		if p.MaxAffected == nil {
			p.MaxAffected = &n
		}
		return true
	}
	return false
}

// setOnce sets *field to val if val is one of allowed and *field is unset.
func setOnce[T ~string](field *T, val string, allowed ...T) bool {
	for _, a := range allowed {
		if string(a) == val {
			if *field == "" {
				*field = a
			}
			return true
		}
	}
	return false
}
