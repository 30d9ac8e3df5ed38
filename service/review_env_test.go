package service_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"fairbalance"
	"fairbalance/auth"
	"fairbalance/blobstore/blobtest"
	"fairbalance/service"
)

// The review workflow's test bench: the permission matrix's organisations
// and members, with the identity service checking signers' passwords and
// the instance's key sealing signatures, a controlled clock, a product
// with its ISI, and helpers to drive rounds through the functions.

const reviewPassword = "Sign-Here-2026"

var (
	reviewHashOnce sync.Once
	reviewHash     string
)

// passwordHash is one argon2id hash of reviewPassword, made once: every
// test member signs with it.
func passwordHash(t testing.TB) string {
	reviewHashOnce.Do(func() {
		h, err := auth.NewHasher(1).Hash(t.Context(), reviewPassword)
		if err != nil {
			t.Fatal(err)
		}
		reviewHash = h
	})
	return reviewHash
}

type reviewEnv struct {
	*matrixEnv
	storage *service.Storage
	blobs   blobtest.Harness
	keys    *auth.Keys
	id      *service.Identity
	clock   time.Time
	own     map[string]fairbalance.Caller
	// medical2 is a second medical reviewer of the own organisation.
	medical2 fairbalance.Caller
	product  map[string]any
	isi      map[string]any
}

// reviewNow is the bench's start: a Monday, 09:00 UTC.
var reviewNow = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func newReviewEnv(t *testing.T, backend string) *reviewEnv {
	t.Helper()
	m := newMatrix(t, backend)
	h := blobtest.Open(t, "disk")
	s := service.NewStorage(m.db, h.Store, []byte("secret"), http.DetectContentType)
	m.data = service.NewRegistry(m.db, s)
	e := reviewEnvOn(t, m)
	e.storage, e.blobs = s, h
	return e
}

// reviewEnvOn equips a matrix for reviews: signers' passwords and
// authenticators checked by the identity service, the instance's key,
// the clock, a second medical reviewer, and in each organisation a
// product with its ISI text and ISI module.
func reviewEnvOn(t *testing.T, m *matrixEnv) *reviewEnv {
	t.Helper()
	keys, _, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &reviewEnv{matrixEnv: m, keys: keys, clock: reviewNow, own: m.members["own"]}
	e.id = service.NewIdentity(m.db, keys, auth.NewHasher(2), service.IdentityConfig{}, nil)
	e.id.Now = func() time.Time { return e.clock }
	m.data.Config.Signer, m.data.Config.SignatureKey = e.id, keys.AuditKey
	m.data.Reviews.Now = func() time.Time { return e.clock }
	hash := passwordHash(t)
	err = m.db.Tx(m.ctx, func(tx fairbalance.Tx) error {
		uid := "00000000-0000-4000-8000-0000000000ff"
		now := time.Now().UTC()
		if err := tx.CreateUser(m.ctx, &fairbalance.User{ID: uid, Email: "own-medical2@example.com", CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		if err := tx.CreateProfile(m.ctx, &fairbalance.Profile{ID: uid, OrgID: m.orgs["own"], Role: fairbalance.RoleReviewerMedical, FullName: "Dr. Second Medical", CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		e.medical2 = fairbalance.Caller{Role: "authenticated", UserID: uid, OrgID: m.orgs["own"], Member: fairbalance.RoleReviewerMedical}
		for _, org := range []string{"own", "other"} {
			for _, c := range m.members[org] {
				if err := setPassword(m, tx, c.UserID, hash); err != nil {
					return err
				}
			}
		}
		return setPassword(m, tx, uid, hash)
	})
	if err != nil {
		t.Fatal(err)
	}
	e.product, e.isi = e.productOf(t, e.own)
	return e
}

// productOf adds a product with its ISI text and ISI module to the
// organisation of members.
func (e *reviewEnv) productOf(t *testing.T, members map[string]fairbalance.Caller) (product, isi map[string]any) {
	t.Helper()
	product = mustInsert(t, e.matrixEnv, members[fairbalance.RoleAdmin], "products", map[string]any{"brand_name": "Zelvora",
		"isi_text": "IMPORTANT SAFETY INFORMATION: Zelvora can cause liver problems."})
	isi = mustInsert(t, e.matrixEnv, members[fairbalance.RoleMarketer], "modules", map[string]any{"kind": "isi", "title": "Zelvora ISI",
		"body": "Zelvora ISI module body.", "product_id": product["id"]})
	return product, isi
}

func setPassword(m *matrixEnv, tx fairbalance.Tx, userID, hash string) error {
	u, err := tx.UserByID(m.ctx, userID)
	if err != nil {
		return err
	}
	u.PasswordHash = hash
	return tx.UpdateUser(m.ctx, u)
}

// readyHTML is a composed version that passes the gate: it carries the
// product's ISI text (in other case and spacing).
const readyHTML = "<p>Zelvora lowers LDL-C by half.</p><p>Important   safety information:\nZelvora can cause LIVER problems.</p>"

// asset creates an asset of the product, ready for review, as the marketer.
func (e *reviewEnv) asset(t *testing.T, title string) map[string]any {
	t.Helper()
	a, err := callErr(e.matrixEnv, e.own[fairbalance.RoleMarketer], "create_asset", map[string]any{"title": title, "type": "email", "audience": "hcp",
		"channel": "Email", "market": "US", "product_id": e.product["id"], "content_html": readyHTML})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// call calls fn as c with args as they arrive from a client (JSON).
func (e *reviewEnv) call(c fairbalance.Caller, fn string, args map[string]any) (map[string]any, error) {
	var wire map[string]any
	if args != nil {
		if err := json.Unmarshal([]byte(jsonString(args)), &wire); err != nil {
			return nil, err
		}
	}
	return callErr(e.matrixEnv, c, fn, wire)
}

func (e *reviewEnv) must(t *testing.T, c fairbalance.Caller, fn string, args map[string]any) map[string]any {
	t.Helper()
	out, err := e.call(c, fn, args)
	if err != nil {
		t.Fatalf("%s as %s: %v", fn, c.Member, err)
	}
	return out
}

// submit submits an asset as the marketer and returns the round and its
// steps by role.
func (e *reviewEnv) submit(t *testing.T, assetID string, extra ...any) (map[string]any, map[string]map[string]any) {
	t.Helper()
	args := map[string]any{"asset_id": assetID}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i].(string)] = extra[i+1]
	}
	r := e.must(t, e.own[fairbalance.RoleMarketer], "submit_for_review", args)
	return r, byRole(r["steps"])
}

func byRole(v any) map[string]map[string]any {
	out := map[string]map[string]any{}
	list, _ := v.([]any)
	for _, x := range list {
		s := x.(map[string]any)
		out[s["role"].(string)] = s
	}
	return out
}

// steps reads a round's steps by role, as a member reads them.
func (e *reviewEnv) steps(t *testing.T, reviewID string) map[string]map[string]any {
	t.Helper()
	rows := readRows(t, e.matrixEnv, e.own[fairbalance.RoleViewer], "review_steps", "select=*&order=position&review_id=eq."+reviewID)
	list := make([]any, len(rows))
	for i, r := range rows {
		list[i] = r
	}
	return byRole(list)
}

// decide decides a step as c with the right password.
func (e *reviewEnv) decide(c fairbalance.Caller, stepID, decision string, extra ...any) (map[string]any, error) {
	args := map[string]any{"step_id": stepID, "decision": decision, "comment": "Reviewed: " + decision, "password": reviewPassword}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i].(string)] = extra[i+1]
	}
	return e.call(c, "decide_step", args)
}

func (e *reviewEnv) mustDecide(t *testing.T, c fairbalance.Caller, stepID, decision string, extra ...any) map[string]any {
	t.Helper()
	out, err := e.decide(c, stepID, decision, extra...)
	if err != nil {
		t.Fatalf("decide %s as %s: %v", decision, c.Member, err)
	}
	return out
}

func (e *reviewEnv) row(t *testing.T, table, id string) map[string]any {
	t.Helper()
	rows := readRows(t, e.matrixEnv, e.own[fairbalance.RoleViewer], table, "select=*&id=eq."+id)
	if len(rows) != 1 {
		t.Fatalf("%s %s: %v", table, id, rows)
	}
	return rows[0]
}

// errKind is the kind and code of a refusal, "ok" for none.
func errKind(err error) string {
	if err == nil {
		return "ok"
	}
	var pe *fairbalance.Error
	if errors.As(err, &pe) {
		return string(pe.Kind) + "/" + pe.Code
	}
	return "internal: " + err.Error()
}

// The refusals the workflow answers with.
const (
	refusedConflict  = "conflict/PT409"
	refusedForbidden = "forbidden/42501"
	refusedNotReady  = "unprocessable/PT422"
	refusedNotFound  = "not_found/P0002"
	refusedPassword  = "forbidden/28P01"
	refusedLocked    = "rate_limited/PT429"
)

// auditCount counts the entries of the own organisation with action.
func (e *reviewEnv) auditCount(t *testing.T, action string) int {
	t.Helper()
	ents, err := e.db.View().ListAudit(e.ctx, fairbalance.AuditFilter{OrgID: e.orgs["own"], Action: action, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

func (e *reviewEnv) auditLength(t *testing.T) int64 {
	t.Helper()
	n, err := e.db.View().AuditLength(e.ctx, e.orgs["own"])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// notifications reads c's notifications of kind.
func (e *reviewEnv) notifications(t *testing.T, c fairbalance.Caller, kind string) []map[string]any {
	t.Helper()
	return readRows(t, e.matrixEnv, c, "notifications", "select=*&order=created_at&kind=eq."+kind)
}

// patch changes rows as the service role (to put a round in a state the
// functions would not, for the transition tables).
func (e *reviewEnv) patch(t *testing.T, table, id string, values map[string]any) {
	t.Helper()
	if _, err := patchRows(t, e.matrixEnv, fairbalance.Caller{Role: "service_role"}, table, "id=eq."+id, values); err != nil {
		t.Fatalf("patch %s: %v", table, err)
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func fieldsOf(err error) map[string]string {
	var pe *fairbalance.Error
	if errors.As(err, &pe) {
		return pe.Fields
	}
	return nil
}

func mustNumber(t *testing.T, v any) int {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("not a number: %v", v)
	}
	return int(f)
}

func sprint(v ...any) string { return strings.TrimSpace(fmt.Sprintln(v...)) }
