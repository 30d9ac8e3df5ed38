package pgrest

import (
	"bytes"
	"encoding/json"
	"strings"
)

// MaxLogicDepth is the deepest nesting of logic trees accepted: or=(...)
// has depth 1, or=(a.eq.1,and(b.eq.2,c.eq.3)) depth 2.
const MaxLogicDepth = 10

// Operator is a filter operator, as written in the query.
type Operator string

// The supported operators.
const (
	OpEq          Operator = "eq"         // =
	OpNeq         Operator = "neq"        // <>
	OpGt          Operator = "gt"         // >
	OpGte         Operator = "gte"        // >=
	OpLt          Operator = "lt"         // <
	OpLte         Operator = "lte"        // <=
	OpLike        Operator = "like"       // LIKE; * in the pattern is recorded as %
	OpILike       Operator = "ilike"      // ILIKE; * in the pattern is recorded as %
	OpIs          Operator = "is"         // IS; Value is one of the Is constants
	OpIsDistinct  Operator = "isdistinct" // IS DISTINCT FROM
	OpIn          Operator = "in"         // IN; Values holds the list
	OpContains    Operator = "cs"         // @>; see Condition
	OpContainedIn Operator = "cd"         // <@; see Condition
)

// The values of an "is" condition, always recorded in lower case.
const (
	IsNull    = "null"
	IsNotNull = "not_null"
	IsTrue    = "true"
	IsFalse   = "false"
	IsUnknown = "unknown"
)

var supportedOps = map[string]bool{
	"eq": true, "neq": true, "gt": true, "gte": true, "lt": true, "lte": true,
	"like": true, "ilike": true, "is": true, "isdistinct": true, "in": true,
	"cs": true, "cd": true,
}

// refusedOps are PostgREST operators that this server does not support.
var refusedOps = map[string]bool{
	"match": true, "imatch": true, "ov": true, "sl": true, "sr": true,
	"nxl": true, "nxr": true, "adj": true,
	"fts": true, "plfts": true, "phfts": true, "wfts": true,
}

// Filter is one node of a filter tree: a *Condition or a *Group.
type Filter interface {
	// Param renders the filter as a query parameter in canonical form;
	// ParseFilter(Param()) yields an equal filter.
	Param() (key, value string)
	// String renders the filter as an operand of a logic tree
	// (col.op.value or or(...)), without its relation.
	String() string
	isFilter()
}

// Condition is a leaf filter: Column (with an optional JSON Path) compared
// by Operator, negated when Negated (not.).
//
// The operand is in Value for eq, neq, gt, gte, lt, lte, like, ilike,
// isdistinct and is; in Values for in (possibly empty: in.() matches no
// row). For cs and cd it is either a PostgreSQL array literal ({a,b}),
// whose elements are in Values, or, when JSON is true, a JSON object or
// array held as compact JSON text in Value. Operands are values: bind them
// as parameters, never splice them into SQL.
type Condition struct {
	// Relation is the embedded relation the column belongs to (rel.col),
	// named by the embedding's alias or relation (see Select.Embedding),
	// or "" for the base table.
	Relation string
	Column   string
	Path     []PathStep
	Operator Operator
	Negated  bool
	Value    string
	Values   []string
	JSON     bool
}

// Logic is the operator of a Group.
type Logic string

// The logic operators.
const (
	And Logic = "and"
	Or  Logic = "or"
)

// Group combines filters with And or Or, negated when Negated (not.or).
// Every filter inside a group has the group's Relation.
type Group struct {
	Relation string
	Logic    Logic
	Negated  bool
	Filters  []Filter
}

func (*Condition) isFilter() {}
func (*Group) isFilter()     {}

// Param renders the condition as key and value of a query parameter.
func (c *Condition) Param() (key, value string) {
	key = c.Column + pathString(c.Path)
	if c.Relation != "" {
		key = c.Relation + "." + key
	}
	return key, c.opPrefix() + c.operand(false)
}

// String renders the condition as an operand of a logic tree.
func (c *Condition) String() string {
	return c.Column + pathString(c.Path) + "." + c.opPrefix() + c.operand(true)
}

// operand renders the operand; inside a logic tree (inTree) a scalar is
// quoted when it must be.
func (c *Condition) operand(inTree bool) string {
	switch {
	case c.Operator == OpIn:
		return listString(c.Values)
	case c.JSON:
		return c.Value
	case c.Operator == OpContains || c.Operator == OpContainedIn:
		return arrayString(c.Values)
	case inTree:
		return quoteValue(c.Value)
	}
	return c.Value
}

func (c *Condition) opPrefix() string {
	if c.Negated {
		return "not." + string(c.Operator) + "."
	}
	return string(c.Operator) + "."
}

// Param renders the group as key and value of a query parameter.
func (g *Group) Param() (key, value string) {
	key = string(g.Logic)
	if g.Negated {
		key = "not." + key
	}
	if g.Relation != "" {
		key = g.Relation + "." + key
	}
	return key, g.operands()
}

// String renders the group as an operand of a logic tree.
func (g *Group) String() string {
	s := string(g.Logic) + g.operands()
	if g.Negated {
		s = "not." + s
	}
	return s
}

func (g *Group) operands() string {
	parts := make([]string, len(g.Filters))
	for i, f := range g.Filters {
		parts[i] = f.String()
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// ParseFilter parses one filter query parameter. The key is a column
// (col, col->json->>path, rel.col) or a logic operator (or, and, not.or,
// not.and, each optionally prefixed with rel.); the value is
// [not.]operator.operand for a column, or a parenthesised logic tree such
// as (a.eq.1,and(b.gt.2,c.is.null)) for a logic operator.
//
// Top-level operands are taken verbatim (eq.a,b compares with "a,b"),
// except for in.(...), whose elements, like every operand inside a logic
// tree, may be double-quoted with \" and \\ escapes to contain , ( ) or ".
// On failure it returns an *Error with code PGRST100.
func ParseFilter(key, value string) (Filter, error) {
	f, err := parseFilter(key, value)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func parseFilter(key, value string) (Filter, *Error) {
	ks := &scanner{what: "tree path", src: key}
	if len(key) > MaxParamLength {
		return nil, ks.errAt(0, "the name is longer than %d bytes", MaxParamLength)
	}
	var segs []string
	for {
		n, err := ks.name("column")
		if err != nil {
			return nil, err
		}
		segs = append(segs, n)
		if !ks.accept(".") {
			break
		}
	}
	last := segs[len(segs)-1]
	if last == "or" || last == "and" {
		rel, negated, ok := logicPrefix(segs[:len(segs)-1])
		if !ok || !ks.eof() {
			return nil, ks.errAt(0, "a logic operator is written [relation.][not.]or or [relation.][not.]and")
		}
		s := &scanner{what: "logic tree", src: value}
		if len(value) > MaxParamLength {
			return nil, s.errAt(0, "the value is longer than %d bytes", MaxParamLength)
		}
		g, err := s.group(rel, Logic(last), negated, 1)
		if err != nil {
			return nil, err
		}
		if s.skipSpaces(); !s.eof() {
			return nil, s.unexpected("end of input")
		}
		return g, nil
	}
	if len(segs) > 2 {
		return nil, ks.errAt(0, "filters on embedded relations are supported one level deep (relation.column)")
	}
	c := &Condition{Column: last}
	if len(segs) == 2 {
		c.Relation = segs[0]
	}
	var err *Error
	if c.Path, err = ks.jsonPath(); err != nil {
		return nil, err
	}
	if ks.accept("::") {
		return nil, ks.errAt(ks.pos-2, "casts are not allowed in filters")
	}
	if !ks.eof() {
		return nil, ks.unexpected(`"->", "->>", "." or end of input`)
	}
	s := &scanner{what: "filter", src: value}
	if len(value) > MaxParamLength {
		return nil, s.errAt(0, "the value is longer than %d bytes", MaxParamLength)
	}
	if err := s.operation(c, false); err != nil {
		return nil, err
	}
	return c, nil
}

// logicPrefix interprets the segments before "or"/"and" in a logic key.
func logicPrefix(segs []string) (rel string, negated, ok bool) {
	switch {
	case len(segs) == 0:
		return "", false, true
	case len(segs) == 1 && segs[0] == "not":
		return "", true, true
	case len(segs) == 1:
		return segs[0], false, true
	case len(segs) == 2 && segs[1] == "not":
		return segs[0], true, true
	}
	return "", false, false
}

// group parses a parenthesised, comma-separated list of logic tree
// operands.
func (s *scanner) group(rel string, logic Logic, negated bool, depth int) (*Group, *Error) {
	if depth > MaxLogicDepth {
		return nil, s.errf("logic trees may nest at most %d levels deep", MaxLogicDepth)
	}
	if err := s.expect("("); err != nil {
		return nil, err
	}
	g := &Group{Relation: rel, Logic: logic, Negated: negated}
	for {
		s.skipSpaces()
		f, err := s.treeOperand(rel, depth)
		if err != nil {
			return nil, err
		}
		g.Filters = append(g.Filters, f)
		s.skipSpaces()
		if s.accept(",") {
			continue
		}
		if s.accept(")") {
			return g, nil
		}
		return nil, s.unexpected(`"," or ")"`)
	}
}

// treeOperand parses [not.]and(...), [not.]or(...) or col.[not.]op.value.
func (s *scanner) treeOperand(rel string, depth int) (Filter, *Error) {
	start := s.pos
	negated := s.accept("not.")
	for _, l := range []Logic{And, Or} {
		if s.accept(string(l) + "(") {
			s.pos--
			return s.group(rel, l, negated, depth+1)
		}
	}
	s.pos = start
	col, err := s.name("column")
	if err != nil {
		return nil, err
	}
	c := &Condition{Relation: rel, Column: col}
	if c.Path, err = s.jsonPath(); err != nil {
		return nil, err
	}
	if err := s.expect("."); err != nil {
		return nil, err
	}
	if err := s.operation(c, true); err != nil {
		return nil, err
	}
	return c, nil
}

// operation parses [not.]op.operand into c. In a logic tree (inTree) the
// operand ends at "," or ")"; otherwise it is the rest of the input.
func (s *scanner) operation(c *Condition, inTree bool) *Error {
	c.Negated = s.accept("not.")
	start := s.pos
	op := s.word()
	switch {
	case supportedOps[op] && s.peek() == '(':
		return s.errAt(start, "quantified operators such as %s(any) and %s(all) are not supported", op, op)
	case supportedOps[op]:
		c.Operator = Operator(op)
	case refusedOps[op]:
		return s.errAt(start, "the operator %q is not supported", op)
	case op == "":
		return s.unexpected(`"not" or an operator (eq, gt, ...)`)
	default:
		return s.errAt(start, "%q is not a valid operator", echo(op))
	}
	if err := s.expect("."); err != nil {
		return err
	}
	start = s.pos
	if c.Operator == OpIn {
		vals, err := s.list()
		if err != nil {
			return err
		}
		if !inTree && !s.eof() {
			return s.unexpected("end of input")
		}
		for _, v := range vals {
			if msg := checkValue(v); msg != "" {
				return s.errAt(start, "%s", msg)
			}
		}
		c.Values = vals
		return nil
	}
	raw := s.src[s.pos:]
	if inTree {
		var err *Error
		if raw, err = s.treeValue(); err != nil {
			return err
		}
	} else {
		s.pos = len(s.src)
	}
	if msg := checkValue(raw); msg != "" {
		return s.errAt(start, "%s", msg)
	}
	switch c.Operator {
	case OpIs:
		v := strings.ToLower(raw)
		switch v {
		case IsNull, IsNotNull, IsTrue, IsFalse, IsUnknown:
			c.Value = v
		default:
			return s.errAt(start, "%q is not a valid value for is (null, not_null, true, false or unknown)", echo(raw))
		}
	case OpContains, OpContainedIn:
		if js, ok := jsonOperand(raw); ok {
			c.Value, c.JSON = js, true
			return nil
		}
		vals, msg := parseArray(raw)
		if msg != "" {
			return s.errAt(start, "%s", msg)
		}
		c.Values = vals
	case OpLike, OpILike:
		c.Value = strings.ReplaceAll(raw, "*", "%")
	default:
		c.Value = raw
	}
	return nil
}

// treeValue reads an operand inside a logic tree: a double-quoted string
// followed by "," or ")", a bracketed {...} or [...] value, or bare text up
// to the next "," or ")".
func (s *scanner) treeValue() (string, *Error) {
	start := s.pos
	switch s.peek() {
	case '"':
		if v, err := s.quoted(); err == nil {
			if s.skipSpaces(); s.peek() == ',' || s.peek() == ')' {
				return v, nil
			}
		}
		s.pos = start
	case '{', '[':
		return s.bracketed()
	}
	return s.bare(), nil
}

// bare reads up to the next "," or ")".
func (s *scanner) bare() string {
	start := s.pos
	for !s.eof() && s.peek() != ',' && s.peek() != ')' {
		s.pos++
	}
	return s.src[start:s.pos]
}

// bracketed reads a balanced {...} or [...] value, skipping over
// double-quoted strings.
func (s *scanner) bracketed() (string, *Error) {
	start, depth := s.pos, 0
	for !s.eof() {
		switch s.src[s.pos] {
		case '"':
			if _, err := s.quoted(); err != nil {
				return "", err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.pos++
				return s.src[start:s.pos], nil
			}
		}
		s.pos++
	}
	return "", s.errAt(start, "unbalanced brackets")
}

// list parses the operand of in: (a,"b,c",...). Elements may be
// double-quoted; an empty pair of parentheses is an empty list.
func (s *scanner) list() ([]string, *Error) {
	if err := s.expect("("); err != nil {
		return nil, err
	}
	vals := []string{}
	if s.accept(")") {
		return vals, nil
	}
	for {
		vals = append(vals, s.listElement())
		if s.accept(",") {
			continue
		}
		if s.accept(")") {
			return vals, nil
		}
		return nil, s.unexpected(`"," or ")"`)
	}
}

func (s *scanner) listElement() string {
	start := s.pos
	if s.peek() == '"' {
		if v, err := s.quoted(); err == nil && (s.peek() == ',' || s.peek() == ')') {
			return v
		}
		s.pos = start
	}
	return s.bare()
}

// listString renders an in-list.
func listString(vals []string) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = quoteValue(v)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// jsonOperand recognises a JSON object or array and returns it compacted.
// An empty object ({}, { }) is not JSON here: it reads as an empty array
// literal, which .contains(col, []) sends.
func jsonOperand(raw string) (string, bool) {
	if raw == "" || raw[0] != '{' && raw[0] != '[' {
		return "", false
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) != nil || b.String() == "{}" {
		return "", false
	}
	return b.String(), true
}

// parseArray parses a one-dimensional PostgreSQL array literal such as
// {a,"b,c",d}. Unquoted elements are trimmed; \ escapes the next
// character. It returns a message when raw is not such a literal.
func parseArray(raw string) ([]string, string) {
	const want = "expecting an array literal such as {a,b} or a JSON object or array"
	if len(raw) < 2 || raw[0] != '{' || raw[len(raw)-1] != '}' {
		return nil, want
	}
	in := raw[1 : len(raw)-1]
	vals := []string{}
	if strings.TrimSpace(in) == "" {
		return vals, ""
	}
	i := 0
	for {
		for i < len(in) && isSpace(in[i]) {
			i++
		}
		var b strings.Builder
		quoted := i < len(in) && in[i] == '"'
		if quoted {
			i++
		}
		closed, escaped := false, false
		keep := 0 // length of b without trailing unescaped spaces
		for ; i < len(in) && !closed; i++ {
			c := in[i]
			switch {
			case quoted && c == '"':
				closed = true
				continue
			case !quoted && c == ',':
			case !quoted && (c == '"' || c == '{' || c == '}'):
				return nil, want + " (nested arrays and stray quotes are not supported)"
			case c == '\\':
				if i++; i == len(in) {
					return nil, want
				}
				b.WriteByte(in[i])
				keep, escaped = b.Len(), true
				continue
			default:
				b.WriteByte(c)
				if quoted || !isSpace(c) {
					keep = b.Len()
				}
				continue
			}
			break // an unquoted ","
		}
		if quoted && !closed {
			return nil, want + " (unterminated double quote)"
		}
		v := b.String()[:keep]
		if !quoted && v == "" {
			return nil, want + " (empty element)"
		}
		if !quoted && !escaped && strings.EqualFold(v, "NULL") {
			return nil, "NULL elements are not supported in array values"
		}
		vals = append(vals, v)
		for i < len(in) && isSpace(in[i]) {
			i++
		}
		if i == len(in) {
			return vals, ""
		}
		if in[i] != ',' {
			return nil, want
		}
		i++
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// arrayString renders an array literal that parseArray reads back.
func arrayString(vals []string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	parts := make([]string, len(vals))
	for i, v := range vals {
		// Brackets are quoted too: inside a logic tree the operand must
		// stay balanced.
		if v == "" || strings.EqualFold(v, "NULL") || strings.ContainsAny(v, ",{}[]()\"\\ \t\n\r\v\f") {
			v = `"` + r.Replace(v) + `"`
		}
		parts[i] = v
	}
	return "{" + strings.Join(parts, ",") + "}"
}
