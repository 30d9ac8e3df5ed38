package pgrest

import (
	"sort"
	"strconv"
	"strings"
)

// PathStep is one step of a JSON path written after a column: ->Key
// selects a JSON value, ->>Key the same value as text.
type PathStep struct {
	// Key is an identifier (an object key) or an integer array index, see
	// Index.
	Key string
	// Text is true for ->>.
	Text bool
}

// Index returns the array index the step denotes, if Key is an integer.
func (p PathStep) Index() (int, bool) {
	if !isIndex(p.Key) {
		return 0, false
	}
	n, err := strconv.Atoi(p.Key)
	return n, err == nil
}

func pathString(path []PathStep) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString("->")
		if p.Text {
			b.WriteString(">")
		}
		b.WriteString(p.Key)
	}
	return b.String()
}

// castTypes maps each type name accepted after "::" to its canonical name.
var castTypes = map[string]string{
	"text": "text", "integer": "integer", "int": "integer", "int4": "integer",
	"bigint": "bigint", "int8": "bigint", "numeric": "numeric", "decimal": "numeric",
	"boolean": "boolean", "bool": "boolean", "json": "json", "jsonb": "jsonb",
	"date": "date", "timestamptz": "timestamptz", "uuid": "uuid",
}

// CastTypes returns the canonical type names a select item may be cast to:
// bigint, boolean, date, integer, json, jsonb, numeric, text, timestamptz
// and uuid. The aliases int, int4, int8, bool and decimal are accepted in
// the query and recorded under their canonical name.
func CastTypes() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range castTypes {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// Select is the parsed select parameter: the output columns and embedded
// relations, in the order written. An empty Select selects no columns.
type Select []SelectItem

// SelectItem is one element of a select list. Exactly one form applies:
// Star ("*"), an embedding (Embed non-nil) or a column (Column non-empty).
type SelectItem struct {
	// Star is "*": every column the caller may read, of the base table or
	// (inside an embedding) of the embedded relation.
	Star bool
	// Alias renames the output key (alias:column, alias:rel(...)).
	Alias string
	// Column is the column name of a column item.
	Column string
	// Path is the JSON path after the column, if any (col->a->>b).
	Path []PathStep
	// Cast is the canonical type the column is cast to (col::text), one of
	// CastTypes, or "".
	Cast string
	// Embed is the embedded relation of a rel(...) item.
	Embed *Embed
}

// Embed is an embedded relation: rel(items), rel!hint(items),
// rel!inner(items). Embedded items never embed further.
type Embed struct {
	// Relation is the related table (or view) name.
	Relation string
	// Hint disambiguates between several relationships to Relation (a
	// foreign key or column name), or is "".
	Hint string
	// Inner asks for an inner join (!inner): parent rows without a
	// matching embedded row are dropped. The default is a left join.
	Inner bool
	// Select lists the embedded columns.
	Select Select
	// Order, Limit and Offset order and page the embedded rows of each
	// parent row (rel.order, rel.limit, rel.offset). ParseSelect leaves
	// them unset; ParseRequest fills them in.
	Order  Order
	Limit  *int
	Offset int
}

// Name returns the key of the item in the response: the alias if there is
// one, otherwise the relation of an embedding, the last object key of a
// JSON path, or the column name. It is "" for Star.
func (it SelectItem) Name() string {
	switch {
	case it.Star:
		return ""
	case it.Alias != "":
		return it.Alias
	case it.Embed != nil:
		return it.Embed.Relation
	}
	for i := len(it.Path) - 1; i >= 0; i-- {
		if _, isIdx := it.Path[i].Index(); !isIdx {
			return it.Path[i].Key
		}
	}
	return it.Column
}

// String renders the item in canonical select syntax.
func (it SelectItem) String() string {
	if it.Star {
		return "*"
	}
	var b strings.Builder
	if it.Alias != "" {
		b.WriteString(it.Alias + ":")
	}
	if e := it.Embed; e != nil {
		b.WriteString(e.Relation)
		if e.Hint != "" {
			b.WriteString("!" + e.Hint)
		}
		if e.Inner {
			b.WriteString("!inner")
		}
		b.WriteString("(" + e.Select.String() + ")")
		return b.String()
	}
	b.WriteString(it.Column + pathString(it.Path))
	if it.Cast != "" {
		b.WriteString("::" + it.Cast)
	}
	return b.String()
}

// String renders the list in canonical select syntax; ParseSelect of the
// result yields an equal Select.
func (s Select) String() string {
	parts := make([]string, len(s))
	for i, it := range s {
		parts[i] = it.String()
	}
	return strings.Join(parts, ",")
}

// Embedding returns the embedding whose Name is name, if the list has one.
// Embedded filters, order and paging (rel.col=..., rel.order=...) refer to
// an embedding this way: by its alias, or by its relation when it has none.
func (s Select) Embedding(name string) (*Embed, bool) {
	for _, it := range s {
		if it.Embed != nil && it.Name() == name {
			return it.Embed, true
		}
	}
	return nil, false
}

// MaxSelectItems is the largest number of items a select parameter may
// list, counting those inside embeddings: each becomes an expression of
// the statement, and the databases bound those.
const MaxSelectItems = 500

// ParseSelect parses the value of the select parameter, for example
// "id,title,owner:users!inner(id,name),meta->>tag,total::text".
// Spaces around names and delimiters are ignored. On failure it returns an
// *Error with code PGRST100.
func ParseSelect(v string) (Select, error) {
	sel, err := parseSelect(v)
	if err != nil {
		return nil, err
	}
	return sel, nil
}

func parseSelect(v string) (Select, *Error) {
	s := &scanner{what: "select parameter", src: v}
	if len(v) > MaxParamLength {
		return nil, s.errAt(0, "the value is longer than %d bytes", MaxParamLength)
	}
	items, err := s.selectItems(0)
	if err != nil {
		return nil, err
	}
	if !s.eof() {
		return nil, s.unexpected(`"," or end of input`)
	}
	return items, nil
}

// selectItems parses a possibly empty comma-separated list of items, up to
// the end of the input or a closing parenthesis (not consumed).
func (s *scanner) selectItems(depth int) (Select, *Error) {
	items := Select{}
	s.skipSpaces()
	if s.eof() || s.peek() == ')' {
		return items, nil
	}
	for {
		it, err := s.selectItem(depth)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
		if s.items++; s.items > MaxSelectItems {
			return nil, s.errf("the select lists more than %d items", MaxSelectItems)
		}
		s.skipSpaces()
		if !s.accept(",") {
			return items, nil
		}
	}
}

func (s *scanner) selectItem(depth int) (SelectItem, *Error) {
	s.skipSpaces()
	start := s.pos
	if s.accept("*") {
		return SelectItem{Star: true}, nil
	}
	if s.accept("...") {
		return SelectItem{}, s.errAt(start, "spread embedding (...) is not supported")
	}
	first, err := s.name("column")
	if err != nil {
		return SelectItem{}, err
	}
	var alias string
	if s.peek() == ':' && !strings.HasPrefix(s.src[s.pos:], "::") {
		s.pos++
		alias = first
		if first, err = s.name("column"); err != nil {
			return SelectItem{}, err
		}
	}
	if s.peek() == '!' || s.peek() == '(' {
		return s.embed(alias, first, depth, start)
	}
	it := SelectItem{Alias: alias, Column: first}
	if it.Path, err = s.jsonPath(); err != nil {
		return SelectItem{}, err
	}
	if s.peek() == '.' {
		return SelectItem{}, s.errf("aggregate functions (column.func()) are not supported")
	}
	if s.accept("::") {
		tstart := s.pos
		t := s.word()
		c, ok := castTypes[strings.ToLower(t)]
		if !ok {
			return SelectItem{}, s.errAt(tstart, "%q is not a supported cast type (supported: %s)", echo(t), strings.Join(CastTypes(), ", "))
		}
		it.Cast = c
	}
	return it, nil
}

func (s *scanner) embed(alias, rel string, depth, start int) (SelectItem, *Error) {
	if depth > 0 {
		return SelectItem{}, s.errAt(start, "embedding is supported one level deep: %q cannot be embedded inside another embedding", rel)
	}
	e := &Embed{Relation: rel}
	left := false
	for s.accept("!") {
		hstart := s.pos
		h, err := s.name("hint")
		if err != nil {
			return SelectItem{}, err
		}
		switch {
		case h == "inner" && !left && !e.Inner:
			e.Inner = true
		case h == "left" && !left && !e.Inner:
			left = true
		case h == "inner" || h == "left":
			return SelectItem{}, s.errAt(hstart, "only one of !inner and !left is allowed")
		case e.Hint != "":
			return SelectItem{}, s.errAt(hstart, "only one disambiguation hint is allowed")
		default:
			e.Hint = h
		}
	}
	if err := s.expect("("); err != nil {
		return SelectItem{}, err
	}
	items, err := s.selectItems(depth + 1)
	if err != nil {
		return SelectItem{}, err
	}
	if err := s.expect(")"); err != nil {
		return SelectItem{}, s.unexpected(`"," or ")"`)
	}
	if rel == "count" && len(items) == 0 {
		return SelectItem{}, s.errAt(start, "aggregate functions are not supported")
	}
	e.Select = items
	return SelectItem{Alias: alias, Embed: e}, nil
}
