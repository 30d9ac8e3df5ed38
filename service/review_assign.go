package service

import (
	"context"
	"errors"
	"fmt"

	"fairbalance"
	"fairbalance/auth"
)

// assign_step(step_id, user_id): an administrator (owner or admin) assigns
// an active step to a named reviewer of its role, as claiming it would —
// the step is then theirs to decide — and the reviewer is notified
// (step_assigned, by e-mail too when their preferences allow). A step
// claimed by someone else is reassigned. Refusals: 403 for anyone but an
// administrator; 400 when the person is not an active member of the
// organisation with the step's role, or wrote the version under review
// (the author never decides it); 409 when the step is not active (waiting,
// decided, skipped) or its round is closed. Nothing changes on a refusal;
// an assignment appends review_step_assigned to the audit trail.

// assignFunction is assign_step's declaration.
func (rv *Reviews) assignFunction() *FunctionSpec {
	return &FunctionSpec{Name: "assign_step", Args: []string{"step_id", "user_id"}, Call: rv.assignStep}
}

func (rv *Reviews) assignStep(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if c.Demo {
		return nil, demoRefusal()
	}
	if !c.IsAdmin() {
		return nil, denied(c, "Only an administrator assigns a review step to a reviewer.")
	}
	step, _, err := mustRowOf[fairbalance.ReviewStep](ctx, tx, c, ReviewStepsTable(), argString(args, "step_id"), "Review step")
	if err != nil {
		return nil, err
	}
	if err := lockRound(ctx, tx, step.ReviewID); err != nil {
		return nil, err
	}
	step, before, err := mustRowOf[fairbalance.ReviewStep](ctx, tx, c, ReviewStepsTable(), step.ID, "Review step")
	if err != nil {
		return nil, err
	}
	review, _, err := mustRowOf[fairbalance.Review](ctx, tx, c, ReviewsTable(), step.ReviewID, "Review")
	if err != nil {
		return nil, err
	}
	userID := argString(args, "user_id")
	if err := refuseAssignee(ctx, tx, c, step, review, userID); err != nil {
		return nil, err
	}
	if review.Status != fairbalance.ReviewOpen {
		return nil, illegal("The round is %s; its steps can no longer be assigned.", review.Status)
	}
	if err := stepIsActive(step); err != nil {
		return nil, err
	}
	if step.ClaimedBy != nil && *step.ClaimedBy == userID {
		return before, nil
	}
	now := rv.now()
	where := and(condEq("status", string(fairbalance.StepActive)), &fairbalance.Cond{Column: "claimed_by", Operator: "is"})
	if step.ClaimedBy != nil {
		where = and(condEq("status", string(fairbalance.StepActive)), condEq("claimed_by", *step.ClaimedBy))
	}
	after, err := updateRow(ctx, tx, ReviewStepsTable(), step.ID, map[string]any{"claimed_by": userID, "claimed_at": now, "updated_at": now}, where)
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The step changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionStepAssigned, "review_steps", step.ID, before, after,
		map[string]any{"review_id": review.ID, "assigned_to": userID, "previously_claimed_by": ptrValue(step.ClaimedBy)}); err != nil {
		return nil, err
	}
	title, err := assetTitle(ctx, tx, step.AssetID)
	if err != nil {
		return nil, err
	}
	by, err := memberName(ctx, tx, c.UserID)
	if err != nil {
		return nil, err
	}
	body := fmt.Sprintf("%s assigned it to you.", by)
	if step.DueAt != nil {
		body += " Due " + step.DueAt.UTC().Format("2 Jan 2006 15:04 UTC") + "."
	}
	w := &workflow{rv: rv, c: c, now: now}
	if err := w.notify(ctx, tx, review.OrgID, []string{userID}, fairbalance.NotifyStepAssigned,
		fmt.Sprintf("%s: the %s step of round %d is assigned to you", title, roleLabel(step.Role), review.Round), body, review.AssetID, review.ID, step.ID); err != nil {
		return nil, err
	}
	return after, nil
}

// refuseAssignee refuses (400, on user_id) a person who may not decide
// step: not an active member of the caller's organisation with the step's
// role, or the author of the version under review.
func refuseAssignee(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, step *fairbalance.ReviewStep, review *fairbalance.Review, userID string) error {
	refuse := func(msg string) error { return onField(raise(msg), "user_id") }
	if !auth.IsUUID(userID) {
		return refuse("Name the reviewer to assign by their user id.")
	}
	p, err := tx.ProfileByID(ctx, userID)
	if errors.Is(err, fairbalance.ErrNotFound) || (err == nil && (p.OrgID != step.OrgID || p.DeactivatedAt != nil)) {
		return refuse("The person to assign is not an active member of this organisation.")
	}
	if err != nil {
		return err
	}
	if p.Role != string(step.Role) {
		return refuse(fmt.Sprintf("Only a %s can be assigned this step.", roleLabel(step.Role)))
	}
	author, err := authorOf(ctx, tx, fairbalance.Caller{Role: "service_role"}, review.VersionID)
	if err != nil {
		return err
	}
	if author == userID {
		return refuse("The author of a version never decides its review.")
	}
	return nil
}
