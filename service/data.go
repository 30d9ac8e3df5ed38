package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/pgrest"
)

// The data API (/rest/v1) serves a registry of tables, never the raw
// database. Each table declares its columns and types, who may read and
// write each column, its row policy and its one-level relations; this file
// turns a parsed request (package pgrest) into a plan the store runs, and
// every refusal into PostgREST's error.

// demoRefusal refuses a write of a demo caller with the spec's message.
func demoRefusal() *pgrest.Error {
	return pgErr(http.StatusForbidden, "42501", DemoWriteRefused, "", "")
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

func (c *ColumnSpec) db() string {
	if c.Source != "" {
		return c.Source
	}
	return c.Name
}

func (t *TableSpec) db() string {
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

// Data is the data API service.
type Data struct {
	store  fairbalance.Store
	tables map[string]*TableSpec
	names  []string
	funcs  map[string]*FunctionSpec
	// Now is the clock.
	Now func() time.Time
	// Config describes the instance to the workspace functions; set it
	// before serving.
	Config DataConfig

	verifyMu  sync.Mutex
	verifying map[string]*verification // chain verifications in progress, by organisation
}

// DataConfig is what the workspace functions of the data API need to know
// of the instance. Zero fields take the defaults named on each.
type DataConfig struct {
	// Version is reported by diagnostics() ("dev").
	Version string
	// SiteURL is where the app is served; invitation links are
	// {SiteURL}/signup?invite={token} ("http://127.0.0.1:8080").
	SiteURL string
	// MailSender is "smtp" when e-mail is delivered by SMTP, else "log".
	MailSender string
	// Storage names the blob backend diagnostics() reports ("disk" or "s3"); empty
	// reports "not configured".
	Storage string
	// SessionInactivity and SessionLifetime bound the sessions that
	// list_sessions() reports as active (12 h and 7 days, as the identity
	// service's defaults).
	SessionInactivity time.Duration
	SessionLifetime   time.Duration
	// MailQueued is called after a function that put mail in the outbox
	// has committed (it wakes the mailer).
	MailQueued func()
	// Sealer seals the audit trail (nil: sealing is off, and
	// verify_audit_chain() checks the chains against themselves only).
	Sealer fairbalance.AuditSealer
}

func (d *Data) cfg() DataConfig {
	c := d.Config
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.SiteURL == "" {
		c.SiteURL = "http://127.0.0.1:8080"
	}
	c.SiteURL = strings.TrimRight(c.SiteURL, "/")
	if c.MailSender != "smtp" {
		c.MailSender = "log"
	}
	if c.SessionInactivity == 0 {
		c.SessionInactivity = 12 * time.Hour
	}
	if c.SessionLifetime == 0 {
		c.SessionLifetime = 7 * 24 * time.Hour
	}
	return c
}

// NewData returns the data API over the given tables.
func NewData(store fairbalance.Store, tables ...*TableSpec) *Data {
	d := &Data{store: store, tables: map[string]*TableSpec{}, Now: func() time.Time { return time.Now().UTC() }}
	for _, t := range tables {
		d.tables[t.Name] = t
		d.names = append(d.names, t.Name)
	}
	sort.Strings(d.names)
	return d
}

// Tables lists the registered tables, sorted by name.
func (d *Data) Tables() []*TableSpec {
	out := make([]*TableSpec, 0, len(d.names))
	for _, n := range d.names {
		out = append(out, d.tables[n])
	}
	return out
}

// MaxRows caps a read without a limit, as hosted PostgREST does.
const MaxRows = 1000

func pgErr(status int, code, msg, details, hint string) *pgrest.Error {
	return &pgrest.Error{Status: status, Code: code, Message: msg, Details: details, Hint: hint}
}

func (d *Data) table(name string) (*TableSpec, error) {
	t, ok := d.tables[name]
	if !ok {
		return nil, pgErr(http.StatusNotFound, "PGRST205", fmt.Sprintf("Could not find the table 'public.%s' in the schema cache", name), "", "")
	}
	return t, nil
}

// denied is PostgREST's permission error: 401 for anonymous callers, 403
// for signed-in ones.
func denied(c fairbalance.Caller, msg string) *pgrest.Error {
	status := http.StatusForbidden
	if c.Anon() {
		status = http.StatusUnauthorized
	}
	return pgErr(status, "42501", msg, "", "")
}

func noColumn(table, col string) *pgrest.Error {
	return pgErr(http.StatusBadRequest, "42703", fmt.Sprintf("column %s.%s does not exist", table, col), "", "")
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
					out = append(out, fairbalance.SelectColumn{Column: t.Columns[i].db(), Alias: t.Columns[i].Name, Type: t.Columns[i].Type})
				}
			}
		default:
			if len(it.Path) > 0 || it.Cast != "" {
				return nil, pgErr(http.StatusBadRequest, "PGRST100", "JSON paths and casts are not supported in select", it.String(), "")
			}
			col := t.column(it.Column)
			if col == nil {
				return nil, noColumn(t.Name, it.Column)
			}
			if !readable(c, col) {
				return nil, denied(c, "permission denied for table "+t.Name)
			}
			out = append(out, fairbalance.SelectColumn{Column: col.db(), Alias: it.Name(), Type: col.Type})
		}
	}
	return out, nil
}

// convert turns a filter operand into the column's type.
func convert(t *TableSpec, col *ColumnSpec, v string) (any, error) {
	bad := func() error {
		return pgErr(http.StatusBadRequest, "22P02", fmt.Sprintf("invalid input syntax for type %s: \"%s\"", col.Type, v), "", "")
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
			return nil, pgErr(http.StatusBadRequest, "PGRST100", "JSON paths are not supported in filters", f.String(), "")
		}
		col := t.column(f.Column)
		if col == nil {
			return nil, noColumn(t.Name, f.Column)
		}
		if !readable(c, col) {
			return nil, denied(c, "permission denied for table "+t.Name)
		}
		out := &fairbalance.Cond{Column: col.db(), Operator: string(f.Operator), Negated: f.Negated}
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
				return nil, pgErr(http.StatusBadRequest, "PGRST100", "is.unknown is not supported", f.String(), "")
			}
		case pgrest.OpIsDistinct:
			return nil, pgErr(http.StatusBadRequest, "PGRST100", "isdistinct is not supported", f.String(), "")
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
				return nil, pgErr(http.StatusBadRequest, "42883", fmt.Sprintf("operator does not exist: %s @> unknown", col.Type), "", "")
			}
			if f.JSON {
				var arr []any
				if err := json.Unmarshal([]byte(f.Value), &arr); err != nil {
					return nil, pgErr(http.StatusBadRequest, "22P02", "only JSON arrays are supported by cs and cd", f.Value, "")
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

func and(conds ...*fairbalance.Cond) *fairbalance.Cond {
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

var nothing = &fairbalance.Cond{Logic: "or"} // matches no row

// ReadResult is the outcome of a read.
type ReadResult struct {
	Rows    json.RawMessage
	Count   int // rows returned
	Total   int64
	Counted bool
	Offset  int
}

// Read runs a GET on a table.
func (d *Data) Read(ctx context.Context, c fairbalance.Caller, table string, req *pgrest.Request) (*ReadResult, error) {
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

func (d *Data) readPlan(c fairbalance.Caller, table string, req *pgrest.Request) (*fairbalance.ReadPlan, error) {
	t, err := d.table(table)
	if err != nil {
		return nil, err
	}
	policy, ok := rows(c, t)
	if !ok {
		if c.Anon() {
			return nil, denied(c, "permission denied for table "+t.Name)
		}
		policy = nothing
	}
	plan := &fairbalance.ReadPlan{Table: t.db(), Offset: req.Offset}
	if plan.Columns, err = selectColumns(c, t, req.Select); err != nil {
		return nil, err
	}
	for _, it := range req.Select {
		if it.Embed == nil {
			continue
		}
		rel := t.relation(it.Embed.Relation)
		if rel == nil {
			return nil, pgErr(http.StatusBadRequest, "PGRST200", fmt.Sprintf("Could not find a relationship between '%s' and '%s' in the schema cache", t.Name, it.Embed.Relation), "", "")
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
				return nil, pgErr(http.StatusBadRequest, "PGRST100", "only one level of embedding is supported", it.String(), "")
			}
		}
		e := fairbalance.Embed{Name: it.Name(), Table: rt.db(), Columns: cols, LocalColumn: rel.LocalColumn, ForeignColumn: rel.ForeignColumn, Many: rel.Many, Inner: it.Embed.Inner}
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
		e.Where = and(conds...)
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
	plan.Where = and(conds...)
	for _, o := range req.Order {
		if o.Relation != "" || len(o.Path) > 0 {
			return nil, pgErr(http.StatusBadRequest, "PGRST100", "ordering by embedded columns or JSON paths is not supported", o.String(), "")
		}
		col := t.column(o.Column)
		if col == nil {
			return nil, noColumn(t.Name, o.Column)
		}
		if !readable(c, col) {
			return nil, denied(c, "permission denied for table "+t.Name)
		}
		term := fairbalance.OrderTerm{Column: col.db(), Desc: o.Desc}
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
func (d *Data) storeError(c fairbalance.Caller, table string, err error) error {
	if pe := (*pgrest.Error)(nil); errors.As(err, &pe) {
		return pe
	}
	if fe := fairbalance.AsError(err); fe != nil && fe.Kind != fairbalance.KindInternal {
		return fe
	}
	switch {
	case errors.Is(err, fairbalance.ErrConflict):
		return pgErr(http.StatusConflict, "23505", "duplicate key value violates unique constraint", err.Error(), "")
	case errors.Is(err, fairbalance.ErrNotFound):
		return pgErr(http.StatusConflict, "23503", "insert or update on table \""+table+"\" violates foreign key constraint", "", "")
	}
	return internal(err)
}
