package service_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"fairbalance"
	"fairbalance/dataapi"
	"fairbalance/service"
	"fairbalance/sqlstore/storetest"
)

// outcome is what a write of the governance matrix comes to.
type outcome int

const (
	allowed outcome = iota // done
	refused                // 42501, nothing written
	illegal                // P0001: a status move the transitions forbid, nothing written
)

func (o outcome) String() string {
	return [...]string{"allowed", "refused (42501)", "illegal move (P0001)"}[o]
}

// byRole is an outcome per role: owner, admin, marketer, each reviewer, viewer.
func statusByRole(owner, admin, marketer, reviewer, viewer outcome) map[string]outcome {
	return map[string]outcome{
		fairbalance.RoleOwner: owner, fairbalance.RoleAdmin: admin, fairbalance.RoleMarketer: marketer,
		fairbalance.RoleReviewerMedical: reviewer, fairbalance.RoleReviewerLegal: reviewer, fairbalance.RoleReviewerRegulatory: reviewer,
		fairbalance.RoleViewer: viewer,
	}
}

func upsertRow(t *testing.T, d *dataapi.Engine, m *matrixEnv, c fairbalance.Caller, table, resolution string, row map[string]any) error {
	t.Helper()
	body, _ := json.Marshal(row)
	_, err := d.Insert(m.ctx, c, table, reqPrefer(t, "select=*", "resolution="+resolution+",return=representation"), body)
	return err
}

// clientIDs is t with an id the client may choose, as PostgREST allows:
// the product's API sets ids itself, so no upsert of a client meets an
// existing claim or module there; this engine lets the matrix show that
// the rule would hold if one did.
func clientIDs(t *service.TableSpec) *service.TableSpec {
	c := *t
	c.Columns = append([]service.ColumnSpec(nil), t.Columns...)
	for i := range c.Columns {
		if c.Columns[i].Name == "id" {
			c.Columns[i].ServerSet = false
		}
	}
	return &c
}

// The status rule of claims and modules holds on every write path
// (issue 14): authors delete only drafts (decided ones stay on record,
// administrators delete any), and an upsert that meets an existing row
// (Prefer: resolution=merge-duplicates) follows the rule of a PATCH —
// authors change drafts only, nobody makes a move the transitions forbid,
// reviewers (who insert nothing) cannot upsert at all. Every role × every
// status × every write, on both tables; a refused write leaves the row as
// it was.
func TestContentStatusOnEveryWrite(t *testing.T) {
	type table struct {
		name, text string
		row        map[string]any
		statuses   []string // draft first
	}
	tables := []table{
		{"claims", "text", map[string]any{"text": "Lowers LDL-C by 38.5% at week 12."}, []string{"draft", "approved", "expired", "withdrawn"}},
		{"modules", "title", map[string]any{"kind": "isi", "title": "Cardiomax ISI", "body": "Serious infections."}, []string{"draft", "approved", "retired"}},
	}
	with := func(row map[string]any, kv ...any) map[string]any {
		out := map[string]any{}
		for k, v := range row {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	type op struct {
		name string
		// act writes, as c, to the row id (in status from) of tb.
		act func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, from string) error
		// done reports, from the row as it is after (nil: gone), whether the write took effect.
		done func(tb table, row map[string]any, role string) bool
		// want is the outcome for a row in status from.
		want func(from string) map[string]outcome
		// unchanged: the write, even allowed, leaves the row as it was.
		unchanged bool
	}
	decided := func(from string, draft, other map[string]outcome) map[string]outcome {
		if from == "draft" {
			return draft
		}
		return other
	}
	textIs := func(tb table, row map[string]any, role string) bool {
		return row != nil && row[tb.text] == "Rewritten by "+role
	}
	var merge *dataapi.Engine
	merging := func(m *matrixEnv) *dataapi.Engine {
		if merge == nil {
			merge = dataapi.New(m.db, clientIDs(service.ClaimsTable()), clientIDs(service.ModulesTable()))
		}
		return merge
	}
	ops := []op{
		{
			name: "upsert (merge) by id through the API",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				return upsertRow(t, m.data.Engine, m, c, tb.name, "merge-duplicates", with(tb.row, "id", id, tb.text, "Rewritten by "+c.Member))
			},
			done: textIs,
			// The id is the server's: nobody names an existing row.
			want: func(string) map[string]outcome { return statusByRole(refused, refused, refused, refused, refused) },
		},
		{
			name: "DELETE",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				_, err := deleteRows(t, m, c, tb.name, "id=eq."+id)
				return err
			},
			done: func(_ table, row map[string]any, _ string) bool { return row == nil },
			want: func(from string) map[string]outcome {
				return decided(from, statusByRole(allowed, allowed, allowed, refused, refused), statusByRole(allowed, allowed, refused, refused, refused))
			},
		},
		{
			name: "PATCH of the text",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				_, err := patchRows(t, m, c, tb.name, "id=eq."+id, map[string]any{tb.text: "Rewritten by " + c.Member})
				return err
			},
			done: textIs,
			want: func(from string) map[string]outcome {
				return decided(from, statusByRole(allowed, allowed, allowed, refused, refused), statusByRole(allowed, allowed, refused, refused, refused))
			},
		},
		{
			name: "upsert (merge) of the text",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				return upsertRow(t, merging(m), m, c, tb.name, "merge-duplicates", with(tb.row, "id", id, tb.text, "Rewritten by "+c.Member))
			},
			done: textIs,
			want: func(from string) map[string]outcome {
				return decided(from, statusByRole(allowed, allowed, allowed, refused, refused), statusByRole(allowed, allowed, refused, refused, refused))
			},
		},
		{
			name: "upsert (merge) back to draft",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				return upsertRow(t, merging(m), m, c, tb.name, "merge-duplicates", with(tb.row, "id", id, "status", "draft", tb.text, "Rewritten by "+c.Member))
			},
			done: textIs,
			want: func(from string) map[string]outcome {
				return decided(from, statusByRole(allowed, allowed, allowed, refused, refused), statusByRole(illegal, illegal, refused, refused, refused))
			},
		},
		{
			name: "PATCH back to draft",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				_, err := patchRows(t, m, c, tb.name, "id=eq."+id, map[string]any{"status": "draft"})
				return err
			},
			done: func(_ table, row map[string]any, _ string) bool { return row != nil && row["status"] == "draft" },
			want: func(from string) map[string]outcome {
				return decided(from, statusByRole(allowed, allowed, allowed, allowed, refused), statusByRole(illegal, illegal, refused, illegal, refused))
			},
		},
		{
			name: "upsert (merge) to approved",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				return upsertRow(t, merging(m), m, c, tb.name, "merge-duplicates", with(tb.row, "id", id, "status", "approved"))
			},
			done: func(_ table, row map[string]any, _ string) bool { return row != nil && row["status"] == "approved" },
			want: func(from string) map[string]outcome {
				switch from {
				case "draft", "expired":
					return statusByRole(allowed, allowed, refused, refused, refused)
				case "approved":
					return statusByRole(allowed, allowed, refused, refused, refused)
				}
				return statusByRole(illegal, illegal, refused, refused, refused) // withdrawn, retired: final
			},
		},
		{
			name: "upsert ignoring duplicates",
			act: func(t *testing.T, m *matrixEnv, c fairbalance.Caller, tb table, id, _ string) error {
				return upsertRow(t, merging(m), m, c, tb.name, "ignore-duplicates", with(tb.row, "id", id, tb.text, "Rewritten by "+c.Member))
			},
			// The row exists, so nothing is written.
			done:      func(table, map[string]any, string) bool { return false },
			want:      func(string) map[string]outcome { return statusByRole(allowed, allowed, allowed, refused, refused) },
			unchanged: true,
		},
	}
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			merge = nil
			admin := m.members["own"][fairbalance.RoleAdmin]
			for _, tb := range tables {
				what := tb.name[:len(tb.name)-1]
				for _, o := range ops {
					for _, from := range tb.statuses {
						want := o.want(from)
						for _, role := range fairbalance.Roles {
							c := m.members["own"][role]
							id := mustInsert(t, m, admin, tb.name, with(tb.row, "status", from))["id"].(string)
							read := func() map[string]any {
								rows := readRows(t, m, admin, tb.name, "select=*&id=eq."+id)
								if len(rows) == 0 {
									return nil
								}
								return rows[0]
							}
							before := read()
							err := o.act(t, m, c, tb, id, from)
							after := read()
							var got outcome
							switch code := pgCode(err); code {
							case "":
								got = allowed
							case "42501":
								got = refused
							case "P0001":
								got = illegal
							default:
								t.Errorf("%s %s a %s %s: unexpected %v", role, o.name, from, what, err)
								continue
							}
							if got != want[role] {
								t.Errorf("%s %s a %s %s: %v, want %v (%v)", role, o.name, from, what, got, want[role], err)
								continue
							}
							switch {
							case got == allowed && !o.unchanged && !o.done(tb, after, role):
								t.Errorf("%s %s a %s %s: allowed, but the row is %v", role, o.name, from, what, after)
							case (got != allowed || o.unchanged) && fmt.Sprint(after) != fmt.Sprint(before):
								t.Errorf("%s %s a %s %s: %v, yet the row changed from %v to %v", role, o.name, from, what, got, before, after)
							}
							// The author hears why.
							if role == fairbalance.RoleMarketer && got == refused && from != "draft" && o.name != "upsert (merge) by id through the API" {
								msg := fmt.Sprintf(service.MsgDecidedContent, what, from)
								if o.name == "DELETE" {
									msg = fmt.Sprintf(service.MsgDecidedDelete, what, from)
								}
								if o.name == "upsert (merge) to approved" {
									msg = fmt.Sprintf(service.MsgStatusDecided, what, "approved")
								}
								if pe := fairbalance.AsError(err); pe == nil || pe.Message != msg {
									t.Errorf("marketer %s a %s %s: %v, want %q", o.name, from, what, err, msg)
								}
							}
						}
					}
				}
			}
		})
	}
}

// A claim's supporting passages follow the claim's status rule (issue
// 14): what supports a claim is part of what was decided, so authors link
// and unlink passages of draft claims only; owners and admins, who change
// decided claims, do it in any status; reviewers and viewers never. Every
// role × every claim status, linking (insert, and an upsert ignoring
// duplicates) and unlinking; a refused write leaves the links as they were.
func TestClaimPassagesFollowTheClaimStatus(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			m := newContentEnv(t, backend)
			admin := m.members["own"][fairbalance.RoleAdmin]
			ref := mustInsert(t, m, admin, "references", map[string]any{"title": "Study 301", "citation": "J Cardiol 2025"})
			passage := func(claim string) map[string]any {
				return map[string]any{"claim_id": claim, "reference_id": ref["id"], "page": 1, "passage": "LDL-C fell by 38.5% at week 12."}
			}
			links := func(claim string) int {
				return len(readRows(t, m, admin, "claim_references", "select=id&claim_id=eq."+claim))
			}
			ops := []struct {
				name string
				act  func(c fairbalance.Caller, claim, link string) error
				// links is the number of links an allowed write leaves (one
				// link is there before).
				links int
			}{
				{"link", func(c fairbalance.Caller, claim, _ string) error {
					_, err := insert(t, m, c, "claim_references", passage(claim))
					return err
				}, 2},
				{"link (upsert ignoring duplicates)", func(c fairbalance.Caller, claim, _ string) error {
					return upsertRow(t, m.data.Engine, m, c, "claim_references", "ignore-duplicates", passage(claim))
				}, 2},
				{"unlink", func(c fairbalance.Caller, _, link string) error {
					_, err := deleteRows(t, m, c, "claim_references", "id=eq."+link)
					return err
				}, 0},
				{"unlink every passage of the claim", func(c fairbalance.Caller, claim, _ string) error {
					_, err := deleteRows(t, m, c, "claim_references", "claim_id=eq."+claim)
					return err
				}, 0},
			}
			for _, o := range ops {
				for _, status := range []string{"draft", "approved", "expired", "withdrawn"} {
					for _, role := range fairbalance.Roles {
						c := m.members["own"][role]
						claim := mustInsert(t, m, admin, "claims", map[string]any{"text": "Lowers LDL-C by 38.5% at week 12.", "status": status})["id"].(string)
						link := mustInsert(t, m, admin, "claim_references", passage(claim))["id"].(string)
						want := allowed
						switch {
						case role == fairbalance.RoleOwner || role == fairbalance.RoleAdmin:
						case role == fairbalance.RoleMarketer && status == "draft":
						default:
							want = refused
						}
						err := o.act(c, claim, link)
						got := allowed
						if err != nil {
							got = refused
							if pgCode(err) != "42501" {
								t.Errorf("%s %s of a %s claim: %v", role, o.name, status, err)
								continue
							}
						}
						if got != want {
							t.Errorf("%s %s of a %s claim: %v, want %v (%v)", role, o.name, status, got, want, err)
							continue
						}
						n, wantLinks := links(claim), 1
						if got == allowed {
							wantLinks = o.links
						}
						if n != wantLinks {
							t.Errorf("%s %s of a %s claim: %v, and %d links, want %d", role, o.name, status, got, n, wantLinks)
						}
						// The author hears why.
						if role == fairbalance.RoleMarketer && got == refused {
							if msg := fmt.Sprintf(service.MsgDecidedPassages, status); fairbalance.AsError(err).Message != msg {
								t.Errorf("marketer %s of a %s claim: %q, want %q", o.name, status, fairbalance.AsError(err).Message, msg)
							}
						}
					}
				}
			}
		})
	}
}
