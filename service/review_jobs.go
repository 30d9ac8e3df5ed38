package service

import (
	"context"
	"fmt"
	"slices"
	"time"

	"fairbalance"
)

// The review workflow's background work, as functions a job runner calls
// with the time it runs for: due reminders, overdue marks, expiry notices
// and expiry itself (ReviewSweeper, the job queue's Sweeper). Each handles
// every item due at that time, each item in a transaction of its own (one
// bad item does not hold back the others), and is idempotent per item and
// day — a run repeated (after a restart, a retry, or by a second instance,
// even overlapping) changes nothing more and notifies nobody twice: moves
// and marks are conditional on the state read, notices carry a dedupe key
// unique per recipient (notifications_dedupe_uq), and a notice's e-mail is
// written only with the notice. Entries they append to the audit trail
// name the actor "system".

// SystemActor is the actor of the audit entries of background work.
const SystemActor = "system"

// ExpiryNoticeWindow is how long before an approval's expiry its owner is
// told (product design, section 4).
const ExpiryNoticeWindow = 30 * 24 * time.Hour

// ReviewSweeper is the review workflow's time-driven work in the shape of
// the job queue's Sweeper (package jobs): each method handles everything
// due at now and returns how many items it acted on.
type ReviewSweeper struct{ rv *Reviews }

// Sweeper returns the review workflow's sweeps, for the job queue.
func (rv *Reviews) Sweeper() *ReviewSweeper { return &ReviewSweeper{rv: rv} }

// RemindDue reminds those who can decide each active step due within the
// next 24 hours ("due tomorrow"; not yet overdue): the reviewer who
// claimed it, else every active reviewer of its role but the version's
// author; once per step and due time. It returns how many steps it
// reminded about.
func (s *ReviewSweeper) RemindDue(ctx context.Context, now time.Time) (int, error) {
	n, _, err := s.rv.remindDue(ctx, now)
	return n, err
}

// MarkOverdue marks each active step whose due time has passed: its
// overdue_at is set (once per step), with an audit entry
// (review_step_overdue) and an "overdue" notice to those who can decide
// it and to the round's submitter, in one transaction per step. It
// returns how many steps it marked.
func (s *ReviewSweeper) MarkOverdue(ctx context.Context, now time.Time) (int, error) {
	n, _, err := s.rv.markOverdue(ctx, now)
	return n, err
}

// NotifyExpiring tells the owner of each approved asset expiring within
// ExpiryNoticeWindow of now, once per asset and expiry date. It returns
// how many assets it told about.
func (s *ReviewSweeper) NotifyExpiring(ctx context.Context, now time.Time) (int, error) {
	return s.rv.NotifyExpiring(ctx, now, ExpiryNoticeWindow)
}

// ExpireApproved moves each approved asset whose expiry date has come to
// expired (ExpireApprovals). It returns how many it expired.
func (s *ReviewSweeper) ExpireApproved(ctx context.Context, now time.Time) (int, error) {
	return s.rv.ExpireApprovals(ctx, now)
}

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
		moved, err := rv.expireAsset(ctx, str(r, "id"), now)
		if err != nil {
			return n, err
		}
		if moved {
			n++
		}
	}
	return n, nil
}

// expireAsset moves asset id to expired if it is approved and its expiry
// date has come at now, in a transaction of its own with its audit entry
// and a notice to its owner. It reports whether it moved the asset.
func (rv *Reviews) expireAsset(ctx context.Context, id string, now time.Time) (bool, error) {
	moved := false
	err := rv.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		sys := fairbalance.Caller{Role: "service_role"}
		a, before, err := rowOf[fairbalance.Asset](ctx, tx, sys, AssetsTable(), id)
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
		to := assetOwner(a)
		if to == "" {
			return nil
		}
		key := "expired:" + a.ID + ":" + *a.ExpiresAt
		_, err = rv.addNotice(ctx, tx, &fairbalance.Notification{OrgID: a.OrgID, UserID: to, Kind: fairbalance.NotifyExpired,
			Title: a.Title + " expired", Body: "Its approval ran out on " + *a.ExpiresAt + "; submit it again to use it.", AssetID: &a.ID, DedupeKey: &key, CreatedAt: now.UTC()})
		return err
	})
	if err != nil {
		return false, err
	}
	return moved, nil
}

// assetOwner is who hears about an asset's approval: its owner, else its
// creator.
func assetOwner(a *fairbalance.Asset) string {
	if a.OwnerID != nil && *a.OwnerID != "" {
		return *a.OwnerID
	}
	return a.CreatedBy
}

// NotifyExpiring tells the owners of approved assets expiring within
// `within` of now (ExpiryNoticeWindow for the product) once per asset and
// expiry date, each asset in its own transaction. It returns how many
// notices it added.
func (rv *Reviews) NotifyExpiring(ctx context.Context, now time.Time, within time.Duration) (int, error) {
	store := rv.reg.store
	until := now.UTC().Add(within).Format(time.DateOnly)
	rows, err := readDBRows(ctx, store.View(), "assets", and(condEq("status", string(fairbalance.AssetApproved)),
		&fairbalance.Cond{Column: "expires_at", Operator: "lte", Value: until}), 0, selCol("id", fairbalance.TypeText))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rows {
		added := false
		err := store.Tx(ctx, func(tx fairbalance.Tx) error {
			a, _, err := rowOf[fairbalance.Asset](ctx, tx, fairbalance.Caller{Role: "service_role"}, AssetsTable(), str(r, "id"))
			if err != nil || a == nil || a.Status != fairbalance.AssetApproved || a.ExpiresAt == nil || *a.ExpiresAt > until {
				return err
			}
			to := assetOwner(a)
			if to == "" {
				return nil
			}
			key := "expiry_soon:" + a.ID + ":" + *a.ExpiresAt
			added, err = rv.addNotice(ctx, tx, &fairbalance.Notification{OrgID: a.OrgID, UserID: to, Kind: fairbalance.NotifyExpirySoon,
				Title: a.Title + " expires on " + *a.ExpiresAt, Body: "Renew its approval before it expires: submit it for review again.", AssetID: &a.ID, DedupeKey: &key, CreatedAt: now.UTC()})
			return err
		})
		if err != nil {
			return n, err
		}
		if added {
			n++
		}
	}
	return n, nil
}

// NotifyDue runs both step sweeps at now — due reminders (RemindDue) and
// overdue marks (MarkOverdue) — and returns how many notices they added.
func (rv *Reviews) NotifyDue(ctx context.Context, now time.Time) (int, error) {
	_, reminded, err := rv.remindDue(ctx, now)
	if err != nil {
		return reminded, err
	}
	_, overdue, err := rv.markOverdue(ctx, now)
	return reminded + overdue, err
}

// activeStepsDue lists the ids of active steps whose due time is in
// (from, to]; a nil from has no lower bound.
func activeStepsDue(ctx context.Context, tx fairbalance.Tx, from *time.Time, to time.Time, extra ...*fairbalance.Cond) ([]string, error) {
	conds := append([]*fairbalance.Cond{condEq("status", string(fairbalance.StepActive)),
		{Column: "due_at", Operator: "lte", Value: to.UTC()}}, extra...)
	if from != nil {
		conds = append(conds, &fairbalance.Cond{Column: "due_at", Operator: "gt", Value: from.UTC()})
	}
	rows, err := readDBRows(ctx, tx, "review_steps", and(conds...), 0, selCol("id", fairbalance.TypeText))
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = str(r, "id")
	}
	return ids, nil
}

// stepDeciders are those who can decide s now: the reviewer who claimed
// it, else the active reviewers of its role, never the version's author.
func stepDeciders(ctx context.Context, tx fairbalance.Tx, s *fairbalance.ReviewStep, review *fairbalance.Review) ([]string, error) {
	if s.ClaimedBy != nil {
		return []string{*s.ClaimedBy}, nil
	}
	members, err := roleMembers(ctx, tx, s.OrgID, string(s.Role))
	if err != nil {
		return nil, err
	}
	author, err := authorOf(ctx, tx, fairbalance.Caller{Role: "service_role"}, review.VersionID)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(members, func(u string) bool { return u == author }), nil
}

// stepNotice adds a notice of kind about step s to each recipient
// (distinct), keyed per step and due time; it returns how many it added.
func (rv *Reviews) stepNotice(ctx context.Context, tx fairbalance.Tx, s *fairbalance.ReviewStep, kind fairbalance.NotificationKind, title, body string, to []string, now time.Time) (int, error) {
	key := string(kind) + ":" + s.ID + ":" + s.DueAt.UTC().Format(time.RFC3339)
	n := 0
	var seen []string
	for _, u := range to {
		if u == "" || slices.Contains(seen, u) {
			continue
		}
		seen = append(seen, u)
		added, err := rv.addNotice(ctx, tx, &fairbalance.Notification{OrgID: s.OrgID, UserID: u, Kind: kind, Title: title, Body: body,
			AssetID: &s.AssetID, ReviewID: &s.ReviewID, StepID: &s.ID, DedupeKey: &key, CreatedAt: now.UTC()})
		if err != nil {
			return n, err
		}
		if added {
			n++
		}
	}
	return n, nil
}

// remindDue is RemindDue, also counting the notices it added.
func (rv *Reviews) remindDue(ctx context.Context, now time.Time) (steps, notices int, err error) {
	store := rv.reg.store
	ids, err := activeStepsDue(ctx, store.View(), &now, now.Add(24*time.Hour))
	if err != nil {
		return 0, 0, err
	}
	for _, id := range ids {
		added := 0
		err := store.Tx(ctx, func(tx fairbalance.Tx) error {
			sys := fairbalance.Caller{Role: "service_role"}
			s, _, err := rowOf[fairbalance.ReviewStep](ctx, tx, sys, ReviewStepsTable(), id)
			if err != nil || s == nil || s.Status != fairbalance.StepActive || s.DueAt == nil || !s.DueAt.After(now) || s.DueAt.After(now.Add(24*time.Hour)) {
				return err
			}
			review, _, err := rowOf[fairbalance.Review](ctx, tx, sys, ReviewsTable(), s.ReviewID)
			if err != nil || review == nil {
				return err
			}
			to, err := stepDeciders(ctx, tx, s, review)
			if err != nil {
				return err
			}
			title, err := assetTitle(ctx, tx, s.AssetID)
			if err != nil {
				return err
			}
			added, err = rv.stepNotice(ctx, tx, s, fairbalance.NotifyDueSoon,
				fmt.Sprintf("%s: the %s step is due %s", title, roleLabel(s.Role), s.DueAt.UTC().Format("2 Jan 15:04 UTC")),
				fmt.Sprintf("Round %d awaits your decision.", review.Round), to, now)
			return err
		})
		if err != nil {
			return steps, notices, err
		}
		if added > 0 {
			steps++
			notices += added
		}
	}
	return steps, notices, nil
}

// markOverdue is MarkOverdue, also counting the notices it added.
func (rv *Reviews) markOverdue(ctx context.Context, now time.Time) (steps, notices int, err error) {
	store := rv.reg.store
	// Strictly past its due time: a step due at now is not late yet.
	ids, err := activeStepsDue(ctx, store.View(), nil, now.Add(-time.Microsecond), &fairbalance.Cond{Column: "overdue_at", Operator: "is"})
	if err != nil {
		return 0, 0, err
	}
	for _, id := range ids {
		marked, added := false, 0
		err := store.Tx(ctx, func(tx fairbalance.Tx) error {
			sys := fairbalance.Caller{Role: "service_role"}
			s, before, err := rowOf[fairbalance.ReviewStep](ctx, tx, sys, ReviewStepsTable(), id)
			if err != nil || s == nil || s.Status != fairbalance.StepActive || s.DueAt == nil || !s.DueAt.Before(now) || s.OverdueAt != nil {
				return err
			}
			after, err := updateRow(ctx, tx, ReviewStepsTable(), s.ID, map[string]any{"overdue_at": now.UTC(), "updated_at": now.UTC()},
				and(condEq("status", string(fairbalance.StepActive)), &fairbalance.Cond{Column: "overdue_at", Operator: "is"}))
			if err != nil || after == nil {
				return err
			}
			review, _, err := rowOf[fairbalance.Review](ctx, tx, sys, ReviewsTable(), s.ReviewID)
			if err != nil || review == nil {
				return err
			}
			if err := tx.AppendAudit(ctx, &fairbalance.AuditEntry{OrgID: s.OrgID, ActorID: SystemActor, Action: fairbalance.ActionStepOverdue,
				ObjectType: "review_steps", ObjectID: s.ID, Before: mustRaw(before), After: mustRaw(after),
				Meta: mustRaw(map[string]any{"via": "job", "review_id": s.ReviewID, "due_at": s.DueAt.UTC()})}); err != nil {
				return err
			}
			marked = true
			to, err := stepDeciders(ctx, tx, s, review)
			if err != nil {
				return err
			}
			title, err := assetTitle(ctx, tx, s.AssetID)
			if err != nil {
				return err
			}
			added, err = rv.stepNotice(ctx, tx, s, fairbalance.NotifyOverdue,
				fmt.Sprintf("%s: the %s step is overdue (due %s)", title, roleLabel(s.Role), s.DueAt.UTC().Format("2 Jan 15:04 UTC")),
				fmt.Sprintf("Round %d still waits for this decision.", review.Round), append(to, review.SubmittedBy), now)
			return err
		})
		if err != nil {
			return steps, notices, err
		}
		if marked {
			steps++
			notices += added
		}
	}
	return steps, notices, nil
}

// Notify adds a notification (a job's notice), with its e-mail when the
// recipient's preferences ask for it; one whose DedupeKey the recipient
// already has is skipped. It reports whether it was added.
func (rv *Reviews) Notify(ctx context.Context, n *fairbalance.Notification) (bool, error) {
	var added bool
	err := rv.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		var err error
		added, err = rv.addNotice(ctx, tx, n)
		return err
	})
	return added, err
}
