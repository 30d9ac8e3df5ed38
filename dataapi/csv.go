package dataapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"fairbalance"
	"fairbalance/pgrest"
)

// CSV responses (Accept: text/csv, supabase-js .csv()).
//
// A GET on any registry table may ask for CSV. The rows are those the JSON
// read would return (same select, filters, order, row policy), streamed
// from the database one at a time, so an export of a million audit entries
// holds one row in memory, not the result. Unlike the JSON read, a CSV
// read without a limit is not capped at MaxRows: exporting is what it is
// for.
//
// The format is RFC 4180: a header row of the selected top-level columns
// (their aliases; an embedding's name for an embedding), records ended by
// CRLF, a field quoted when it holds a comma, a double quote, CR or LF,
// with double quotes doubled. Values: text as is, numbers and booleans as
// JSON writes them, null as an empty field, JSON values (json columns,
// arrays, embeddings) as compact JSON.
//
// Formula injection: spreadsheet programs run a cell that begins with =,
// +, -, @, a tab or a carriage return as a formula, so a text value
// beginning with one of them is written with a single quote (') in front
// (OWASP's advice). Numbers are never prefixed; a text value such as "-5"
// is, and reads back as '-5.

// CSVInfo describes a CSV read when its first bytes are about to be
// written: the total (when counted) and the page.
type CSVInfo struct {
	// Total is the number of rows matching the filters, when Counted.
	Total   int64
	Counted bool
	Offset  int
	// Limit is the page size asked for (0: none).
	Limit int
}

// ErrCSVStream is returned (wrapped) by ReadCSV when the read failed after
// the response had started: the caller can only cut the response short.
var ErrCSVStream = errors.New("csv stream interrupted")

// ReadCSV runs a GET on a table and writes the result as CSV to the writer
// that start returns. start is called once, just before the first byte,
// after the query has produced its first row or ended: an error returned
// before start was called is a clean refusal the caller renders as usual;
// one returned after it wraps ErrCSVStream.
func (d *Engine) ReadCSV(ctx context.Context, c fairbalance.Caller, table string, req *pgrest.Request, start func(CSVInfo) io.Writer) error {
	plan, err := d.readPlan(c, table, req)
	if err != nil {
		return err
	}
	// No MaxRows cap for exports; an explicit limit still applies.
	switch {
	case req.Limit == nil:
		plan.Limit = 0
	case *req.Limit == 0:
		plan.Limit = -1
	default:
		plan.Limit = *req.Limit
	}
	info := CSVInfo{Offset: plan.Offset, Limit: max(plan.Limit, 0)}
	if plan.Count {
		info.Counted = true
		if info.Total, err = d.count(ctx, c, table, req, plan); err != nil {
			return err
		}
		plan.Count = false
	}
	header := make([]string, 0, len(plan.Columns)+len(plan.Embeds))
	for _, col := range plan.Columns {
		header = append(header, col.Alias)
	}
	for _, e := range plan.Embeds {
		header = append(header, e.Name)
	}
	var out *bufio.Writer
	enc := csvEncoder{}
	begin := func() error {
		out = bufio.NewWriterSize(start(info), 32<<10)
		enc.w = out
		for i, h := range header {
			enc.text([]byte(h), i == 0, false)
		}
		return enc.endRecord()
	}
	vals := make([][]byte, len(header))
	err = d.store.View().ReadEach(ctx, plan, func(row []byte) error {
		if out == nil {
			if err := begin(); err != nil {
				return err
			}
		}
		if err := splitObject(row, header, vals); err != nil {
			return err
		}
		for i, v := range vals {
			enc.value(v, i == 0)
		}
		return enc.endRecord()
	})
	if err != nil {
		if out == nil {
			return d.storeError(c, table, err)
		}
		return errors.Join(ErrCSVStream, err)
	}
	if out == nil {
		if err := begin(); err != nil {
			return errors.Join(ErrCSVStream, err)
		}
	}
	if err := out.Flush(); err != nil {
		return errors.Join(ErrCSVStream, err)
	}
	return nil
}

// count is the total of a read plan: the table's fast count when there is
// no filter of the caller's own, else an exact count.
func (d *Engine) count(ctx context.Context, c fairbalance.Caller, table string, req *pgrest.Request, plan *fairbalance.ReadPlan) (int64, error) {
	inner := false
	for _, e := range plan.Embeds {
		inner = inner || e.Inner
	}
	if t := d.tables[table]; t.FastCount != nil && len(req.FiltersOn("")) == 0 && !inner && !c.Service() && !c.Anon() {
		n, err := t.FastCount(ctx, d.store.View(), c)
		return n, d.storeError(c, table, err)
	}
	p := *plan
	p.Count, p.Limit, p.Offset = true, -1, 0
	_, total, err := d.store.View().Read(ctx, &p)
	if err != nil {
		return 0, d.storeError(c, table, err)
	}
	return total, nil
}

// csvEncoder writes RFC 4180 records; the first write error sticks.
type csvEncoder struct {
	w   *bufio.Writer
	err error
	buf bytes.Buffer
}

// value writes one field from a JSON value (see ReadCSV for the rules).
func (e *csvEncoder) value(v []byte, first bool) {
	switch {
	case len(v) == 0 || string(v) == "null":
		e.text(nil, first, false)
	case v[0] == '"':
		s := v[1 : len(v)-1]
		if bytes.IndexByte(s, '\\') >= 0 {
			var str string
			if json.Unmarshal(v, &str) == nil {
				s = []byte(str)
			}
		}
		e.text(s, first, true)
	case v[0] == '{' || v[0] == '[':
		// Compact, whichever backend spaced it.
		e.buf.Reset()
		if json.Compact(&e.buf, v) == nil {
			v = e.buf.Bytes()
		}
		e.text(v, first, false)
	default:
		e.text(v, first, false)
	}
}

// formulaStart reports whether a spreadsheet would read s as a formula.
func formulaStart(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// text writes one field; guard prefixes a would-be formula with a quote.
func (e *csvEncoder) text(s []byte, first, guard bool) {
	if e.err != nil {
		return
	}
	if !first {
		e.err = e.w.WriteByte(',')
	}
	prefix := guard && formulaStart(s)
	if bytes.IndexAny(s, ",\"\r\n") < 0 {
		if prefix {
			_ = e.w.WriteByte('\'')
		}
		_, e.err = e.w.Write(s)
		return
	}
	_ = e.w.WriteByte('"')
	if prefix {
		_ = e.w.WriteByte('\'') // inside the quotes: the field begins with it
	}
	for {
		i := bytes.IndexByte(s, '"')
		if i < 0 {
			break
		}
		_, _ = e.w.Write(s[:i+1])
		_ = e.w.WriteByte('"')
		s = s[i+1:]
	}
	_, _ = e.w.Write(s)
	e.err = e.w.WriteByte('"')
}

func (e *csvEncoder) endRecord() error {
	if e.err == nil {
		_, e.err = e.w.WriteString("\r\n")
	}
	return e.err
}

var errRowShape = errors.New("csv: a row is not the expected JSON object")

// splitObject puts the values of a JSON object row into vals, by the
// position of their keys in keys. The database writes each row's keys in
// the order of the select, so the fast path reads them in order; any other
// shape falls back to decoding the object.
func splitObject(row []byte, keys []string, vals [][]byte) error {
	i := skipSpace(row, 0)
	if i >= len(row) || row[i] != '{' {
		return errRowShape
	}
	i++
	for n := range keys {
		i = skipSpace(row, i)
		if n > 0 {
			if i >= len(row) || row[i] != ',' {
				return splitSlow(row, keys, vals)
			}
			i = skipSpace(row, i+1)
		}
		end := stringEnd(row, i)
		if end < 0 || string(row[i+1:end-1]) != keys[n] {
			return splitSlow(row, keys, vals)
		}
		i = skipSpace(row, end)
		if i >= len(row) || row[i] != ':' {
			return errRowShape
		}
		i = skipSpace(row, i+1)
		vend := valueEnd(row, i)
		if vend < 0 {
			return errRowShape
		}
		vals[n] = row[i:vend]
		i = vend
	}
	if i = skipSpace(row, i); i >= len(row) || row[i] != '}' {
		return splitSlow(row, keys, vals)
	}
	return nil
}

func splitSlow(row []byte, keys []string, vals [][]byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(row, &m); err != nil {
		return errRowShape
	}
	for n, k := range keys {
		vals[n] = m[k]
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string starting at i, or -1.
func stringEnd(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd returns the index just past the JSON value starting at i, or -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := stringEnd(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ' ' && b[j] != '\n' && b[j] != '\t' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
