package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"fairbalance"
)

// TamperForTest runs a raw statement on the writer, bypassing the ports,
// with args for its "?" placeholders (written as the backend wants them).
// Tests use it to show that the database itself refuses what the service
// layer never attempts (editing the audit trail), and to play someone with
// direct access to the database.
func (db *DB) TamperForTest(ctx context.Context, stmt string, args ...any) error {
	if len(args) > 0 {
		stmt = db.d.rebind(stmt)
	}
	_, err := db.writer.ExecContext(ctx, stmt, args...)
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
