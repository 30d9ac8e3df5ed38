package fairbalance

import (
	"slices"
	"strings"
)

// The actions the server records. Entries a client appends through the
// data API (AuditEntry.ClientReported) may use any other action — the
// spec's client writes organization_created, user_invited,
// onboarding_completed, demo_role_switched, demo_role_reset, client_error
// and the like — but never one of these, so that an entry claiming that the
// server did something was always written by the server.

// Audit actions of the content functions and tables.
const (
	ActionAssetCreated           = "asset_created"
	ActionAssetVersionCreated    = "asset_version_created"
	ActionAssetArchived          = "asset_archived"
	ActionReferenceFileAttached  = "reference_file_attached"
	ActionClaimReferenceLinked   = "claim_reference_linked"
	ActionClaimReferenceUnlinked = "claim_reference_unlinked"
)

// Audit actions of the review workflow: an asset entering each of its
// states. They are reserved now, before the workflow records them, so that
// no client entry written today can pass for a review decision.
const (
	ActionAssetSubmitted           = "asset_submitted"
	ActionAssetApproved            = "asset_approved"
	ActionAssetApprovedWithChanges = "asset_approved_with_changes"
	ActionAssetChangesRequested    = "asset_changes_requested"
	ActionAssetRejected            = "asset_rejected"
	ActionAssetWithdrawn           = "asset_withdrawn"
	ActionAssetExpired             = "asset_expired"
)

// Audit actions of the review workflow's rounds, steps, signatures, change
// requests and settings (issue 15). A function that moves several things
// at once (a decision that closes a round and approves the asset) records
// one entry per move, in its transaction.
const (
	// ActionReviewWithdrawn: the author withdrew an open round (the asset
	// goes back to draft).
	ActionReviewWithdrawn = "review_withdrawn"
	// ActionReviewClosed: a round closed with its outcome (after.status).
	ActionReviewClosed = "review_closed"
	// ActionStepActivated: a waiting step became active (due date set).
	ActionStepActivated = "review_step_activated"
	// ActionStepClaimed: a reviewer claimed an active step.
	ActionStepClaimed = "review_step_claimed"
	// ActionStepSkipped: the round closed without the step.
	ActionStepSkipped = "review_step_skipped"
	// ActionStepAssigned: an administrator assigned an active step to a
	// named reviewer of its role (assign_step).
	ActionStepAssigned = "review_step_assigned"
	// ActionStepOverdue: the overdue sweep marked an active step past its
	// due time (actor "system").
	ActionStepOverdue = "review_step_overdue"
	// The four decisions of a step, each with its signature.
	ActionStepApproved            = "review_step_approved"
	ActionStepApprovedWithChanges = "review_step_approved_with_changes"
	ActionStepChangesRequested    = "review_step_changes_requested"
	ActionStepRejected            = "review_step_rejected"
	// ActionSignatureFailed: a signing attempt with a wrong password or
	// authenticator code; ActionSigningLocked: the attempts in a row that
	// locked the member's signing.
	ActionSignatureFailed = "signature_failed"
	ActionSigningLocked   = "signing_locked"
	// Change requests: raised with a decision, marked done by the author,
	// confirmed by a reviewer of the role that raised them.
	ActionChangeRequestRaised    = "change_request_raised"
	ActionChangeRequestDone      = "change_request_done"
	ActionChangeRequestConfirmed = "change_request_confirmed"
	// Configuration (21 CFR 11.10(k)): workflow templates, the approval
	// validity, an asset's expiry date.
	ActionWorkflowTemplateSaved   = "workflow_template_saved"
	ActionWorkflowTemplateDeleted = "workflow_template_deleted"
	ActionReviewSettingsUpdated   = "review_settings_updated"
	ActionAssetExpirySet          = "asset_expiry_set"
	// ActionNotificationsRead: a member marked notifications read.
	ActionNotificationsRead = "notifications_read"
)

// Audit actions of annotations (issue 16).
const (
	ActionAnnotationCreated  = "annotation_created"
	ActionAnnotationReplied  = "annotation_replied"
	ActionAnnotationResolved = "annotation_resolved"
	ActionAnnotationReopened = "annotation_reopened"
	// ActionAnnotationsCarried: a new version took the previous one's open
	// annotations, each re-anchored (meta: how many anchored, moved and
	// orphaned).
	ActionAnnotationsCarried = "annotations_carried_forward"
)

// Audit actions of the exports (issue 16): a member exported the review
// record of a round (meta.format: pdf or json) or the Form 2253 data of
// an approved asset. Exports change nothing; they are recorded because who
// took a copy of the record, and when, is part of it.
const (
	ActionReviewRecordExported = "review_record_exported"
	ActionForm2253Exported     = "form_2253_exported"
)

// StepDecisionAction is the audit action of a step decided d.
func StepDecisionAction(d Decision) string {
	switch d {
	case DecisionApproved:
		return ActionStepApproved
	case DecisionApprovedWithChanges:
		return ActionStepApprovedWithChanges
	case DecisionChangesRequested:
		return ActionStepChangesRequested
	}
	return ActionStepRejected
}

// AssetStatusAction is the audit action of an asset entering status s
// through the review workflow ("" for a status the workflow does not give).
func AssetStatusAction(s AssetStatus) string {
	switch s {
	case AssetInReview:
		return ActionAssetSubmitted
	case AssetApproved:
		return ActionAssetApproved
	case AssetChangesRequested:
		return ActionAssetChangesRequested
	case AssetRejected:
		return ActionAssetRejected
	case AssetWithdrawn:
		return ActionAssetWithdrawn
	case AssetExpired:
		return ActionAssetExpired
	}
	return ""
}

// ContentObjects are the content objects whose data API writes the server
// records as "<object>_created", "<object>_updated" and "<object>_deleted"
// (see ContentAuditAction).
var ContentObjects = []string{"product", "asset", "reference", "claim", "module"}

// ContentAuditAction is the action of a data API write of kind op
// ("insert", "upsert", "update" or "delete") on a content object: upserts
// and updates are both "_updated".
func ContentAuditAction(object, op string) string {
	switch op {
	case "insert":
		return object + "_created"
	case "delete":
		return object + "_deleted"
	default:
		return object + "_updated"
	}
}

// DataAPIOps are the kinds of data API writes.
var DataAPIOps = []string{"insert", "upsert", "update", "delete"}

// DataAPIAuditAction is the action of a data API write of kind op on a
// table that names no action of its own: "<table>.<op>".
func DataAPIAuditAction(table, op string) string { return table + "." + op }

// serverAuditActions lists the fixed server action names; with the content
// objects' actions and the data API's "<table>.<op>" they are every action
// the server records.
var serverAuditActions = func() map[string]bool {
	m := map[string]bool{}
	for _, a := range []string{
		ActionInviteCreated, ActionInviteAccepted, ActionInviteRevoked, ActionInviteResent,
		ActionMemberDeactivated, ActionMemberReactivated, ActionSessionRevoked,
		ActionAuditChainVerified, ActionAuditChainBroken,
		ActionBucketCreated, ActionBucketUpdated, ActionBucketEmptied, ActionBucketDeleted,
		ActionObjectCreated, ActionObjectUpdated, ActionObjectDeleted, ActionObjectMoved, ActionObjectCopied,
		ActionAssetCreated, ActionAssetVersionCreated, ActionAssetArchived, ActionReferenceFileAttached,
		ActionClaimReferenceLinked, ActionClaimReferenceUnlinked,
		ActionAssetSubmitted, ActionAssetApproved, ActionAssetApprovedWithChanges, ActionAssetChangesRequested,
		ActionAssetRejected, ActionAssetWithdrawn, ActionAssetExpired,
		ActionReviewWithdrawn, ActionReviewClosed, ActionStepActivated, ActionStepClaimed, ActionStepSkipped,
		ActionStepAssigned, ActionStepOverdue,
		ActionStepApproved, ActionStepApprovedWithChanges, ActionStepChangesRequested, ActionStepRejected,
		ActionSignatureFailed, ActionSigningLocked,
		ActionChangeRequestRaised, ActionChangeRequestDone, ActionChangeRequestConfirmed,
		ActionWorkflowTemplateSaved, ActionWorkflowTemplateDeleted, ActionReviewSettingsUpdated, ActionAssetExpirySet,
		ActionNotificationsRead,
		ActionAnnotationCreated, ActionAnnotationReplied, ActionAnnotationResolved, ActionAnnotationReopened,
		ActionAnnotationsCarried,
		ActionReviewRecordExported, ActionForm2253Exported,
		ActionFindingDismissed, ActionFindingReopened, ActionComplianceRuleSaved, ActionGuidelineSaved, ActionGuidelineDeleted,
		ActionComplianceChecked,
	} {
		m[a] = true
	}
	for _, o := range ContentObjects {
		for _, op := range DataAPIOps {
			m[ContentAuditAction(o, op)] = true
		}
	}
	return m
}()

// IsServerAuditAction reports whether action is one the server records:
// one of the fixed names above, a content object's "_created", "_updated"
// or "_deleted", or a data API write "<table>.<op>" (a table name of
// lower-case letters, digits and underscores, then ".insert", ".upsert",
// ".update" or ".delete"). The comparison is exact: "Asset_Approved" or
// " asset_approved" are other actions.
func IsServerAuditAction(action string) bool {
	if serverAuditActions[action] {
		return true
	}
	table, op, ok := strings.Cut(action, ".")
	if !ok || table == "" {
		return false
	}
	for _, r := range table {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	for _, o := range DataAPIOps {
		if op == o {
			return true
		}
	}
	return false
}

// AuthEventActions are the actions of the identity service's event log
// (sign-ups, sign-ins and sign-outs, factors, recovery, and the operator's
// repairs and settings): a log of its own beside the organisations' audit
// trails, written in the transaction of each event.
var AuthEventActions = []string{
	"admin_generate_link", "admin_promoted", "challenge_created", "db_migrated", "demo_data_removed",
	"demo_data_seeded", "dev_admin_forced", "factor_deleted", "factor_in_progress", "factor_verified",
	"login", "login_failed", "logout", "operator_granted", "operator_revoked", "safe_admin_created",
	"token_revoked", "user_confirmation_requested", "user_deleted", "user_invited", "user_modified",
	"user_reauthenticate_requested", "user_recovery_requested", "user_repeated_signup", "user_signedup",
	"user_updated_password", "verification_attempted", "workspace_settings_updated",
}

// ServerAuditActionNames lists, sorted, the fixed server actions and the
// content objects' actions: every action IsServerAuditAction accepts but
// the data API's "<table>.<op>".
func ServerAuditActionNames() []string {
	out := make([]string, 0, len(serverAuditActions))
	for a := range serverAuditActions {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// Audit actions of compliance checks (issue 17): a finding dismissed
// with its reason or reopened; an organisation rule saved or a built-in
// rule switched (both compliance_rule_saved); a guideline document saved
// or deleted; a version checked (meta: how many findings, carried, fixed).
const (
	ActionFindingDismissed    = "finding_dismissed"
	ActionFindingReopened     = "finding_reopened"
	ActionComplianceRuleSaved = "compliance_rule_saved"
	ActionGuidelineSaved      = "guideline_saved"
	ActionGuidelineDeleted    = "guideline_deleted"
	ActionComplianceChecked   = "compliance_checked"
)
