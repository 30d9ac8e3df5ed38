package dataapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"fairbalance"
	"fairbalance/pgrest"
)

// WriteResult is the outcome of an insert, update or delete.
type WriteResult struct {
	Rows     json.RawMessage // nil unless representation was asked for
	Affected int64
}

// ErrSingular is returned (as a *fairbalance.Error) when a singular write does
// not affect exactly one row; the write has been rolled back.
func singularError(n int64) *fairbalance.Error {
	return NewError(fairbalance.KindNotAcceptable, "PGRST116", "Cannot coerce the result to a single JSON object", fmt.Sprintf("The result contains %d rows", n), "")
}

var errRollback = errors.New("rollback")

func writable(c fairbalance.Caller, col *ColumnSpec) bool {
	if c.Service() {
		return true
	}
	if col.ServerSet {
		return false
	}
	return col.Write == nil || col.Write(c)
}

// value converts a JSON body value to the column's type.
func value(t *TableSpec, col *ColumnSpec, v any) (any, error) {
	if v == nil {
		if !col.Nullable {
			return nil, NewError(fairbalance.KindInvalid, "23502", fmt.Sprintf("null value in column \"%s\" of relation \"%s\" violates not-null constraint", col.Name, t.Name), "", "")
		}
		return nil, nil
	}
	if col.Enum != nil {
		if s, ok := v.(string); !ok || !col.Enum.Has(s) {
			return nil, enumViolation(t, col)
		}
	}
	switch col.Type {
	case fairbalance.TypeJSON, fairbalance.TypeTextArray:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	case fairbalance.TypeBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case fairbalance.TypeText:
		switch x := v.(type) {
		case string:
			return x, nil
		case json.Number:
			return x.String(), nil
		case bool:
			return fmt.Sprint(x), nil
		}
		return nil, NewError(fairbalance.KindInvalid, "22P02", fmt.Sprintf("invalid input syntax for type text: %v", v), "", "")
	}
	switch x := v.(type) {
	case string:
		return convert(t, col, x)
	case json.Number:
		return convert(t, col, x.String())
	case bool:
		return convert(t, col, fmt.Sprint(x))
	}
	return nil, NewError(fairbalance.KindInvalid, "22P02", fmt.Sprintf("invalid input syntax for type %s", col.Type), "", "")
}

// enumViolation refuses a value outside the column's vocabulary as
// PostgreSQL refuses one outside a CHECK list (400, code 23514), in words.
func enumViolation(t *TableSpec, col *ColumnSpec) error {
	msg := col.Enum.Refusal("The " + strings.ReplaceAll(col.Name, "_", " "))
	return NewError(fairbalance.KindInvalid, "23514", msg, fmt.Sprintf("new row for relation \"%s\" violates check constraint \"%s_%s_check\"", t.Name, t.Name, col.Name), "")
}

// DecodeRows reads an insert body: one object or an array of objects.
func DecodeRows(body []byte) ([]map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, NewError(fairbalance.KindInvalid, "PGRST102", "Empty or invalid json", err.Error(), "")
	}
	switch x := v.(type) {
	case map[string]any:
		return []map[string]any{x}, nil
	case []any:
		out := make([]map[string]any, 0, len(x))
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, NewError(fairbalance.KindInvalid, "PGRST102", "All object keys must match", "", "")
			}
			out = append(out, m)
		}
		return out, nil
	}
	return nil, NewError(fairbalance.KindInvalid, "PGRST102", "Empty or invalid json", "", "")
}

func (d *Engine) returning(c fairbalance.Caller, t *TableSpec, req *pgrest.Request) ([]fairbalance.SelectColumn, error) {
	if req.Prefer.Return != pgrest.ReturnRepresentation {
		return nil, nil
	}
	for _, it := range req.Select {
		if it.Embed != nil {
			return nil, NewError(fairbalance.KindInvalid, "PGRST100", "embedding is not supported on writes", it.String(), "")
		}
	}
	return selectColumns(c, t, req.Select)
}

// Insert runs a POST (insert or upsert) on a table.
func (d *Engine) Insert(ctx context.Context, c fairbalance.Caller, table string, req *pgrest.Request, body []byte) (*WriteResult, error) {
	t, err := d.table(table)
	if err != nil {
		return nil, err
	}
	if c.Demo && (t.DemoInsert == nil || !t.DemoInsert(body)) {
		return nil, DemoRefusal()
	}
	if !c.Service() && (t.CanInsert == nil || !t.CanInsert(c)) {
		return nil, Denied(c, fmt.Sprintf("new row violates row-level security policy for table \"%s\"", t.Name))
	}
	in, err := DecodeRows(body)
	if err != nil {
		return nil, err
	}
	// The column list: ?columns=, else the keys of the first object (and
	// then every object must have the same keys).
	cols := req.Columns
	if len(cols) == 0 && len(in) > 0 {
		for k := range in[0] {
			cols = append(cols, k)
		}
		for _, row := range in[1:] {
			if len(row) != len(cols) {
				return nil, NewError(fairbalance.KindInvalid, "PGRST102", "All object keys must match", "", "")
			}
			for _, k := range cols {
				if _, ok := row[k]; !ok {
					return nil, NewError(fairbalance.KindInvalid, "PGRST102", "All object keys must match", "", "")
				}
			}
		}
	}
	for _, k := range cols {
		col := t.column(k)
		if col == nil {
			return nil, NewError(fairbalance.KindInvalid, "PGRST204", fmt.Sprintf("Could not find the '%s' column of '%s' in the schema cache", k, t.Name), "", "")
		}
		if !writable(c, col) {
			return nil, Denied(c, "permission denied for table "+t.Name)
		}
	}
	ret, err := d.returning(c, t, req)
	if err != nil {
		return nil, err
	}
	now := d.Now()
	plan := &fairbalance.WritePlan{Table: t.Name, Returning: ret, IgnoreDuplicates: req.Prefer.Resolution == pgrest.IgnoreDuplicates}
	if req.Prefer.Resolution != "" {
		plan.OnConflict = req.OnConflict
		if len(plan.OnConflict) == 0 {
			plan.OnConflict = t.Key
		}
		for _, k := range plan.OnConflict {
			if t.column(k) == nil {
				return nil, noColumn(t.Name, k)
			}
		}
		// Merging may only touch rows the caller could update.
		if !plan.IgnoreDuplicates && !c.Service() {
			if t.CanUpdate == nil || !t.CanUpdate(c) {
				return nil, Denied(c, fmt.Sprintf("new row violates row-level security policy (USING expression) for table \"%s\"", t.Name))
			}
			policy, ok := rows(c, t)
			if !ok {
				policy = nothing
			}
			plan.Where = policy
		}
	}
	// Every row gets the same full column list: given values, else defaults.
	for i := range t.Columns {
		col := &t.Columns[i]
		if slices.Contains(cols, col.Name) || col.Default != nil {
			plan.Columns = append(plan.Columns, col.Name)
		}
	}
	for _, r := range in {
		row := map[string]any{}
		for _, k := range plan.Columns {
			col := t.column(k)
			v, given := r[k]
			if !given || !slices.Contains(cols, k) {
				if col.Default == nil {
					if req.Prefer.Missing == pgrest.MissingDefault || !slices.Contains(cols, k) {
						continue
					}
					if !col.Nullable {
						return nil, NewError(fairbalance.KindInvalid, "23502", fmt.Sprintf("null value in column \"%s\" of relation \"%s\" violates not-null constraint", col.Name, t.Name), "", "")
					}
					row[k] = nil
					continue
				}
				row[k] = col.Default(c, now)
				continue
			}
			cv, err := value(t, col, v)
			if err != nil {
				return nil, err
			}
			row[k] = cv
		}
		plan.Rows = append(plan.Rows, row)
	}
	// Columns without a default that some row lacks would be NULL; drop a
	// column that no row sets so the database default applies.
	plan.Columns = presentColumns(plan.Columns, plan.Rows)
	op := "insert"
	if len(plan.OnConflict) > 0 {
		op = "upsert"
		// A merge sets what the client sent (as PostgREST does), not the
		// defaults filled in for a new row, and keeps updated_at current.
		plan.MergeColumns = []string{}
		for _, k := range plan.Columns {
			col := t.column(k)
			if slices.Contains(cols, k) || col.ServerSet && col.Name == "updated_at" {
				plan.MergeColumns = append(plan.MergeColumns, k)
			}
		}
	}
	return d.write(ctx, c, t, req, func(tx fairbalance.Tx) (json.RawMessage, int64, error) {
		if op == "upsert" && !plan.IgnoreDuplicates && t.Frozen != nil {
			for _, row := range plan.Rows {
				if where := mergeTarget(t, plan, row); where != nil {
					if err := t.Frozen(ctx, tx, "update", where); err != nil {
						return nil, 0, err
					}
				}
			}
		}
		if t.CheckInsert != nil && !c.Service() {
			for _, row := range plan.Rows {
				if err := t.CheckInsert(ctx, tx, c, row); err != nil {
					return nil, 0, err
				}
			}
		}
		// A merge changes the row it meets as an update does, so the
		// table's update check sees it: a plain PATCH and an upsert follow
		// one rule.
		if op == "upsert" && !plan.IgnoreDuplicates && t.CheckUpdate != nil && !c.Service() {
			for _, row := range plan.Rows {
				if err := checkMerge(ctx, tx, c, t, plan, row); err != nil {
					return nil, 0, err
				}
			}
		}
		if t.Insert != nil {
			return t.Insert(ctx, tx, c, plan)
		}
		// A copy: toDB returns plan itself for a table without renames,
		// and plan.Returning is what the client asked to see.
		p := *t.toDB(plan)
		p.Returning = AllColumns(t)
		rows, n, err := tx.Insert(ctx, &p)
		if err != nil {
			return nil, 0, err
		}
		if err := d.auditChange(ctx, tx, c, t, op, nil, rows, n); err != nil {
			return nil, 0, err
		}
		return project(t, rows, plan.Returning), n, nil
	})
}

// checkMerge runs t's update check on the row that row of an upsert
// would merge into, when there is one the caller may update (the write
// leaves any other alone): the values are the merged columns but the
// conflict target, which keeps its value.
func checkMerge(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, t *TableSpec, plan *fairbalance.WritePlan, row map[string]any) error {
	where := mergeTarget(t, plan, row)
	if where == nil {
		return nil
	}
	_, n, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: t.DBName(), Columns: AllColumns(t)[:1], Where: where, Limit: 1})
	if err != nil || n == 0 {
		return err
	}
	values := map[string]any{}
	for _, k := range plan.MergeColumns {
		if !slices.Contains(plan.OnConflict, k) {
			values[k] = row[k]
		}
	}
	return t.CheckUpdate(ctx, tx, c, values, where)
}

// mergeTarget is the condition naming the row that row of an upsert would
// merge into (among those plan.Where lets it touch); nil when the row
// conflicts with none, having a NULL in its conflict target.
func mergeTarget(t *TableSpec, plan *fairbalance.WritePlan, row map[string]any) *fairbalance.Cond {
	conds := []*fairbalance.Cond{plan.Where}
	for _, k := range plan.OnConflict {
		v := row[k]
		if v == nil {
			return nil // NULL conflicts with nothing
		}
		conds = append(conds, &fairbalance.Cond{Column: t.column(k).DBName(), Operator: "eq", Value: v})
	}
	return And(conds...)
}

func presentColumns(cols []string, rows []map[string]any) []string {
	var out []string
	for _, c := range cols {
		for _, r := range rows {
			if _, ok := r[c]; ok {
				out = append(out, c)
				break
			}
		}
	}
	// Rows missing a present column get NULL, as PostgREST does with ?columns.
	for _, r := range rows {
		for _, c := range out {
			if _, ok := r[c]; !ok {
				r[c] = nil
			}
		}
	}
	return out
}

// target checks an update or delete may proceed: not a demo caller, a
// registered table, at least one filter (as pg-safeupdate demands, before
// anything else), and the caller's right to the verb.
func (d *Engine) target(c fairbalance.Caller, table string, req *pgrest.Request, verb string, right func(*TableSpec) func(fairbalance.Caller) bool) (*TableSpec, error) {
	if c.Demo {
		return nil, DemoRefusal()
	}
	t, err := d.table(table)
	if err != nil {
		return nil, err
	}
	if len(req.FiltersOn("")) == 0 {
		return nil, NewError(fairbalance.KindInvalid, "21000", verb+" requires a WHERE clause", "", "")
	}
	if can := right(t); !c.Service() && (can == nil || !can(c)) {
		return nil, Denied(c, "permission denied for table "+t.Name)
	}
	return t, nil
}

// filtered builds the WHERE of an update or delete: the caller's filters
// and the row policy.
func (d *Engine) filtered(c fairbalance.Caller, t *TableSpec, req *pgrest.Request) (*fairbalance.Cond, error) {
	fs := req.FiltersOn("")
	policy, ok := rows(c, t)
	if !ok {
		policy = nothing
	}
	conds := []*fairbalance.Cond{policy}
	for _, f := range fs {
		fc, err := cond(c, t, f)
		if err != nil {
			return nil, err
		}
		conds = append(conds, fc)
	}
	return And(conds...), nil
}

// Update runs a PATCH on a table.
func (d *Engine) Update(ctx context.Context, c fairbalance.Caller, table string, req *pgrest.Request, body []byte) (*WriteResult, error) {
	t, err := d.target(c, table, req, "UPDATE", func(t *TableSpec) func(fairbalance.Caller) bool { return t.CanUpdate })
	if err != nil {
		return nil, err
	}
	in, err := DecodeRows(body)
	if err != nil {
		return nil, err
	}
	if len(in) != 1 {
		return nil, NewError(fairbalance.KindInvalid, "PGRST102", "Expected a single JSON object for an update", "", "")
	}
	values := map[string]any{}
	var cols []string
	for k, v := range in[0] {
		col := t.column(k)
		if col == nil {
			return nil, NewError(fairbalance.KindInvalid, "PGRST204", fmt.Sprintf("Could not find the '%s' column of '%s' in the schema cache", k, t.Name), "", "")
		}
		if !writable(c, col) {
			return nil, Denied(c, "permission denied for table "+t.Name)
		}
		cv, err := value(t, col, v)
		if err != nil {
			return nil, err
		}
		values[k] = cv
		cols = append(cols, k)
	}
	where, err := d.filtered(c, t, req)
	if err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return &WriteResult{Rows: json.RawMessage("[]")}, nil
	}
	if col := t.column("updated_at"); col != nil && col.ServerSet && !slices.Contains(cols, "updated_at") {
		values["updated_at"] = d.Now()
		cols = append(cols, "updated_at")
	}
	ret, err := d.returning(c, t, req)
	if err != nil {
		return nil, err
	}
	plan := t.toDB(&fairbalance.WritePlan{Table: t.Name, Rows: []map[string]any{values}, Columns: cols, Where: where, Returning: ret})
	return d.write(ctx, c, t, req, func(tx fairbalance.Tx) (json.RawMessage, int64, error) {
		if t.Frozen != nil {
			if err := t.Frozen(ctx, tx, "update", where); err != nil {
				return nil, 0, err
			}
		}
		if t.CheckUpdate != nil && !c.Service() {
			if err := t.CheckUpdate(ctx, tx, c, values, where); err != nil {
				return nil, 0, err
			}
		}
		before, _, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: t.DBName(), Columns: AllColumns(t), Where: where})
		if err != nil {
			return nil, 0, err
		}
		p := *plan
		p.Returning = AllColumns(t)
		rows, n, err := tx.Update(ctx, &p)
		if err != nil {
			return nil, 0, err
		}
		if err := d.auditChange(ctx, tx, c, t, "update", before, rows, n); err != nil {
			return nil, 0, err
		}
		return project(t, rows, plan.Returning), n, nil
	})
}

// Delete runs a DELETE on a table.
func (d *Engine) Delete(ctx context.Context, c fairbalance.Caller, table string, req *pgrest.Request) (*WriteResult, error) {
	t, err := d.target(c, table, req, "DELETE", func(t *TableSpec) func(fairbalance.Caller) bool { return t.CanDelete })
	if err != nil {
		return nil, err
	}
	where, err := d.filtered(c, t, req)
	if err != nil {
		return nil, err
	}
	ret, err := d.returning(c, t, req)
	if err != nil {
		return nil, err
	}
	plan := &fairbalance.WritePlan{Table: t.DBName(), Where: where, Returning: ret}
	return d.write(ctx, c, t, req, func(tx fairbalance.Tx) (json.RawMessage, int64, error) {
		if t.Frozen != nil {
			if err := t.Frozen(ctx, tx, "delete", where); err != nil {
				return nil, 0, err
			}
		}
		if t.CheckDelete != nil && !c.Service() {
			if err := t.CheckDelete(ctx, tx, c, where); err != nil {
				return nil, 0, err
			}
		}
		p := *plan
		p.Returning = AllColumns(t)
		rows, n, err := tx.Delete(ctx, &p)
		if err != nil {
			return nil, 0, err
		}
		if err := d.auditChange(ctx, tx, c, t, "delete", rows, nil, n); err != nil {
			return nil, 0, err
		}
		return project(t, rows, plan.Returning), n, nil
	})
}

// write runs one write in a transaction, rolling it back when a singular
// response is asked for and the write did not affect exactly one row.
func (d *Engine) write(ctx context.Context, c fairbalance.Caller, t *TableSpec, req *pgrest.Request, fn func(tx fairbalance.Tx) (json.RawMessage, int64, error)) (*WriteResult, error) {
	var res WriteResult
	var singular *fairbalance.Error
	err := d.store.Tx(ctx, func(tx fairbalance.Tx) error {
		rows, n, err := fn(tx)
		if err != nil {
			return err
		}
		if req.Singular && n != 1 {
			singular = singularError(n)
			return errRollback
		}
		res.Rows, res.Affected = rows, n
		return nil
	})
	if singular != nil {
		return nil, singular
	}
	if err != nil {
		return nil, d.storeError(c, t.Name, err)
	}
	return &res, nil
}

// toDB renames a plan built with API names to database names (tables and
// columns with a Source). Conditions are built with database names already.
func (t *TableSpec) toDB(p *fairbalance.WritePlan) *fairbalance.WritePlan {
	if t.Source == "" {
		same := true
		for _, c := range t.Columns {
			same = same && c.Source == ""
		}
		if same {
			return p
		}
	}
	name := func(n string) string {
		if c := t.column(n); c != nil {
			return c.DBName()
		}
		return n
	}
	out := *p
	out.Table = t.DBName()
	out.Columns = make([]string, len(p.Columns))
	for i, c := range p.Columns {
		out.Columns[i] = name(c)
	}
	out.Rows = make([]map[string]any, len(p.Rows))
	for i, r := range p.Rows {
		m := make(map[string]any, len(r))
		for k, v := range r {
			m[name(k)] = v
		}
		out.Rows[i] = m
	}
	out.OnConflict = make([]string, len(p.OnConflict))
	for i, c := range p.OnConflict {
		out.OnConflict[i] = name(c)
	}
	if p.MergeColumns != nil {
		out.MergeColumns = make([]string, len(p.MergeColumns))
		for i, c := range p.MergeColumns {
			out.MergeColumns[i] = name(c)
		}
	}
	return &out
}

// AllColumns selects every column of t under its API name.
func AllColumns(t *TableSpec) []fairbalance.SelectColumn {
	out := make([]fairbalance.SelectColumn, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = fairbalance.SelectColumn{Column: c.DBName(), Alias: c.Name, Type: c.Type}
	}
	return out
}

// project keeps, of rows selected with allColumns, what the client asked
// to see back (nil: nothing).
func project(t *TableSpec, rows json.RawMessage, ret []fairbalance.SelectColumn) json.RawMessage {
	if ret == nil {
		return nil
	}
	var in []map[string]json.RawMessage
	if err := json.Unmarshal(rows, &in); err != nil {
		return nil
	}
	byDB := map[string]string{}
	for _, c := range t.Columns {
		byDB[c.DBName()] = c.Name
	}
	out := make([]map[string]json.RawMessage, len(in))
	for i, r := range in {
		m := make(map[string]json.RawMessage, len(ret))
		for _, c := range ret {
			m[c.Alias] = r[byDB[c.Column]]
		}
		out[i] = m
	}
	b, _ := json.Marshal(out)
	return b
}

// auditChange appends the audit entry of a data API write, in its
// transaction: who, what, and the rows before and after.
func (d *Engine) auditChange(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, t *TableSpec, op string, before, after json.RawMessage, n int64) error {
	if n == 0 {
		return nil
	}
	action := t.Name + "." + op
	if a, ok := t.AuditActions[op]; ok {
		action = a
	}
	e := &fairbalance.AuditEntry{OrgID: c.OrgID, ActorID: c.UserID, Action: action, ObjectType: t.Name,
		Meta: json.RawMessage(fmt.Sprintf(`{"rows":%d,"via":"data_api"}`, n))}
	if c.Service() {
		e.OrgID, e.ActorID = "", "service_role"
	}
	if len(before) > 2 {
		e.Before = before
	}
	if len(after) > 2 {
		e.After = after
	}
	// The object: the key of a single affected row.
	var rows []map[string]any
	src := after
	if len(src) <= 2 {
		src = before
	}
	if json.Unmarshal(src, &rows) == nil && len(rows) == 1 && len(t.Key) == 1 {
		e.ObjectID = fmt.Sprint(rows[0][t.Key[0]])
		switch {
		case t.Name == "orgs" && op == "insert":
			// A new organisation's first entry opens its own chain.
			e.OrgID = e.ObjectID
		case e.OrgID == "" && !c.Service():
			// A member joining an organisation: the entry belongs to it.
			if org, ok := rows[0]["org_id"].(string); ok {
				e.OrgID = org
			}
		}
	}
	if !c.Service() {
		if u, err := tx.UserByID(ctx, c.UserID); err == nil {
			e.ActorEmail = u.Email
		}
	}
	return tx.AppendAudit(ctx, e)
}
