package service

import "fairbalance"

// The compliance tables (issue 17): read through /rest/v1 by the members
// of the organisation; written only by the compliance functions
// (compliance.go).

// complianceTables are the compliance checks' tables.
func complianceTables() []*TableSpec {
	return []*TableSpec{ComplianceRulesTable(), ComplianceRuleVersionsTable(), ComplianceRuleSettingsTable(),
		GuidelineDocumentsTable(), ComplianceFindingsTable(), ComplianceChecksTable()}
}

func nullableEnum(name string, v *fairbalance.Vocabulary) ColumnSpec {
	c := serverEnum(name, v)
	c.Nullable = true
	return c
}

// ComplianceRulesTable is compliance_rules: the organisation's own rules,
// phrase lists or RE2 patterns.
func ComplianceRulesTable() *TableSpec {
	return &TableSpec{
		Name: "compliance_rules", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("code", fairbalance.TypeText, false),
			serverCol("title", fairbalance.TypeText, false),
			serverEnum("kind", &fairbalance.RuleKindVocabulary),
			serverCol("phrases", fairbalance.TypeJSON, false),
			serverCol("pattern", fairbalance.TypeText, false),
			serverEnum("severity", &fairbalance.FindingSeverityVocabulary),
			serverCol("message", fairbalance.TypeText, false),
			serverCol("guidance", fairbalance.TypeText, false),
			serverCol("scope", fairbalance.TypeJSON, false),
			serverCol("enabled", fairbalance.TypeBoolean, false),
			serverCol("version", fairbalance.TypeInteger, false),
			serverCol("created_by", fairbalance.TypeUUID, false),
		),
		Relations: []RelationSpec{
			{Name: "compliance_rule_versions", Table: "compliance_rule_versions", LocalColumn: "id", ForeignColumn: "rule_id", Many: true},
		},
		Rows: orgScoped("org_id"),
	}
}

// ComplianceRuleVersionsTable is compliance_rule_versions: every saved
// version of an organisation rule, as JSON.
func ComplianceRuleVersionsTable() *TableSpec {
	return &TableSpec{
		Name: "compliance_rule_versions", Key: []string{"rule_id", "version"},
		Columns: []ColumnSpec{
			serverCol("rule_id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("version", fairbalance.TypeInteger, false),
			serverCol("rule", fairbalance.TypeJSON, false),
			serverCol("created_by", fairbalance.TypeUUID, false),
			serverCol("created_at", fairbalance.TypeTimestamp, false),
		},
		Relations: []RelationSpec{
			{Name: "compliance_rules", Table: "compliance_rules", LocalColumn: "rule_id", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
	}
}

// ComplianceRuleSettingsTable is compliance_rule_settings: the
// organisation's switch and severity of each built-in rule it changed.
func ComplianceRuleSettingsTable() *TableSpec {
	return &TableSpec{
		Name: "compliance_rule_settings", Key: []string{"org_id", "code"},
		Columns: []ColumnSpec{
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("code", fairbalance.TypeText, false),
			serverCol("enabled", fairbalance.TypeBoolean, false),
			nullableEnum("severity", &fairbalance.FindingSeverityVocabulary),
			serverCol("updated_by", fairbalance.TypeUUID, false),
			serverCol("updated_at", fairbalance.TypeTimestamp, false),
		},
		Rows: orgScoped("org_id"),
	}
}

// GuidelineDocumentsTable is guideline_documents: the guidance the
// organisation works to, as markdown.
func GuidelineDocumentsTable() *TableSpec {
	return &TableSpec{
		Name: "guideline_documents", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("title", fairbalance.TypeText, false),
			serverEnum("source", &fairbalance.GuidelineSourceVocabulary),
			serverCol("body", fairbalance.TypeText, false),
			serverCol("created_by", fairbalance.TypeUUID, false),
		),
		Relations: []RelationSpec{
			{Name: "author", Table: "profiles_v2", LocalColumn: "created_by", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
	}
}

// ComplianceFindingsTable is compliance_findings: each version's findings.
func ComplianceFindingsTable() *TableSpec {
	return &TableSpec{
		Name: "compliance_findings", Key: []string{"id"},
		Columns: stamps(
			serverCol("id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("version_id", fairbalance.TypeUUID, false),
			serverCol("product_id", fairbalance.TypeUUID, true),
			serverCol("asset_type", fairbalance.TypeText, false),
			serverCol("rule", fairbalance.TypeText, false),
			serverCol("rule_version", fairbalance.TypeInteger, false),
			serverEnum("severity", &fairbalance.FindingSeverityVocabulary),
			serverEnum("state", &fairbalance.FindingStateVocabulary),
			serverCol("start_pos", fairbalance.TypeInteger, false),
			serverCol("end_pos", fairbalance.TypeInteger, false),
			serverCol("quote", fairbalance.TypeText, false),
			serverCol("message", fairbalance.TypeText, false),
			serverCol("guidance", fairbalance.TypeText, false),
			serverCol("target", fairbalance.TypeJSON, false),
			serverCol("sort_page", fairbalance.TypeInteger, false),
			serverCol("sort_pos", fairbalance.TypeInteger, false),
			serverCol("first_version_id", fairbalance.TypeUUID, false),
			serverCol("fixed_in_version_id", fairbalance.TypeUUID, true),
			serverCol("dismissed_by", fairbalance.TypeUUID, true),
			serverCol("dismissed_at", fairbalance.TypeTimestamp, true),
			serverCol("dismiss_reason", fairbalance.TypeText, true),
		),
		Relations: []RelationSpec{
			{Name: "assets", Table: "assets", LocalColumn: "asset_id", ForeignColumn: "id"},
			{Name: "asset_versions", Table: "asset_versions", LocalColumn: "version_id", ForeignColumn: "id"},
			{Name: "dismisser", Table: "profiles_v2", LocalColumn: "dismissed_by", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
	}
}

// ComplianceChecksTable is compliance_checks: each version's check,
// pending (checked_at null) while a background job runs it.
func ComplianceChecksTable() *TableSpec {
	return &TableSpec{
		Name: "compliance_checks", Key: []string{"version_id"},
		Columns: []ColumnSpec{
			serverCol("version_id", fairbalance.TypeUUID, false),
			serverCol("org_id", fairbalance.TypeUUID, false),
			serverCol("asset_id", fairbalance.TypeUUID, false),
			serverCol("prev_version_id", fairbalance.TypeUUID, true),
			serverCol("created_by", fairbalance.TypeUUID, false),
			serverCol("created_at", fairbalance.TypeTimestamp, false),
			serverCol("checked_at", fairbalance.TypeTimestamp, true),
			serverCol("findings", fairbalance.TypeInteger, false),
		},
		Relations: []RelationSpec{
			{Name: "asset_versions", Table: "asset_versions", LocalColumn: "version_id", ForeignColumn: "id"},
		},
		Rows: orgScoped("org_id"),
	}
}
