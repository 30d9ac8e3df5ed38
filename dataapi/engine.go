package dataapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/pgrest"
)

// DemoRefusal refuses a write of a demo caller with the specification's
// message (forbidden, 42501).
func DemoRefusal() *fairbalance.Error {
	return NewError(fairbalance.KindForbidden, "42501", fairbalance.DemoWriteRefused, "", "")
}

// ColumnSpec declares a column of a registered table.
type ColumnSpec struct {
	Name string
	// Source is the database column when it differs from Name.
	Source string
	Type   fairbalance.ColumnType
	// Read decides who may read the column; nil: whoever may read the row.
	Read func(c fairbalance.Caller) bool
	// Write decides who may set the column on insert and update; nil:
	// whoever may write the row. ServerSet columns are never written by a
	// client (the service role excepted).
	Write     func(c fairbalance.Caller) bool
	ServerSet bool
	// Default gives the value on insert when the client gives none.
	Default func(c fairbalance.Caller, now time.Time) any
	// Nullable columns accept null.
	Nullable bool
	// Enum, when set, is the closed list of values a text column holds: a
	// write of another value is refused as the database's CHECK would
	// refuse it, and clients see the column as a union of the values.
	Enum *fairbalance.Vocabulary
}

// RelationSpec declares a one-level embedding: rows of Table whose
// ForeignColumn equals this table's LocalColumn.
type RelationSpec struct {
	Name          string
	Table         string
	LocalColumn   string
	ForeignColumn string
	Many          bool
}

// TableSpec declares a table of the data API.
type TableSpec struct {
	Name string
	// Source is the database table when it differs from Name (two API
	// shapes of one table, as audit_logs and audit_logs_v2).
	Source    string
	Columns   []ColumnSpec
	Key       []string
	Relations []RelationSpec
	// Rows restricts the rows the caller may see (and update or delete):
	// nil Cond means every row; ok false means none at all.
	Rows func(c fairbalance.Caller) (cond *fairbalance.Cond, ok bool)
	// CanInsert, CanUpdate, CanDelete decide row-level write rights;
	// nil means nobody but the service role.
	CanInsert func(c fairbalance.Caller) bool
	CanUpdate func(c fairbalance.Caller) bool
	CanDelete func(c fairbalance.Caller) bool
	// CheckInsert and CheckUpdate validate (and may complete) a row before
	// it is written, inside the write's transaction.
	CheckInsert func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, row map[string]any) error
	CheckUpdate func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error
	// CheckDelete validates a delete of the rows matching where (the
	// caller's filters and the row policy) inside its transaction, e.g. to
	// refuse with a clear message a row that others still refer to.
	CheckDelete func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, where *fairbalance.Cond) error
	// Frozen refuses an update or a delete (op "update" or "delete") of
	// rows that nobody may change, the service role included: a version
	// submitted for review, whose review and signatures are bound to its
	// exact content. It runs in the write's transaction, before the write
	// and before the caller's own checks, with where (the caller's filters
	// and the row policy); an upsert that would merge into an existing row
	// asks it as an update of that row.
	Frozen func(ctx context.Context, tx fairbalance.Tx, op string, where *fairbalance.Cond) error
	// AuditActions names the audit action of each kind of write ("insert",
	// "upsert", "update", "delete"); a kind not named is "<table>.<kind>".
	AuditActions map[string]string
	// DemoInsert, when set, lets demo callers insert the given body (the
	// audit entries of demo role switches); every other demo write is refused.
	DemoInsert func(body []byte) bool
	// FastCount, when set, counts the rows the caller may see when the
	// request has no filter of its own, without scanning them.
	FastCount func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller) (int64, error)
	// Insert replaces the plain insert (plan in API names), e.g. to append
	// to the audit chain; it returns the rows to represent and their number.
	Insert func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, plan *fairbalance.WritePlan) (json.RawMessage, int64, error)
}

// DBName is the column in the database: Source, else Name.
func (c *ColumnSpec) DBName() string {
	if c.Source != "" {
		return c.Source
	}
	return c.Name
}

// DBName is the table in the database: Source, else Name.
func (t *TableSpec) DBName() string {
	if t.Source != "" {
		return t.Source
	}
	return t.Name
}

func (t *TableSpec) column(name string) *ColumnSpec {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

func (t *TableSpec) relation(name string) *RelationSpec {
	for i := range t.Relations {
		if t.Relations[i].Name == name {
			return &t.Relations[i]
		}
	}
	return nil
}

// Engine is the data API: a registry of tables and functions, and the
// reads, writes and calls it serves over them.
type Engine struct {
	store  fairbalance.Store
	tables map[string]*TableSpec
	names  []string
	funcs  map[string]*FunctionSpec
	// Now is the clock.
	Now func() time.Time
	// MailQueued, when set, is called after a function marked Mails has
	// committed (it wakes the mailer).
	MailQueued func()
	// Sealer seals the audit trail (nil: sealing is off, and
	// verify_audit_chain() checks the chains against themselves only).
	Sealer fairbalance.AuditSealer
}

// New returns the data API over the given tables, served from store (which
// may be nil for a registry that only describes itself: TypeScript, OpenAPI).
func New(store fairbalance.Store, tables ...*TableSpec) *Engine {
	d := &Engine{store: store, tables: map[string]*TableSpec{}, Now: func() time.Time { return time.Now().UTC() }}
	for _, t := range tables {
		d.tables[t.Name] = t
		d.names = append(d.names, t.Name)
	}
	sort.Strings(d.names)
	return d
}

// Tables lists the registered tables, sorted by name.
func (d *Engine) Tables() []*TableSpec {
	out := make([]*TableSpec, 0, len(d.names))
	for _, n := range d.names {
		out = append(out, d.tables[n])
	}
	return out
}

// MaxRows caps a read without a limit, as hosted PostgREST does.
const MaxRows = 1000

// NewError is a refusal in PostgREST's terms: its code (PostgREST's
// PGRSTnnn or PostgreSQL's SQLSTATE), message, details and hint.
func NewError(kind fairbalance.Kind, code, msg, details, hint string) *fairbalance.Error {
	return &fairbalance.Error{Kind: kind, Code: code, Message: msg, Details: details, Hint: hint}
}

func (d *Engine) table(name string) (*TableSpec, error) {
	t, ok := d.tables[name]
	if !ok {
		return nil, NewError(fairbalance.KindNotFound, "PGRST205", fmt.Sprintf("Could not find the table 'public.%s' in the schema cache", name), "", "")
	}
	return t, nil
}

// Denied is PostgREST's permission error (42501): unauthorized for
// anonymous callers, forbidden for signed-in ones.
func Denied(c fairbalance.Caller, msg string) *fairbalance.Error {
	kind := fairbalance.KindForbidden
	if c.Anon() {
		kind = fairbalance.KindUnauthorized
	}
	return NewError(kind, "42501", msg, "", "")
}

func noColumn(table, col string) *fairbalance.Error {
	return NewError(fairbalance.KindInvalid, "42703", fmt.Sprintf("column %s.%s does not exist", table, col), "", "")
}

func readable(c fairbalance.Caller, col *ColumnSpec) bool {
	return c.Service() || col.Read == nil || col.Read(c)
}

// selectColumns resolves select items of one table (no embeddings) for c.
func selectColumns(c fairbalance.Caller, t *TableSpec, items pgrest.Select) ([]fairbalance.SelectColumn, error) {
	var out []fairbalance.SelectColumn
	for _, it := range items {
		switch {
		case it.Embed != nil:
			continue
		case it.Star:
			for i := range t.Columns {
				if readable(c, &t.Columns[i]) {
					out = append(out, fairbalance.SelectColumn{Column: t.Columns[i].DBName(), Alias: t.Columns[i].Name, Type: t.Columns[i].Type})
				}
			}
		default:
			if len(it.Path) > 0 || it.Cast != "" {
				return nil, NewError(fairbalance.KindInvalid, "PGRST100", "JSON paths and casts are not supported in select", it.String(), "")
			}
			col := t.column(it.Column)
			if col == nil {
				return nil, noColumn(t.Name, it.Column)
			}
			if !readable(c, col) {
				return nil, Denied(c, "permission denied for table "+t.Name)
			}
			out = append(out, fairbalance.SelectColumn{Column: col.DBName(), Alias: it.Name(), Type: col.Type})
		}
	}
	return out, nil
}

// convert turns a filter operand into the column's type.
func convert(t *TableSpec, col *ColumnSpec, v string) (any, error) {
	bad := func() error {
		return NewError(fairbalance.KindInvalid, "22P02", fmt.Sprintf("invalid input syntax for type %s: \"%s\"", col.Type, v), "", "")
	}
	switch col.Type {
	case fairbalance.TypeInteger:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, bad()
		}
		return n, nil
	case fairbalance.TypeNumeric:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, bad()
		}
		return f, nil
	case fairbalance.TypeBoolean:
		switch strings.ToLower(v) {
		case "true", "t", "yes", "y", "on", "1":
			return true, nil
		case "false", "f", "no", "n", "off", "0":
			return false, nil
		}
		return nil, bad()
	case fairbalance.TypeTimestamp:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02"} {
			if ts, err := time.Parse(layout, v); err == nil {
				return ts.UTC(), nil
			}
		}
		return nil, bad()
	case fairbalance.TypeUUID:
		if !auth.IsUUID(v) {
			return nil, bad()
		}
		return strings.ToLower(v), nil
	}
	return v, nil
}

// cond translates a pgrest filter on table t into a store condition.
func cond(c fairbalance.Caller, t *TableSpec, f pgrest.Filter) (*fairbalance.Cond, error) {
	switch f := f.(type) {
	case *pgrest.Group:
		g := &fairbalance.Cond{Logic: string(f.Logic), Negated: f.Negated}
		for _, ch := range f.Filters {
			cc, err := cond(c, t, ch)
			if err != nil {
				return nil, err
			}
			g.Children = append(g.Children, cc)
		}
		return g, nil
	case *pgrest.Condition:
		if len(f.Path) > 0 {
			return nil, NewError(fairbalance.KindInvalid, "PGRST100", "JSON paths are not supported in filters", f.String(), "")
		}
		col := t.column(f.Column)
		if col == nil {
			return nil, noColumn(t.Name, f.Column)
		}
		if !readable(c, col) {
			return nil, Denied(c, "permission denied for table "+t.Name)
		}
		out := &fairbalance.Cond{Column: col.DBName(), Operator: string(f.Operator), Negated: f.Negated}
		switch f.Operator {
		case pgrest.OpIs:
			switch f.Value {
			case pgrest.IsNull:
			case pgrest.IsNotNull:
				out.Negated = !out.Negated
			case pgrest.IsTrue:
				out.Value = true
			case pgrest.IsFalse:
				out.Value = false
			default:
				return nil, NewError(fairbalance.KindInvalid, "PGRST100", "is.unknown is not supported", f.String(), "")
			}
		case pgrest.OpIsDistinct:
			return nil, NewError(fairbalance.KindInvalid, "PGRST100", "isdistinct is not supported", f.String(), "")
		case pgrest.OpIn:
			for _, v := range f.Values {
				cv, err := convert(t, col, v)
				if err != nil {
					return nil, err
				}
				out.Values = append(out.Values, cv)
			}
		case pgrest.OpContains, pgrest.OpContainedIn:
			if col.Type != fairbalance.TypeTextArray && col.Type != fairbalance.TypeJSON {
				return nil, NewError(fairbalance.KindInvalid, "42883", fmt.Sprintf("operator does not exist: %s @> unknown", col.Type), "", "")
			}
			if f.JSON {
				var arr []any
				if err := json.Unmarshal([]byte(f.Value), &arr); err != nil {
					return nil, NewError(fairbalance.KindInvalid, "22P02", "only JSON arrays are supported by cs and cd", f.Value, "")
				}
				out.Values = arr
			} else {
				for _, v := range f.Values {
					out.Values = append(out.Values, v)
				}
			}
		case pgrest.OpLike, pgrest.OpILike:
			out.Value = f.Value
		default:
			cv, err := convert(t, col, f.Value)
			if err != nil {
				return nil, err
			}
			out.Value = cv
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown filter %T", f)
}

// And is the conjunction of the non-nil conditions (nil when there is none).
func And(conds ...*fairbalance.Cond) *fairbalance.Cond {
	var kids []*fairbalance.Cond
	for _, c := range conds {
		if c != nil {
			kids = append(kids, c)
		}
	}
	switch len(kids) {
	case 0:
		return nil
	case 1:
		return kids[0]
	}
	return &fairbalance.Cond{Logic: "and", Children: kids}
}

// rows returns the row policy of t for c; ok false means no rows at all.
func rows(c fairbalance.Caller, t *TableSpec) (*fairbalance.Cond, bool) {
	if c.Service() {
		return nil, true
	}
	if t.Rows == nil {
		return nil, false
	}
	return t.Rows(c)
}

// NoRows is a condition that matches no row (an empty "or"), for a row
// policy that lets the caller ask but shows nothing.
func NoRows() *fairbalance.Cond { return &fairbalance.Cond{Logic: "or"} }

var nothing = NoRows()

// ReadResult is the outcome of a read.
type ReadResult struct {
	Rows    json.RawMessage
	Count   int // rows returned
	Total   int64
	Counted bool
	Offset  int
}

// Read runs a GET on a table.
func (d *Engine) Read(ctx context.Context, c fairbalance.Caller, table string, req *pgrest.Request) (*ReadResult, error) {
	plan, err := d.readPlan(c, table, req)
	if err != nil {
		return nil, err
	}
	counted := plan.Count
	var fast int64 = -1
	inner := false
	for _, e := range plan.Embeds {
		inner = inner || e.Inner
	}
	if t := d.tables[table]; plan.Count && t.FastCount != nil && len(req.FiltersOn("")) == 0 && !inner && !c.Service() && !c.Anon() {
		n, err := t.FastCount(ctx, d.store.View(), c)
		if err != nil {
			return nil, d.storeError(c, table, err)
		}
		fast, plan.Count = n, false
	}
	raw, total, err := d.store.View().Read(ctx, plan)
	if err != nil {
		return nil, d.storeError(c, table, err)
	}
	if fast >= 0 {
		total = fast
	}
	res := &ReadResult{Rows: raw, Total: total, Counted: counted, Offset: plan.Offset}
	res.Count = countRows(raw)
	if !counted {
		res.Total = -1
	}
	return res, nil
}

func countRows(raw json.RawMessage) int {
	if len(raw) <= 2 {
		return 0
	}
	// Cheap: count top-level objects.
	depth, n := 0, 0
	inStr, esc := false, false
	for _, ch := range raw {
		switch {
		case esc:
			esc = false
		case inStr:
			if ch == '\\' {
				esc = true
			} else if ch == '"' {
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '{' || ch == '[':
			if depth == 1 && ch == '{' {
				n++
			}
			depth++
		case ch == '}' || ch == ']':
			depth--
		}
	}
	return n
}

func (d *Engine) readPlan(c fairbalance.Caller, table string, req *pgrest.Request) (*fairbalance.ReadPlan, error) {
	t, err := d.table(table)
	if err != nil {
		return nil, err
	}
	policy, ok := rows(c, t)
	if !ok {
		if c.Anon() {
			return nil, Denied(c, "permission denied for table "+t.Name)
		}
		policy = nothing
	}
	plan := &fairbalance.ReadPlan{Table: t.DBName(), Offset: req.Offset}
	if plan.Columns, err = selectColumns(c, t, req.Select); err != nil {
		return nil, err
	}
	for _, it := range req.Select {
		if it.Embed == nil {
			continue
		}
		rel := t.relation(it.Embed.Relation)
		if rel == nil {
			return nil, NewError(fairbalance.KindInvalid, "PGRST200", fmt.Sprintf("Could not find a relationship between '%s' and '%s' in the schema cache", t.Name, it.Embed.Relation), "", "")
		}
		rt, err := d.table(rel.Table)
		if err != nil {
			return nil, err
		}
		cols, err := selectColumns(c, rt, it.Embed.Select)
		if err != nil {
			return nil, err
		}
		for _, sub := range it.Embed.Select {
			if sub.Embed != nil {
				return nil, NewError(fairbalance.KindInvalid, "PGRST100", "only one level of embedding is supported", it.String(), "")
			}
		}
		e := fairbalance.Embed{Name: it.Name(), Table: rt.DBName(), Columns: cols, LocalColumn: rel.LocalColumn, ForeignColumn: rel.ForeignColumn, Many: rel.Many, Inner: it.Embed.Inner}
		rp, ok := rows(c, rt)
		if !ok {
			rp = nothing
		}
		conds := []*fairbalance.Cond{rp}
		for _, f := range req.FiltersOn(it.Name()) {
			fc, err := cond(c, rt, f)
			if err != nil {
				return nil, err
			}
			conds = append(conds, fc)
		}
		e.Where = And(conds...)
		plan.Embeds = append(plan.Embeds, e)
	}
	conds := []*fairbalance.Cond{policy}
	for _, f := range req.FiltersOn("") {
		fc, err := cond(c, t, f)
		if err != nil {
			return nil, err
		}
		conds = append(conds, fc)
	}
	plan.Where = And(conds...)
	for _, o := range req.Order {
		if o.Relation != "" || len(o.Path) > 0 {
			return nil, NewError(fairbalance.KindInvalid, "PGRST100", "ordering by embedded columns or JSON paths is not supported", o.String(), "")
		}
		col := t.column(o.Column)
		if col == nil {
			return nil, noColumn(t.Name, o.Column)
		}
		if !readable(c, col) {
			return nil, Denied(c, "permission denied for table "+t.Name)
		}
		term := fairbalance.OrderTerm{Column: col.DBName(), Desc: o.Desc}
		switch o.Nulls {
		case pgrest.NullsFirst:
			v := true
			term.NullsFirst = &v
		case pgrest.NullsLast:
			v := false
			term.NullsFirst = &v
		}
		plan.Order = append(plan.Order, term)
	}
	plan.Limit = MaxRows
	if req.Limit != nil && *req.Limit < MaxRows {
		plan.Limit = *req.Limit
		if plan.Limit == 0 {
			plan.Limit = -1 // LIMIT 0
		}
	}
	plan.Count = req.Prefer.Count != ""
	return plan, nil
}

// storeError maps a store failure to PostgREST's error.
func (d *Engine) storeError(c fairbalance.Caller, table string, err error) error {
	if fe := fairbalance.AsError(err); fe != nil && fe.Kind != fairbalance.KindInternal {
		return fe
	}
	switch {
	case errors.Is(err, fairbalance.ErrConflict):
		return NewError(fairbalance.KindConflict, "23505", "duplicate key value violates unique constraint", err.Error(), "")
	case errors.Is(err, fairbalance.ErrNotFound):
		return NewError(fairbalance.KindConflict, "23503", "insert or update on table \""+table+"\" violates foreign key constraint", "", "")
	}
	return internal(err)
}

// internal wraps a failure that is not the client's: rendered generically,
// its cause logged.
func internal(err error) error {
	if err == nil {
		return nil
	}
	if fairbalance.AsError(err) != nil {
		return err
	}
	return &fairbalance.Error{Kind: fairbalance.KindInternal, Code: "unexpected_failure", Message: "Unexpected failure, please check server logs for more information", Err: err}
}
