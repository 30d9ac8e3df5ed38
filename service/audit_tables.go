package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"fairbalance"
)

// audit_logs_v2 and audit_logs are two API shapes of the one audit trail
// (table audit_log, one hash chain per organisation). Both are readable by
// every member of the organisation; inserts append to the chain, with the
// actor and the organisation taken from the caller's token, never from the
// body. What a client appends is marked client-reported and may not use an
// action the server records (fairbalance.IsServerAuditAction). Entries
// never change and are never deleted.

func auditScope(c fairbalance.Caller) (*fairbalance.Cond, bool) {
	if !c.InOrg() {
		return nothing, !c.Anon()
	}
	return &fairbalance.Cond{Column: "org_id", Operator: "eq", Value: c.OrgID}, true
}

func auditCanInsert(c fairbalance.Caller) bool { return c.InOrg() }

// demoSwitch accepts only the audit entries of demo-mode role switches
// (actions beginning "demo_"), the one write a demo session may make.
func demoSwitch(body []byte) bool {
	rows, err := decodeRows(body)
	if err != nil || len(rows) == 0 {
		return false
	}
	for _, r := range rows {
		if a, _ := r["action"].(string); !strings.HasPrefix(a, "demo_") {
			return false
		}
	}
	return true
}

// auditCount is the length of the caller's chain: chains are numbered
// without gaps, so counting them never scans the trail.
func auditCount(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller) (int64, error) {
	if !c.InOrg() {
		return 0, nil
	}
	return tx.AuditLength(ctx, c.OrgID)
}

// appendRows appends one chain entry per row. text reads a string field of
// a row, json a JSON one (in API names).
func appendRows(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, plan *fairbalance.WritePlan, entry func(row map[string]any) *fairbalance.AuditEntry, render func(e *fairbalance.AuditEntry) map[string]any) (json.RawMessage, int64, error) {
	var out []map[string]any
	for _, row := range plan.Rows {
		e := entry(row)
		e.OrgID, e.ActorID = c.OrgID, c.UserID
		if c.Service() {
			// The service role writes on behalf of the instance.
			e.OrgID, e.ActorID = "", "service_role"
		}
		if !c.Service() {
			if u, err := tx.UserByID(ctx, c.UserID); err == nil {
				e.ActorEmail = u.Email
			}
		}
		if strings.TrimSpace(e.Action) == "" {
			return nil, 0, pgErr(fairbalance.KindInvalid, "23502", "null value in column \"action\" violates not-null constraint", "", "")
		}
		if fairbalance.IsServerAuditAction(e.Action) {
			return nil, 0, pgErr(fairbalance.KindForbidden, "42501",
				fmt.Sprintf("The action %q is recorded only by the server: a client cannot write it to the audit trail.", e.Action),
				"Entries appended through audit_logs and audit_logs_v2 are client-reported; the server's own action names are refused.",
				"Name the event with an action of your own.")
		}
		e.ClientReported = true
		if err := tx.AppendAudit(ctx, e); err != nil {
			return nil, 0, err
		}
		out = append(out, render(e))
	}
	if plan.Returning == nil {
		return nil, int64(len(out)), nil
	}
	keep := map[string]string{}
	for _, r := range plan.Returning {
		keep[r.Column] = r.Alias
	}
	var rows []map[string]any
	for _, m := range out {
		r := map[string]any{}
		for k, v := range m {
			if alias, ok := keep[k]; ok {
				r[alias] = v
			}
		}
		rows = append(rows, r)
	}
	b, err := json.Marshal(rows)
	return b, int64(len(rows)), err
}

func str(row map[string]any, k string) string {
	switch v := row[k].(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

func rawJSON(row map[string]any, k string) json.RawMessage {
	v, ok := row[k]
	if !ok || v == nil {
		return nil
	}
	if s, ok := v.(string); ok {
		return json.RawMessage(s) // value() already encoded JSON columns
	}
	b, _ := json.Marshal(v)
	return b
}

func jsonOrNil(m json.RawMessage) any {
	if len(m) == 0 {
		return nil
	}
	return m
}

// AuditLogsV2Table is audit_logs_v2: actor_id, action, object_type,
// object_id, org_id, meta, and (read-only) the entry's before_json and
// after_json values.
func AuditLogsV2Table() *TableSpec {
	return &TableSpec{
		Name: "audit_logs_v2", Source: "audit_log", Key: []string{"id"},
		Columns: []ColumnSpec{
			{Name: "id", Source: "seq", Type: fairbalance.TypeInteger, ServerSet: true},
			// The spec's client sends org_id and actor_id; they are accepted
			// and replaced by the caller's (see appendRows).
			{Name: "org_id", Type: fairbalance.TypeText, Nullable: true},
			{Name: "actor_id", Type: fairbalance.TypeText, Nullable: true},
			{Name: "actor_email", Type: fairbalance.TypeText, ServerSet: true},
			{Name: "action", Type: fairbalance.TypeText},
			{Name: "object_type", Type: fairbalance.TypeText, Nullable: true},
			{Name: "object_id", Type: fairbalance.TypeText, Nullable: true},
			{Name: "meta", Type: fairbalance.TypeJSON, Nullable: true},
			// The values before and after the change, as audit_logs shows
			// them: read-only here, so that a CSV export of this shape holds
			// what the entry's detail shows.
			{Name: "before_json", Source: "before_data", Type: fairbalance.TypeJSON, Nullable: true, ServerSet: true},
			{Name: "after_json", Source: "after_data", Type: fairbalance.TypeJSON, Nullable: true, ServerSet: true},
			{Name: "created_at", Type: fairbalance.TypeTimestamp, ServerSet: true},
			{Name: "hash", Type: fairbalance.TypeText, ServerSet: true},
			{Name: "client_reported", Type: fairbalance.TypeBoolean, ServerSet: true},
		},
		Rows:       auditScope,
		FastCount:  auditCount,
		DemoInsert: demoSwitch,
		CanInsert:  auditCanInsert,
		Insert: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, plan *fairbalance.WritePlan) (json.RawMessage, int64, error) {
			return appendRows(ctx, tx, c, plan, func(row map[string]any) *fairbalance.AuditEntry {
				return &fairbalance.AuditEntry{Action: str(row, "action"), ObjectType: str(row, "object_type"), ObjectID: str(row, "object_id"), Meta: rawJSON(row, "meta")}
			}, func(e *fairbalance.AuditEntry) map[string]any {
				return map[string]any{"seq": e.ID, "org_id": e.OrgID, "actor_id": e.ActorID, "actor_email": e.ActorEmail, "action": e.Action,
					"object_type": e.ObjectType, "object_id": e.ObjectID, "meta": jsonOrNil(e.Meta), "before_data": jsonOrNil(e.Before), "after_data": jsonOrNil(e.After),
					"created_at": e.CreatedAt, "hash": e.Hash, "client_reported": e.ClientReported}
			})
		},
	}
}

// AuditLogsTable is the older audit_logs shape: action, actor_user_id,
// entity_type, entity_id, before_json, after_json.
func AuditLogsTable() *TableSpec {
	return &TableSpec{
		Name: "audit_logs", Source: "audit_log", Key: []string{"id"},
		Columns: []ColumnSpec{
			{Name: "id", Source: "seq", Type: fairbalance.TypeInteger, ServerSet: true},
			{Name: "org_id", Type: fairbalance.TypeText, Nullable: true},
			{Name: "action", Type: fairbalance.TypeText},
			{Name: "actor_user_id", Source: "actor_id", Type: fairbalance.TypeText, Nullable: true},
			{Name: "entity_type", Source: "object_type", Type: fairbalance.TypeText, Nullable: true},
			{Name: "entity_id", Source: "object_id", Type: fairbalance.TypeText, Nullable: true},
			{Name: "before_json", Source: "before_data", Type: fairbalance.TypeJSON, Nullable: true},
			{Name: "after_json", Source: "after_data", Type: fairbalance.TypeJSON, Nullable: true},
			{Name: "created_at", Type: fairbalance.TypeTimestamp, ServerSet: true},
			{Name: "client_reported", Type: fairbalance.TypeBoolean, ServerSet: true},
		},
		Rows:       auditScope,
		FastCount:  auditCount,
		DemoInsert: demoSwitch,
		CanInsert:  auditCanInsert,
		Insert: func(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, plan *fairbalance.WritePlan) (json.RawMessage, int64, error) {
			return appendRows(ctx, tx, c, plan, func(row map[string]any) *fairbalance.AuditEntry {
				return &fairbalance.AuditEntry{Action: str(row, "action"), ObjectType: str(row, "entity_type"), ObjectID: str(row, "entity_id"), Before: rawJSON(row, "before_json"), After: rawJSON(row, "after_json")}
			}, func(e *fairbalance.AuditEntry) map[string]any {
				return map[string]any{"seq": e.ID, "org_id": e.OrgID, "action": e.Action, "actor_id": e.ActorID, "object_type": e.ObjectType, "object_id": e.ObjectID,
					"before_data": jsonOrNil(e.Before), "after_data": jsonOrNil(e.After), "created_at": e.CreatedAt, "client_reported": e.ClientReported}
			})
		},
	}
}
