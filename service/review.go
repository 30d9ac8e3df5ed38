package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"fairbalance"
	"fairbalance/auth"
)

// The review workflow's functions (issue 15), served at /rest/v1/rpc:
//
//	submit_for_review(asset_id, template_id?)           review_gate(asset_id)
//	withdraw_review(review_id)                         claim_step(step_id)
//	assign_step(step_id, user_id)
//	decide_step(step_id, decision, comment, password, totp_code?, change_requests?)
//	mark_change_done(change_request_id, note?)         confirm_change(change_request_id)
//	verify_signature(signature_id)                     withdraw_asset(asset_id, reason)
//	mark_notifications_read(ids?)                      review_queue(tab, …)
//	save_workflow_template(…), delete_workflow_template(template_id),
//	set_review_settings(approval_validity_months), set_asset_expiry(asset_id, expires_at)
//
// The server is the authority: each function checks who may do it (403,
// 42501, nothing changed), whether the workflow allows it (409, PT409,
// nothing changed: the domain's transition tables decide), and makes the
// change with one audit entry per transition in one transaction. A round
// being changed is locked first (a no-op update of its row), so that two
// reviewers deciding parallel steps at once roll the round up in turn.

// Codes of the review functions' refusals, in PostgREST's way of giving
// a function's error an HTTP status (RAISE SQLSTATE 'PTnnn').
const (
	// CodeIllegalTransition: the workflow does not allow the move now (409).
	CodeIllegalTransition = "PT409"
	// CodeNotReady: the ready-for-review gate refused a submission (422);
	// Fields names every unmet condition.
	CodeNotReady = "PT422"
	// CodeSigningLocked: the member's signing is locked after failed
	// attempts (429).
	CodeSigningLocked = "PT429"
	// CodeBadSignature: the password or authenticator code given to sign
	// is wrong (403, PostgreSQL's invalid_password).
	CodeBadSignature = "28P01"
)

// illegal refuses a move the workflow does not allow now (409).
func illegal(format string, args ...any) error {
	return pgErr(fairbalance.KindConflict, CodeIllegalTransition, fmt.Sprintf(format, args...), "", "")
}

// Reviews holds the review workflow's functions.
type Reviews struct {
	reg *Registry
	// Now is the clock.
	Now func() time.Time
}

func (rv *Reviews) now() time.Time { return rv.Now().UTC().Truncate(time.Microsecond) }

// Functions are the review workflow's functions.
func (rv *Reviews) Functions() []*FunctionSpec {
	return []*FunctionSpec{
		{Name: "submit_for_review", Args: []string{"asset_id", "template_id"}, Optional: []string{"template_id"}, Call: rv.submitForReview},
		{Name: "review_gate", ReadOnly: true, Args: []string{"asset_id"}, Call: rv.reviewGate},
		{Name: "withdraw_review", Args: []string{"review_id"}, Call: rv.withdrawReview},
		{Name: "claim_step", Args: []string{"step_id"}, Call: rv.claimStep},
		rv.assignFunction(),
		{Name: "decide_step", Args: []string{"step_id", "decision", "comment", "password", "totp_code", "change_requests"},
			Optional: []string{"totp_code", "change_requests"}, ArgTypes: map[string]fairbalance.ColumnType{"change_requests": fairbalance.TypeTextArray},
			Prepare: rv.prepareDecision, Call: rv.decideStep},
		{Name: "mark_change_done", Args: []string{"change_request_id", "note"}, Optional: []string{"note"}, Call: rv.markChangeDone},
		{Name: "confirm_change", Args: []string{"change_request_id"}, Call: rv.confirmChange},
		{Name: "verify_signature", ReadOnly: true, Args: []string{"signature_id"}, Call: rv.verifySignature},
		{Name: "withdraw_asset", Args: []string{"asset_id", "reason"}, Call: rv.withdrawAsset},
		{Name: "set_asset_expiry", Args: []string{"asset_id", "expires_at"}, Call: rv.setAssetExpiry},
		{Name: "mark_notifications_read", Args: []string{"ids"}, Optional: []string{"ids"},
			ArgTypes: map[string]fairbalance.ColumnType{"ids": fairbalance.TypeTextArray}, Call: rv.markNotificationsRead},
		{Name: "save_workflow_template", Args: []string{"template_id", "name", "description", "steps", "is_default"},
			Optional: []string{"template_id", "description", "is_default"},
			ArgTypes: map[string]fairbalance.ColumnType{"steps": fairbalance.TypeJSON, "is_default": fairbalance.TypeBoolean}, Call: rv.saveWorkflowTemplate},
		{Name: "delete_workflow_template", Args: []string{"template_id"}, Call: rv.deleteWorkflowTemplate},
		{Name: "set_review_settings", Args: []string{"approval_validity_months"},
			ArgTypes: map[string]fairbalance.ColumnType{"approval_validity_months": fairbalance.TypeInteger}, Call: rv.setReviewSettings},
		{Name: "review_queue", ReadOnly: true, Args: []string{"tab", "product_id", "type", "role", "status", "after", "limit"},
			Optional: []string{"tab", "product_id", "type", "role", "status", "after", "limit"},
			ArgTypes: map[string]fairbalance.ColumnType{"limit": fairbalance.TypeInteger}, Call: rv.reviewQueue},
	}
}

// ---- reading the workflow's rows

// rowOf reads the row id of t in the caller's organisation (the service
// role: any) decoded as T; nil when there is none.
func rowOf[T any](ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, t *TableSpec, id string) (*T, map[string]any, error) {
	if !auth.IsUUID(id) {
		return nil, nil, nil
	}
	where := condEq("id", strings.ToLower(id))
	if !c.Service() {
		where = and(where, condEq("org_id", c.OrgID))
	}
	rows, err := readDBRows(ctx, tx, t.DBName(), where, 1, allColumns(t)...)
	if err != nil || len(rows) == 0 {
		return nil, nil, err
	}
	v, err := decodeRow[T](rows[0])
	if err != nil {
		return nil, nil, err
	}
	return &v, rows[0], nil
}

// mustRowOf is rowOf, refusing a missing row as not found (404) named what.
func mustRowOf[T any](ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, t *TableSpec, id, what string) (*T, map[string]any, error) {
	v, row, err := rowOf[T](ctx, tx, c, t, id)
	if err == nil && v == nil {
		err = notFound(what)
	}
	return v, row, err
}

// rowsOf reads the rows of t matching where, ordered, decoded as T.
func rowsOf[T any](ctx context.Context, tx fairbalance.Tx, t *TableSpec, where *fairbalance.Cond, order ...fairbalance.OrderTerm) ([]T, []map[string]any, error) {
	raw, _, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: t.DBName(), Columns: allColumns(t), Where: where, Order: order})
	if err != nil {
		return nil, nil, err
	}
	var maps []map[string]any
	if err := json.Unmarshal(raw, &maps); err != nil {
		return nil, nil, err
	}
	out := make([]T, len(maps))
	for i, m := range maps {
		if out[i], err = decodeRow[T](m); err != nil {
			return nil, nil, err
		}
	}
	return out, maps, nil
}

// stepsOf reads a round's steps in their template's order.
func stepsOf(ctx context.Context, tx fairbalance.Tx, reviewID string) ([]fairbalance.ReviewStep, []map[string]any, error) {
	return rowsOf[fairbalance.ReviewStep](ctx, tx, ReviewStepsTable(), condEq("review_id", reviewID), fairbalance.OrderTerm{Column: "position"})
}

// lockRound holds the round's row until the transaction ends (a no-op
// update; PostgreSQL keeps the row lock, SQLite has one writer anyway),
// so that what the function reads next is what it changes.
func lockRound(ctx context.Context, tx fairbalance.Tx, reviewID string) error {
	_, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "reviews", Columns: []string{"id"}, Rows: []map[string]any{{"id": reviewID}}, Where: condEq("id", reviewID)})
	return err
}

// memberName is the printed name of a member: the profile's full name,
// else the account's e-mail address.
func memberName(ctx context.Context, tx fairbalance.Tx, userID string) (string, error) {
	p, err := tx.ProfileByID(ctx, userID)
	if err == nil && strings.TrimSpace(p.FullName) != "" {
		return strings.TrimSpace(p.FullName), nil
	}
	u, err := tx.UserByID(ctx, userID)
	if err != nil {
		return "", err
	}
	return u.Email, nil
}

// authorOf is the author of a version: its creator.
func authorOf(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, versionID string) (string, error) {
	v, _, err := rowOf[fairbalance.Version](ctx, tx, c, AssetVersionsTable(), versionID)
	if err != nil || v == nil {
		return "", err
	}
	return v.CreatedBy, nil
}

// ---- who may do what

// refuseSubmitter refuses callers who may not submit or withdraw a round
// of asset, or mark its changes done (product design, section 2): owners
// and admins for every asset, marketers for the assets they own or made.
func refuseSubmitter(c fairbalance.Caller, a *fairbalance.Asset) error {
	if err := refuseWriter(c); err != nil {
		return err
	}
	if c.Service() || c.IsAdmin() {
		return nil
	}
	if a.CreatedBy == c.UserID || (a.OwnerID != nil && *a.OwnerID == c.UserID) {
		return nil
	}
	return denied(c, "Only the asset's owner or an administrator submits it and answers its review.")
}

// refuseDecider refuses callers who may not claim or decide step: only a
// reviewer of the step's role, never the author of the version reviewed.
func refuseDecider(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, step *fairbalance.ReviewStep, review *fairbalance.Review) error {
	if c.Demo {
		return demoRefusal()
	}
	if !c.InOrg() || c.Member != string(step.Role) {
		return denied(c, fmt.Sprintf("Only a %s decides this step.", roleLabel(step.Role)))
	}
	author, err := authorOf(ctx, tx, c, review.VersionID)
	if err != nil {
		return err
	}
	if author == c.UserID {
		return denied(c, "The author of a version never decides its review.")
	}
	return nil
}

func roleLabel(r fairbalance.ReviewerRole) string {
	switch r {
	case fairbalance.ReviewerMedical:
		return "medical reviewer"
	case fairbalance.ReviewerLegal:
		return "legal reviewer"
	case fairbalance.ReviewerRegulatory:
		return "regulatory reviewer"
	}
	return string(r)
}

// ---- the gate

// gateInput gathers what the ready-for-review gate looks at for asset.
func gateInput(ctx context.Context, tx fairbalance.Tx, a *fairbalance.Asset) (fairbalance.GateInput, error) {
	in := fairbalance.GateInput{Asset: *a}
	if a.CurrentVersionID != nil {
		rows, err := readDBRows(ctx, tx, "asset_versions", condEq("id", *a.CurrentVersionID), 1, selCol("plain_text", fairbalance.TypeText))
		if err != nil {
			return in, err
		}
		if len(rows) == 1 {
			in.VersionText = str(rows[0], "plain_text")
		}
	}
	if a.ProductID != nil {
		products, err := readDBRows(ctx, tx, "products", and(condEq("id", *a.ProductID), condEq("org_id", a.OrgID)), 1, selCol("isi_text", fairbalance.TypeText))
		if err != nil {
			return in, err
		}
		if len(products) == 1 {
			in.ISITexts = append(in.ISITexts, str(products[0], "isi_text"))
		}
		isi := and(condEq("org_id", a.OrgID), condEq("product_id", *a.ProductID), condEq("kind", string(fairbalance.ModuleISI)))
		modules, err := readDBRows(ctx, tx, "modules", isi, 0, selCol("id", fairbalance.TypeText), selCol("body", fairbalance.TypeText))
		if err != nil {
			return in, err
		}
		var ids []any
		for _, m := range modules {
			in.ISITexts = append(in.ISITexts, str(m, "body"))
			ids = append(ids, m["id"])
		}
		if len(ids) > 0 && a.CurrentVersionID != nil {
			marks, err := readDBRows(ctx, tx, "version_modules", and(condEq("version_id", *a.CurrentVersionID), condIn("module_id", ids)), 1, selCol("module_id", fairbalance.TypeText))
			if err != nil {
				return in, err
			}
			in.MarksISIModule = len(marks) > 0
		}
	}
	_, n, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: "change_requests", Columns: []fairbalance.SelectColumn{selCol("id", fairbalance.TypeText)},
		Where: and(condEq("asset_id", a.ID), condEq("status", string(fairbalance.ChangeOpen))), Limit: -1, Count: true})
	if err != nil {
		return in, err
	}
	in.OpenChangeRequests = int(n)
	if a.CurrentVersionID != nil {
		if err := gateCompliance(ctx, tx, &in, *a.CurrentVersionID); err != nil {
			return in, err
		}
	}
	last, err := readDBRows(ctx, tx, "reviews", and(condEq("asset_id", a.ID), &fairbalance.Cond{Column: "status", Operator: "neq", Value: string(fairbalance.ReviewOpen)}), 0,
		selCol("version_id", fairbalance.TypeText), selCol("round", fairbalance.TypeInteger))
	if err != nil {
		return in, err
	}
	best := int64(0)
	for _, r := range last {
		if n, _ := r["round"].(json.Number).Int64(); n > best {
			best, in.LastRoundVersionID = n, str(r, "version_id")
		}
	}
	return in, nil
}

// notReady is the gate's refusal: 422 naming every unmet condition, in
// details (one per line) and in fields (by condition).
func notReady(problems []fairbalance.GateProblem) error {
	fields := map[string]string{}
	lines := make([]string, len(problems))
	for i, p := range problems {
		fields[p.Code] = p.Message
		lines[i] = p.Code + ": " + p.Message
	}
	e := pgErr(fairbalance.KindUnprocessable, CodeNotReady, "The asset is not ready for review.", strings.Join(lines, "\n"), "Fix every condition listed, then submit again.")
	e.Fields = fields
	return e
}

// reviewGate answers whether an asset may be submitted now, listing every
// unmet condition: {ready, unmet: [{code, message}]}. Any member may ask.
func (rv *Reviews) reviewGate(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if c.Anon() {
		return nil, denied(c, "permission denied for function review_gate")
	}
	a, _, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), argString(args, "asset_id"), "Asset")
	if err != nil {
		return nil, err
	}
	in, err := gateInput(ctx, tx, a)
	if err != nil {
		return nil, err
	}
	unmet := fairbalance.ReviewGate(in)
	if unmet == nil {
		unmet = []fairbalance.GateProblem{}
	}
	return map[string]any{"ready": len(unmet) == 0, "unmet": unmet}, nil
}

// ---- templates

// templateFor is the workflow of a submission: the template named, else
// the organisation's default, else the one that ships.
func templateFor(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, orgID, id string) (*fairbalance.WorkflowTemplate, error) {
	if id != "" {
		t, _, err := mustRowOf[fairbalance.WorkflowTemplate](ctx, tx, c, WorkflowTemplatesTable(), id, "Workflow template")
		return t, err
	}
	ts, _, err := rowsOf[fairbalance.WorkflowTemplate](ctx, tx, WorkflowTemplatesTable(), and(condEq("org_id", orgID), condEq("is_default", true)))
	if err != nil {
		return nil, err
	}
	if len(ts) > 0 {
		return &ts[0], nil
	}
	return &fairbalance.WorkflowTemplate{Name: fairbalance.DefaultWorkflowName, Steps: fairbalance.DefaultWorkflowSteps()}, nil
}

// ---- submit

// submitForReview opens a round on the asset's current version: the gate
// first (422 naming every unmet condition), then the round and its steps,
// the lowest order active; the version becomes immutable and the asset
// in_review. It returns the review with its steps.
func (rv *Reviews) submitForReview(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseWriter(c); err != nil {
		return nil, err
	}
	a, before, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), argString(args, "asset_id"), "Asset")
	if err != nil {
		return nil, err
	}
	if err := refuseSubmitter(c, a); err != nil {
		return nil, err
	}
	tpl, err := templateFor(ctx, tx, c, a.OrgID, argString(args, "template_id"))
	if err != nil {
		return nil, err
	}
	if a.Status == fairbalance.AssetInReview || !a.Status.CanTransition(fairbalance.AssetInReview) {
		if a.Status == fairbalance.AssetInReview {
			return nil, illegal("The asset is already in review.")
		}
		return nil, illegal(MsgStatusMove, "asset", a.Status, fairbalance.AssetInReview)
	}
	if a.CurrentVersionID == nil {
		return nil, illegal("The asset has no version to review.")
	}
	in, err := gateInput(ctx, tx, a)
	if err != nil {
		return nil, err
	}
	if problems := fairbalance.ReviewGate(in); len(problems) > 0 {
		return nil, notReady(problems)
	}
	now := rv.now()
	rounds, err := readDBRows(ctx, tx, "reviews", condEq("asset_id", a.ID), 0, selCol("round", fairbalance.TypeInteger))
	if err != nil {
		return nil, err
	}
	round := int64(1)
	for _, r := range rounds {
		if n, _ := r["round"].(json.Number).Int64(); n >= round {
			round = n + 1
		}
	}
	var tplID any
	if tpl.ID != "" {
		tplID = tpl.ID
	}
	review, err := insertRow(ctx, tx, ReviewsTable(), map[string]any{
		"id": auth.NewUUID(), "org_id": a.OrgID, "asset_id": a.ID, "version_id": *a.CurrentVersionID, "round": round,
		"status": string(fairbalance.ReviewOpen), "template_id": tplID, "template_name": tpl.Name, "submitted_by": c.UserID,
		"submitted_at": now, "due_at": nil, "closed_at": nil, "created_at": now, "updated_at": now})
	if err != nil {
		return nil, err
	}
	reviewID := str(review, "id")
	for i, s := range tpl.Steps {
		if _, err := insertRow(ctx, tx, ReviewStepsTable(), map[string]any{
			"id": auth.NewUUID(), "org_id": a.OrgID, "review_id": reviewID, "asset_id": a.ID, "position": int64(i + 1),
			"role": string(s.Role), "required": s.Required, "step_order": int64(s.Order), "due_days": int64(s.DueDays),
			"status": string(fairbalance.StepWaiting), "comment": "", "created_at": now, "updated_at": now}); err != nil {
			return nil, err
		}
	}
	// The version is immutable from now on (the database refuses any
	// change to a submitted version); a version resubmitted after a
	// withdrawal keeps its first submission time.
	if _, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "asset_versions", Columns: []string{"submitted_at", "updated_at"},
		Rows: []map[string]any{{"submitted_at": now, "updated_at": now}}, Where: and(condEq("id", *a.CurrentVersionID), &fairbalance.Cond{Column: "submitted_at", Operator: "is"})}); err != nil {
		return nil, err
	}
	// Conditional on what the gate read: a concurrent version or
	// submission makes this one fail rather than both taking effect.
	after, err := updateRow(ctx, tx, AssetsTable(), a.ID, map[string]any{"status": string(fairbalance.AssetInReview), "updated_at": now},
		and(condEq("status", string(a.Status)), condEq("current_version_id", *a.CurrentVersionID)))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The asset changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionAssetSubmitted, "assets", a.ID, before, map[string]any{"asset": after, "review": review},
		map[string]any{"review_id": reviewID, "round": round, "template": tpl.Name}); err != nil {
		return nil, err
	}
	w := &workflow{rv: rv, c: c, now: now}
	if _, err := w.advance(ctx, tx, reviewID); err != nil {
		return nil, err
	}
	return reviewWithSteps(ctx, tx, c, reviewID)
}

// reviewWithSteps is a review row with its steps in order ("steps").
func reviewWithSteps(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, reviewID string) (map[string]any, error) {
	_, row, err := mustRowOf[fairbalance.Review](ctx, tx, c, ReviewsTable(), reviewID, "Review")
	if err != nil {
		return nil, err
	}
	_, steps, err := stepsOf(ctx, tx, reviewID)
	if err != nil {
		return nil, err
	}
	if steps == nil {
		steps = []map[string]any{}
	}
	row["steps"] = steps
	return row, nil
}

// auditReview appends the audit entry of a review function.
func auditReview(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, action, objectType, id string, before, after, meta any) error {
	m := map[string]any{"via": "data_api"}
	if mm, ok := meta.(map[string]any); ok {
		for k, v := range mm {
			m[k] = v
		}
	}
	client := ClientFrom(ctx)
	e := &fairbalance.AuditEntry{Action: action, ObjectType: objectType, ObjectID: id, Meta: mustRaw(m), IP: client.IP, UserAgent: client.UserAgent}
	if before != nil {
		e.Before = mustRaw(before)
	}
	if after != nil {
		e.After = mustRaw(after)
	}
	return appendAudit(ctx, tx, c, e)
}

// ---- withdraw

// withdrawReview withdraws an open round before any decision: its steps
// are skipped, the round withdrawn and the asset back in draft.
func (rv *Reviews) withdrawReview(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if err := refuseWriter(c); err != nil {
		return nil, err
	}
	review, _, err := mustRowOf[fairbalance.Review](ctx, tx, c, ReviewsTable(), argString(args, "review_id"), "Review")
	if err != nil {
		return nil, err
	}
	a, assetBefore, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), review.AssetID, "Asset")
	if err != nil {
		return nil, err
	}
	if err := refuseSubmitter(c, a); err != nil && review.SubmittedBy != c.UserID {
		return nil, err
	}
	if err := lockRound(ctx, tx, review.ID); err != nil {
		return nil, err
	}
	review, before, err := mustRowOf[fairbalance.Review](ctx, tx, c, ReviewsTable(), review.ID, "Review")
	if err != nil {
		return nil, err
	}
	if !review.Status.CanTransition(fairbalance.ReviewWithdrawn) {
		return nil, illegal("The round is %s; only an open round can be withdrawn.", review.Status)
	}
	steps, _, err := stepsOf(ctx, tx, review.ID)
	if err != nil {
		return nil, err
	}
	for _, s := range steps {
		if s.Status.Decided() {
			return nil, illegal("A reviewer has decided a step of this round; it can no longer be withdrawn.")
		}
	}
	if !a.Status.CanTransition(fairbalance.AssetDraft) {
		return nil, illegal(MsgStatusMove, "asset", a.Status, fairbalance.AssetDraft)
	}
	now := rv.now()
	w := &workflow{rv: rv, c: c, now: now}
	for i := range steps {
		if err := w.skip(ctx, tx, &steps[i]); err != nil {
			return nil, err
		}
	}
	after, err := updateRow(ctx, tx, ReviewsTable(), review.ID, map[string]any{"status": string(fairbalance.ReviewWithdrawn), "closed_at": now, "due_at": nil, "updated_at": now},
		condEq("status", string(fairbalance.ReviewOpen)))
	if err != nil {
		return nil, err
	}
	assetAfter, err := updateRow(ctx, tx, AssetsTable(), a.ID, map[string]any{"status": string(fairbalance.AssetDraft), "updated_at": now}, condEq("status", string(a.Status)))
	if err != nil {
		return nil, err
	}
	if after == nil || assetAfter == nil {
		return nil, illegal("The round changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionReviewWithdrawn, "reviews", review.ID, map[string]any{"review": before, "asset": assetBefore},
		map[string]any{"review": after, "asset": assetAfter}, nil); err != nil {
		return nil, err
	}
	return reviewWithSteps(ctx, tx, c, review.ID)
}

// ---- claim

// claimStep lets a reviewer of the step's role take an active step: it is
// then theirs to decide.
func (rv *Reviews) claimStep(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if c.Anon() {
		return nil, denied(c, "permission denied for function claim_step")
	}
	step, _, err := mustRowOf[fairbalance.ReviewStep](ctx, tx, c, ReviewStepsTable(), argString(args, "step_id"), "Review step")
	if err != nil {
		return nil, err
	}
	review, _, err := mustRowOf[fairbalance.Review](ctx, tx, c, ReviewsTable(), step.ReviewID, "Review")
	if err != nil {
		return nil, err
	}
	if err := refuseDecider(ctx, tx, c, step, review); err != nil {
		return nil, err
	}
	if err := lockRound(ctx, tx, review.ID); err != nil {
		return nil, err
	}
	step, before, err := mustRowOf[fairbalance.ReviewStep](ctx, tx, c, ReviewStepsTable(), step.ID, "Review step")
	if err != nil {
		return nil, err
	}
	if err := stepIsActive(step); err != nil {
		return nil, err
	}
	if step.ClaimedBy != nil {
		if *step.ClaimedBy == c.UserID {
			return before, nil
		}
		name, _ := memberName(ctx, tx, *step.ClaimedBy)
		return nil, illegal("%s has already claimed this step.", name)
	}
	now := rv.now()
	after, err := updateRow(ctx, tx, ReviewStepsTable(), step.ID, map[string]any{"claimed_by": c.UserID, "claimed_at": now, "updated_at": now},
		and(condEq("status", string(fairbalance.StepActive)), &fairbalance.Cond{Column: "claimed_by", Operator: "is"}))
	if err != nil {
		return nil, err
	}
	if after == nil {
		return nil, illegal("The step changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, c, fairbalance.ActionStepClaimed, "review_steps", step.ID, before, after, map[string]any{"review_id": review.ID}); err != nil {
		return nil, err
	}
	return after, nil
}

// stepIsActive refuses (409) a step that cannot be claimed or decided now.
func stepIsActive(s *fairbalance.ReviewStep) error {
	switch {
	case s.Status == fairbalance.StepActive:
		return nil
	case s.Status == fairbalance.StepWaiting:
		return illegal("This step waits for the earlier steps of the round.")
	case s.Status.Decided():
		return illegal("This step is already decided (%s).", s.Status)
	}
	return illegal("This step is %s; the round closed without it.", s.Status)
}

// ---- the workflow's moves, shared by the functions

// workflow applies the moves of one function call: each step activated,
// skipped or decided, the round closed and the asset's status, each with
// its audit entry and notifications, at one time.
type workflow struct {
	rv  *Reviews
	c   fairbalance.Caller
	now time.Time
}

// skip moves an undecided step to skipped.
func (w *workflow) skip(ctx context.Context, tx fairbalance.Tx, s *fairbalance.ReviewStep) error {
	if !s.Status.CanTransition(fairbalance.StepSkipped) {
		return nil
	}
	after, err := updateRow(ctx, tx, ReviewStepsTable(), s.ID, map[string]any{"status": string(fairbalance.StepSkipped), "updated_at": w.now}, condEq("status", string(s.Status)))
	if err != nil {
		return err
	}
	if after == nil {
		return illegal("The step changed meanwhile; reload it and try again.")
	}
	return auditReview(ctx, tx, w.c, fairbalance.ActionStepSkipped, "review_steps", s.ID, map[string]any{"status": s.Status}, map[string]any{"status": fairbalance.StepSkipped},
		map[string]any{"review_id": s.ReviewID})
}

// advance rolls the round up as its steps now stand (fairbalance.RollUp):
// it activates the steps whose turn came, skips the ones the round closes
// without, closes the round with its outcome and moves the asset. It
// returns the outcome.
func (w *workflow) advance(ctx context.Context, tx fairbalance.Tx, reviewID string) (fairbalance.ReviewStatus, error) {
	steps, _, err := stepsOf(ctx, tx, reviewID)
	if err != nil {
		return "", err
	}
	states := make([]fairbalance.StepState, len(steps))
	for i, s := range steps {
		states[i] = fairbalance.StepState{Order: s.StepOrder, Required: s.Required, Status: s.Status}
	}
	p := fairbalance.RollUp(states)
	review, before, err := mustRowOf[fairbalance.Review](ctx, tx, fairbalance.Caller{Role: "service_role"}, ReviewsTable(), reviewID, "Review")
	if err != nil {
		return "", err
	}
	for _, i := range p.Activate {
		s := &steps[i]
		due := fairbalance.AddBusinessDays(w.now, s.DueDays)
		after, err := updateRow(ctx, tx, ReviewStepsTable(), s.ID, map[string]any{"status": string(fairbalance.StepActive), "activated_at": w.now, "due_at": due, "updated_at": w.now},
			condEq("status", string(fairbalance.StepWaiting)))
		if err != nil {
			return "", err
		}
		if after == nil {
			return "", illegal("The round changed meanwhile; reload it and try again.")
		}
		s.Status, s.DueAt = fairbalance.StepActive, &due
		if err := auditReview(ctx, tx, w.c, fairbalance.ActionStepActivated, "review_steps", s.ID, map[string]any{"status": fairbalance.StepWaiting}, after,
			map[string]any{"review_id": reviewID}); err != nil {
			return "", err
		}
		if err := w.notifyRole(ctx, tx, review, s); err != nil {
			return "", err
		}
	}
	for _, i := range p.Skip {
		if err := w.skip(ctx, tx, &steps[i]); err != nil {
			return "", err
		}
	}
	if !p.Closed {
		// The round's due time is its earliest active step's.
		var due any
		for _, s := range steps {
			if s.Status == fairbalance.StepActive && s.DueAt != nil {
				if d, ok := due.(time.Time); !ok || s.DueAt.Before(d) {
					due = s.DueAt.UTC()
				}
			}
		}
		_, err := updateRow(ctx, tx, ReviewsTable(), reviewID, map[string]any{"due_at": due, "updated_at": w.now}, nil)
		return fairbalance.ReviewOpen, err
	}
	return p.Outcome, w.close(ctx, tx, review, before, p.Outcome)
}

// close ends an open round with its outcome and moves its asset.
func (w *workflow) close(ctx context.Context, tx fairbalance.Tx, review *fairbalance.Review, before map[string]any, outcome fairbalance.ReviewStatus) error {
	if !review.Status.CanTransition(outcome) {
		return illegal("The round is %s and cannot become %s.", review.Status, outcome)
	}
	after, err := updateRow(ctx, tx, ReviewsTable(), review.ID, map[string]any{"status": string(outcome), "closed_at": w.now, "due_at": nil, "updated_at": w.now},
		condEq("status", string(fairbalance.ReviewOpen)))
	if err != nil {
		return err
	}
	if after == nil {
		return illegal("The round changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, w.c, fairbalance.ActionReviewClosed, "reviews", review.ID, before, after, map[string]any{"outcome": outcome}); err != nil {
		return err
	}
	sys := fairbalance.Caller{Role: "service_role"}
	a, assetBefore, err := mustRowOf[fairbalance.Asset](ctx, tx, sys, AssetsTable(), review.AssetID, "Asset")
	if err != nil {
		return err
	}
	to := outcome.AssetStatus()
	if !a.Status.CanTransition(to) {
		return illegal(MsgStatusMove, "asset", a.Status, to)
	}
	values := map[string]any{"status": string(to), "updated_at": w.now}
	if to == fairbalance.AssetApproved {
		months, err := approvalValidity(ctx, tx, a.OrgID)
		if err != nil {
			return err
		}
		values["approved_version_id"] = review.VersionID
		values["expires_at"] = fairbalance.ApprovalExpiry(w.now, months)
	}
	assetAfter, err := updateRow(ctx, tx, AssetsTable(), a.ID, values, condEq("status", string(a.Status)))
	if err != nil {
		return err
	}
	if assetAfter == nil {
		return illegal("The asset changed meanwhile; reload it and try again.")
	}
	if err := auditReview(ctx, tx, w.c, fairbalance.AssetStatusAction(to), "assets", a.ID, assetBefore, assetAfter,
		map[string]any{"review_id": review.ID, "round": review.Round}); err != nil {
		return err
	}
	title := fmt.Sprintf("Round %d of %s closed: %s", review.Round, a.Title, strings.ReplaceAll(string(outcome), "_", " "))
	return w.notifyAuthors(ctx, tx, review, a, fairbalance.NotifyRoundClosed, title, "", "")
}

// approvalValidity is the organisation's approval validity in months.
func approvalValidity(ctx context.Context, tx fairbalance.Tx, orgID string) (int, error) {
	rows, err := readDBRows(ctx, tx, "review_settings", condEq("org_id", orgID), 1, selCol("approval_validity_months", fairbalance.TypeInteger))
	if err != nil || len(rows) == 0 {
		return fairbalance.DefaultApprovalValidityMonths, err
	}
	n, _ := rows[0]["approval_validity_months"].(json.Number).Int64()
	return int(n), nil
}

// ---- notifications

// notify adds a notification for each recipient (distinct, never the
// caller), all of the organisation.
func (w *workflow) notify(ctx context.Context, tx fairbalance.Tx, orgID string, recipients []string, kind fairbalance.NotificationKind, title, body string, assetID, reviewID, stepID string) error {
	var seen []string
	for _, u := range recipients {
		if u == "" || u == w.c.UserID || slices.Contains(seen, u) {
			continue
		}
		seen = append(seen, u)
		if _, err := w.rv.addNotice(ctx, tx, &fairbalance.Notification{OrgID: orgID, UserID: u, Kind: kind, Title: title, Body: body,
			AssetID: optional(assetID), ReviewID: optional(reviewID), StepID: optional(stepID), CreatedAt: w.now}); err != nil {
			return err
		}
	}
	return nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// notifyRole tells the active members of a newly active step's role,
// but the version's author, that the step awaits them.
func (w *workflow) notifyRole(ctx context.Context, tx fairbalance.Tx, review *fairbalance.Review, s *fairbalance.ReviewStep) error {
	members, err := roleMembers(ctx, tx, review.OrgID, string(s.Role))
	if err != nil {
		return err
	}
	sys := fairbalance.Caller{Role: "service_role"}
	author, err := authorOf(ctx, tx, sys, review.VersionID)
	if err != nil {
		return err
	}
	members = slices.DeleteFunc(members, func(u string) bool { return u == author })
	title, err := assetTitle(ctx, tx, review.AssetID)
	if err != nil {
		return err
	}
	due := ""
	if s.DueAt != nil {
		due = "Due " + s.DueAt.UTC().Format("2 Jan 2006 15:04 UTC") + "."
	}
	return w.notify(ctx, tx, review.OrgID, members, fairbalance.NotifyStepActivated,
		fmt.Sprintf("%s: %s step of round %d awaits review", title, roleLabel(s.Role), review.Round), due, review.AssetID, review.ID, s.ID)
}

// notifyAuthors tells the asset's owner and the round's submitter.
func (w *workflow) notifyAuthors(ctx context.Context, tx fairbalance.Tx, review *fairbalance.Review, a *fairbalance.Asset, kind fairbalance.NotificationKind, title, body, stepID string) error {
	to := []string{review.SubmittedBy}
	if a.OwnerID != nil {
		to = append(to, *a.OwnerID)
	}
	return w.notify(ctx, tx, review.OrgID, to, kind, title, body, a.ID, review.ID, stepID)
}

// roleMembers lists the active members of orgID with role.
func roleMembers(ctx context.Context, tx fairbalance.Tx, orgID string, roles ...string) ([]string, error) {
	vals := make([]any, len(roles))
	for i, r := range roles {
		vals[i] = r
	}
	rows, err := readDBRows(ctx, tx, "profiles_v2", and(condEq("org_id", orgID), condIn("role", vals), &fairbalance.Cond{Column: "deactivated_at", Operator: "is"}), 0,
		selCol("id", fairbalance.TypeText))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = str(r, "id")
	}
	return out, nil
}

func assetTitle(ctx context.Context, tx fairbalance.Tx, assetID string) (string, error) {
	rows, err := readDBRows(ctx, tx, "assets", condEq("id", assetID), 1, selCol("title", fairbalance.TypeText), selCol("job_code", fairbalance.TypeText))
	if err != nil || len(rows) == 0 {
		return "", err
	}
	return str(rows[0], "title"), nil
}

// addNotification inserts a notification; one with a DedupeKey its
// recipient already has is skipped (a reminder sent again). It reports
// whether the row was added. (Reviews.addNotice adds its e-mail.)
func addNotification(ctx context.Context, tx fairbalance.Tx, n *fairbalance.Notification) (bool, error) {
	if n.ID == "" {
		n.ID = auth.NewUUID()
	}
	row := map[string]any{"id": n.ID, "org_id": n.OrgID, "user_id": n.UserID, "kind": string(n.Kind), "title": clip(n.Title, 300), "body": clip(n.Body, 2000),
		"asset_id": ptrValue(n.AssetID), "review_id": ptrValue(n.ReviewID), "step_id": ptrValue(n.StepID), "dedupe_key": ptrValue(n.DedupeKey),
		"read_at": nil, "emailed_at": timeValue(n.EmailedAt), "created_at": n.CreatedAt.UTC()}
	cols := make([]string, 0, len(row))
	for k := range row {
		cols = append(cols, k)
	}
	slices.Sort(cols)
	plan := &fairbalance.WritePlan{Table: "notifications", Columns: cols, Rows: []map[string]any{row}}
	if n.DedupeKey != nil {
		plan.OnConflict, plan.IgnoreDuplicates = []string{"user_id", "dedupe_key"}, true
	}
	_, added, err := tx.Insert(ctx, plan)
	return added > 0, err
}

func timeValue(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC()
}

func ptrValue(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// clip cuts s to n characters, ending with an ellipsis when it cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
