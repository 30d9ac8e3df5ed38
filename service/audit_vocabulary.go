package service

import (
	"slices"

	"fairbalance"
)

// AuditVocabulary lists, sorted and once each, every action the server
// records:
//
//   - in the organisations' audit trails, the fixed actions of the
//     workspace, storage and content functions (the names
//     fairbalance.IsServerAuditAction accepts) and the data API's writes
//     on tables: each table's AuditActions, else "<table>.<op>" for every
//     kind of write (insert, upsert, update, delete; the service role may
//     make any of them). Tables with an Insert of their own (the two shapes
//     of the audit trail) record no entry about themselves;
//   - in the identity service's event log, fairbalance.AuthEventActions.
//
// The web app words each of these actions for people
// (web/src/entities/audit, from a copy `fairbalance gen audit-actions`
// writes), and its tests fail for an action it cannot word.
func AuditVocabulary(tables []*TableSpec) []string {
	out := fairbalance.ServerAuditActionNames()
	out = append(out, fairbalance.AuthEventActions...)
	for _, t := range tables {
		if t.Insert != nil {
			continue
		}
		for _, op := range fairbalance.DataAPIOps {
			a, ok := t.AuditActions[op]
			if !ok {
				a = fairbalance.DataAPIAuditAction(t.Name, op)
			}
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
