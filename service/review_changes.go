package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/auth"
)

// Change requests, the approved asset's life (withdrawal, expiry date),
// notifications read, and the administrators' review settings.

// markChangeDone marks a change request done, with an optional note: the
// author says the change is made in the asset's current version.
func (rv *Reviews) markChangeDone(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseWriter(c); err != nil {
		return nil, err
	}
	cr, before, err := mustRowOf[fairbalance.ChangeRequest](ctx, tx, c, ChangeRequestsTable(), argString(args, "change_request_id"), "Change request")
	if err != nil {
		return nil, err
	}
	a, _, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), cr.AssetID, "Asset")
	if err != nil {
		return nil, err
	}
	if err := refuseSubmitter(c, a); err != nil {
		return nil, err
	}
	note := argString(args, "note")
	if utf8.RuneCountInString(note) > 2000 {
		return nil, onField(checkViolation("change_requests", "change_requests_done_note_check", "The note is longer than 2000 characters."), "note")
	}
	if !cr.Status.CanTransition(fairbalance.ChangeDone) {
		return nil, illegal(MsgStatusMove, "change request", cr.Status, fairbalance.ChangeDone)
	}
	if a.Status == fairbalance.AssetInReview {
		return nil, illegal("The asset is in review; mark changes done before resubmitting.")
	}
	now := rv.now()
	after, err := updateRow(ctx, tx, ChangeRequestsTable(), cr.ID, map[string]any{"status": string(fairbalance.ChangeDone), "done_by": c.UserID, "done_at": now,
		"done_note": note, "done_version_id": ptrValue(a.CurrentVersionID), "updated_at": now}, condEq("status", string(cr.Status)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The change request changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionChangeRequestDone, "change_requests", cr.ID, before, after, map[string]any{"asset_id": a.ID}); err != nil {
		return nil, err
	}
	return after, nil
}

// confirmChange confirms a done change request on the new version: a
// reviewer of the role that raised it, while that role's step of the
// asset's open round is active.
func (rv *Reviews) confirmChange(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if c.Anon() {
		return nil, denied(c, "permission denied for function confirm_change")
	}
	cr, _, err := mustRowOf[fairbalance.ChangeRequest](ctx, tx, c, ChangeRequestsTable(), argString(args, "change_request_id"), "Change request")
	if err != nil {
		return nil, err
	}
	open, _, err := rowsOf[fairbalance.Review](ctx, tx, ReviewsTable(), and(condEq("asset_id", cr.AssetID), condEq("status", string(fairbalance.ReviewOpen))))
	if err != nil {
		return nil, err
	}
	// Who: a reviewer of the role that raised it, not the author of the
	// version under review (or, between rounds, of the current one).
	probe := &fairbalance.ReviewStep{Role: cr.Role}
	var review *fairbalance.Review
	if len(open) == 1 {
		review = &open[0]
	} else {
		a, _, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), cr.AssetID, "Asset")
		if err != nil {
			return nil, err
		}
		review = &fairbalance.Review{}
		if a.CurrentVersionID != nil {
			review.VersionID = *a.CurrentVersionID
		}
	}
	if err := refuseDecider(ctx, tx, c, probe, review); err != nil {
		return nil, err
	}
	if len(open) != 1 || review.ID == cr.ReviewID {
		return nil, illegal("A change request is confirmed in the next round, on the new version; the asset has no such round open.")
	}
	if err := lockRound(ctx, tx, review.ID); err != nil {
		return nil, err
	}
	cr, before, err := mustRowOf[fairbalance.ChangeRequest](ctx, tx, c, ChangeRequestsTable(), cr.ID, "Change request")
	if err != nil {
		return nil, err
	}
	if !cr.Status.CanTransition(fairbalance.ChangeConfirmed) {
		return nil, illegal(MsgStatusMove, "change request", cr.Status, fairbalance.ChangeConfirmed)
	}
	steps, _, err := stepsOf(ctx, tx, review.ID)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(steps, func(s fairbalance.ReviewStep) bool { return s.Role == cr.Role && s.Status == fairbalance.StepActive }) {
		return nil, illegal("The %s step of this round is not active; change requests are confirmed while it is.", roleLabel(cr.Role))
	}
	now := rv.now()
	after, err := updateRow(ctx, tx, ChangeRequestsTable(), cr.ID, map[string]any{"status": string(fairbalance.ChangeConfirmed), "confirmed_by": c.UserID,
		"confirmed_at": now, "confirmed_review_id": review.ID, "updated_at": now}, condEq("status", string(cr.Status)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The change request changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionChangeRequestConfirmed, "change_requests", cr.ID, before, after, map[string]any{"review_id": review.ID}); err != nil {
		return nil, err
	}
	return after, nil
}

// refuseAdmin refuses callers who do not administer the organisation.
func refuseAdmin(c fairbalance.Caller, what string) error {
	switch {
	case c.Demo:
		return demoRefusal()
	case c.Service() && c.OrgID != "", c.IsAdmin():
		return nil
	}
	return denied(c, "Only owners and admins "+what+".")
}

// withdrawAsset takes an approved asset out of use, with a reason.
func (rv *Reviews) withdrawAsset(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseAdmin(c, "withdraw an approved asset"); err != nil {
		return nil, err
	}
	a, before, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), argString(args, "asset_id"), "Asset")
	if err != nil {
		return nil, err
	}
	reason := argString(args, "reason")
	if msg := textProblem("The reason", reason, 1, 1000); msg != "" {
		return nil, onField(raise(msg), "reason")
	}
	if !a.Status.CanTransition(fairbalance.AssetWithdrawn) {
		return nil, illegal(MsgStatusMove, "asset", a.Status, fairbalance.AssetWithdrawn)
	}
	now := rv.now()
	after, err := updateRow(ctx, tx, AssetsTable(), a.ID, map[string]any{"status": string(fairbalance.AssetWithdrawn), "updated_at": now}, condEq("status", string(a.Status)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The asset changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionAssetWithdrawn, "assets", a.ID, before, after, map[string]any{"reason": reason}); err != nil {
		return nil, err
	}
	if a.OwnerID != nil {
		w := &workflow{rv: rv, c: c, now: now}
		if err := w.notify(ctx, tx, a.OrgID, []string{*a.OwnerID}, fairbalance.NotifyAssetWithdrawn, a.Title+" was withdrawn", reason, a.ID, "", ""); err != nil {
			return nil, err
		}
	}
	return after, nil
}

// setAssetExpiry sets an approved asset's expiry date (YYYY-MM-DD).
func (rv *Reviews) setAssetExpiry(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseAdmin(c, "change an approved asset's expiry date"); err != nil {
		return nil, err
	}
	a, before, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), argString(args, "asset_id"), "Asset")
	if err != nil {
		return nil, err
	}
	date := argString(args, "expires_at")
	if msg := dateProblem("The expiry date", date); msg != "" {
		return nil, onField(checkViolation("assets", "assets_expires_at_check", msg), "expires_at")
	}
	if a.Status != fairbalance.AssetApproved {
		return nil, illegal("Only an approved asset's expiry date is set here; this asset is %s.", a.Status)
	}
	after, err := updateRow(ctx, tx, AssetsTable(), a.ID, map[string]any{"expires_at": date, "updated_at": rv.now()}, condEq("status", string(a.Status)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The asset changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionAssetExpirySet, "assets", a.ID, map[string]any{"expires_at": before["expires_at"]},
		map[string]any{"expires_at": date}, nil); err != nil {
		return nil, err
	}
	return after, nil
}

// approvedExpiryRule refuses, on an update of assets through the data
// API, a change of the expiry date of an asset that is or was approved:
// that date is the approval's, set by the workflow and changed by an
// administrator with set_asset_expiry.
func approvedExpiryRule(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, values map[string]any, where *fairbalance.Cond) error {
	if _, ok := values["expires_at"]; !ok || c.Service() {
		return nil
	}
	rows, err := readDBRows(ctx, tx, "assets", where, 0, selCol("status", fairbalance.TypeText), selCol("expires_at", fairbalance.TypeText))
	if err != nil {
		return err
	}
	for _, r := range rows {
		switch fairbalance.AssetStatus(str(r, "status")) {
		case fairbalance.AssetApproved, fairbalance.AssetExpired, fairbalance.AssetWithdrawn:
			if r["expires_at"] != values["expires_at"] {
				return onField(denied(c, "An approved asset's expiry date is changed by an administrator (set_asset_expiry)."), "expires_at")
			}
		}
	}
	return nil
}

// markNotificationsRead marks the caller's notifications read: those
// named by ids, or all unread ones. It returns {updated}.
func (rv *Reviews) markNotificationsRead(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if !c.InOrg() {
		if c.Anon() {
			return nil, denied(c, "permission denied for function mark_notifications_read")
		}
		return map[string]any{"updated": 0}, nil
	}
	where := and(condEq("user_id", c.UserID), condEq("org_id", c.OrgID), &fairbalance.Cond{Column: "read_at", Operator: "is"})
	if raw, ok := args["ids"]; ok && raw != nil {
		list, ok := raw.([]any)
		if !ok || len(list) > 1000 {
			return nil, onField(raise("ids is a list of at most 1000 notification ids."), "ids")
		}
		var ids []any
		for _, x := range list {
			s, _ := x.(string)
			if !auth.IsUUID(s) {
				return nil, onField(raise("ids is a list of notification ids."), "ids")
			}
			ids = append(ids, strings.ToLower(s))
		}
		if len(ids) == 0 {
			return map[string]any{"updated": 0}, nil
		}
		where = and(where, condIn("id", ids))
	}
	now := rv.now()
	_, n, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "notifications", Columns: []string{"read_at"}, Rows: []map[string]any{{"read_at": now}}, Where: where})
	if err != nil {
		return nil, err
	}
	if n > 0 {
		if err := auditReview(ctx, tx, c, fairbalance.ActionNotificationsRead, "notifications", c.UserID, nil, nil, map[string]any{"count": n}); err != nil {
			return nil, err
		}
	}
	return map[string]any{"updated": n}, nil
}

// decodeSteps reads a template's steps from the rpc argument (an array of
// {role, required, order, due_days}).
func decodeSteps(v any) ([]fairbalance.WorkflowStep, bool) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var steps []fairbalance.WorkflowStep
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&steps); err != nil {
		return nil, false
	}
	return steps, true
}

// saveWorkflowTemplate creates (no template_id) or replaces a workflow
// template; is_default makes it the organisation's default (the previous
// default stops being one).
func (rv *Reviews) saveWorkflowTemplate(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseAdmin(c, "edit workflow templates"); err != nil {
		return nil, err
	}
	var v inputCheck
	name, desc := argString(args, "name"), argString(args, "description")
	v.text("name", "The name", name, 1, 120)
	v.text("description", "The description", desc, 0, 2000)
	steps, ok := decodeSteps(args["steps"])
	if !ok {
		v.check("steps", "steps is a list of {role, required, order, due_days}.")
	} else if problems := fairbalance.WorkflowProblems(steps); len(problems) > 0 {
		v.check("steps", strings.Join(problems, " "))
	}
	isDefault := false
	switch d := args["is_default"].(type) {
	case nil:
	case bool:
		isDefault = d
	default:
		v.raise("is_default", "is_default is true or false.")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	now := rv.now()
	id := argString(args, "template_id")
	var before map[string]any
	if id != "" {
		var err error
		if _, before, err = mustRowOf[fairbalance.WorkflowTemplate](ctx, tx, c, WorkflowTemplatesTable(), id, "Workflow template"); err != nil {
			return nil, err
		}
		id = str(before, "id")
	}
	others, err := readDBRows(ctx, tx, "workflow_templates", condEq("org_id", c.OrgID), 0, selCol("id", fairbalance.TypeText), selCol("name", fairbalance.TypeText))
	if err != nil {
		return nil, err
	}
	for _, o := range others {
		if str(o, "id") != id && strings.EqualFold(strings.TrimSpace(str(o, "name")), name) {
			return nil, onField(uniqueViolation("workflow_templates", "workflow_templates_name_uq", fmt.Sprintf("A workflow named %q already exists.", name)), "name")
		}
	}
	if isDefault {
		if _, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "workflow_templates", Columns: []string{"is_default", "updated_at"},
			Rows: []map[string]any{{"is_default": false, "updated_at": now}}, Where: and(condEq("org_id", c.OrgID), condEq("is_default", true))}); err != nil {
			return nil, err
		}
	}
	values := map[string]any{"name": name, "description": desc, "is_default": isDefault, "steps": string(mustRaw(steps)), "updated_at": now}
	var after map[string]any
	if before == nil {
		values["id"], values["org_id"], values["created_by"], values["created_at"] = auth.NewUUID(), c.OrgID, c.UserID, now
		after, err = insertRow(ctx, tx, WorkflowTemplatesTable(), values)
	} else {
		after, err = updateRow(ctx, tx, WorkflowTemplatesTable(), id, values, nil)
	}
	if err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionWorkflowTemplateSaved, "workflow_templates", str(after, "id"), before, after, nil); err != nil {
		return nil, err
	}
	return after, nil
}

// deleteWorkflowTemplate deletes a template; the rounds it made keep
// their steps (and its name).
func (rv *Reviews) deleteWorkflowTemplate(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseAdmin(c, "edit workflow templates"); err != nil {
		return nil, err
	}
	_, before, err := mustRowOf[fairbalance.WorkflowTemplate](ctx, tx, c, WorkflowTemplatesTable(), argString(args, "template_id"), "Workflow template")
	if err != nil {
		return nil, err
	}
	id := str(before, "id")
	if _, _, err := tx.Delete(ctx, &fairbalance.WritePlan{Table: "workflow_templates", Where: condEq("id", id)}); err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionWorkflowTemplateDeleted, "workflow_templates", id, before, nil, nil); err != nil {
		return nil, err
	}
	return map[string]any{"deleted": true, "id": id}, nil
}

// setReviewSettings sets the organisation's approval validity (1 to 60
// months); it returns the settings row.
func (rv *Reviews) setReviewSettings(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseAdmin(c, "change the review settings"); err != nil {
		return nil, err
	}
	months, ok := argInt(args, "approval_validity_months")
	if !ok || months < 1 || months > fairbalance.MaxApprovalValidityMonths {
		return nil, onField(checkViolation("review_settings", "review_settings_approval_validity_months_check", "The approval validity must be 1 to 60 months."), "approval_validity_months")
	}
	before, err := readDBRows(ctx, tx, "review_settings", condEq("org_id", c.OrgID), 1, allColumns(ReviewSettingsTable())...)
	if err != nil {
		return nil, err
	}
	now := rv.now()
	row := map[string]any{"org_id": c.OrgID, "approval_validity_months": months, "updated_by": c.UserID, "updated_at": now}
	var after map[string]any
	if len(before) == 0 {
		after, err = insertRow(ctx, tx, ReviewSettingsTable(), row)
	} else {
		raw, _, uerr := tx.Update(ctx, &fairbalance.WritePlan{Table: "review_settings", Columns: []string{"approval_validity_months", "updated_by", "updated_at"},
			Rows: []map[string]any{row}, Where: condEq("org_id", c.OrgID), Returning: allColumns(ReviewSettingsTable())})
		if uerr != nil {
			return nil, uerr
		}
		after, err = oneRow(raw)
	}
	if err != nil {
		return nil, err
	}
	var prev any
	if len(before) == 1 {
		prev = before[0]
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionReviewSettingsUpdated, "review_settings", c.OrgID, prev, after, nil); err != nil {
		return nil, err
	}
	return after, nil
}
