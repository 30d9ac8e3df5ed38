package service

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"fairbalance"
	"fairbalance/auth"
)

// Deciding a step is signing it (21 CFR Part 11): decide_step checks the
// signer's password (and authenticator code) before its transaction opens
// — the hash is slow, and a failed attempt must be recorded although the
// decision is not — then, in one transaction, records the sealed
// signature, the decision, its change requests and whatever the roll-up
// of the round moves, each with its audit entry.

// DecideInput is the input of decide_step.
type DecideInput struct {
	StepID   string
	Decision fairbalance.Decision
	Comment  string
	Password string
	TOTPCode string
	// ChangeRequests are the texts of the changes asked for (changes
	// requested only).
	ChangeRequests []string
	// ChangeRequestAnnotations are, for each of ChangeRequests, the
	// annotation (on the version under review) it points at, or "".
	ChangeRequestAnnotations []string
}

func decodeDecide(args map[string]any) (DecideInput, error) {
	in := DecideInput{StepID: argString(args, "step_id"), Decision: fairbalance.Decision(argString(args, "decision")),
		Comment: argString(args, "comment"), TOTPCode: argString(args, "totp_code")}
	in.Password, _ = args["password"].(string)
	var v inputCheck
	switch crs := args["change_requests"].(type) {
	case nil:
	case []any:
		for _, x := range crs {
			switch x := x.(type) {
			case string:
				in.ChangeRequests = append(in.ChangeRequests, strings.TrimSpace(x))
				in.ChangeRequestAnnotations = append(in.ChangeRequestAnnotations, "")
			case map[string]any:
				s, _ := x["text"].(string)
				id, ok := x["annotation_id"].(string)
				if x["annotation_id"] != nil && (!ok || !auth.IsUUID(id)) {
					v.raise("change_requests", "A change request's annotation_id is the id of an annotation.")
				}
				in.ChangeRequests = append(in.ChangeRequests, strings.TrimSpace(s))
				in.ChangeRequestAnnotations = append(in.ChangeRequestAnnotations, strings.ToLower(id))
			default:
				v.raise("change_requests", "Each change request is a text, or {\"text\", \"annotation_id\"}.")
			}
		}
	default:
		v.raise("change_requests", "change_requests is a list of texts.")
	}
	if !in.Decision.Valid() {
		v.check("decision", fairbalance.DecisionVocabulary.Refusal("The decision"))
	}
	v.text("comment", "The comment", in.Comment, 1, 5000)
	if in.Password == "" {
		v.raise("password", "Enter your password to sign.")
	}
	switch {
	case in.Decision == fairbalance.DecisionChangesRequested && len(in.ChangeRequests) == 0:
		v.raise("change_requests", "Requesting changes needs at least one change request.")
	case in.Decision != fairbalance.DecisionChangesRequested && len(in.ChangeRequests) > 0 && in.Decision.Valid():
		v.raise("change_requests", "Change requests go with a decision of changes_requested only.")
	case len(in.ChangeRequests) > 50:
		v.raise("change_requests", "At most 50 change requests per decision.")
	}
	for _, t := range in.ChangeRequests {
		if n := utf8.RuneCountInString(t); n == 0 || n > 2000 {
			v.raise("change_requests", "Each change request is 1 to 2000 characters long.")
			break
		}
	}
	return in, v.err()
}

// signedKey is where prepareDecision leaves the checked input for
// decideStep (clients cannot send it: undeclared arguments are refused).
const signedKey = "_signed"

// prepareDecision checks, outside any transaction, the input, that the
// caller may decide the step at all (so that nobody else spends a
// member's attempts), the lockout, and the credentials. A wrong password
// or code is recorded — audited, counted, and on the fifth in a row the
// member's signing locked for 15 minutes and the organisation's admins
// notified — in a transaction of its own, then refused.
func (rv *Reviews) prepareDecision(ctx context.Context, c fairbalance.Caller, args map[string]any) error {
	if c.Anon() {
		return denied(c, "permission denied for function decide_step")
	}
	in, err := decodeDecide(args)
	if err != nil {
		return err
	}
	view := rv.reg.store.View()
	step, _, err := mustRowOf[fairbalance.ReviewStep](ctx, view, c, ReviewStepsTable(), in.StepID, "Review step")
	if err != nil {
		return err
	}
	review, _, err := mustRowOf[fairbalance.Review](ctx, view, c, ReviewsTable(), step.ReviewID, "Review")
	if err != nil {
		return err
	}
	if err := refuseDecider(ctx, view, c, step, review); err != nil {
		return err
	}
	cfg := rv.reg.cfg()
	if cfg.Signer == nil || len(cfg.SignatureKey) != ed25519.PrivateKeySize {
		return internal(errors.New("review: electronic signatures are not configured (signer credentials and key)"))
	}
	now := rv.now()
	if until, err := lockedUntil(ctx, view, c.UserID, now); err != nil {
		return err
	} else if until != nil {
		return signingLocked(*until)
	}
	check, err := cfg.Signer.CheckSigner(ctx, c.UserID, in.Password, in.TOTPCode)
	if err != nil {
		return err
	}
	switch check {
	case SignerOK:
		args[signedKey] = &in
		return nil
	case SignerCodeRequired:
		return onField(raise("Enter the code of your authenticator app to sign."), "totp_code")
	}
	return rv.failedSigning(ctx, c, step, check, now)
}

// signingLocked is the refusal of a member whose signing is locked.
func signingLocked(until time.Time) error {
	return pgErr(fairbalance.KindRateLimited, CodeSigningLocked,
		fmt.Sprintf("Signing is locked after %d failed attempts; try again after %s.", fairbalance.SigningAttemptsBeforeLock, until.UTC().Format("15:04 UTC")),
		"locked_until: "+until.UTC().Format(time.RFC3339), "")
}

// lockedUntil is when userID's signing lock ends, nil when it is not locked.
func lockedUntil(ctx context.Context, tx fairbalance.Tx, userID string, now time.Time) (*time.Time, error) {
	rows, err := readDBRows(ctx, tx, "signing_lockouts", condEq("user_id", userID), 1, selCol("locked_until", fairbalance.TypeTimestamp))
	if err != nil || len(rows) == 0 || rows[0]["locked_until"] == nil {
		return nil, err
	}
	until, err := time.Parse(time.RFC3339Nano, str(rows[0], "locked_until"))
	if err != nil || !until.After(now) {
		return nil, err
	}
	return &until, nil
}

// failedSigning records a failed signing attempt and refuses it.
func (rv *Reviews) failedSigning(ctx context.Context, c fairbalance.Caller, step *fairbalance.ReviewStep, check SignerCheck, now time.Time) error {
	locked := false
	err := rv.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		rows, err := readDBRows(ctx, tx, "signing_lockouts", condEq("user_id", c.UserID), 1, selCol("failed_attempts", fairbalance.TypeInteger), selCol("locked_until", fairbalance.TypeTimestamp))
		if err != nil {
			return err
		}
		attempts := int64(1)
		if len(rows) == 1 {
			n, _ := rows[0]["failed_attempts"].(json.Number).Int64()
			attempts = n + 1
		}
		values := map[string]any{"user_id": c.UserID, "org_id": c.OrgID, "failed_attempts": attempts, "last_failed_at": now, "locked_until": nil, "updated_at": now}
		if attempts >= fairbalance.SigningAttemptsBeforeLock {
			locked = true
			values["failed_attempts"], values["locked_until"] = int64(0), now.Add(fairbalance.SigningLockout)
		}
		if err := upsertLockout(ctx, tx, values, len(rows) == 1); err != nil {
			return err
		}
		what := "password"
		if check == SignerBadCode {
			what = "authenticator code"
		}
		if err := auditReview(ctx, tx, c, fairbalance.ActionSignatureFailed, "review_steps", step.ID, nil, nil,
			map[string]any{"review_id": step.ReviewID, "reason": "wrong " + what, "attempt": attempts}); err != nil {
			return err
		}
		if !locked {
			return nil
		}
		if err := auditReview(ctx, tx, c, fairbalance.ActionSigningLocked, "users", c.UserID, nil, map[string]any{"locked_until": values["locked_until"]},
			map[string]any{"attempts": fairbalance.SigningAttemptsBeforeLock, "minutes": int(fairbalance.SigningLockout / time.Minute)}); err != nil {
			return err
		}
		admins, err := roleMembers(ctx, tx, c.OrgID, fairbalance.RoleOwner, fairbalance.RoleAdmin)
		if err != nil {
			return err
		}
		name, err := memberName(ctx, tx, c.UserID)
		if err != nil {
			return err
		}
		w := &workflow{rv: rv, c: fairbalance.Caller{}, now: now}
		return w.notify(ctx, tx, c.OrgID, admins, fairbalance.NotifySigningLocked,
			fmt.Sprintf("Signing locked for %s after %d failed attempts", name, fairbalance.SigningAttemptsBeforeLock),
			fmt.Sprintf("%s could not sign a review step with the right password or code %d times in a row; their signing is locked until %s.",
				name, fairbalance.SigningAttemptsBeforeLock, now.Add(fairbalance.SigningLockout).Format("15:04 UTC")), step.AssetID, step.ReviewID, step.ID)
	})
	if err != nil {
		return err
	}
	msg := "The password is wrong; the step was not signed."
	field := "password"
	if check == SignerBadCode {
		msg, field = "The authenticator code is wrong; the step was not signed.", "totp_code"
	}
	if locked {
		msg += fmt.Sprintf(" Signing is now locked for %d minutes.", int(fairbalance.SigningLockout/time.Minute))
	}
	return onField(pgErr(fairbalance.KindForbidden, CodeBadSignature, msg, "", ""), field)
}

func upsertLockout(ctx context.Context, tx fairbalance.Tx, values map[string]any, exists bool) error {
	cols := []string{"user_id", "org_id", "failed_attempts", "last_failed_at", "locked_until", "updated_at"}
	if exists {
		_, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "signing_lockouts", Columns: cols[1:], Rows: []map[string]any{values}, Where: condEq("user_id", values["user_id"])})
		return err
	}
	_, _, err := tx.Insert(ctx, &fairbalance.WritePlan{Table: "signing_lockouts", Columns: cols, Rows: []map[string]any{values}})
	return err
}

// decideStep records a decision with its signature and rolls the round up:
// {review, step, signature, change_requests}.
func (rv *Reviews) decideStep(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	in, ok := args[signedKey].(*DecideInput)
	if !ok {
		return nil, denied(c, "permission denied for function decide_step")
	}
	step, _, err := mustRowOf[fairbalance.ReviewStep](ctx, tx, c, ReviewStepsTable(), in.StepID, "Review step")
	if err != nil {
		return nil, err
	}
	if err := lockRound(ctx, tx, step.ReviewID); err != nil {
		return nil, err
	}
	step, stepBefore, err := mustRowOf[fairbalance.ReviewStep](ctx, tx, c, ReviewStepsTable(), step.ID, "Review step")
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
	if review.Status != fairbalance.ReviewOpen {
		return nil, illegal("The round is %s; its steps can no longer be decided.", review.Status)
	}
	if err := stepIsActive(step); err != nil {
		return nil, err
	}
	to := in.Decision.StepStatus()
	if !step.Status.CanTransition(to) {
		return nil, illegal(MsgStatusMove, "step", step.Status, to)
	}
	if step.ClaimedBy != nil && *step.ClaimedBy != c.UserID {
		name, _ := memberName(ctx, tx, *step.ClaimedBy)
		return nil, denied(c, fmt.Sprintf("%s has claimed this step; only they decide it.", name))
	}
	if to.Approves() {
		n, err := unconfirmedChanges(ctx, tx, review, step.Role)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, illegal("Confirm the %d change request(s) your role raised in the last round before approving.", n)
		}
	}
	version, _, err := mustRowOf[fairbalance.Version](ctx, tx, c, AssetVersionsTable(), review.VersionID, "Version")
	if err != nil {
		return nil, err
	}
	now := rv.now()
	name, err := memberName(ctx, tx, c.UserID)
	if err != nil {
		return nil, err
	}
	sig := &fairbalance.Signature{ID: auth.NewUUID(), OrgID: review.OrgID, ReviewID: review.ID, StepID: step.ID, AssetID: review.AssetID,
		VersionID: version.ID, RenditionSHA256: version.SHA256, SignerID: c.UserID, SignerName: name, SignedAt: now,
		Meaning: in.Decision.Meaning(), Decision: in.Decision, CreatedAt: now}
	client := ClientFrom(ctx)
	sig.ClientIP, sig.UserAgent = client.IP, client.UserAgent
	sig.SealWith(rv.reg.cfg().SignatureKey)
	sigRow, err := insertRow(ctx, tx, SignaturesTable(), map[string]any{"id": sig.ID, "org_id": sig.OrgID, "review_id": sig.ReviewID, "step_id": sig.StepID,
		"asset_id": sig.AssetID, "version_id": sig.VersionID, "rendition_sha256": sig.RenditionSHA256, "signer_id": sig.SignerID, "signer_name": sig.SignerName,
		"signed_at": sig.SignedAt, "meaning": string(sig.Meaning), "decision": string(sig.Decision), "seal": sig.Seal, "key_id": sig.KeyID, "sig": sig.Sig,
		"created_at": now, "client_ip": sig.ClientIP, "user_agent": sig.UserAgent})
	if err != nil {
		return nil, err
	}
	stepAfter, err := updateRow(ctx, tx, ReviewStepsTable(), step.ID, map[string]any{"status": string(to), "decided_by": c.UserID, "decided_at": now,
		"comment": in.Comment, "signature_id": sig.ID, "updated_at": now}, condEq("status", string(fairbalance.StepActive)))
	if err != nil {
		return nil, err
	}
	if stepAfter == nil {
		return nil, illegal("The step changed meanwhile; reload it and try again.")
	}
	// A right signature ends a run of failed attempts.
	if _, _, err := tx.Update(ctx, &fairbalance.WritePlan{Table: "signing_lockouts", Columns: []string{"failed_attempts", "updated_at"},
		Rows: []map[string]any{{"failed_attempts": int64(0), "updated_at": now}}, Where: and(condEq("user_id", c.UserID), &fairbalance.Cond{Column: "failed_attempts", Operator: "gt", Value: int64(0)})}); err != nil {
		return nil, err
	}
	if err := auditReview(ctx, tx, c, fairbalance.StepDecisionAction(in.Decision), "review_steps", step.ID, stepBefore,
		map[string]any{"step": stepAfter, "signature": sigRow}, map[string]any{"review_id": review.ID, "signature_id": sig.ID}); err != nil {
		return nil, err
	}
	crs := []map[string]any{}
	for i, text := range in.ChangeRequests {
		var annotationID, threadID any
		if i < len(in.ChangeRequestAnnotations) && in.ChangeRequestAnnotations[i] != "" {
			an, _, err := rowOf[fairbalance.Annotation](ctx, tx, c, AnnotationsTable(), in.ChangeRequestAnnotations[i])
			if err != nil {
				return nil, err
			}
			if an == nil || an.VersionID != review.VersionID {
				return nil, onField(raise("A change request points at an annotation of the version under review."), "change_requests")
			}
			annotationID, threadID = an.ID, an.ThreadID
		}
		cr, err := insertRow(ctx, tx, ChangeRequestsTable(), map[string]any{"id": auth.NewUUID(), "org_id": review.OrgID, "asset_id": review.AssetID,
			"review_id": review.ID, "step_id": step.ID, "role": string(step.Role), "raised_by": c.UserID, "text": text,
			"status": string(fairbalance.ChangeOpen), "done_note": "", "annotation_id": annotationID, "thread_id": threadID,
			"created_at": now, "updated_at": now})
		if err != nil {
			return nil, err
		}
		if err := auditReview(ctx, tx, c, fairbalance.ActionChangeRequestRaised, "change_requests", str(cr, "id"), nil, cr, map[string]any{"review_id": review.ID}); err != nil {
			return nil, err
		}
		crs = append(crs, cr)
	}
	w := &workflow{rv: rv, c: c, now: now}
	a, _, err := mustRowOf[fairbalance.Asset](ctx, tx, c, AssetsTable(), review.AssetID, "Asset")
	if err != nil {
		return nil, err
	}
	title := fmt.Sprintf("%s: %s %s (round %d)", a.Title, name, decisionWords(in.Decision), review.Round)
	if err := w.notifyAuthors(ctx, tx, review, a, fairbalance.NotifyDecision, title, clip(in.Comment, 500), step.ID); err != nil {
		return nil, err
	}
	if _, err := w.advance(ctx, tx, review.ID); err != nil {
		return nil, err
	}
	_, reviewRow, err := mustRowOf[fairbalance.Review](ctx, tx, c, ReviewsTable(), review.ID, "Review")
	if err != nil {
		return nil, err
	}
	_, stepRow, err := mustRowOf[fairbalance.ReviewStep](ctx, tx, c, ReviewStepsTable(), step.ID, "Review step")
	if err != nil {
		return nil, err
	}
	return map[string]any{"review": reviewRow, "step": stepRow, "signature": sigRow, "change_requests": crs}, nil
}

func decisionWords(d fairbalance.Decision) string {
	switch d {
	case fairbalance.DecisionApproved:
		return "approved"
	case fairbalance.DecisionApprovedWithChanges:
		return "approved with changes"
	case fairbalance.DecisionChangesRequested:
		return "requested changes"
	}
	return "rejected"
}

// unconfirmedChanges counts the change requests of role on the round's
// asset raised in earlier rounds and not yet confirmed.
func unconfirmedChanges(ctx context.Context, tx fairbalance.Tx, review *fairbalance.Review, role fairbalance.ReviewerRole) (int64, error) {
	_, n, err := tx.Read(ctx, &fairbalance.ReadPlan{Table: "change_requests", Columns: []fairbalance.SelectColumn{selCol("id", fairbalance.TypeText)},
		Where: and(condEq("asset_id", review.AssetID), condEq("role", string(role)), &fairbalance.Cond{Column: "review_id", Operator: "neq", Value: review.ID},
			&fairbalance.Cond{Column: "status", Operator: "neq", Value: string(fairbalance.ChangeConfirmed)}), Limit: -1, Count: true})
	return n, err
}

// DecideSigned records a decision whose signer the caller has already
// verified by other means — the demo seeding, whose members have no
// passwords — with the same checks, sealed signature, roll-up and audit
// entries as decide_step, in one transaction. No client reaches it.
func (rv *Reviews) DecideSigned(ctx context.Context, c fairbalance.Caller, in DecideInput) (map[string]any, error) {
	args := map[string]any{"step_id": in.StepID, "decision": string(in.Decision), "comment": in.Comment, "password": "-"}
	if in.ChangeRequests != nil {
		crs := make([]any, len(in.ChangeRequests))
		for i, t := range in.ChangeRequests {
			crs[i] = t
			if i < len(in.ChangeRequestAnnotations) && in.ChangeRequestAnnotations[i] != "" {
				crs[i] = map[string]any{"text": t, "annotation_id": in.ChangeRequestAnnotations[i]}
			}
		}
		args["change_requests"] = crs
	}
	checked, err := decodeDecide(args)
	if err != nil {
		return nil, err
	}
	if len(rv.reg.cfg().SignatureKey) != ed25519.PrivateKeySize {
		return nil, internal(errors.New("review: no signature key"))
	}
	var out map[string]any
	err = rv.reg.store.Tx(ctx, func(tx fairbalance.Tx) error {
		res, err := rv.decideStep(ctx, tx, c, map[string]any{signedKey: &checked})
		if err == nil {
			out = res.(map[string]any)
		}
		return err
	})
	return out, err
}
