package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"fairbalance"
)

// TamperForTest runs a raw statement on the writer, bypassing the ports.
// Tests use it to show that the database itself refuses what the service
// layer never attempts (editing the audit trail).
func (db *DB) TamperForTest(ctx context.Context, stmt string) error {
	_, err := db.writer.ExecContext(ctx, stmt)
	return err
}

// AuthEventsForTest returns the whole auth audit, oldest first. Tests use it
// to check that every auth event is recorded.
func (db *DB) AuthEventsForTest(ctx context.Context) ([]fairbalance.AuthEvent, error) {
	rows, err := db.read().query(ctx, `SELECT id, action, actor_id, actor_email, ip, payload, created_at FROM auth_audit ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fairbalance.AuthEvent
	for rows.Next() {
		var e fairbalance.AuthEvent
		var payload []byte
		if err := rows.Scan(&e.ID, &e.Action, &e.ActorID, &e.ActorEmail, &e.IP, &payload, &e.CreatedAt); err != nil {
			return nil, err
		}
		e.Payload = json.RawMessage(payload)
		e.CreatedAt = e.CreatedAt.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// snapshotTables are the tables SnapshotForTest reads.
var snapshotTables = []string{"users", "identities", "mfa_factors", "mfa_challenges", "sessions", "refresh_tokens", "one_time_tokens", "flow_states", "mail_outbox", "auth_audit"}

// SnapshotForTest renders every row of the identity tables as text, per
// table, in a stable order. Tests compare two snapshots to show that a
// refused request wrote nothing.
func (db *DB) SnapshotForTest(ctx context.Context) (map[string][]string, error) {
	out := make(map[string][]string, len(snapshotTables))
	for _, table := range snapshotTables {
		rows, err := db.read().query(ctx, `SELECT * FROM `+table+` ORDER BY id`)
		if err != nil {
			return nil, err
		}
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return nil, err
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		list := []string{}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return nil, err
			}
			var b strings.Builder
			for i, v := range vals {
				if i > 0 {
					b.WriteString(" | ")
				}
				switch x := v.(type) {
				case []byte:
					b.Write(x)
				case time.Time:
					b.WriteString(x.UTC().Format(time.RFC3339Nano))
				default:
					fmt.Fprint(&b, x)
				}
			}
			list = append(list, b.String())
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
		out[table] = list
	}
	return out, nil
}

var (
	// sqliteInList is a CHECK (column IN ('a','b')) of a CREATE TABLE.
	sqliteInList = regexp.MustCompile(`(?i)CHECK\s*\(\s*(\w+)\s+IN\s*\(([^()]*)\)\s*\)`)
	// pgAnyArray is PostgreSQL's rendering of the same constraint:
	// CHECK ((column = ANY (ARRAY['a'::text, 'b'::text]))).
	pgAnyArray = regexp.MustCompile(`\(\(?(\w+)\)? = ANY \(\(?ARRAY\[([^\]]*)\]`)
	sqlString  = regexp.MustCompile(`'((?:[^']|'')*)'`)
)

// ValueChecksForTest reads the CHECK constraints of a table in the live
// schema that hold a column to a list of values, as column → values in
// the declared order. Tests compare them with the domain's vocabularies.
func (db *DB) ValueChecksForTest(ctx context.Context, table string) (map[string][]string, error) {
	var defs []string
	var pattern *regexp.Regexp
	if db.backend == "postgres" {
		pattern = pgAnyArray
		rows, err := db.writer.QueryContext(ctx, `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'c' ORDER BY conname`, table)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var d string
			if err := rows.Scan(&d); err != nil {
				return nil, err
			}
			defs = append(defs, d)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	} else {
		pattern = sqliteInList
		var d string
		if err := db.writer.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&d); err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
		defs = append(defs, d)
	}
	out := map[string][]string{}
	for _, d := range defs {
		for _, m := range pattern.FindAllStringSubmatch(d, -1) {
			if _, dup := out[m[1]]; dup {
				return nil, fmt.Errorf("table %s: two value lists for column %s", table, m[1])
			}
			values := []string{}
			for _, v := range sqlString.FindAllStringSubmatch(m[2], -1) {
				values = append(values, strings.ReplaceAll(v[1], "''", "'"))
			}
			out[m[1]] = values
		}
	}
	return out, nil
}
