package pgrest

import "strings"

// Nulls places NULLs in an ordering.
type Nulls string

// The placements of NULLs.
const (
	NullsDefault Nulls = ""           // the database's default
	NullsFirst   Nulls = "nullsfirst" // NULLS FIRST
	NullsLast    Nulls = "nullslast"  // NULLS LAST
)

// Order is the parsed order parameter: terms in priority order.
type Order []OrderTerm

// OrderTerm orders by one column: col, col->json->>path, or rel(col) for a
// column of a to-one embedded relation named by its alias or relation (see
// Select.Embedding). The default direction is ascending.
type OrderTerm struct {
	Relation string
	Column   string
	Path     []PathStep
	Desc     bool
	Nulls    Nulls
}

// String renders the term in canonical form, with an explicit direction.
func (t OrderTerm) String() string {
	s := t.Column + pathString(t.Path)
	if t.Relation != "" {
		s = t.Relation + "(" + s + ")"
	}
	if t.Desc {
		s += ".desc"
	} else {
		s += ".asc"
	}
	if t.Nulls != NullsDefault {
		s += "." + string(t.Nulls)
	}
	return s
}

// String renders the order in canonical form; ParseOrder of the result
// yields an equal Order.
func (o Order) String() string {
	parts := make([]string, len(o))
	for i, t := range o {
		parts[i] = t.String()
	}
	return strings.Join(parts, ",")
}

// MaxOrderTerms is the largest number of terms an order parameter may
// list (SQLite refuses an ORDER BY of more than 2000).
const MaxOrderTerms = 500

// ParseOrder parses the value of an order parameter: comma-separated terms
// col[.asc|.desc][.nullsfirst|.nullslast], where col may carry a JSON path
// or be written rel(col). On failure it returns an *Error with code
// PGRST100.
func ParseOrder(v string) (Order, error) {
	o, err := parseOrder(v)
	if err != nil {
		return nil, err
	}
	return o, nil
}

func parseOrder(v string) (Order, *Error) {
	s := &scanner{what: "order", src: v}
	if len(v) > MaxParamLength {
		return nil, s.errAt(0, "the value is longer than %d bytes", MaxParamLength)
	}
	var o Order
	for {
		t, err := s.orderTerm()
		if err != nil {
			return nil, err
		}
		o = append(o, t)
		if len(o) > MaxOrderTerms {
			return nil, s.errf("the order lists more than %d terms", MaxOrderTerms)
		}
		s.skipSpaces()
		if s.eof() {
			return o, nil
		}
		if err := s.expect(","); err != nil {
			return nil, s.unexpected(`".", "," or end of input`)
		}
	}
}

func (s *scanner) orderTerm() (OrderTerm, *Error) {
	var t OrderTerm
	n, err := s.name("column")
	if err != nil {
		return t, err
	}
	if s.accept("(") {
		t.Relation = n
		if n, err = s.name("column"); err != nil {
			return t, err
		}
	}
	t.Column = n
	if t.Path, err = s.jsonPath(); err != nil {
		return t, err
	}
	if t.Relation != "" {
		if err := s.expect(")"); err != nil {
			return t, err
		}
	}
	if strings.HasPrefix(s.src[s.pos:], "::") {
		return t, s.errf("casts are not allowed in order")
	}
	dir := false
	for s.accept(".") {
		start := s.pos
		switch w := s.word(); {
		case (w == "asc" || w == "desc") && !dir && t.Nulls == NullsDefault:
			dir, t.Desc = true, w == "desc"
		case (w == "nullsfirst" || w == "nullslast") && t.Nulls == NullsDefault:
			t.Nulls = Nulls(w)
		default:
			s.pos = start
			return t, s.unexpected(`"asc", "desc", "nullsfirst" or "nullslast"`)
		}
	}
	return t, nil
}
