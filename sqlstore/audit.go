package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"fairbalance"
)

// The audit trail (see fairbalance.AuditStore). fairbalance.Tx includes
// it, so a service records the audit entry of a change in the change's own
// transaction:
//
//	db.Tx(ctx, func(tx fairbalance.Tx) error {
//		… change …
//		return tx.AppendAudit(ctx, entry)
//	})
//
// AuditTx and AuditView give just the audit trail, for audit-only work.
var _ fairbalance.AuditStore = (*querier)(nil)

// AuditTx runs fn in one write transaction, exactly as Tx does (on SQLite
// possibly group-committed with others), handing it the audit trail.
func (db *DB) AuditTx(ctx context.Context, fn func(tx fairbalance.AuditStore) error) error {
	return db.Tx(ctx, func(tx fairbalance.Tx) error { return fn(tx) })
}

// AuditView returns the audit trail for reads outside a transaction (on
// SQLite, the read-only pool). Its AppendAudit always fails.
func (db *DB) AuditView() fairbalance.AuditStore { return db.read() }

var errAuditOutsideTx = errors.New("sqlstore: AppendAudit outside a write transaction")

const auditColumns = `org_id, seq, actor_id, actor_email, action, object_type, object_id,
 before_data, after_data, meta, ip, user_agent, created_at, prev_hash, hash, client_reported`

// AppendAudit implements fairbalance.AuditStore. The chain head row is
// locked first (FOR UPDATE on PostgreSQL; SQLite's write lock is already
// held), so appenders of one organisation take turns; the entry is then
// inserted after it and the head moved to it; a trigger refuses any head
// move other than one step forward. An entry is never dated before its
// predecessor: a CreatedAt earlier than the head's (a concurrent
// transaction took the lock first) is raised to it, which keeps created_at
// in seq order for ListAudit's time ranges.
func (q *querier) AppendAudit(ctx context.Context, e *fairbalance.AuditEntry) error {
	if !q.inTx {
		return errAuditOutsideTx
	}
	n := *e
	if n.CreatedAt.IsZero() {
		n.CreatedAt = time.Now()
	}
	if err := n.Normalize(); err != nil {
		return err
	}
	seq, prev, last, err := q.lockChainHead(ctx, n.OrgID)
	if err != nil {
		return err
	}
	if n.CreatedAt.Before(last) {
		n.CreatedAt = last.UTC()
	}
	n.ID, n.PrevHash = seq+1, prev
	n.Hash = n.ComputeHash()
	if _, err := q.exec(ctx, `INSERT INTO audit_log (`+auditColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		n.OrgID, n.ID, n.ActorID, n.ActorEmail, n.Action, n.ObjectType, n.ObjectID,
		string(n.Before), string(n.After), string(n.Meta), n.IP, n.UserAgent, n.CreatedAt, n.PrevHash, n.Hash, n.ClientReported); err != nil {
		return fmt.Errorf("sqlstore: append audit entry: %w", err)
	}
	if err := mustAffect(q.exec(ctx, `UPDATE audit_chain_head SET seq = ?, hash = ?, created_at = ? WHERE org_id = ?`, n.ID, n.Hash, n.CreatedAt, n.OrgID)); err != nil {
		return fmt.Errorf("sqlstore: move audit chain head: %w", err)
	}
	*e = n
	return nil
}

// lockChainHead returns the last seq, hash and time of orgID's chain,
// creating an empty head for a new chain, and holds the head's row lock on
// PostgreSQL.
func (q *querier) lockChainHead(ctx context.Context, orgID string) (seq int64, hash string, last time.Time, err error) {
	const sel = `SELECT seq, hash, created_at FROM audit_chain_head WHERE org_id = ?`
	var t sql.NullTime
	err = translate(q.row(ctx, sel+q.forUpdate(), orgID).Scan(&seq, &hash, &t))
	if !errors.Is(err, fairbalance.ErrNotFound) {
		return seq, hash, t.Time, err
	}
	// A new chain. DO NOTHING (not a plain INSERT) because on PostgreSQL a
	// concurrent first append may be creating the same head: this insert
	// waits for it, and the SELECT then locks the row it committed.
	if _, err := q.exec(ctx, `INSERT INTO audit_chain_head (org_id, seq, hash) VALUES (?, 0, ?) ON CONFLICT (org_id) DO NOTHING`, orgID, fairbalance.GenesisHash); err != nil {
		return 0, "", time.Time{}, fmt.Errorf("sqlstore: create audit chain head: %w", err)
	}
	err = translate(q.row(ctx, sel+q.forUpdate(), orgID).Scan(&seq, &hash, &t))
	return seq, hash, t.Time, err
}

func scanAudit(s scanner) (fairbalance.AuditEntry, error) {
	var e fairbalance.AuditEntry
	var before, after, meta string
	err := s.Scan(&e.OrgID, &e.ID, &e.ActorID, &e.ActorEmail, &e.Action, &e.ObjectType, &e.ObjectID,
		&before, &after, &meta, &e.IP, &e.UserAgent, &e.CreatedAt, &e.PrevHash, &e.Hash, &e.ClientReported)
	if err != nil {
		return e, translate(err)
	}
	e.Before, e.After, e.Meta = rawJSON(before), rawJSON(after), rawJSON(meta)
	e.CreatedAt = e.CreatedAt.UTC()
	return e, nil
}

func rawJSON(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

// ListAudit implements fairbalance.AuditStore. Every filter has an index
// that ends in seq (see 0002_audit.sql), so a page is a short backward
// range read whatever the size of the chain.
func (q *querier) ListAudit(ctx context.Context, f fairbalance.AuditFilter) ([]fairbalance.AuditEntry, error) {
	if (f.ObjectID != "" || len(f.ObjectIDs) > 0) && f.ObjectType == "" {
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, "invalid_filter", "Filtering by object id needs the object type.")
	}
	if f.ObjectID != "" && len(f.ObjectIDs) > 0 || len(f.ObjectIDs) > fairbalance.MaxAuditObjects {
		return nil, fairbalance.Errorf(fairbalance.KindInvalid, "invalid_filter", "Filter by one object id or by a list of at most %d.", fairbalance.MaxAuditObjects)
	}
	limit := f.Limit
	switch {
	case limit <= 0:
		limit = fairbalance.DefaultAuditPage
	case limit > fairbalance.MaxAuditPage:
		limit = fairbalance.MaxAuditPage
	}
	var b strings.Builder
	b.WriteString(`SELECT ` + auditColumns + ` FROM audit_log WHERE org_id = ?`)
	args := []any{f.OrgID}
	cond := func(sql string, arg any) {
		b.WriteString(` AND ` + sql)
		args = append(args, arg)
	}
	if f.ActorID != "" {
		cond(`actor_id = ?`, f.ActorID)
	}
	if f.Action != "" {
		cond(`action = ?`, f.Action)
	}
	if f.ObjectType != "" {
		cond(`object_type = ?`, f.ObjectType)
	}
	if f.ObjectID != "" {
		cond(`object_id = ?`, f.ObjectID)
	}
	if len(f.ObjectIDs) > 0 {
		b.WriteString(` AND object_id IN (?` + strings.Repeat(`,?`, len(f.ObjectIDs)-1) + `)`)
		for _, id := range f.ObjectIDs {
			args = append(args, id)
		}
	}
	// A time range becomes a range of seq (created_at never decreases along
	// a chain), found in the (org_id, created_at, seq) index; the page is
	// then read through the index of the other filters, or the chain's own.
	// The created_at conditions stay, so the result is exact even so.
	if !f.Since.IsZero() {
		var first int64
		err := q.row(ctx, `SELECT seq FROM audit_log WHERE org_id = ? AND created_at >= ? ORDER BY created_at, seq LIMIT 1`, f.OrgID, f.Since.UTC()).Scan(&first)
		if err = translate(err); errors.Is(err, fairbalance.ErrNotFound) {
			return []fairbalance.AuditEntry{}, nil
		} else if err != nil {
			return nil, err
		}
		cond(`created_at >= ?`, f.Since.UTC())
		cond(`seq >= ?`, first)
	}
	before := f.Before
	if !f.Until.IsZero() {
		var last int64
		err := q.row(ctx, `SELECT seq FROM audit_log WHERE org_id = ? AND created_at < ? ORDER BY created_at DESC, seq DESC LIMIT 1`, f.OrgID, f.Until.UTC()).Scan(&last)
		if err = translate(err); errors.Is(err, fairbalance.ErrNotFound) {
			return []fairbalance.AuditEntry{}, nil
		} else if err != nil {
			return nil, err
		}
		cond(`created_at < ?`, f.Until.UTC())
		if before <= 0 || last+1 < before {
			before = last + 1
		}
	}
	if before > 0 {
		cond(`seq < ?`, before)
	}
	b.WriteString(` ORDER BY seq DESC LIMIT ?`)
	args = append(args, limit)
	rows, err := q.query(ctx, b.String(), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]fairbalance.AuditEntry, 0, min(limit, 64))
	for rows.Next() {
		e, err := scanAudit(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, translate(rows.Err())
}

// AuditChains implements fairbalance.AuditStore. The organisations are
// found by skipping from one org_id to the next in the (org_id, seq) index,
// so the cost grows with the number of chains, not of entries.
func (q *querier) AuditChains(ctx context.Context) ([]string, error) {
	rows, err := q.query(ctx, `WITH RECURSIVE orgs(org_id) AS (
  SELECT MIN(org_id) FROM audit_log
  UNION ALL
  SELECT (SELECT MIN(l.org_id) FROM audit_log l WHERE l.org_id > o.org_id) FROM orgs o WHERE o.org_id IS NOT NULL
)
SELECT org_id FROM orgs WHERE org_id IS NOT NULL
UNION
SELECT org_id FROM audit_chain_head
ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, translate(err)
		}
		out = append(out, id)
	}
	return out, translate(rows.Err())
}

// VerifyAudit implements fairbalance.AuditStore. Outside a transaction it
// reads in a read-only snapshot transaction of its own (REPEATABLE READ on
// PostgreSQL; a deferred read transaction on SQLite, which does not block
// the writer), so the entries and the chain head it compares are of one
// moment. It streams the chain in one query, in seq order. Inside a write
// transaction it reads in that transaction, which on SQLite holds the only
// writer for as long as it takes: verify through AuditView.
func (q *querier) VerifyAudit(ctx context.Context, orgID string, seals ...fairbalance.AuditSeal) (fairbalance.AuditVerification, error) {
	if q.tx != nil {
		return q.verifyAudit(ctx, orgID, seals)
	}
	opts := &sql.TxOptions{ReadOnly: true}
	if q.d.postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := q.pool.BeginTx(ctx, opts)
	if err != nil {
		return fairbalance.AuditVerification{}, fmt.Errorf("sqlstore: begin audit verification: %w", err)
	}
	s := &querier{pool: q.pool, tx: tx, stmts: q.stmts, d: q.d}
	v, err := s.verifyAudit(ctx, orgID, seals)
	_ = tx.Rollback() // read-only: nothing to keep
	for _, query := range s.missed {
		_, _ = q.stmts.get(context.WithoutCancel(ctx), q.pool, query)
	}
	return v, err
}

// verifyBatch is how many entries the verification reader hands over at a time.
const verifyBatch = 256

// sealCheck compares a chain with the seals of its checkpoints as the
// chain is read in order.
type sealCheck struct {
	bySeq map[int64][]fairbalance.AuditSeal
	// last is the highest seal, which the chain must reach.
	last fairbalance.AuditSeal
	// matched is the highest sealed entry found as sealed so far.
	matched int64
}

func newSealCheck(seals []fairbalance.AuditSeal) *sealCheck {
	c := &sealCheck{bySeq: make(map[int64][]fairbalance.AuditSeal, len(seals))}
	for _, s := range seals {
		c.bySeq[s.Seq] = append(c.bySeq[s.Seq], s)
		if s.Seq > c.last.Seq {
			c.last = s
		}
	}
	return c
}

// check returns the reason e breaks a seal, or "".
func (c *sealCheck) check(e *fairbalance.AuditEntry) string {
	for _, s := range c.bySeq[e.ID] {
		if s.Hash == e.Hash {
			continue
		}
		since := "at or before entry " + fmt.Sprint(e.ID)
		if c.matched > 0 {
			since = fmt.Sprintf("after entry %d (the last sealed entry that still matches)", c.matched)
		}
		return fmt.Sprintf("%s: entry %d no longer has the hash sealed by the checkpoint of %s (%s…, now %s…): the chain was rewritten %s",
			fairbalance.AuditSealMismatch, e.ID, s.At.UTC().Format(time.RFC3339), short(s.Hash), short(e.Hash), since)
	}
	if len(c.bySeq[e.ID]) > 0 {
		c.matched = e.ID
	}
	return ""
}

func short(h string) string { return h[:min(len(h), 12)] }

func (q *querier) verifyAudit(ctx context.Context, orgID string, seals []fairbalance.AuditSeal) (fairbalance.AuditVerification, error) {
	v := fairbalance.AuditVerification{OrgID: orgID, HeadHash: fairbalance.GenesisHash, Seals: len(seals)}
	sealed := newSealCheck(seals)
	var headSeq int64
	err := translate(q.row(ctx, `SELECT seq, hash FROM audit_chain_head WHERE org_id = ?`, orgID).Scan(&headSeq, &v.HeadHash))
	hasHead := err == nil
	if err != nil && !errors.Is(err, fairbalance.ErrNotFound) {
		return v, fmt.Errorf("sqlstore: read audit chain head: %w", err)
	}
	rows, err := q.query(ctx, `SELECT `+auditColumns+` FROM audit_log WHERE org_id = ? ORDER BY seq`, orgID)
	if err != nil {
		return v, fmt.Errorf("sqlstore: read audit chain: %w", err)
	}
	defer rows.Close()
	// Reading and hashing overlap: one goroutine scans the chain into
	// small batches while this one checks them, so a long chain takes about
	// as long as the slower of the two, in bounded memory.
	batches := make(chan []fairbalance.AuditEntry, 4)
	var readErr error
	go func() {
		defer close(batches)
		batch := make([]fairbalance.AuditEntry, 0, verifyBatch)
		send := func() bool {
			select {
			case batches <- batch:
				batch = make([]fairbalance.AuditEntry, 0, verifyBatch)
				return true
			case <-ctx.Done():
				readErr = ctx.Err()
				return false
			}
		}
		for rows.Next() {
			e, err := scanAudit(rows)
			if err != nil {
				readErr = err
				return
			}
			if batch = append(batch, e); len(batch) == verifyBatch && !send() {
				return
			}
		}
		if err := rows.Err(); err != nil {
			readErr = translate(err)
			return
		}
		if len(batch) > 0 {
			send()
		}
	}()
	broken := func(at int64, reason string, args ...any) {
		if v.BrokenAt == 0 {
			v.BrokenAt, v.Reason = at, fmt.Sprintf(reason, args...)
		}
	}
	prevHash := fairbalance.GenesisHash
	for batch := range batches {
		for i := range batch {
			e := &batch[i]
			v.Entries++
			if v.BrokenAt != 0 {
				continue // only counting from here
			}
			want := v.Entries
			switch {
			case e.ID > want:
				broken(want, "%s: entry %d is missing (the next one is %d)", fairbalance.AuditGap, want, e.ID)
			case e.ID < want:
				broken(e.ID, "%s: entry %d appears more than once", fairbalance.AuditGap, e.ID)
			case !e.HashMatches():
				broken(e.ID, "%s: the entry's contents do not match its hash", fairbalance.AuditHashMismatch)
			case e.PrevHash != prevHash && e.ID == 1:
				broken(e.ID, "%s: the first entry does not start from the genesis hash", fairbalance.AuditBrokenLink)
			case e.PrevHash != prevHash:
				broken(e.ID, "%s: prev_hash is not the hash of entry %d", fairbalance.AuditBrokenLink, e.ID-1)
			default:
				if reason := sealed.check(e); reason != "" {
					broken(e.ID, "%s", reason)
				}
			}
			prevHash = e.Hash
		}
	}
	if readErr != nil {
		return v, fmt.Errorf("sqlstore: read audit chain: %w", readErr)
	}
	// The chain head catches what the links cannot: entries removed from
	// the end, or added past it.
	switch {
	case v.BrokenAt != 0:
	case !hasHead && v.Entries > 0:
		broken(1, "%s: the chain has entries but no head", fairbalance.AuditHeadMismatch)
	case v.Entries < headSeq:
		broken(v.Entries+1, "%s: entry %d is missing (the chain head is at %d)", fairbalance.AuditGap, v.Entries+1, headSeq)
	case v.Entries > headSeq:
		broken(headSeq+1, "%s: entry %d is past the chain head (at %d)", fairbalance.AuditHeadMismatch, headSeq+1, headSeq)
	case prevHash != v.HeadHash:
		broken(v.Entries, "%s: the last entry's hash is not the recorded head hash", fairbalance.AuditHeadMismatch)
	case sealed.last.Seq > v.Entries:
		// The chain is consistent, head included, but shorter than a
		// checkpoint saw it: its tail was cut and the head rolled back.
		broken(v.Entries+1, "%s: the checkpoint of %s sealed entry %d (%s…), but the chain ends at entry %d",
			fairbalance.AuditSealMissing, sealed.last.At.UTC().Format(time.RFC3339), sealed.last.Seq, short(sealed.last.Hash), v.Entries)
	}
	v.OK = v.BrokenAt == 0
	v.HeadID = headSeq
	v.SealedSeq = sealed.matched
	return v, nil
}

// AuditHeads implements fairbalance.AuditStore.
func (q *querier) AuditHeads(ctx context.Context) ([]fairbalance.AuditHead, error) {
	rows, err := q.query(ctx, `SELECT org_id, seq, hash, created_at FROM audit_chain_head ORDER BY org_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fairbalance.AuditHead
	for rows.Next() {
		var h fairbalance.AuditHead
		var t sql.NullTime
		if err := rows.Scan(&h.OrgID, &h.Seq, &h.Hash, &t); err != nil {
			return nil, translate(err)
		}
		if t.Valid {
			h.CreatedAt = t.Time.UTC()
		}
		out = append(out, h)
	}
	return out, translate(rows.Err())
}

// AuditHashAt implements fairbalance.AuditStore.
func (q *querier) AuditHashAt(ctx context.Context, orgID string, seq int64) (string, error) {
	var h string
	err := q.row(ctx, `SELECT hash FROM audit_log WHERE org_id = ? AND seq = ?`, orgID, seq).Scan(&h)
	return h, translate(err)
}
