package pgrest

import (
	"fmt"
	"math"
	"net/textproto"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Request is the query description of one data API request: what
// ParseRequest makes of the query string and headers.
type Request struct {
	// Select lists the output; it is [*] when the select parameter is
	// absent. The Order, Limit and Offset of its embeddings come from the
	// rel.order, rel.limit and rel.offset parameters.
	Select Select
	// Filters are ANDed. Filters on an embedded relation (rel.col=...,
	// rel.or=...) carry its name in Relation, and every Relation names an
	// embedding of Select. A top-level condition whose Column names an
	// embedding (rel=is.null, rel=not.is.null) tests whether the embedded
	// row exists; telling it apart from a column is left to the caller,
	// who knows the schema.
	Filters []Filter
	// Order orders the rows; every OrderTerm.Relation names an embedding
	// of Select.
	Order Order
	// Limit is the maximum number of rows, or nil for no limit.
	Limit *int
	// Offset is the number of rows to skip.
	Offset int
	// OnConflict lists the on_conflict columns of an upsert.
	OnConflict []string
	// Columns lists the columns parameter of an insert, without
	// duplicates.
	Columns []string
	// Prefer holds the Prefer header.
	Prefer Prefer
	// Singular is true when the Accept header asks for one object
	// (application/vnd.pgrst.object+json, sent by .single()).
	Singular bool
	// StripNulls is true when the Accept header asks for nulls=stripped.
	StripNulls bool
	// CSV is true when the Accept header's first media type is text/csv
	// (sent by .csv()).
	CSV bool
}

// FiltersOn returns the filters on the embedded relation rel, or on the
// base table when rel is "".
func (r *Request) FiltersOn(rel string) []Filter {
	var out []Filter
	for _, f := range r.Filters {
		if relationOf(f) == rel {
			out = append(out, f)
		}
	}
	return out
}

func relationOf(f Filter) string {
	switch f := f.(type) {
	case *Condition:
		return f.Relation
	case *Group:
		return f.Relation
	}
	return ""
}

// baseParams are the reserved parameters that apply to the base table only.
// They are parsed before the others.
var baseParams = map[string]bool{"select": true, "on_conflict": true, "columns": true}

// embedParams are the reserved parameters that may also be prefixed with a
// relation (rel.order). The logic operators (or, and, ...) are reserved
// too, but parsed as filters.
var embedParams = map[string]bool{"order": true, "limit": true, "offset": true}

// ParseRequest parses the query string and headers of a request on a table
// or view. Reserved parameters (select, order, limit, offset, on_conflict,
// columns and their rel. forms) are parsed as such; every other parameter
// is a filter (see ParseFilter), including or, and, not.or and not.and.
// The headers read are Prefer, Range with Range-Unit, and Accept.
//
// The caller removes what is not part of the query grammar before calling:
// the arguments of a GET on a function, and a Range header on anything but
// a read (PostgREST applies Range to GET only). A Range header combines
// with limit and offset: the rows returned are those both select. A Range
// header that is malformed, or whose Range-Unit is not items, is ignored.
//
// h holds the request's headers under any capitalisation (an http.Header
// may be passed as it is); it may be nil.
//
// Errors are *Error values: PGRST100 for syntax, PGRST103 for an invalid
// range, PGRST108 for a parameter on a relation the select does not embed,
// PGRST122 for invalid preferences under handling=strict.
func ParseRequest(q url.Values, h map[string][]string) (*Request, error) {
	r, err := parseRequest(q, h)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func parseRequest(q url.Values, header map[string][]string) (*Request, *Error) {
	h := textproto.MIMEHeader(header)
	r := &Request{Select: Select{{Star: true}}}
	v, ok, err := single(q, "select")
	if err != nil {
		return nil, err
	}
	if ok {
		if r.Select, err = parseSelect(v); err != nil {
			return nil, err
		}
	}
	if r.Prefer, err = parsePrefer(h.Values("Prefer")); err != nil {
		return nil, err
	}
	r.Singular, r.StripNulls, r.CSV = parseAccept(h.Values("Accept"))
	for _, name := range []string{"on_conflict", "columns"} {
		v, ok, err := single(q, name)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		names, err := parseNames(name+" parameter", v)
		if err != nil {
			return nil, err
		}
		if name == "columns" {
			r.Columns = names
		} else {
			r.OnConflict = names
		}
	}

	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	operands := 0
	for _, k := range keys {
		if baseParams[k] {
			continue
		}
		param := k
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			param = k[i+1:]
		}
		if !embedParams[param] {
			for _, v := range q[k] {
				f, err := parseFilter(k, v)
				if err != nil {
					return nil, err
				}
				if operands += countOperands(f); operands > MaxFilterOperands {
					return nil, parseError("filter", k, 0, fmt.Sprintf("the filters hold more than %d values in all", MaxFilterOperands))
				}
				if rel := relationOf(f); rel != "" {
					if _, ok := r.Select.Embedding(rel); !ok {
						return nil, notEmbeddedError(rel)
					}
				}
				r.Filters = append(r.Filters, f)
			}
			continue
		}
		if err := r.setPaging(k, q[k]); err != nil {
			return nil, err
		}
	}

	off, lim, ok, rerr := parseRange(h)
	if rerr != nil {
		return nil, rerr
	}
	if ok {
		r.Offset, r.Limit = intersect(r.Offset, r.Limit, off, lim)
	}
	return r, nil
}

// MaxFilterOperands is the largest number of values the filters of one
// request may hold in all (an in.(...) list counts each element): each is
// a bind parameter, and the databases bound those (SQLite to 32766).
const MaxFilterOperands = 10000

// countOperands is the number of values f binds.
func countOperands(f Filter) int {
	switch f := f.(type) {
	case *Condition:
		return max(1, len(f.Values))
	case *Group:
		n := 0
		for _, g := range f.Filters {
			n += countOperands(g)
		}
		return n
	}
	return 0
}

// setPaging records the order, limit or offset parameter key, of the base
// table or (rel.order, rel.limit, rel.offset) of an embedding.
func (r *Request) setPaging(key string, vals []string) *Error {
	rel, param, embedded := "", key, false
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		rel, param, embedded = key[:i], key[i+1:], true
	}
	if len(vals) != 1 {
		return parseError(param+" parameter", key, 0, "the parameter is given more than once")
	}
	v := vals[0]
	order, limit, offset := &r.Order, &r.Limit, &r.Offset
	if embedded {
		if !IsIdentifier(rel) {
			s := &scanner{what: "tree path", src: key}
			return s.errAt(0, "%q is not a valid relation name (order, limit and offset apply to the base table or to one embedding)", echo(rel))
		}
		e, ok := r.Select.Embedding(rel)
		if !ok {
			return notEmbeddedError(rel)
		}
		order, limit, offset = &e.Order, &e.Limit, &e.Offset
	}
	switch param {
	case "order":
		o, err := parseOrder(v)
		if err != nil {
			return err
		}
		for i, t := range o {
			if t.Relation == "" {
				continue
			}
			if embedded {
				s := &scanner{what: "order", src: v}
				return s.errAt(0, "term %d: an embedded relation cannot be ordered by another relation", i+1)
			}
			if _, ok := r.Select.Embedding(t.Relation); !ok {
				return notEmbeddedError(t.Relation)
			}
		}
		*order = o
	case "limit":
		n, err := parseCount(param, v)
		if err != nil {
			return err
		}
		*limit = &n
	case "offset":
		n, err := parseCount(param, v)
		if err != nil {
			return err
		}
		*offset = n
	}
	return nil
}

// single returns the only value of a reserved parameter.
func single(q url.Values, key string) (string, bool, *Error) {
	vals, ok := q[key]
	if !ok {
		return "", false, nil
	}
	if len(vals) != 1 {
		return "", false, parseError(key+" parameter", key, 0, "the parameter is given more than once")
	}
	return vals[0], true, nil
}

// parseNames parses a comma-separated list of column names, bare or
// double-quoted ("a","b" is what supabase-js sends for columns), dropping
// duplicates.
func parseNames(what, v string) ([]string, *Error) {
	s := &scanner{what: what, src: v}
	if len(v) > MaxParamLength {
		return nil, s.errAt(0, "the value is longer than %d bytes", MaxParamLength)
	}
	var names []string
	seen := map[string]bool{}
	for {
		n, err := s.name("column")
		if err != nil {
			return nil, err
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
		if s.eof() {
			return names, nil
		}
		if err := s.expect(","); err != nil {
			return nil, err
		}
	}
}

// parseCount parses the value of limit or offset: a non-negative decimal
// integer. Values above math.MaxInt32 are clamped to it.
func parseCount(param, v string) (int, *Error) {
	if strings.HasPrefix(v, "-") && len(v) > 1 && allDigits(v[1:]) {
		return 0, rangeError(strings.ToUpper(param[:1]) + param[1:] + " should be greater than or equal to zero.")
	}
	if !allDigits(v) {
		s := &scanner{what: param + " parameter", src: v}
		return 0, s.unexpected("a non-negative integer")
	}
	return clampInt(v), nil
}

func allDigits(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isDigit(v[i]) {
			return false
		}
	}
	return true
}

// clampInt converts a string of digits, clamping it to math.MaxInt32.
func clampInt(v string) int {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(n)
}

// parseRange reads a Range header "first-[last]" (optionally "items=first-
// [last]"). ok is false when there is none, it is malformed, or Range-Unit
// names another unit.
func parseRange(h textproto.MIMEHeader) (offset int, limit *int, ok bool, err *Error) {
	v := strings.TrimSpace(h.Get("Range"))
	if v == "" {
		return 0, nil, false, nil
	}
	if u := strings.TrimSpace(h.Get("Range-Unit")); u != "" && !strings.EqualFold(u, "items") {
		return 0, nil, false, nil
	}
	v = strings.TrimPrefix(v, "items=")
	first, last, found := strings.Cut(v, "-")
	if !found || !allDigits(first) || last != "" && !allDigits(last) {
		return 0, nil, false, nil
	}
	offset = clampInt(first)
	if last == "" {
		return offset, nil, true, nil
	}
	upper := clampInt(last)
	if upper < offset {
		return 0, nil, false, rangeError("The lower boundary must be lower than or equal to the upper boundary in the Range header.")
	}
	n := upper - offset + 1
	return offset, &n, true, nil
}

// intersect returns the rows selected by both [off1, off1+lim1) and
// [off2, off2+lim2), where a nil limit is unbounded.
func intersect(off1 int, lim1 *int, off2 int, lim2 *int) (int, *int) {
	off := max(off1, off2)
	end := -1 // exclusive; -1 is unbounded
	for _, b := range []struct {
		off int
		lim *int
	}{{off1, lim1}, {off2, lim2}} {
		if b.lim != nil && (end < 0 || b.off+*b.lim < end) {
			end = b.off + *b.lim
		}
	}
	if end < 0 {
		return off, nil
	}
	n := max(end-off, 0)
	return off, &n
}

// parseAccept reports whether the Accept header asks for a single object,
// for stripped nulls, and for CSV (its first media type is text/csv).
func parseAccept(values []string) (singular, stripNulls, csv bool) {
	first := true
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, params, _ := strings.Cut(part, ";")
			mt = strings.ToLower(strings.TrimSpace(mt))
			if mt == "" {
				continue
			}
			if first && mt == "text/csv" {
				csv = true
			}
			first = false
			if mt == "application/vnd.pgrst.object+json" || mt == "application/vnd.pgrst.object" {
				singular = true
			}
			if strings.HasPrefix(mt, "application/vnd.pgrst.") &&
				strings.Contains(strings.ToLower(strings.ReplaceAll(params, " ", "")), "nulls=stripped") {
				stripNulls = true
			}
		}
	}
	return singular, stripNulls, csv
}
