package service

// The registry's parts, for the external tests that compare them with the
// schema and the generated types; the program builds them only through
// NewRegistry.

// ContentTables returns the content model's tables.
func ContentTables() []*TableSpec { return contentTables() }

// RecordTables returns the organisation records' tables (avatars unsniffed).
func RecordTables() []*TableSpec { return recordTables(nil) }

// ReviewTables returns the review workflow's tables.
func ReviewTables() []*TableSpec { return reviewTables() }

// ComplianceTables returns the compliance checks' tables.
func ComplianceTables() []*TableSpec { return complianceTables() }
