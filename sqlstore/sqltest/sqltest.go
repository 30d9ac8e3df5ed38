// Package sqltest runs the raw SQL that only tests need against a store of
// package sqlstore: tampering with rows the program never changes (to show
// that the database itself refuses it, or that verification notices it),
// snapshots of whole tables, and bulk rows for search tests and
// benchmarks. Only tests import it, so none of it is part of the program.
package sqltest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/sqlstore"
	"fairbalance/sqlstore/internal/rawkey"
)

func raw(db *sqlstore.DB) (writer, reader *sql.DB, postgres bool) { return db.Raw(rawkey.Key{}) }

// Exec runs a raw statement on the writer, bypassing the ports, with args
// for its "?" placeholders (rewritten as $1, $2 … on PostgreSQL). Tests use
// it to show that the database itself refuses what the service layer never
// attempts (editing the audit trail), to play someone with direct access to
// the database, and to set up states no use case makes.
func Exec(ctx context.Context, db *sqlstore.DB, stmt string, args ...any) error {
	w, _, postgres := raw(db)
	if postgres && len(args) > 0 {
		var b strings.Builder
		n := 0
		for _, r := range stmt {
			if r == '?' {
				n++
				b.WriteString("$" + strconv.Itoa(n))
				continue
			}
			b.WriteRune(r)
		}
		stmt = b.String()
	}
	_, err := w.ExecContext(ctx, stmt, args...)
	return err
}

// AuthEvents returns the whole auth audit, oldest first. Tests use it to
// check that every auth event is recorded.
func AuthEvents(ctx context.Context, db *sqlstore.DB) ([]fairbalance.AuthEvent, error) {
	_, r, _ := raw(db)
	rows, err := r.QueryContext(ctx, `SELECT id, action, actor_id, actor_email, ip, payload, created_at FROM auth_audit ORDER BY id`)
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

// snapshotTables are the tables Snapshot reads.
var snapshotTables = []string{"users", "identities", "mfa_factors", "mfa_challenges", "sessions", "refresh_tokens", "one_time_tokens", "flow_states", "mail_outbox", "auth_audit"}

// Snapshot renders every row of the identity tables as text, per table, in
// a stable order. Tests compare two snapshots to show that a refused
// request wrote nothing.
func Snapshot(ctx context.Context, db *sqlstore.DB) (map[string][]string, error) {
	_, r, _ := raw(db)
	out := make(map[string][]string, len(snapshotTables))
	for _, table := range snapshotTables {
		rows, err := r.QueryContext(ctx, `SELECT * FROM `+table+` ORDER BY id`)
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

// BulkAsset is an asset with one authored version, for tests and
// benchmarks that need many assets quickly (BulkInsertAssets).
type BulkAsset struct {
	ID, VersionID                       string
	OrgID, Title, Type, Audience        string
	Channel, Market, JobCode, Status    string
	OwnerID, ProductID, CreatedBy, Text string
}

// BulkInsertAssets inserts assets and their first versions in one
// transaction with multi-row statements, through the same triggers as the
// service's writes (so the search index is built as in production). It
// bypasses the service's checks: the rows must be valid.
func BulkInsertAssets(ctx context.Context, db *sqlstore.DB, assets []BulkAsset) error {
	const batch = 200
	w, _, postgres := raw(db)
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := time.Now().UTC()
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	for start := 0; start < len(assets); start += batch {
		part := assets[start:min(start+batch, len(assets))]
		var a, v strings.Builder
		var aargs, vargs []any
		a.WriteString(`INSERT INTO assets (id, org_id, title, type, product_id, audience, channel, market, owner_id, job_code, status, current_version_id, current_version_number, created_by, created_at, updated_at) VALUES `)
		v.WriteString(`INSERT INTO asset_versions (id, org_id, asset_id, number, kind, content_html, plain_text, page_texts, sha256, page_count, change_note, created_by, created_at, updated_at) VALUES `)
		for i, x := range part {
			if i > 0 {
				a.WriteString(", ")
				v.WriteString(", ")
			}
			a.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)")
			v.WriteString("(?, ?, ?, 1, 'authored', ?, ?, ?, ?, 1, '', ?, ?, ?)")
			html := "<p>" + x.Text + "</p>"
			sum := sha256.Sum256([]byte(html))
			pages, _ := json.Marshal([]string{x.Text})
			aargs = append(aargs, x.ID, x.OrgID, x.Title, x.Type, null(x.ProductID), x.Audience, x.Channel, x.Market, null(x.OwnerID), x.JobCode, x.Status, x.VersionID, x.CreatedBy, now, now)
			vargs = append(vargs, x.VersionID, x.OrgID, x.ID, html, x.Text, string(pages), hex.EncodeToString(sum[:]), x.CreatedBy, now, now)
		}
		if _, err := tx.ExecContext(ctx, rebind(postgres, a.String()), aargs...); err != nil {
			return fmt.Errorf("sqltest: bulk assets: %w", err)
		}
		if _, err := tx.ExecContext(ctx, rebind(postgres, v.String()), vargs...); err != nil {
			return fmt.Errorf("sqltest: bulk versions: %w", err)
		}
	}
	return tx.Commit()
}

// rebind numbers the ? placeholders of q as $1, $2, … for PostgreSQL.
func rebind(postgres bool, q string) string {
	if !postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var (
	// sqliteInList is a CHECK (column IN ('a','b')) of a CREATE TABLE.
	sqliteInList = regexp.MustCompile(`(?i)CHECK\s*\(\s*(\w+)\s+IN\s*\(([^()]*)\)\s*\)`)
	// pgAnyArray is PostgreSQL's rendering of the same constraint:
	// CHECK ((column = ANY (ARRAY['a'::text, 'b'::text]))).
	pgAnyArray = regexp.MustCompile(`\(\(?(\w+)\)? = ANY \(\(?ARRAY\[([^\]]*)\]`)
	sqlString  = regexp.MustCompile(`'((?:[^']|'')*)'`)
)

// ValueChecks reads the CHECK constraints of a table in the live
// schema that hold a column to a list of values, as column → values in
// the declared order. Tests compare them with the domain's vocabularies.
func ValueChecks(ctx context.Context, db *sqlstore.DB, table string) (map[string][]string, error) {
	w, _, postgres := raw(db)
	var defs []string
	var pattern *regexp.Regexp
	if postgres {
		pattern = pgAnyArray
		rows, err := w.QueryContext(ctx, `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'c' ORDER BY conname`, table)
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
		if err := w.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&d); err != nil {
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
