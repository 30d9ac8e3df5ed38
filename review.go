package fairbalance

import (
	"slices"
	"strconv"
	"time"
)

// The MLR review workflow (product design, section 4): an asset's version
// is submitted for review; a Review is one round on one version; the round
// has ReviewSteps, one per reviewer role of the workflow template; each
// step is decided by a reviewer of its role with an electronic Signature;
// changes_requested decisions carry ChangeRequests that the next round
// checks off. Every transition below is data, asked through CanTransition,
// and the round's outcome is a pure function of its steps (RollUp).

// ReviewerRole is the member role that decides a review step.
type ReviewerRole string

// The reviewer roles.
const (
	ReviewerMedical    ReviewerRole = RoleReviewerMedical
	ReviewerLegal      ReviewerRole = RoleReviewerLegal
	ReviewerRegulatory ReviewerRole = RoleReviewerRegulatory
)

// AllReviewerRoles lists every ReviewerRole.
var AllReviewerRoles = []ReviewerRole{ReviewerMedical, ReviewerLegal, ReviewerRegulatory}

// ReviewerRoleVocabulary is AllReviewerRoles as clients know it.
var ReviewerRoleVocabulary = NewVocabulary("reviewer_role", AllReviewerRoles)

// Valid reports whether r is one of AllReviewerRoles.
func (r ReviewerRole) Valid() bool { return slices.Contains(AllReviewerRoles, r) }

// ReviewStatus is where a review round stands.
type ReviewStatus string

// The review statuses.
const (
	// ReviewOpen: the round is under way; its version is immutable.
	ReviewOpen ReviewStatus = "open"
	// ReviewApproved: every required step approved (with or without changes).
	ReviewApproved ReviewStatus = "approved"
	// ReviewChangesRequested: the round closed asking for changes.
	ReviewChangesRequested ReviewStatus = "changes_requested"
	// ReviewRejected: a step rejected the asset.
	ReviewRejected ReviewStatus = "rejected"
	// ReviewWithdrawn: the author withdrew the round before any decision.
	ReviewWithdrawn ReviewStatus = "withdrawn"
)

// AllReviewStatuses lists every ReviewStatus.
var AllReviewStatuses = []ReviewStatus{ReviewOpen, ReviewApproved, ReviewChangesRequested, ReviewRejected, ReviewWithdrawn}

// ReviewStatusVocabulary is AllReviewStatuses as clients know it.
var ReviewStatusVocabulary = NewVocabulary("review_status", AllReviewStatuses)

// ReviewTransitions: an open round closes once, with its outcome, or is
// withdrawn; a closed round never changes.
var ReviewTransitions = Transitions[ReviewStatus]{
	ReviewOpen:             {ReviewApproved, ReviewChangesRequested, ReviewRejected, ReviewWithdrawn},
	ReviewApproved:         nil,
	ReviewChangesRequested: nil,
	ReviewRejected:         nil,
	ReviewWithdrawn:        nil,
}

// Valid reports whether s is one of AllReviewStatuses.
func (s ReviewStatus) Valid() bool { return slices.Contains(AllReviewStatuses, s) }

// CanTransition reports whether a round in status s may move to status to.
func (s ReviewStatus) CanTransition(to ReviewStatus) bool { return ReviewTransitions.Allows(s, to) }

// AssetStatus is the asset status a round's outcome gives its asset
// (open: in_review, withdrawn: draft).
func (s ReviewStatus) AssetStatus() AssetStatus {
	switch s {
	case ReviewOpen:
		return AssetInReview
	case ReviewApproved:
		return AssetApproved
	case ReviewChangesRequested:
		return AssetChangesRequested
	case ReviewRejected:
		return AssetRejected
	}
	return AssetDraft
}

// StepStatus is where a review step stands: waiting for an earlier order,
// active (to be decided), one of the four decisions, or skipped (the round
// closed without it).
type StepStatus string

// The step statuses.
const (
	StepWaiting             StepStatus = "waiting"
	StepActive              StepStatus = "active"
	StepApproved            StepStatus = "approved"
	StepApprovedWithChanges StepStatus = "approved_with_changes"
	StepChangesRequested    StepStatus = "changes_requested"
	StepRejected            StepStatus = "rejected"
	StepSkipped             StepStatus = "skipped"
)

// AllStepStatuses lists every StepStatus.
var AllStepStatuses = []StepStatus{StepWaiting, StepActive, StepApproved, StepApprovedWithChanges, StepChangesRequested, StepRejected, StepSkipped}

// StepStatusVocabulary is AllStepStatuses as clients know it.
var StepStatusVocabulary = NewVocabulary("step_status", AllStepStatuses)

// StepTransitions: a waiting step becomes active when every required step
// of the lower orders approved; an active step is decided once; a step the
// round closes without is skipped. Decisions and skipped are final.
var StepTransitions = Transitions[StepStatus]{
	StepWaiting:             {StepActive, StepSkipped},
	StepActive:              {StepApproved, StepApprovedWithChanges, StepChangesRequested, StepRejected, StepSkipped},
	StepApproved:            nil,
	StepApprovedWithChanges: nil,
	StepChangesRequested:    nil,
	StepRejected:            nil,
	StepSkipped:             nil,
}

// Valid reports whether s is one of AllStepStatuses.
func (s StepStatus) Valid() bool { return slices.Contains(AllStepStatuses, s) }

// CanTransition reports whether a step in status s may move to status to.
func (s StepStatus) CanTransition(to StepStatus) bool { return StepTransitions.Allows(s, to) }

// Decided reports whether s is one of the four decisions.
func (s StepStatus) Decided() bool {
	switch s {
	case StepApproved, StepApprovedWithChanges, StepChangesRequested, StepRejected:
		return true
	}
	return false
}

// Approves reports whether s is an approval, with or without changes.
func (s StepStatus) Approves() bool { return s == StepApproved || s == StepApprovedWithChanges }

// Decision is what a reviewer decides on a step.
type Decision string

// The decisions.
const (
	DecisionApproved            Decision = "approved"
	DecisionApprovedWithChanges Decision = "approved_with_changes"
	DecisionChangesRequested    Decision = "changes_requested"
	DecisionRejected            Decision = "rejected"
)

// AllDecisions lists every Decision.
var AllDecisions = []Decision{DecisionApproved, DecisionApprovedWithChanges, DecisionChangesRequested, DecisionRejected}

// DecisionVocabulary is AllDecisions as clients know it.
var DecisionVocabulary = NewVocabulary("decision", AllDecisions)

// Valid reports whether d is one of AllDecisions.
func (d Decision) Valid() bool { return slices.Contains(AllDecisions, d) }

// StepStatus is the status a step takes when decided d.
func (d Decision) StepStatus() StepStatus { return StepStatus(d) }

// Meaning is the meaning of the signature that records d (21 CFR
// 11.50(a)(3)): approval for both approvals, review for changes
// requested, rejection for a rejection.
func (d Decision) Meaning() SignatureMeaning {
	switch d {
	case DecisionApproved, DecisionApprovedWithChanges:
		return MeaningApproval
	case DecisionRejected:
		return MeaningRejection
	}
	return MeaningReview
}

// SignatureMeaning is what an electronic signature means.
type SignatureMeaning string

// The signature meanings.
const (
	MeaningApproval  SignatureMeaning = "approval"
	MeaningReview    SignatureMeaning = "review"
	MeaningRejection SignatureMeaning = "rejection"
)

// AllSignatureMeanings lists every SignatureMeaning.
var AllSignatureMeanings = []SignatureMeaning{MeaningApproval, MeaningReview, MeaningRejection}

// SignatureMeaningVocabulary is AllSignatureMeanings as clients know it.
var SignatureMeaningVocabulary = NewVocabulary("signature_meaning", AllSignatureMeanings)

// Valid reports whether m is one of AllSignatureMeanings.
func (m SignatureMeaning) Valid() bool { return slices.Contains(AllSignatureMeanings, m) }

// ChangeRequestStatus is where a requested change stands: open (raised),
// done (the author says it is made, in a new version) and confirmed (a
// reviewer of the role that raised it agrees, on the new version).
type ChangeRequestStatus string

// The change request statuses.
const (
	ChangeOpen      ChangeRequestStatus = "open"
	ChangeDone      ChangeRequestStatus = "done"
	ChangeConfirmed ChangeRequestStatus = "confirmed"
)

// AllChangeRequestStatuses lists every ChangeRequestStatus.
var AllChangeRequestStatuses = []ChangeRequestStatus{ChangeOpen, ChangeDone, ChangeConfirmed}

// ChangeRequestStatusVocabulary is AllChangeRequestStatuses as clients know it.
var ChangeRequestStatusVocabulary = NewVocabulary("change_request_status", AllChangeRequestStatuses)

// ChangeRequestTransitions: the author marks an open request done; a
// reviewer of its role confirms a done one. Confirmed is final.
var ChangeRequestTransitions = Transitions[ChangeRequestStatus]{
	ChangeOpen:      {ChangeDone},
	ChangeDone:      {ChangeConfirmed},
	ChangeConfirmed: nil,
}

// Valid reports whether s is one of AllChangeRequestStatuses.
func (s ChangeRequestStatus) Valid() bool { return slices.Contains(AllChangeRequestStatuses, s) }

// CanTransition reports whether a change request in status s may move to status to.
func (s ChangeRequestStatus) CanTransition(to ChangeRequestStatus) bool {
	return ChangeRequestTransitions.Allows(s, to)
}

// NotificationKind is what an in-app notification is about.
type NotificationKind string

// The notification kinds.
const (
	// NotifyStepActivated: a step of the recipient's role became active.
	NotifyStepActivated NotificationKind = "step_activated"
	// NotifyStepAssigned: a step was assigned to the recipient.
	NotifyStepAssigned NotificationKind = "step_assigned"
	// NotifyDecision: a step of a round on the recipient's asset was decided.
	NotifyDecision NotificationKind = "decision"
	// NotifyRoundClosed: a round on the recipient's asset closed.
	NotifyRoundClosed NotificationKind = "round_closed"
	// NotifyDueSoon: a step of the recipient is due tomorrow.
	NotifyDueSoon NotificationKind = "due_soon"
	// NotifyOverdue: a step of the recipient (or of their submission) is overdue.
	NotifyOverdue NotificationKind = "overdue"
	// NotifyExpirySoon: an approved asset of the recipient expires within 30 days.
	NotifyExpirySoon NotificationKind = "expiry_soon"
	// NotifyExpired: an approved asset of the recipient expired.
	NotifyExpired NotificationKind = "expired"
	// NotifySigningLocked: a member's signing was locked after failed attempts.
	NotifySigningLocked NotificationKind = "signing_locked"
	// NotifyAssetWithdrawn: an approved asset of the recipient was withdrawn.
	NotifyAssetWithdrawn NotificationKind = "asset_withdrawn"
	// NotifyMentioned: the recipient was mentioned (@Full Name) in an
	// annotation or a reply.
	NotifyMentioned NotificationKind = "mentioned"
)

// AllNotificationKinds lists every NotificationKind.
var AllNotificationKinds = []NotificationKind{NotifyStepActivated, NotifyStepAssigned, NotifyDecision, NotifyRoundClosed,
	NotifyDueSoon, NotifyOverdue, NotifyExpirySoon, NotifyExpired, NotifySigningLocked, NotifyAssetWithdrawn, NotifyMentioned}

// NotificationKindVocabulary is AllNotificationKinds as clients know it.
var NotificationKindVocabulary = NewVocabulary("notification_kind", AllNotificationKinds)

// Valid reports whether k is one of AllNotificationKinds.
func (k NotificationKind) Valid() bool { return slices.Contains(AllNotificationKinds, k) }

// WorkflowStep is one step of a workflow template: who decides it,
// whether the round needs it, when it starts (steps of equal Order run in
// parallel; a higher Order starts when every required step of the lower
// ones approved) and how many business days it has.
type WorkflowStep struct {
	Role     ReviewerRole `json:"role"`
	Required bool         `json:"required"`
	Order    int          `json:"order"`
	DueDays  int          `json:"due_days"`
}

// Limits of a workflow template.
const (
	MaxWorkflowSteps = 20
	MaxStepOrder     = 99
	MaxStepDueDays   = 60
)

// WorkflowTemplate is an organisation's workflow (table
// workflow_templates): the steps each round of a submission gets.
type WorkflowTemplate struct {
	ID          string         `json:"id"`
	OrgID       string         `json:"org_id"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	IsDefault   bool           `json:"is_default"`
	Steps       []WorkflowStep `json:"steps"`
	CreatedBy   string         `json:"created_by"`
	CreatedAt   time.Time      `json:"created_at"`
	UpdatedAt   time.Time      `json:"updated_at"`
}

// DefaultWorkflowName names the workflow that ships.
const DefaultWorkflowName = "Standard MLR review"

// DefaultWorkflowSteps is the workflow that ships, used when a submission
// names no template and the organisation marked none default: medical,
// legal and regulatory in parallel, all required, 5 business days each.
func DefaultWorkflowSteps() []WorkflowStep {
	return []WorkflowStep{
		{Role: ReviewerMedical, Required: true, Order: 1, DueDays: 5},
		{Role: ReviewerLegal, Required: true, Order: 1, DueDays: 5},
		{Role: ReviewerRegulatory, Required: true, Order: 1, DueDays: 5},
	}
}

// WorkflowProblems says what is wrong with a template's steps, one
// message per problem ("" index: the list as a whole); nil when nothing is.
func WorkflowProblems(steps []WorkflowStep) []string {
	var out []string
	if len(steps) == 0 || len(steps) > MaxWorkflowSteps {
		out = append(out, "A workflow has 1 to 20 steps.")
	}
	required := false
	for i, s := range steps {
		n := i + 1
		if !s.Role.Valid() {
			out = append(out, "Step "+strconv.Itoa(n)+": "+ReviewerRoleVocabulary.Refusal("the role"))
		}
		if s.Order < 1 || s.Order > MaxStepOrder {
			out = append(out, "Step "+strconv.Itoa(n)+": the order must be 1 to 99.")
		}
		if s.DueDays < 1 || s.DueDays > MaxStepDueDays {
			out = append(out, "Step "+strconv.Itoa(n)+": the due days must be 1 to 60 business days.")
		}
		required = required || s.Required
	}
	if len(steps) > 0 && !required {
		out = append(out, "A workflow needs at least one required step.")
	}
	return out
}

// Review is one round of review of one version of an asset (table
// reviews). DueAt is the earliest due time of its active steps (nil once
// closed); it orders the Review Center.
type Review struct {
	ID           string       `json:"id"`
	OrgID        string       `json:"org_id"`
	AssetID      string       `json:"asset_id"`
	VersionID    string       `json:"version_id"`
	Round        int          `json:"round"`
	Status       ReviewStatus `json:"status"`
	TemplateID   *string      `json:"template_id"`
	TemplateName string       `json:"template_name"`
	SubmittedBy  string       `json:"submitted_by"`
	SubmittedAt  time.Time    `json:"submitted_at"`
	DueAt        *time.Time   `json:"due_at"`
	ClosedAt     *time.Time   `json:"closed_at"`
	CreatedAt    time.Time    `json:"created_at"`
	UpdatedAt    time.Time    `json:"updated_at"`
}

// ReviewStep is one step of a round (table review_steps): the template's
// step, as it stood at submission, and how it was decided.
type ReviewStep struct {
	ID       string       `json:"id"`
	OrgID    string       `json:"org_id"`
	ReviewID string       `json:"review_id"`
	AssetID  string       `json:"asset_id"`
	Position int          `json:"position"`
	Role     ReviewerRole `json:"role"`
	Required bool         `json:"required"`
	// StepOrder is the template step's Order ("order" is a reserved word
	// of the data API's query string).
	StepOrder   int        `json:"step_order"`
	DueDays     int        `json:"due_days"`
	Status      StepStatus `json:"status"`
	ActivatedAt *time.Time `json:"activated_at"`
	DueAt       *time.Time `json:"due_at"`
	ClaimedBy   *string    `json:"claimed_by"`
	ClaimedAt   *time.Time `json:"claimed_at"`
	DecidedBy   *string    `json:"decided_by"`
	DecidedAt   *time.Time `json:"decided_at"`
	Comment     string     `json:"comment"`
	SignatureID *string    `json:"signature_id"`
	// OverdueAt is when the overdue sweep marked the active step past its
	// due time (nil: not marked); it is set once.
	OverdueAt *time.Time `json:"overdue_at"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
}

// ChangeRequest is a change a step asked for (table change_requests); it
// is the next round's checklist.
type ChangeRequest struct {
	ID       string              `json:"id"`
	OrgID    string              `json:"org_id"`
	AssetID  string              `json:"asset_id"`
	ReviewID string              `json:"review_id"`
	StepID   string              `json:"step_id"`
	Role     ReviewerRole        `json:"role"`
	RaisedBy string              `json:"raised_by"`
	Text     string              `json:"text"`
	Status   ChangeRequestStatus `json:"status"`
	DoneBy   *string             `json:"done_by"`
	DoneAt   *time.Time          `json:"done_at"`
	DoneNote string              `json:"done_note"`
	// DoneVersionID is the asset's current version when it was marked done.
	DoneVersionID *string    `json:"done_version_id"`
	ConfirmedBy   *string    `json:"confirmed_by"`
	ConfirmedAt   *time.Time `json:"confirmed_at"`
	// ConfirmedReviewID is the round in which it was confirmed.
	ConfirmedReviewID *string `json:"confirmed_review_id"`
	// AnnotationID is the annotation the request points at, if any, and
	// ThreadID its thread (which continues on later versions).
	AnnotationID *string   `json:"annotation_id"`
	ThreadID     *string   `json:"thread_id"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// Notification is an in-app notice to one member (table notifications).
// DedupeKey, when set, is unique per recipient, so that a reminder sent by
// a job that runs again is not sent twice; EmailedAt is when the outbox
// took its e-mail (nil: not yet, or never).
type Notification struct {
	ID        string           `json:"id"`
	OrgID     string           `json:"org_id"`
	UserID    string           `json:"user_id"`
	Kind      NotificationKind `json:"kind"`
	Title     string           `json:"title"`
	Body      string           `json:"body"`
	AssetID   *string          `json:"asset_id"`
	ReviewID  *string          `json:"review_id"`
	StepID    *string          `json:"step_id"`
	DedupeKey *string          `json:"dedupe_key"`
	ReadAt    *time.Time       `json:"read_at"`
	EmailedAt *time.Time       `json:"emailed_at"`
	CreatedAt time.Time        `json:"created_at"`
}

// ReviewSettings are an organisation's review settings (table
// review_settings); an organisation without a row has the defaults.
type ReviewSettings struct {
	OrgID string `json:"org_id"`
	// ApprovalValidityMonths is how long an approval lasts.
	ApprovalValidityMonths int       `json:"approval_validity_months"`
	UpdatedBy              string    `json:"updated_by"`
	UpdatedAt              time.Time `json:"updated_at"`
}

// Approval validity bounds, in months.
const (
	DefaultApprovalValidityMonths = 12
	MaxApprovalValidityMonths     = 60
)

// Signing lockout: this many failed signing attempts in a row lock a
// member's signing for SigningLockout.
const (
	SigningAttemptsBeforeLock = 5
	SigningLockout            = 15 * time.Minute
)
