package sqlstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// BulkAsset is an asset with one authored version, for tests and
// benchmarks that need many assets quickly (BulkInsertAssetsForTest).
type BulkAsset struct {
	ID, VersionID                       string
	OrgID, Title, Type, Audience        string
	Channel, Market, JobCode, Status    string
	OwnerID, ProductID, CreatedBy, Text string
}

// BulkInsertAssetsForTest inserts assets and their first versions in one
// transaction with multi-row statements, through the same triggers as the
// service's writes (so the search index is built as in production). It
// bypasses the service's checks: the rows must be valid.
func (db *DB) BulkInsertAssetsForTest(ctx context.Context, assets []BulkAsset) error {
	const batch = 200
	tx, err := db.writer.BeginTx(ctx, nil)
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
		if _, err := tx.ExecContext(ctx, db.d.rebind(a.String()), aargs...); err != nil {
			return fmt.Errorf("sqlstore: bulk assets: %w", translate(err))
		}
		if _, err := tx.ExecContext(ctx, db.d.rebind(v.String()), vargs...); err != nil {
			return fmt.Errorf("sqlstore: bulk versions: %w", translate(err))
		}
	}
	return tx.Commit()
}
