package service

import (
	"context"
	"fmt"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// The review workflow's background work, as functions a job runner calls
// with the time it runs for: expiring approvals, expiry notices and due
// reminders. Each is idempotent — a run repeated (after a restart, or by a
// second instance) changes nothing more and notifies nobody twice: moves
// are conditional on the state read, notices carry a dedupe key unique per
// recipient. Entries they append to the audit trail name the actor
// "system".

// SystemActor is the actor of the audit entries of background work.
const SystemActor = "system"

// ExpireApprovals moves every approved asset whose expiry date has come
// (fairbalance.ExpiryReached at now) to expired, each in its own
// transaction with its audit entry (asset_expired) and a notice to its
// owner. It returns how many assets it expired.
func (rv *Reviews) ExpireApprovals(ctx context.Context, now time.Time) (int, error) {
	store := rv.reg.store
	today := now.UTC().Format(time.DateOnly)
	rows, err := readDBRows(ctx, store.View(), "assets", and(condEq("status", string(fairbalance.AssetApproved)),
		&fairbalance.Cond{Column: "expires_at", Operator: "lte", Value: today}), 0, selCol("id", fairbalance.TypeText))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rows {
		moved := false
		err := store.Tx(ctx, func(tx fairbalance.Tx) error {
			sys := fairbalance.Caller{Role: "service_role"}
			a, before, err := rowOf[fairbalance.Asset](ctx, tx, sys, AssetsTable(), str(r, "id"))
			if err != nil || a == nil || a.Status != fairbalance.AssetApproved || a.ExpiresAt == nil || !fairbalance.ExpiryReached(*a.ExpiresAt, now) {
				return err
			}
			after, err := updateRow(ctx, tx, AssetsTable(), a.ID, map[string]any{"status": string(fairbalance.AssetExpired), "updated_at": now.UTC()},
				condEq("status", string(fairbalance.AssetApproved)))
			if err != nil || after == nil {
				return err
			}
			if err := tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: a.OrgID, ActorID: SystemActor, Action: fairbalance.ActionAssetExpired,
				ObjectType: "assets", ObjectID: a.ID, Before: mustRaw(before), After: mustRaw(after), Meta: mustRaw(map[string]any{"via": "job", "expires_at": *a.ExpiresAt})}); err != nil {
				return err
			}
			moved = true
			if a.OwnerID == nil {
				return nil
			}
			key := "expired:" + a.ID + ":" + *a.ExpiresAt
			return addNotification(ctx, tx, &fairbalance.Notification{OrgID: a.OrgID, UserID: *a.OwnerID, Kind: fairbalance.NotifyExpired,
				Title: a.Title + " expired", Body: "Its approval ran out on " + *a.ExpiresAt + "; submit it again to use it.", AssetID: &a.ID, DedupeKey: &key, CreatedAt: now})
		})
		if err != nil {
			return n, err
		}
		if moved {
			n++
		}
	}
	return n, nil
}

// NotifyExpiring tells the owners of approved assets expiring within
// `within` of now (30 days for the product) once per expiry date. It
// returns how many notices it added.
func (rv *Reviews) NotifyExpiring(ctx context.Context, now time.Time, within time.Duration) (int, error) {
	store := rv.reg.store
	until := now.UTC().Add(within).Format(time.DateOnly)
	assets, _, err := rowsOf[fairbalance.Asset](ctx, store.View(), AssetsTable(), and(condEq("status", string(fairbalance.AssetApproved)),
		&fairbalance.Cond{Column: "expires_at", Operator: "lte", Value: until}))
	if err != nil {
		return 0, err
	}
	n := 0
	err = store.Tx(ctx, func(tx fairbalance.Tx) error {
		for _, a := range assets {
			if a.OwnerID == nil || a.ExpiresAt == nil {
				continue
			}
			key := "expiry_soon:" + a.ID + ":" + *a.ExpiresAt
			added, err := addNotificationOnce(ctx, tx, &fairbalance.Notification{OrgID: a.OrgID, UserID: *a.OwnerID, Kind: fairbalance.NotifyExpirySoon,
				Title: a.Title + " expires on " + *a.ExpiresAt, Body: "Renew its approval before it expires.", AssetID: &a.ID, DedupeKey: &key, CreatedAt: now})
			if err != nil {
				return err
			}
			if added {
				n++
			}
		}
		return nil
	})
	return n, err
}

// NotifyDue reminds the reviewers of active steps due within a day of now
// (the one who claimed it, else every reviewer of its role) and, once
// overdue, them and the round's submitter; each once per step and due time.
// It returns how many notices it added.
func (rv *Reviews) NotifyDue(ctx context.Context, now time.Time) (int, error) {
	store := rv.reg.store
	steps, _, err := rowsOf[fairbalance.ReviewStep](ctx, store.View(), ReviewStepsTable(), and(condEq("status", string(fairbalance.StepActive)),
		&fairbalance.Cond{Column: "due_at", Operator: "lte", Value: now.UTC().Add(24 * time.Hour)}))
	if err != nil {
		return 0, err
	}
	n := 0
	err = store.Tx(ctx, func(tx fairbalance.Tx) error {
		sys := fairbalance.Caller{Role: "service_role"}
		for _, s := range steps {
			if s.DueAt == nil {
				continue
			}
			review, _, err := rowOf[fairbalance.Review](ctx, tx, sys, ReviewsTable(), s.ReviewID)
			if err != nil || review == nil {
				return err
			}
			title, err := assetTitle(ctx, tx, s.AssetID)
			if err != nil {
				return err
			}
			kind, to := fairbalance.NotifyDueSoon, []string{}
			if s.ClaimedBy != nil {
				to = append(to, *s.ClaimedBy)
			} else if to, err = roleMembers(ctx, tx, s.OrgID, string(s.Role)); err != nil {
				return err
			}
			subject := fmt.Sprintf("%s: the %s step is due %s", title, roleLabel(s.Role), s.DueAt.UTC().Format("2 Jan 15:04 UTC"))
			if s.DueAt.Before(now) {
				kind = fairbalance.NotifyOverdue
				to = append(to, review.SubmittedBy)
				subject = fmt.Sprintf("%s: the %s step is overdue (due %s)", title, roleLabel(s.Role), s.DueAt.UTC().Format("2 Jan 15:04 UTC"))
			}
			key := string(kind) + ":" + s.ID + ":" + s.DueAt.UTC().Format(time.RFC3339)
			for _, u := range to {
				added, err := addNotificationOnce(ctx, tx, &fairbalance.Notification{OrgID: s.OrgID, UserID: u, Kind: kind, Title: subject,
					AssetID: &s.AssetID, ReviewID: &s.ReviewID, StepID: &s.ID, DedupeKey: &key, CreatedAt: now})
				if err != nil {
					return err
				}
				if added {
					n++
				}
			}
		}
		return nil
	})
	return n, err
}

// Notify adds a notification (a job's notice); one whose DedupeKey the
// recipient already has is skipped. It reports whether it was added.
func (rv *Reviews) Notify(ctx context.Context, n *fairbalance.Notification) (bool, error) {
	var added bool
	err := rv.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		var err error
		added, err = addNotificationOnce(ctx, tx, n)
		return err
	})
	return added, err
}

// addNotificationOnce is addNotification reporting whether the row was
// added (false: its dedupe key was taken).
func addNotificationOnce(ctx context.Context, tx fairbalance.Tx, n *fairbalance.Notification) (bool, error) {
	if n.DedupeKey != nil {
		rows, err := readDBRows(ctx, tx, "notifications", and(condEq("user_id", n.UserID), condEq("dedupe_key", *n.DedupeKey)), 1, selCol("id", fairbalance.TypeText))
		if err != nil || len(rows) > 0 {
			return false, err
		}
	}
	n.ID = auth.NewUUID()
	return true, addNotification(ctx, tx, n)
}
