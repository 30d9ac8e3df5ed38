package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"fairbalance"
)

// The data API's SQL: plans (fairbalance.ReadPlan, WritePlan) become
// parameterised statements. Identifiers in plans have been checked against
// the registry by the service; they are still quoted here. Values are only
// ever bound. Each row is rendered as a JSON object by the database.

// selectSQL builds the query of a read plan (without its count).
func (q *querier) selectSQL(p *fairbalance.ReadPlan) (*sqlBuilder, error) {
	b := &sqlBuilder{d: q.d}
	b.WriteString("SELECT ")
	b.rowJSON("t", p.Columns, p.Embeds)
	b.WriteString(" FROM " + quoteIdent(p.Table) + " t")
	if err := b.where("t", p.Where, p.Embeds); err != nil {
		return nil, err
	}
	if len(p.Order) > 0 {
		b.WriteString(" ORDER BY ")
		for i, o := range p.Order {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("t." + quoteIdent(o.Column))
			if o.Desc {
				b.WriteString(" DESC")
			}
			if o.NullsFirst != nil {
				if *o.NullsFirst {
					b.WriteString(" NULLS FIRST")
				} else {
					b.WriteString(" NULLS LAST")
				}
			}
		}
	}
	if p.Limit != 0 {
		b.WriteString(" LIMIT " + b.arg(max(p.Limit, 0))) // negative: no rows
	} else if p.Offset > 0 && !q.d.postgres {
		b.WriteString(" LIMIT -1") // SQLite needs a LIMIT before OFFSET
	}
	if p.Offset > 0 {
		b.WriteString(" OFFSET " + b.arg(p.Offset))
	}
	return b, nil
}

// Read runs a read plan.
func (q *querier) Read(ctx context.Context, p *fairbalance.ReadPlan) (json.RawMessage, int64, error) {
	b, err := q.selectSQL(p)
	if err != nil {
		return nil, 0, err
	}
	rows, err := q.rawQuery(ctx, b.String(), b.args...)
	if err != nil {
		return nil, 0, err
	}
	out, n, err := collectJSON(rows)
	if err != nil {
		return nil, 0, err
	}
	total := int64(n)
	if p.Count {
		var c sqlBuilder
		c.d = q.d
		c.WriteString("SELECT COUNT(*) FROM " + quoteIdent(p.Table) + " t")
		if err := c.where("t", p.Where, p.Embeds); err != nil {
			return nil, 0, err
		}
		if err := q.rawRow(ctx, c.String(), c.args...).Scan(&total); err != nil {
			return nil, 0, translate(err)
		}
	}
	return out, total, nil
}

// Count counts the rows of each plan in one statement, a scalar subquery
// per plan (see fairbalance.DataStore).
func (q *querier) Count(ctx context.Context, plans []*fairbalance.ReadPlan) ([]int64, error) {
	if len(plans) == 0 {
		return nil, nil
	}
	c := &sqlBuilder{d: q.d}
	c.WriteString("SELECT ")
	for i, p := range plans {
		if i > 0 {
			c.WriteString(", ")
		}
		c.WriteString("(SELECT COUNT(*) FROM " + quoteIdent(p.Table) + " t")
		if err := c.where("t", p.Where, p.Embeds); err != nil {
			return nil, err
		}
		c.WriteString(")")
	}
	out := make([]int64, len(plans))
	dest := make([]any, len(plans))
	for i := range out {
		dest[i] = &out[i]
	}
	if err := q.rawRow(ctx, c.String(), c.args...).Scan(dest...); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// ReadEach runs a read plan row by row (see fairbalance.DataStore). The
// rows come from one query, so on both backends they are of one snapshot;
// on SQLite the read holds a reader connection (never the writer) until
// it ends.
func (q *querier) ReadEach(ctx context.Context, p *fairbalance.ReadPlan, fn func(row []byte) error) error {
	b, err := q.selectSQL(p)
	if err != nil {
		return err
	}
	rows, err := q.rawQuery(ctx, b.String(), b.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var v sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&v); err != nil {
			return translate(err)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return translate(rows.Err())
}

// maxInsertBinds bounds the bind parameters of one INSERT statement, below
// the databases' limits (SQLite 32766, PostgreSQL 65535) with room for the
// policy's.
func (d dialect) maxInsertBinds() int {
	if d.postgres {
		return 60000
	}
	return 30000
}

// Insert runs an insert (or upsert) plan: one statement, or, for more rows
// than one statement can bind, one per part of the rows (in the caller's
// transaction, so all or none are written).
func (q *querier) Insert(ctx context.Context, p *fairbalance.WritePlan) (json.RawMessage, int64, error) {
	if len(p.Rows) == 0 {
		return json.RawMessage("[]"), 0, nil
	}
	per := max(1, q.d.maxInsertBinds()/max(1, len(p.Columns)))
	if len(p.Rows) <= per {
		return q.insert(ctx, p)
	}
	out := []byte{'['}
	var total int64
	for start := 0; start < len(p.Rows); start += per {
		part := *p
		part.Rows = p.Rows[start:min(start+per, len(p.Rows))]
		res, n, err := q.insert(ctx, &part)
		if err != nil {
			return nil, 0, err
		}
		total += n
		if len(res) < 2 { // nothing returned
			continue
		}
		if inner := res[1 : len(res)-1]; len(inner) > 0 {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, inner...)
		}
	}
	if len(p.Returning) == 0 {
		return nil, total, nil
	}
	return append(out, ']'), total, nil
}

func (q *querier) insert(ctx context.Context, p *fairbalance.WritePlan) (json.RawMessage, int64, error) {
	var b sqlBuilder
	b.d = q.d
	cols := make([]string, len(p.Columns))
	for i, c := range p.Columns {
		cols[i] = quoteIdent(c)
	}
	b.WriteString("INSERT INTO " + quoteIdent(p.Table) + " AS t (" + strings.Join(cols, ", ") + ") VALUES ")
	for i, row := range p.Rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(")
		for j, c := range p.Columns {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(b.arg(row[c]))
		}
		b.WriteString(")")
	}
	if len(p.OnConflict) > 0 {
		keys := make([]string, len(p.OnConflict))
		for i, c := range p.OnConflict {
			keys[i] = quoteIdent(c)
		}
		b.WriteString(" ON CONFLICT (" + strings.Join(keys, ", ") + ")")
		var sets []string
		merge := p.Columns
		if p.MergeColumns != nil {
			merge = p.MergeColumns
		}
		for _, c := range merge {
			if !contains(p.OnConflict, c) {
				sets = append(sets, quoteIdent(c)+" = excluded."+quoteIdent(c))
			}
		}
		if p.IgnoreDuplicates || len(sets) == 0 {
			b.WriteString(" DO NOTHING")
		} else {
			b.WriteString(" DO UPDATE SET " + strings.Join(sets, ", "))
			if p.Where != nil {
				// Policies also bound which existing rows an upsert may merge into.
				if err := b.where("t", p.Where, nil); err != nil {
					return nil, 0, err
				}
			}
		}
	}
	return q.runWrite(ctx, &b, p.Returning)
}

// Update runs an update plan (one row of new values for every matching row).
func (q *querier) Update(ctx context.Context, p *fairbalance.WritePlan) (json.RawMessage, int64, error) {
	if len(p.Rows) != 1 || len(p.Columns) == 0 {
		return nil, 0, fmt.Errorf("sqlstore: update needs one row of values")
	}
	var b sqlBuilder
	b.d = q.d
	b.WriteString("UPDATE " + quoteIdent(p.Table) + " AS t SET ")
	for i, c := range p.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIdent(c) + " = " + b.arg(p.Rows[0][c]))
	}
	if err := b.where("t", p.Where, nil); err != nil {
		return nil, 0, err
	}
	return q.runWrite(ctx, &b, p.Returning)
}

// Delete runs a delete plan.
func (q *querier) Delete(ctx context.Context, p *fairbalance.WritePlan) (json.RawMessage, int64, error) {
	var b sqlBuilder
	b.d = q.d
	b.WriteString("DELETE FROM " + quoteIdent(p.Table) + " AS t")
	if err := b.where("t", p.Where, nil); err != nil {
		return nil, 0, err
	}
	return q.runWrite(ctx, &b, p.Returning)
}

func (q *querier) runWrite(ctx context.Context, b *sqlBuilder, returning []fairbalance.SelectColumn) (json.RawMessage, int64, error) {
	if len(returning) == 0 {
		res, err := q.rawExec(ctx, b.String(), b.args...)
		if err != nil {
			return nil, 0, err
		}
		n, err := res.RowsAffected()
		return nil, n, err
	}
	b.WriteString(" RETURNING ")
	// SQLite's RETURNING does not see the table alias: name columns bare.
	b.rowJSON("", returning, nil)
	rows, err := q.rawQuery(ctx, b.String(), b.args...)
	if err != nil {
		return nil, 0, err
	}
	out, n, err := collectJSON(rows)
	return out, int64(n), err
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// quoteIdent quotes an identifier (already checked against the registry).
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// sqlBuilder accumulates SQL text and its bound arguments.
type sqlBuilder struct {
	strings.Builder
	d    dialect
	args []any
}

func (b *sqlBuilder) arg(v any) string {
	b.args = append(b.args, v)
	if b.d.postgres {
		return fmt.Sprintf("$%d", len(b.args))
	}
	return "?"
}

// colJSON renders one column of alias a as a JSON value.
func (b *sqlBuilder) colJSON(a string, c fairbalance.SelectColumn) string {
	ref := quoteIdent(c.Column)
	if a != "" {
		ref = a + "." + ref
	}
	if b.d.postgres {
		if c.Type == fairbalance.TypeJSON {
			// JSON may be stored as text (the audit trail keeps canonical text).
			return "NULLIF(" + ref + "::text, '')::json"
		}
		return ref
	}
	switch c.Type {
	case fairbalance.TypeBoolean:
		return "json(CASE WHEN " + ref + " IS NULL THEN 'null' WHEN " + ref + " THEN 'true' ELSE 'false' END)"
	case fairbalance.TypeJSON, fairbalance.TypeTextArray:
		return "json(NULLIF(" + ref + ", ''))"
	case fairbalance.TypeTimestamp:
		// Stored as "2006-01-02 15:04:05.999999999-07:00"; served as ISO 8601.
		return "replace(" + ref + ", ' ', 'T')"
	}
	return ref
}

// objectJSON renders the columns of alias a as a JSON object expression.
func (b *sqlBuilder) objectJSON(a string, cols []fairbalance.SelectColumn, embeds []fairbalance.Embed) string {
	var parts []string
	for _, c := range cols {
		parts = append(parts, "'"+strings.ReplaceAll(c.Alias, "'", "''")+"'", b.colJSON(a, c))
	}
	for i, e := range embeds {
		parts = append(parts, "'"+strings.ReplaceAll(e.Name, "'", "''")+"'", b.embedJSON(a, i, e))
	}
	return b.jsonObject(parts)
}

// jsonObject builds one JSON object from alternating key and value
// expressions. A function takes a bounded number of arguments (100 for
// PostgreSQL's json_build_object, 1000 for SQLite's json_object), and a
// select list, with repeated columns or stars, may name more: the object
// is then built in parts joined as text, which keeps the keys in order
// and, like a single call, every duplicate.
func (b *sqlBuilder) jsonObject(parts []string) string {
	fn, max := "json_object(", 400
	if b.d.postgres {
		fn, max = "json_build_object(", 50
	}
	max *= 2 // arguments, not pairs
	if len(parts) <= max {
		return fn + strings.Join(parts, ", ") + ")"
	}
	var chunks []string
	for i := 0; i < len(parts); i += max {
		chunks = append(chunks, fn+strings.Join(parts[i:min(i+max, len(parts))], ", ")+")")
	}
	if b.d.postgres {
		// {"a" : 1} and {"b" : 2} make {"a" : 1, "b" : 2}.
		for i := range chunks {
			c := chunks[i] + "::text"
			if i > 0 {
				c = "right(" + c + ", -1)"
			}
			if i < len(chunks)-1 {
				c = "left(" + c + ", -1)"
			}
			chunks[i] = c
		}
		return "(" + strings.Join(chunks, " || ', ' || ") + ")::json"
	}
	for i := range chunks {
		c := chunks[i]
		if i > 0 {
			c = "substr(" + c + ", 2)"
		}
		if i < len(chunks)-1 {
			c = "substr(" + c + ", 1, length(" + c + ") - 1)"
		}
		chunks[i] = c
	}
	return "json(" + strings.Join(chunks, " || ',' || ") + ")"
}

func (b *sqlBuilder) rowJSON(a string, cols []fairbalance.SelectColumn, embeds []fairbalance.Embed) {
	b.WriteString(b.objectJSON(a, cols, embeds))
}

// embedJSON is a correlated subquery giving the embedded rows of e.
func (b *sqlBuilder) embedJSON(parent string, i int, e fairbalance.Embed) string {
	a := fmt.Sprintf("e%d", i)
	obj := b.objectJSON(a, e.Columns, nil)
	join := a + "." + quoteIdent(e.ForeignColumn) + " = " + parent + "." + quoteIdent(e.LocalColumn)
	var w sqlBuilder
	w.d = b.d
	w.args = b.args
	cond := ""
	if e.Where != nil {
		if err := w.cond(a, e.Where); err == nil {
			cond = " AND " + w.String()
			b.args = w.args
		}
	}
	from := " FROM " + quoteIdent(e.Table) + " " + a + " WHERE " + join + cond
	if e.Many {
		if b.d.postgres {
			return "(SELECT coalesce(json_agg(" + obj + "), '[]'::json)" + from + ")"
		}
		return "json((SELECT json_group_array(" + obj + ")" + from + "))"
	}
	if b.d.postgres {
		return "(SELECT " + obj + from + " LIMIT 1)"
	}
	return "json((SELECT " + obj + from + " LIMIT 1))"
}

// where appends " WHERE …" for c and the !inner embeds (if any).
func (b *sqlBuilder) where(a string, c *fairbalance.Cond, embeds []fairbalance.Embed) error {
	var parts []string
	if c != nil {
		var w sqlBuilder
		w.d, w.args = b.d, b.args
		if err := w.cond(a, c); err != nil {
			return err
		}
		b.args = w.args
		parts = append(parts, w.String())
	}
	for i, e := range embeds {
		if !e.Inner {
			continue
		}
		ea := fmt.Sprintf("i%d", i)
		var w sqlBuilder
		w.d, w.args = b.d, b.args
		w.WriteString("EXISTS (SELECT 1 FROM " + quoteIdent(e.Table) + " " + ea + " WHERE " + ea + "." + quoteIdent(e.ForeignColumn) + " = " + a + "." + quoteIdent(e.LocalColumn))
		if e.Where != nil {
			w.WriteString(" AND ")
			if err := w.cond(ea, e.Where); err != nil {
				return err
			}
		}
		w.WriteString(")")
		b.args = w.args
		parts = append(parts, w.String())
	}
	if len(parts) > 0 {
		b.WriteString(" WHERE " + strings.Join(parts, " AND "))
	}
	return nil
}

// cond renders a condition tree.
func (b *sqlBuilder) cond(a string, c *fairbalance.Cond) error {
	if c.Negated {
		b.WriteString("NOT (")
		defer b.WriteString(")")
	}
	if c.Logic != "" {
		if len(c.Children) == 0 {
			if c.Logic == "and" {
				b.WriteString("1=1")
			} else {
				b.WriteString("1=0")
			}
			return nil
		}
		op := " AND "
		if c.Logic == "or" {
			op = " OR "
		}
		b.WriteString("(")
		for i, ch := range c.Children {
			if i > 0 {
				b.WriteString(op)
			}
			if err := b.cond(a, ch); err != nil {
				return err
			}
		}
		b.WriteString(")")
		return nil
	}
	col := a + "." + quoteIdent(c.Column)
	switch c.Operator {
	case "eq", "neq", "gt", "gte", "lt", "lte":
		op := map[string]string{"eq": "=", "neq": "<>", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}[c.Operator]
		b.WriteString(col + " " + op + " " + b.arg(c.Value))
	case "like":
		if b.d.postgres {
			b.WriteString(col + " LIKE " + b.arg(c.Value))
		} else {
			// SQLite's LIKE ignores case; GLOB does not.
			b.WriteString(col + " GLOB " + b.arg(likeToGlob(fmt.Sprint(c.Value))))
		}
	case "ilike":
		if b.d.postgres {
			b.WriteString(col + " ILIKE " + b.arg(c.Value))
		} else {
			b.WriteString("lower(" + col + ") LIKE lower(" + b.arg(c.Value) + ")")
		}
	case "is":
		switch c.Value {
		case nil:
			b.WriteString(col + " IS NULL")
		case true:
			b.WriteString(col + " IS TRUE")
		case false:
			b.WriteString(col + " IS FALSE")
		default:
			return fmt.Errorf("sqlstore: is %v", c.Value)
		}
	case "in":
		if len(c.Values) == 0 {
			b.WriteString("1=0")
			return nil
		}
		b.WriteString(col + " IN (")
		for i, v := range c.Values {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(b.arg(v))
		}
		b.WriteString(")")
	case "cs", "cd":
		arr, err := json.Marshal(c.Values)
		if err != nil {
			return err
		}
		if b.d.postgres {
			op := "@>"
			if c.Operator == "cd" {
				op = "<@"
			}
			b.WriteString("(" + col + ")::jsonb " + op + " " + b.arg(string(arr)) + "::jsonb")
			return nil
		}
		// Arrays are stored as JSON text in SQLite.
		if c.Operator == "cs" {
			b.WriteString("NOT EXISTS (SELECT 1 FROM json_each(" + b.arg(string(arr)) + ") v WHERE v.value NOT IN (SELECT value FROM json_each(" + col + ")))")
		} else {
			b.WriteString("NOT EXISTS (SELECT 1 FROM json_each(" + col + ") v WHERE v.value NOT IN (SELECT value FROM json_each(" + b.arg(string(arr)) + ")))")
		}
	default:
		return fmt.Errorf("sqlstore: unknown operator %q", c.Operator)
	}
	return nil
}

// likeToGlob turns a LIKE pattern into a GLOB pattern with the same,
// case-sensitive meaning.
func likeToGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '%':
			b.WriteByte('*')
		case '_':
			b.WriteByte('?')
		case '*', '?', '[', ']':
			b.WriteString("[" + string(r) + "]")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// collectJSON joins single-column rows of JSON objects into a JSON array.
func collectJSON(rows *sql.Rows) (json.RawMessage, int, error) {
	defer rows.Close()
	buf := make([]byte, 0, 1024)
	buf = append(buf, '[')
	n := 0
	var v []byte
	for rows.Next() {
		if err := rows.Scan(&v); err != nil {
			return nil, 0, err
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, v...)
		n++
	}
	if err := rows.Err(); err != nil {
		return nil, 0, translate(err)
	}
	return append(buf, ']'), n, nil
}

// maxCachedDynamic bounds how many generated statements stay prepared.
const maxCachedDynamic = 2000

// dynamic returns a prepared statement for generated SQL (already in the
// dialect's placeholder style) while the cache has room, else nil: the
// caller then runs the SQL unprepared.
func (q *querier) dynamic(ctx context.Context, query string) (*sql.Stmt, error) {
	if v, ok := q.stmts.m.Load(query); ok {
		if q.tx != nil {
			return q.tx.StmtContext(ctx, v.(*sql.Stmt)), nil
		}
		return v.(*sql.Stmt), nil
	}
	if q.stmts.size() >= maxCachedDynamic {
		return nil, nil
	}
	if q.tx != nil {
		q.missed = append(q.missed, query)
		return nil, nil
	}
	return q.stmts.get(ctx, q.pool, query)
}

func (q *querier) execer() interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	ExecContext(context.Context, string, ...any) (sql.Result, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
} {
	if q.tx != nil {
		return q.tx
	}
	return q.pool
}

func (q *querier) rawQuery(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := q.dynamic(ctx, query)
	if err != nil {
		return nil, translate(err)
	}
	var rows *sql.Rows
	if st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = q.execer().QueryContext(ctx, query, args...)
	}
	return rows, translate(err)
}

func (q *querier) rawExec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := q.dynamic(ctx, query)
	if err != nil {
		return nil, translate(err)
	}
	var res sql.Result
	if st != nil {
		res, err = st.ExecContext(ctx, args...)
	} else {
		res, err = q.execer().ExecContext(ctx, query, args...)
	}
	return res, translate(err)
}

func (q *querier) rawRow(ctx context.Context, query string, args ...any) rowResult {
	st, err := q.dynamic(ctx, query)
	if err != nil {
		return rowResult{err: err}
	}
	if st != nil {
		return rowResult{row: st.QueryRowContext(ctx, args...)}
	}
	return rowResult{row: q.execer().QueryRowContext(ctx, query, args...)}
}
