package service_test

import (
	"fmt"
	"testing"

	"fairbalance"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// The status of claims and modules is a decision (product.md section 2,
// issue 14): every role × (insert a draft, insert approved, approve a
// draft, edit a draft's text, edit an approved one's text, change an
// approved one's expiry) on both tables. Marketers author drafts; only
// reviewers and administrators set another status; reviewers change
// nothing but the status and expiry date.
func TestContentStatusIsDecided(t *testing.T) {
	type want struct{ insertDraft, insertApproved, approve, editDraft, editApproved, expiry bool }
	wants := map[string]want{
		fairbalance.RoleOwner:              {true, true, true, true, true, true},
		fairbalance.RoleAdmin:              {true, true, true, true, true, true},
		fairbalance.RoleMarketer:           {true, false, false, true, false, false},
		fairbalance.RoleReviewerMedical:    {false, false, true, false, false, true},
		fairbalance.RoleReviewerLegal:      {false, false, true, false, false, true},
		fairbalance.RoleReviewerRegulatory: {false, false, true, false, false, true},
		fairbalance.RoleViewer:             {false, false, false, false, false, false},
	}
	tables := []struct {
		table, text string
		row         map[string]any
	}{
		{"claims", "text", map[string]any{"text": "Lowers LDL-C by 38.5% at week 12."}},
		{"modules", "title", map[string]any{"kind": "isi", "title": "Cardiomax ISI", "body": "Serious infections."}},
	}
	with := func(row map[string]any, k string, v any) map[string]any {
		out := map[string]any{k: v}
		for key, val := range row {
			if key != k {
				out[key] = val
			}
		}
		return out
	}
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			admin := m.members["own"][fairbalance.RoleAdmin]
			for _, tb := range tables {
				what := tb.table[:len(tb.table)-1]
				for _, role := range fairbalance.Roles {
					c, w := m.members["own"][role], wants[role]
					check := func(op string, allowed bool, err error) {
						t.Helper()
						if allowed && err != nil {
							t.Errorf("%s %s %s: %v", role, op, tb.table, err)
						}
						if !allowed && !denied(err) {
							t.Errorf("%s %s %s: want 42501, got %v", role, op, tb.table, err)
						}
					}
					_, err := insert(t, m, c, tb.table, tb.row)
					check("inserts a draft into", w.insertDraft, err)

					_, err = insert(t, m, c, tb.table, with(tb.row, "status", "approved"))
					check("inserts an approved row into", w.insertApproved, err)
					if role == fairbalance.RoleMarketer {
						pe := fairbalance.AsError(err)
						if msg := fmt.Sprintf(service.MsgStatusDecided, what, "approved"); pe == nil || pe.Kind != fairbalance.KindForbidden || pe.Message != msg || pe.Fields["status"] != msg {
							t.Errorf("marketer's refusal on %s: %+v", tb.table, pe)
						}
					}

					draft := mustInsert(t, m, admin, tb.table, tb.row)["id"].(string)
					_, err = patchRows(t, m, c, tb.table, "id=eq."+draft, map[string]any{"status": "approved"})
					check("approves a draft of", w.approve, err)
					if got := readRows(t, m, admin, tb.table, "select=status&id=eq."+draft)[0]["status"]; (got == "approved") != w.approve {
						t.Errorf("%s approving a draft of %s left it %v", role, tb.table, got)
					}
					if w.approve {
						ents, err := m.db.View().ListAudit(m.ctx, fairbalance.AuditFilter{OrgID: m.orgs["own"], Limit: 1})
						if err != nil || len(ents) != 1 || ents[0].Action != what+"_updated" || ents[0].ActorID != c.UserID || ents[0].ObjectID != draft {
							t.Errorf("%s's approval of %s audited as %+v %v", role, tb.table, ents, err)
						}
					}

					draft = mustInsert(t, m, admin, tb.table, tb.row)["id"].(string)
					_, err = patchRows(t, m, c, tb.table, "id=eq."+draft, map[string]any{tb.text: "Edited by " + role})
					check("edits the text of a draft of", w.editDraft, err)
					if role == fairbalance.RoleReviewerLegal {
						pe := fairbalance.AsError(err)
						if msg := fmt.Sprintf(service.MsgReviewerEdits, what); pe == nil || pe.Message != msg || pe.Fields[tb.text] != msg {
							t.Errorf("reviewer's refusal on %s: %+v", tb.table, pe)
						}
					}

					approved := mustInsert(t, m, admin, tb.table, with(tb.row, "status", "approved"))["id"].(string)
					_, err = patchRows(t, m, c, tb.table, "id=eq."+approved, map[string]any{tb.text: "Rewritten by " + role})
					check("edits the text of an approved row of", w.editApproved, err)
					if got := readRows(t, m, admin, tb.table, "select="+tb.text+"&id=eq."+approved)[0][tb.text]; (got == "Rewritten by "+role) != w.editApproved {
						t.Errorf("%s editing an approved row of %s left %v", role, tb.table, got)
					}
					_, err = patchRows(t, m, c, tb.table, "id=eq."+approved, map[string]any{"expires_at": "2027-06-30"})
					check("changes the expiry of an approved row of", w.expiry, err)

					// A reviewer of another organisation touches nothing here.
					if role == fairbalance.RoleReviewerMedical {
						rows, err := patchRows(t, m, m.members["other"][role], tb.table, "id=eq."+draft, map[string]any{"status": "approved"})
						if err != nil || len(rows) != 0 {
							t.Errorf("a reviewer of another organisation approved %s: %v %v", tb.table, rows, err)
						}
					}
				}
			}
			// Marketers still abandon nothing on their own: withdrawing or
			// retiring is a decision too.
			marketer := m.members["own"][fairbalance.RoleMarketer]
			claim := mustInsert(t, m, marketer, "claims", map[string]any{"text": "Works fast."})["id"].(string)
			if _, err := patchRows(t, m, marketer, "claims", "id=eq."+claim, map[string]any{"status": "withdrawn"}); !denied(err) {
				t.Errorf("marketer withdraws a claim: %v", err)
			}
			module := mustInsert(t, m, marketer, "modules", map[string]any{"kind": "copy", "title": "Ask your doctor"})["id"].(string)
			if _, err := patchRows(t, m, marketer, "modules", "id=eq."+module, map[string]any{"status": "retired"}); !denied(err) {
				t.Errorf("marketer retires a module: %v", err)
			}
			if _, err := patchRows(t, m, marketer, "modules", "id=eq."+module, map[string]any{"status": "draft", "title": "Ask your pharmacist"}); err != nil {
				t.Errorf("marketer keeps a draft a draft while editing it: %v", err)
			}
		})
	}
}
