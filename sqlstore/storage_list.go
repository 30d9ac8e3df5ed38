package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"fairbalance"
)

// Listings compare names bytewise (SQLite's BINARY collation; "C" on
// PostgreSQL, served by storage_objects_name_c_idx), so that a prefix is a
// contiguous range of the (bucket_id, name) index: [prefix, prefixEnd).

// prefixEnd returns the smallest string greater than every string that
// begins with p (its last rune incremented), and false when there is none
// (p empty or all U+10FFFF). Code point order is UTF-8's byte order.
func prefixEnd(p string) (string, bool) {
	for p != "" {
		r, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
		if r == utf8.RuneError && size <= 1 || r == utf8.MaxRune {
			continue
		}
		r++
		if r == 0xD800 { // surrogates are not characters
			r = 0xE000
		}
		return p + string(r), true
	}
	return "", false
}

func (q *querier) nameC() string {
	if q.d.postgres {
		return `name COLLATE "C"`
	}
	return "name"
}

// prefixRange appends the conditions keeping the names under prefix.
func (q *querier) prefixRange(where []string, args []any, prefix string) ([]string, []any) {
	if prefix == "" {
		return where, args
	}
	where, args = append(where, q.nameC()+" >= ?"), append(args, prefix)
	if end, ok := prefixEnd(prefix); ok {
		where, args = append(where, q.nameC()+" < ?"), append(args, end)
	}
	return where, args
}

// ListObjects implements fairbalance.StorageStore.
func (q *querier) ListObjects(ctx context.Context, l fairbalance.ObjectListing) ([]fairbalance.ObjectEntry, error) {
	col := ""
	switch l.Sort {
	case "", "name":
	case "created_at", "updated_at", "last_accessed_at":
		col = l.Sort
	default:
		return nil, fmt.Errorf("sqlstore: objects cannot be sorted by %q", l.Sort)
	}
	switch {
	case l.Limit <= 0:
		return []fairbalance.ObjectEntry{}, nil
	case !l.Folders:
		return q.listFlat(ctx, l, col)
	case col == "":
		return q.listByName(ctx, l)
	default:
		return q.listFoldersByTime(ctx, l, col)
	}
}

func (q *querier) scanObjects(ctx context.Context, query string, args ...any) ([]*fairbalance.StoredObject, error) {
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*fairbalance.StoredObject
	for rows.Next() {
		o, err := scanObject(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, translate(rows.Err())
}

func order(desc bool) (dir, after string) {
	if desc {
		return "DESC", "<"
	}
	return "ASC", ">"
}

func sortTime(o *fairbalance.StoredObject, col string) time.Time {
	switch col {
	case "created_at":
		return o.CreatedAt
	case "updated_at":
		return o.UpdatedAt
	case "last_accessed_at":
		return o.LastAccessedAt
	}
	return time.Time{}
}

// listFlat lists objects without folders: one index range, keyset after
// (time, name) or name.
func (q *querier) listFlat(ctx context.Context, l fairbalance.ObjectListing, col string) ([]fairbalance.ObjectEntry, error) {
	n := q.nameC()
	dir, op := order(l.Desc)
	where, args := q.prefixRange([]string{"bucket_id = ?"}, []any{l.BucketID}, l.Prefix)
	by := n + " " + dir
	if col != "" {
		by = col + " " + dir + ", " + by
		if l.AfterName != "" {
			t := l.AfterTime.UTC()
			where = append(where, "("+col+" "+op+" ? OR ("+col+" = ? AND "+n+" "+op+" ?))")
			args = append(args, t, t, l.AfterName)
		}
	} else if l.AfterName != "" {
		where, args = append(where, n+" "+op+" ?"), append(args, l.AfterName)
	}
	objs, err := q.scanObjects(ctx, `SELECT `+objectColumns+` FROM storage_objects WHERE `+strings.Join(where, " AND ")+` ORDER BY `+by+` LIMIT ?`,
		append(args, l.Limit)...)
	if err != nil {
		return nil, err
	}
	out := make([]fairbalance.ObjectEntry, len(objs))
	for i, o := range objs {
		out[i] = fairbalance.ObjectEntry{Name: o.Name, Time: sortTime(o, col), Object: o}
	}
	return out, nil
}

// listByName lists the objects and folders directly under the prefix by
// name. It walks the index: a batch of names from the current position;
// at the first name inside a folder the folder is emitted and the walk
// seeks past everything under it, so a folder costs one index seek however
// many objects it holds.
func (q *querier) listByName(ctx context.Context, l fairbalance.ObjectListing) ([]fairbalance.ObjectEntry, error) {
	n := q.nameC()
	dir, op := order(l.Desc)
	// The walk's position: names op pos (or from pos, inclusive, when
	// incl — ascending only).
	pos, incl := l.AfterName, false
	if strings.HasSuffix(pos, "/") && !l.Desc {
		// After a folder: past everything under it.
		end, ok := prefixEnd(pos)
		if !ok {
			return []fairbalance.ObjectEntry{}, nil
		}
		pos, incl = end, true
	}
	out := []fairbalance.ObjectEntry{}
	batch := 32
	for len(out) < l.Limit {
		where, args := q.prefixRange([]string{"bucket_id = ?"}, []any{l.BucketID}, l.Prefix)
		switch {
		case incl:
			where, args = append(where, n+" >= ?"), append(args, pos)
		case pos != "":
			where, args = append(where, n+" "+op+" ?"), append(args, pos)
		}
		want := min(batch, l.Limit-len(out))
		objs, err := q.scanObjects(ctx, `SELECT `+objectColumns+` FROM storage_objects WHERE `+strings.Join(where, " AND ")+` ORDER BY `+n+` `+dir+` LIMIT ?`,
			append(args, want)...)
		if err != nil {
			return nil, err
		}
		folder := false
		for _, o := range objs {
			rest := strings.TrimPrefix(o.Name, l.Prefix)
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				f := l.Prefix + rest[:i+1]
				out = append(out, fairbalance.ObjectEntry{Name: f})
				folder = true
				if l.Desc {
					// Every name under f is >= f.
					pos, incl = f, false
				} else if end, ok := prefixEnd(f); ok {
					pos, incl = end, true
				} else {
					return out, nil
				}
				break
			}
			out = append(out, fairbalance.ObjectEntry{Name: o.Name, Object: o})
			pos, incl = o.Name, false
		}
		if folder {
			batch = 32
			continue
		}
		if len(objs) < want {
			break
		}
		batch *= 2
	}
	return out, nil
}

// timeValue converts an aggregated time: PostgreSQL returns a time,
// SQLite the stored text.
func timeValue(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t.UTC(), nil
	case string:
		p, err := time.Parse("2006-01-02 15:04:05.999999999-07:00", t)
		return p.UTC(), err
	case []byte:
		return timeValue(string(t))
	}
	return time.Time{}, fmt.Errorf("sqlstore: unexpected time %T", v)
}

// listFoldersByTime lists the objects and folders directly under the
// prefix by a time column; a folder's time is the earliest created_at
// under it (as Supabase's storage does). Folders are aggregated over every
// name under the prefix; the page is then fetched by id.
func (q *querier) listFoldersByTime(ctx context.Context, l fairbalance.ObjectListing, col string) ([]fairbalance.ObjectEntry, error) {
	find := "instr"
	if q.d.postgres {
		find = "strpos"
	}
	start := utf8.RuneCountInString(l.Prefix) + 1
	slash := find + "(substr(name, ?), '/')"
	where, args := q.prefixRange([]string{"bucket_id = ?"}, []any{l.BucketID}, l.Prefix)
	inRange := strings.Join(where, " AND ")
	dir, op := order(l.Desc)
	en := "ename"
	if q.d.postgres {
		en = `ename COLLATE "C"`
	}
	query := `SELECT ename, etime, eid FROM (
	SELECT f AS ename, MIN(created_at) AS etime, NULL AS eid FROM (
		SELECT substr(name, 1, ? + ` + slash + `) AS f, created_at FROM storage_objects WHERE ` + inRange + ` AND ` + slash + ` > 0) t GROUP BY f
	UNION ALL
	SELECT name, ` + col + `, id FROM storage_objects WHERE ` + inRange + ` AND ` + slash + ` = 0
) e`
	qargs := []any{start - 1, start}
	qargs = append(qargs, args...)
	qargs = append(qargs, start)
	qargs = append(qargs, args...)
	qargs = append(qargs, start)
	switch {
	case l.FoldersFirst && l.AfterName != "":
		return nil, fmt.Errorf("sqlstore: a folders-first listing has no keyset position")
	case l.FoldersFirst:
		// Folders (eid NULL) by name, then objects by time and name.
		query += ` ORDER BY CASE WHEN eid IS NULL THEN 0 ELSE 1 END, CASE WHEN eid IS NULL THEN ` + en + ` END ` + dir + `, etime ` + dir + `, ` + en + ` ` + dir + ` LIMIT ?`
	default:
		if l.AfterName != "" {
			t := l.AfterTime.UTC()
			query += ` WHERE (etime ` + op + ` ? OR (etime = ? AND ` + en + ` ` + op + ` ?))`
			qargs = append(qargs, t, t, l.AfterName)
		}
		query += ` ORDER BY etime ` + dir + `, ` + en + ` ` + dir + ` LIMIT ?`
	}
	qargs = append(qargs, l.Limit)
	rows, err := q.query(ctx, query, qargs...)
	if err != nil {
		return nil, err
	}
	out := []fairbalance.ObjectEntry{}
	var ids []any
	for rows.Next() {
		var name string
		var t any
		var id *string
		if err := rows.Scan(&name, &t, &id); err != nil {
			rows.Close()
			return nil, translate(err)
		}
		tt, err := timeValue(t)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, fairbalance.ObjectEntry{Name: name, Time: tt})
		if id != nil {
			ids = append(ids, *id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	if len(ids) == 0 {
		return out, nil
	}
	// The page's objects, in one query (not cached: the list length varies).
	objRows, err := q.execer().QueryContext(ctx, q.d.rebind(`SELECT `+objectColumns+` FROM storage_objects WHERE id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`), ids...)
	if err != nil {
		return nil, translate(err)
	}
	defer objRows.Close()
	byName := map[string]*fairbalance.StoredObject{}
	for objRows.Next() {
		o, err := scanObject(objRows)
		if err != nil {
			return nil, err
		}
		byName[o.Name] = o
	}
	if err := objRows.Err(); err != nil {
		return nil, translate(err)
	}
	for i := range out {
		if !strings.HasSuffix(out[i].Name, "/") {
			out[i].Object = byName[out[i].Name]
		}
	}
	return out, nil
}
