package service

import (
	"fairbalance"
)

// The review workflow's tables (issue 15) as the data API serves them:
// workflow_templates, review_settings, reviews, review_steps, signatures,
// change_requests and notifications. Members read their organisation's
// rows (notifications: their own only); nobody writes them here — every
// change is a review function (review.go), which checks the workflow's
// rules and appends the audit entry in the same transaction. Workflow
// templates and the approval validity are administrators' settings,
// changed through save_workflow_template, delete_workflow_template and
// set_review_settings.

// serverEnum is a column of a vocabulary only the server writes.
func serverEnum(name string, v *fairbalance.Vocabulary) ColumnSpec {
	return ColumnSpec{Name: name, Type: fairbalance.TypeText, ServerSet: true, Enum: v}
}

func stamps(cols ...ColumnSpec) []ColumnSpec {
	return append(cols,
		serverCol("created_at", fairbalance.TypeTimestamp, false),
		serverCol("updated_at", fairbalance.TypeTimestamp, false))
}

// WorkflowTemplatesTable is workflow_templates: the organisation's
// workflows, each a list of steps (role, required, order, due_days).
func WorkflowTemplatesTable() *TableSpec {
	return &TableSpec{
		Name: "workflow_templates", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("name", fairbalance.TypeText, false),
			serverCol("description", fairbalance.TypeText, false),
			serverCol("is_default", fairbalance.TypeBoolean, false),
			serverCol("steps", fairbalance.TypeJSON, false),
			serverCol("created_by", fairbalance.TypeUUID, false),
		),
		Relations: []RelationSpec{{Name: "reviews", Table: "reviews", LocalColumn: "id", ForeignColumn: "template_id", Many: true}},
		Rows:      orgScoped("org_id"),
	}
}

// ReviewSettingsTable is review_settings: the organisation's approval
// validity; no row means the default of 12 months.
func ReviewSettingsTable() *TableSpec {
	return &TableSpec{
		Name: "review_settings", Key: []string{"org_id"},
		Columns: []ColumnSpec{
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("approval_validity_months", fairbalance.TypeInteger, false),
			serverCol("updated_by", fairbalance.TypeUUID, false),
			serverCol("updated_at", fairbalance.TypeTimestamp, false),
		},
		Rows: orgScoped("org_id"),
	}
}

// ReviewsTable is reviews: one row per round of review of a version.
func ReviewsTable() *TableSpec {
	return &TableSpec{
		Name: "reviews", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("version_id", fairbalance.TypeUUID, false),
			serverCol("round", fairbalance.TypeInteger, false),
			serverEnum("status", &fairbalance.ReviewStatusVocabulary),
			serverCol("template_id", fairbalance.TypeUUID, true),
			serverCol("template_name", fairbalance.TypeText, false),
			serverCol("submitted_by", fairbalance.TypeUUID, false),
			serverCol("submitted_at", fairbalance.TypeTimestamp, false),
			serverCol("due_at", fairbalance.TypeTimestamp, true),
			serverCol("closed_at", fairbalance.TypeTimestamp, true),
		),
		Relations: []RelationSpec{
			{Name: "assets", Table: "assets", LocalColumn: "asset_id", ForeignColumn: "id"},
			{Name: "asset_versions", Table: "asset_versions", LocalColumn: "version_id", ForeignColumn: "id"},
			{Name: "submitter", Table: "profiles_v2", LocalColumn: "submitted_by", ForeignColumn: "id"},
			{Name: "review_steps", Table: "review_steps", LocalColumn: "id", ForeignColumn: "review_id", Many: true},
			{Name: "signatures", Table: "signatures", LocalColumn: "id", ForeignColumn: "review_id", Many: true},
			{Name: "change_requests", Table: "change_requests", LocalColumn: "id", ForeignColumn: "review_id", Many: true},
		},
		Rows: orgScoped("org_id"),
	}
}

// ReviewStepsTable is review_steps: the steps of each round ("step_order"
// is the template step's order).
func ReviewStepsTable() *TableSpec {
	return &TableSpec{
		Name: "review_steps", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("review_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("position", fairbalance.TypeInteger, false),
			serverEnum("role", &fairbalance.ReviewerRoleVocabulary),
			serverCol("required", fairbalance.TypeBoolean, false),
			serverCol("step_order", fairbalance.TypeInteger, false),
			serverCol("due_days", fairbalance.TypeInteger, false),
			serverEnum("status", &fairbalance.StepStatusVocabulary),
			serverCol("activated_at", fairbalance.TypeTimestamp, true),
			serverCol("due_at", fairbalance.TypeTimestamp, true),
			serverCol("claimed_by", fairbalance.TypeUUID, true),
			serverCol("claimed_at", fairbalance.TypeTimestamp, true),
			serverCol("decided_by", fairbalance.TypeUUID, true),
			serverCol("decided_at", fairbalance.TypeTimestamp, true),
			serverCol("comment", fairbalance.TypeText, false),
			serverCol("signature_id", fairbalance.TypeUUID, true),
			serverCol("overdue_at", fairbalance.TypeTimestamp, true),
		),
		Relations: []RelationSpec{
			{Name: "reviews", Table: "reviews", LocalColumn: "review_id", ForeignColumn: "id"},
			{Name: "assets", Table: "assets", LocalColumn: "asset_id", ForeignColumn: "id"},
			{Name: "signatures", Table: "signatures", LocalColumn: "signature_id", ForeignColumn: "id"},
			{Name: "claimer", Table: "profiles_v2", LocalColumn: "claimed_by", ForeignColumn: "id"},
			{Name: "decider", Table: "profiles_v2", LocalColumn: "decided_by", ForeignColumn: "id"},
			{Name: "change_requests", Table: "change_requests", LocalColumn: "id", ForeignColumn: "step_id", Many: true},
		},
		Rows: orgScoped("org_id"),
	}
}

// SignaturesTable is signatures: the electronic signatures of decided
// steps, sealed (see fairbalance.Signature); never changed.
func SignaturesTable() *TableSpec {
	return &TableSpec{
		Name: "signatures", Key: []string{"id"},
		Columns: []ColumnSpec{
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("review_id", fairbalance.TypeUUID, false),
			serverCol("step_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("version_id", fairbalance.TypeUUID, false),
			serverCol("rendition_sha256", fairbalance.TypeText, false),
			serverCol("signer_id", fairbalance.TypeUUID, false),
			serverCol("signer_name", fairbalance.TypeText, false),
			serverCol("signed_at", fairbalance.TypeTimestamp, false),
			serverEnum("meaning", &fairbalance.SignatureMeaningVocabulary),
			serverEnum("decision", &fairbalance.DecisionVocabulary),
			serverCol("seal", fairbalance.TypeText, false),
			serverCol("key_id", fairbalance.TypeText, false),
			serverCol("sig", fairbalance.TypeText, false),
			serverCol("created_at", fairbalance.TypeTimestamp, false),
			serverCol("client_ip", fairbalance.TypeText, false),
			serverCol("user_agent", fairbalance.TypeText, false),
		},
		Relations: []RelationSpec{
			{Name: "review_steps", Table: "review_steps", LocalColumn: "step_id", ForeignColumn: "id"},
			{Name: "reviews", Table: "reviews", LocalColumn: "review_id", ForeignColumn: "id"},
			{Name: "signer", Table: "profiles_v2", LocalColumn: "signer_id", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
	}
}

// ChangeRequestsTable is change_requests: the changes a step asked for,
// the next round's checklist.
func ChangeRequestsTable() *TableSpec {
	return &TableSpec{
		Name: "change_requests", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("review_id", fairbalance.TypeUUID, false),
			serverCol("step_id", fairbalance.TypeUUID, false),
			serverEnum("role", &fairbalance.ReviewerRoleVocabulary),
			serverCol("raised_by", fairbalance.TypeUUID, false),
			serverCol("text", fairbalance.TypeText, false),
			serverEnum("status", &fairbalance.ChangeRequestStatusVocabulary),
			serverCol("done_by", fairbalance.TypeUUID, true),
			serverCol("done_at", fairbalance.TypeTimestamp, true),
			serverCol("done_note", fairbalance.TypeText, false),
			serverCol("done_version_id", fairbalance.TypeUUID, true),
			serverCol("confirmed_by", fairbalance.TypeUUID, true),
			serverCol("confirmed_at", fairbalance.TypeTimestamp, true),
			serverCol("confirmed_review_id", fairbalance.TypeUUID, true),
			serverCol("annotation_id", fairbalance.TypeUUID, true),
			serverCol("thread_id", fairbalance.TypeUUID, true),
		),
		Relations: []RelationSpec{
			{Name: "reviews", Table: "reviews", LocalColumn: "review_id", ForeignColumn: "id"},
			{Name: "review_steps", Table: "review_steps", LocalColumn: "step_id", ForeignColumn: "id"},
			{Name: "raiser", Table: "profiles_v2", LocalColumn: "raised_by", ForeignColumn: "id"},
			{Name: "annotations", Table: "annotations", LocalColumn: "annotation_id", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
	}
}

// NotificationsTable is notifications: each member reads their own.
func NotificationsTable() *TableSpec {
	return &TableSpec{
		Name: "notifications", Key: []string{"id"},
		Columns: []ColumnSpec{
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("user_id", fairbalance.TypeUUID, false),
			serverEnum("kind", &fairbalance.NotificationKindVocabulary),
			serverCol("title", fairbalance.TypeText, false),
			serverCol("body", fairbalance.TypeText, false),
			serverCol("asset_id", fairbalance.TypeUUID, true),
			serverCol("review_id", fairbalance.TypeUUID, true),
			serverCol("step_id", fairbalance.TypeUUID, true),
			serverCol("dedupe_key", fairbalance.TypeText, true),
			serverCol("read_at", fairbalance.TypeTimestamp, true),
			serverCol("emailed_at", fairbalance.TypeTimestamp, true),
			serverCol("created_at", fairbalance.TypeTimestamp, false),
		},
		Relations: []RelationSpec{
			{Name: "assets", Table: "assets", LocalColumn: "asset_id", ForeignColumn: "id"},
			{Name: "reviews", Table: "reviews", LocalColumn: "review_id", ForeignColumn: "id"},
			{Name: "review_steps", Table: "review_steps", LocalColumn: "step_id", ForeignColumn: "id"},
		},
		Rows: func(c fairbalance.Caller) (*fairbalance.Cond, bool) {
			if !c.InOrg() {
				return nothing, !c.Anon()
			}
			return and(condEq("org_id", c.OrgID), condEq("user_id", c.UserID)), true
		},
	}
}

// reviewTables are the review workflow's tables.
func reviewTables() []*TableSpec {
	return []*TableSpec{WorkflowTemplatesTable(), ReviewSettingsTable(), ReviewsTable(), ReviewStepsTable(), SignaturesTable(), ChangeRequestsTable(), NotificationsTable(),
		AnnotationsTable(), AnnotationRepliesTable()}
}

// reviewAndComplianceTables are the review workflow's tables and the
// compliance checks'.
func reviewAndComplianceTables() []*TableSpec {
	return append(reviewTables(), complianceTables()...)
}

// AnnotationsTable is annotations: each version's rows of the comment
// threads anchored in it (issue 16). Written only by the annotation
// functions (annotations.go).
func AnnotationsTable() *TableSpec {
	return &TableSpec{
		Name: "annotations", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("version_id", fairbalance.TypeUUID, false),
			serverCol("thread_id", fairbalance.TypeUUID, false),
			serverEnum("category", &fairbalance.AnnotationCategoryVocabulary),
			serverCol("body", fairbalance.TypeText, false),
			serverEnum("state", &fairbalance.AnnotationStateVocabulary),
			serverEnum("anchor_status", &fairbalance.AnchorStatusVocabulary),
			serverCol("target", fairbalance.TypeJSON, false),
			serverCol("sort_page", fairbalance.TypeInteger, false),
			serverCol("sort_pos", fairbalance.TypeInteger, false),
			serverCol("reference_id", fairbalance.TypeUUID, true),
			serverCol("reference_page", fairbalance.TypeInteger, true),
			serverCol("reference_quote", fairbalance.TypeText, false),
			serverCol("created_by", fairbalance.TypeUUID, false),
			serverCol("resolved_by", fairbalance.TypeUUID, true),
			serverCol("resolved_at", fairbalance.TypeTimestamp, true),
			serverCol("carried_from", fairbalance.TypeUUID, true),
		),
		Relations: []RelationSpec{
			{Name: "assets", Table: "assets", LocalColumn: "asset_id", ForeignColumn: "id"},
			{Name: "asset_versions", Table: "asset_versions", LocalColumn: "version_id", ForeignColumn: "id"},
			{Name: "author", Table: "profiles_v2", LocalColumn: "created_by", ForeignColumn: "id"},
			{Name: "content_references", Table: "content_references", LocalColumn: "reference_id", ForeignColumn: "id"},
			{Name: "annotation_replies", Table: "annotation_replies", LocalColumn: "thread_id", ForeignColumn: "thread_id", Many: true},
		},
		Rows: orgScoped("org_id"),
	}
}

// AnnotationRepliesTable is annotation_replies: the replies of each
// thread, listed on every version's row of it.
func AnnotationRepliesTable() *TableSpec {
	return &TableSpec{
		Name: "annotation_replies", Key: []string{"id"},
		Columns: []ColumnSpec{
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("thread_id", fairbalance.TypeUUID, false),
			serverCol("annotation_id", fairbalance.TypeUUID, false),
			serverCol("body", fairbalance.TypeText, false),
			serverCol("created_by", fairbalance.TypeUUID, false),
			serverCol("created_at", fairbalance.TypeTimestamp, false),
		},
		Relations: []RelationSpec{
			{Name: "annotations", Table: "annotations", LocalColumn: "annotation_id", ForeignColumn: "id"},
			{Name: "author", Table: "profiles_v2", LocalColumn: "created_by", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
	}
}
